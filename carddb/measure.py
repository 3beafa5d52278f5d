"""Measuring the process itself, for reports and benchmarks."""

from __future__ import annotations

import sys


def peak_memory_mb() -> float:
    """This process's peak resident set size in MB.

    On Linux ``VmHWM`` from ``/proc/self/status`` (``ru_maxrss`` survives ``exec``, so a child
    would start at its parent's peak); elsewhere ``resource.getrusage(RUSAGE_SELF).ru_maxrss``.
    """
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    try:
        import resource
    except ImportError:  # Windows
        return 0.0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def children_peak_memory_mb() -> float:
    """The peak resident set size, in MB, of the largest of this process's children that have
    ended (0 when none has, or where the platform does not say)."""
    try:
        import resource
    except ImportError:  # Windows
        return 0.0
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024
