"""What the tests of ``carddb serve`` share: the database they serve (the shipped sample, Demon
Bolt's Kaldheim set for ``稲妻``, the Comprehensive Rules excerpt, and the seed pages with
Underdark Rift in ten languages and Diviner's Portent's Spanish rulings), and a real uvicorn server
on a free loopback port, in a thread."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import uvicorn
from starlette.applications import Starlette

import carddb
from carddb.resources import sample_dir

FIXTURES = Path(__file__).parent / "fixtures"
SERVED_FILES = (
    sample_dir(),
    FIXTURES / "search" / "KHM.json.xz",
    FIXTURES / "rules" / "MagicCompRules-20250207-excerpt.txt.xz",
    FIXTURES / "pages" / "002_20a400b8ebec3d2c.txt",
    FIXTURES / "pages" / "004_fc11ba189bb05f33.txt",
)


def fill(url: str) -> None:
    """Import the served files into the database at ``url``."""
    with carddb.open(url) as database:
        database.import_path(*SERVED_FILES)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def running_server(app: Starlette) -> Iterator[str]:
    """``app`` served by uvicorn on 127.0.0.1 in a thread; yields its base URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
