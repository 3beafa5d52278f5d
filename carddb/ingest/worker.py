"""A second process for an import's reading work, so that the writer never waits for it.

An import on a machine with two cores spends about as long reading as writing: decompressing,
parsing JSON and making records (MTGJSON files), then folding the text of the search documents.
:class:`Worker` runs that work in a child process while this process writes:

* :meth:`Worker.read_mtgjson` reads MTGJSON files in order and sends each set's records (a set the
  database holds from the very same text is sent as :class:`UnchangedSet`, without its records);
* :meth:`Worker.document_changes` and :meth:`Worker.type_words` read the stored cards on the
  worker's own connection and send what the search index must write
  (:class:`carddb.search.index.IndexSource`).

The child is a plain ``python -c`` subprocess talking over two pipes
(:class:`multiprocessing.connection.Connection`: pickled, length-prefixed messages), not a
:mod:`multiprocessing` process: those re-import the caller's main script, which breaks a script
without an ``if __name__ == "__main__"`` guard, or one read from standard input. No database
connection crosses into it: it opens its own. A thread here receives its messages into a bounded
queue, so the worker runs at most a few sets ahead and memory stays flat. Errors raised in the
worker are raised again here, unchanged; if the worker dies, a
:class:`~carddb.errors.SourceError` says so.
"""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import carddb
from carddb.db.engine import make_engine
from carddb.errors import SourceError
from carddb.ingest.mtgjson import MTGJSONReader
from carddb.ingest.records import SetBatch
from carddb.search.documents import DocumentChanges, document_changes
from carddb.search.index import type_word_rows

__all__ = ["FileRead", "SetItem", "UnchangedSet", "Worker", "WorkerSource", "read_sets", "serve"]

_QUEUE_SIZE = 6
_CHILD = "from carddb.ingest.worker import serve; serve()"


@dataclass(frozen=True, slots=True)
class UnchangedSet:
    """A set whose source text has the digest of the set stored: nothing of it is sent."""

    code: str
    digest: str


SetItem = SetBatch | UnchangedSet


@dataclass(frozen=True, slots=True)
class FileRead:
    """What reading one file gave besides its sets: its warnings."""

    warnings: tuple[str, ...]


def read_sets(
    path: Path, stored_digests: Mapping[str, str], on_progress: Any = None
) -> Iterator[SetItem | FileRead]:
    """The sets of one MTGJSON file, then a :class:`FileRead`; sets whose digest is stored under
    their code come as :class:`UnchangedSet`, without records."""
    reader = MTGJSONReader(path, on_progress)
    for raw in reader.raw_sets():
        code = raw.fields.get("code")
        if isinstance(code, str) and stored_digests.get(code.strip().upper()) == raw.digest:
            yield UnchangedSet(code.strip().upper(), raw.digest)
        else:
            yield reader.batch(raw)
    yield FileRead(tuple(reader.warnings))


# -- the child's side -------------------------------------------------------------------------------
_MTGJSON, _DOCUMENTS, _TYPE_WORDS, _STOP = "mtgjson", "documents", "type_words", "stop"
_ITEM, _FILE, _PROGRESS, _DONE, _ERROR = "item", "file", "progress", "done", "error"


def serve() -> None:
    """The child process's main: answer requests read from the pipe named by ``argv[1]`` on the
    pipe named by ``argv[2]``, until told to stop or the importer is gone."""
    requests = Connection(int(sys.argv[1]), writable=False)
    replies = Connection(int(sys.argv[2]), readable=False)

    def put(kind: str, payload: Any) -> None:
        try:
            replies.send((kind, payload))
        except OSError:  # the importer is gone: stop quietly
            os._exit(1)

    engines: dict[str, Any] = {}
    while True:
        try:
            kind, arguments = requests.recv()
        except (EOFError, OSError):
            os._exit(0)
        if kind == _STOP:
            for engine in engines.values():
                engine.dispose()
            return
        try:
            if kind == _MTGJSON:
                _send_sets(put, *arguments)
            elif kind == _DOCUMENTS:
                url, groups, compare = arguments
                _send_documents(put, _engine(engines, url), groups, compare)
            elif kind == _TYPE_WORDS:
                with _engine(engines, arguments).connect() as connection:
                    put(_ITEM, type_word_rows(connection))
            put(_DONE, None)
        except BaseException as exc:  # every failure goes back to the importer
            put(_ERROR, exc)


def _engine(engines: dict[str, Any], url: str) -> Any:
    if url not in engines:
        engines[url] = make_engine(url, read_only=True)
    return engines[url]


def _send_sets(put: Any, paths: Sequence[Path], stored: Mapping[str, str]) -> None:
    # Progress rides along with each set: a message per chunk read would fill the bounded queue.
    read = [0]

    def on_progress(amount: int) -> None:
        read[0] += amount

    def taken() -> int:
        amount, read[0] = read[0], 0
        return amount

    for path in paths:
        for item in read_sets(path, stored, on_progress):
            if isinstance(item, FileRead):
                put(_FILE, (item, taken()))
            else:
                put(_ITEM, (item, taken()))


def _send_documents(put: Any, engine: Any, groups: Sequence[Sequence[int]], compare: bool) -> None:
    with engine.connect() as connection:
        for group in groups:
            put(_ITEM, document_changes(connection, group, compare))


# -- the parent's side ------------------------------------------------------------------------------
class Worker:
    """The child process, and the calls that hand it work. One request at a time: iterate what a
    call returns to the end before the next call."""

    def __init__(self) -> None:
        request_read, request_write = os.pipe()
        reply_read, reply_write = os.pipe()
        # The child finds this very carddb first, wherever it was imported from.
        package_root = str(Path(carddb.__file__).resolve().parent.parent)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([package_root, *filter(None, [env.get("PYTHONPATH")])])
        self._process = subprocess.Popen(
            [sys.executable, "-c", _CHILD, str(request_read), str(reply_write)],
            pass_fds=(request_read, reply_write),
            env=env,
            stdin=subprocess.DEVNULL,
        )
        os.close(request_read)
        os.close(reply_write)
        self._requests = Connection(request_write, readable=False)
        self._replies_pipe = Connection(reply_read, writable=False)
        self._replies: queue.Queue[tuple[str, Any]] = queue.Queue(maxsize=_QUEUE_SIZE)
        self._receiver = threading.Thread(target=self._receive, name="carddb-import-worker", daemon=True)
        self._receiver.start()

    def _receive(self) -> None:
        """Move the child's messages into the bounded queue (a thread: the pipe alone holds one)."""
        while True:
            try:
                message = self._replies_pipe.recv()
            except (EOFError, OSError):
                self._replies.put(("gone", None))
                return
            self._replies.put(message)

    @property
    def alive(self) -> bool:
        return self._process.poll() is None

    def _replies_until_done(self, what: Path | str) -> Iterator[tuple[str, Any]]:
        while True:
            kind, payload = self._replies.get()
            if kind == _DONE:
                return
            if kind == _ERROR:
                self.close(kill=True)
                raise payload
            if kind == "gone":
                code = self._process.wait()
                raise SourceError(what, f"the import's worker process ended unexpectedly (exit code {code})")
            yield kind, payload

    def read_mtgjson(
        self, paths: Sequence[Path], stored_digests: Mapping[str, str]
    ) -> Iterator[tuple[SetItem | FileRead, int]]:
        """Each set of ``paths`` in order, then each file's :class:`FileRead`, with the bytes of the
        file read since the last item."""
        self._requests.send((_MTGJSON, (list(paths), dict(stored_digests))))
        for _kind, (item, amount) in self._replies_until_done(paths[0] if paths else "import"):
            yield item, amount

    def document_changes(
        self, url: str, groups: Sequence[Sequence[int]], compare: bool = True
    ) -> Iterator[DocumentChanges]:
        self._requests.send((_DOCUMENTS, (url, [list(group) for group in groups], compare)))
        for _kind, changes in self._replies_until_done("search index"):
            yield changes

    def type_words(self, url: str) -> list[tuple[str, str, str]]:
        self._requests.send((_TYPE_WORDS, url))
        rows: list[tuple[str, str, str]] = []
        for _kind, payload in self._replies_until_done("search index"):
            rows = payload
        return rows

    def close(self, kill: bool = False) -> None:
        """Stop the child: at once (``kill``, after an error or mid-request) or when it is idle."""
        if self._process.poll() is None:
            if kill:
                self._process.kill()
            else:
                try:
                    self._requests.send((_STOP, None))
                except OSError:
                    self._process.kill()
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._requests.close()
        # The receiver ends when the pipe does; drain so it is not left blocked on a full queue.
        while self._receiver.is_alive():
            with suppress(queue.Empty):
                self._replies.get(timeout=0.1)
        self._replies_pipe.close()


class WorkerSource:
    """A :class:`carddb.search.index.IndexSource` that reads in the worker, on its own connection
    to ``url`` (a database file or server, never an in-memory database)."""

    def __init__(self, worker: Worker, url: str) -> None:
        self.worker = worker
        self.url = url

    def document_changes(
        self, card_ids: Sequence[Sequence[int]], compare: bool = True
    ) -> Iterator[DocumentChanges]:
        return self.worker.document_changes(self.url, card_ids, compare)

    def type_words(self) -> list[tuple[str, str, str]]:
        return self.worker.type_words(self.url)
