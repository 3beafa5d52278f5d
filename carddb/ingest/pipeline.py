"""Parse JSON in a second process while this one makes records and writes them.

A big file (AllPrintings) costs about as much to parse as to write, and machines have two cores:
:class:`ParallelReader` runs the JSON stream in a child process (``spawn``, so no database
connection is ever shared with it), which sends each set, cut down to the keys records are made
of, over a bounded queue, so at most a few sets are in memory at once. Plain dicts and lists
pickle several times faster than records would. Errors raised in the child are re-raised here
unchanged.
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

_BATCH, _DONE, _ERROR = "batch", "done", "error"
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

    # Progress rides along with each batch: a message per chunk read would fill the bounded queue
    # and make the parser wait for the writer.
    read = [0]

    def taken() -> int:
        amount, read[0] = read[0], 0
        return amount

    def on_progress(amount: int) -> None:
        read[0] += amount

    try:
        for where, raw in MTGJSONReader(path, on_progress=on_progress).raw_sets():
            put((_BATCH, (where, raw, taken())))
        put((_DONE, taken()))
    except BaseException as exc:  # every failure goes back to the importer
        put((_ERROR, exc))


class ParallelReader:
    """Iterates the set batches of an MTGJSON file parsed in a child process."""

    def __init__(self, path: Path, on_progress: Callable[[int], None] | None = None) -> None:
        self.path = path
        self.on_progress = on_progress
        self._reader = MTGJSONReader(path)

    @property
    def warnings(self) -> list[str]:
        return self._reader.warnings

    @property
    def data_date(self) -> dt.date | None:
        return self._reader.data_date

    def _advance(self, amount: int) -> None:
        if amount and self.on_progress is not None:
            self.on_progress(amount)

    def __iter__(self) -> Iterator[SetBatch]:
        self._reader.read_meta()
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
                    where, raw, amount = payload
                    self._advance(amount)
                    yield self._reader.batch(where, raw)
                elif kind == _DONE:
                    self._advance(payload)
                    return
                else:
                    raise payload
        finally:
            if child.is_alive():
                child.terminate()
            child.join()
            channel.close()
            channel.join_thread()
