"""Parse in a second process while this one writes.

A big file (AllPrintings) costs about as much to parse as to write, and the machine has two cores:
:class:`ParallelReader` runs the source reader in a child process (``spawn``, so no database
connection is ever shared with it) and hands its set batches over a bounded queue, so at most a few
sets are in memory at once. Errors raised in the child are re-raised here unchanged.
"""

from __future__ import annotations

import datetime as dt
import multiprocessing as mp
import os
import queue
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from carddb.errors import SourceError
from carddb.ingest.mtgjson import MTGJSONReader
from carddb.ingest.records import SetBatch

_BATCH, _PROGRESS, _DONE, _ERROR = "batch", "progress", "done", "error"
_QUEUE_SIZE = 4
_POLL_SECONDS = 1.0


def _produce(path: Path, out: Any, parent_pid: int) -> None:
    """Child process: read ``path`` and send everything found to ``out``."""

    def put(item: tuple[str, Any]) -> None:
        while True:
            try:
                out.put(item, timeout=_POLL_SECONDS)
                return
            except queue.Full:
                if os.getppid() != parent_pid:  # the importer is gone: stop quietly
                    os._exit(1)

    try:
        reader = MTGJSONReader(path, on_progress=lambda n: put((_PROGRESS, n)))
        for batch in reader:
            put((_BATCH, batch))
        put((_DONE, (reader.warnings, reader.data_date)))
    except BaseException as exc:  # every failure goes back to the importer
        put((_ERROR, exc))


class ParallelReader:
    """Iterates the set batches of an MTGJSON file parsed in a child process."""

    def __init__(self, path: Path, on_progress: Callable[[int], None] | None = None) -> None:
        self.path = path
        self.on_progress = on_progress
        self.warnings: list[str] = []
        self.data_date: dt.date | None = None

    def __iter__(self) -> Iterator[SetBatch]:
        context = mp.get_context("spawn")
        channel = context.Queue(maxsize=_QUEUE_SIZE)
        child = context.Process(target=_produce, args=(self.path, channel, os.getpid()), daemon=True)
        child.start()
        try:
            while True:
                try:
                    kind, payload = channel.get(timeout=_POLL_SECONDS)
                except queue.Empty:
                    if not child.is_alive():
                        raise SourceError(
                            self.path, f"the parser process ended unexpectedly (exit code {child.exitcode})"
                        ) from None
                    continue
                if kind == _BATCH:
                    yield payload
                elif kind == _PROGRESS:
                    if self.on_progress is not None:
                        self.on_progress(payload)
                elif kind == _DONE:
                    self.warnings, self.data_date = payload
                    return
                else:
                    raise payload
        finally:
            if child.is_alive():
                child.terminate()
            child.join()
            channel.close()
            channel.join_thread()
