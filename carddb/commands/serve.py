"""``carddb serve``: a local Scryfall-compatible API and a multilingual web page (uvicorn)."""

from __future__ import annotations

import os
from typing import Any

import click

from carddb.commands.context import Context, pass_context


@click.command("serve")
@click.option(
    "--host", default="127.0.0.1", show_default=True, help="Address to listen on (loopback by default)."
)
@click.option(
    "--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="Port to listen on."
)
@click.option(
    "--timeout",
    default=10.0,
    show_default=True,
    type=click.FloatRange(0.1, 600),
    help="Longest a request may read the database, in seconds.",
)
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Server processes (each with its own read-only connection pool); one per CPU core at most.",
)
@pass_context
def serve_command(ctx: Context, host: str, port: int, timeout: float, workers: int) -> None:
    """Serve the database read-only over HTTP: the Scryfall card API and web pages.

    The API answers as Scryfall's does (/cards/search, /cards/named, /cards/autocomplete,
    /cards/SET/NUMBER[/LANG], /cards/ID, /sets); the pages are /, /search?q=… and
    /card/SET/NUMBER[/LANG], in the reader's language."""
    import uvicorn  # deferred: only this command needs the server

    from carddb.serve.app import ENVIRONMENT_FACTORY, create_app, environment_for

    click.echo(f"carddb serve: http://{host}:{port}/ (read-only; Ctrl-C stops)", err=True)
    options: dict[str, Any] = {"host": host, "port": port, "log_level": "warning", "server_header": False}
    if workers == 1:
        uvicorn.run(create_app(ctx.url, timeout=timeout), **options)
        return
    # several processes: uvicorn starts each from an import string, the settings travel in the environment
    os.environ.update(environment_for(ctx.url, timeout))
    uvicorn.run(ENVIRONMENT_FACTORY, factory=True, workers=workers, **options)
