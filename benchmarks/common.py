"""What the benchmarks share: where the shared corpus is, PostgreSQL targets, a plain table."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus"
SET_DIR = CORPUS / "mtgjson"
POOL = CORPUS / "mtgjson-pool"
DEFAULT_PG_URL = "postgresql://postgres@127.0.0.1:5432/test"
PG_ENV = "CARDDB_TEST_PG_URL"
BENCH_DATABASE = "carddb_bench"


def set_files(set_dir: Path = SET_DIR) -> list[Path]:
    return sorted(set_dir.glob("*.json.xz")) if set_dir.is_dir() else []


def pg_base_url(args: argparse.Namespace) -> str:
    return str(args.pg_url or os.environ.get(PG_ENV) or DEFAULT_PG_URL)


def fresh_postgres(base_url: str, mode: str) -> str:
    """Reset a PostgreSQL target and return its URL: either a dedicated database (dropped and
    created again) or the ``public`` schema of the given database (dropped and created again)."""
    from sqlalchemy import create_engine, text

    from carddb.db.engine import parse_url

    url = parse_url(base_url)
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            if mode == "database":
                conn.execute(text(f'DROP DATABASE IF EXISTS "{BENCH_DATABASE}" WITH (FORCE)'))
                conn.execute(text(f'CREATE DATABASE "{BENCH_DATABASE}"'))
                target = url.set(database=BENCH_DATABASE)
            else:
                conn.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
                conn.execute(text("CREATE SCHEMA public"))
                target = url
    finally:
        engine.dispose()
    return target.render_as_string(hide_password=False)


def check_postgres(base_url: str) -> str | None:
    """None when the server answers, else the reason it does not."""
    try:
        from sqlalchemy import create_engine, text

        from carddb.db.engine import parse_url

        engine = create_engine(parse_url(base_url))
        try:
            with engine.connect() as conn:
                conn.execute(text("SELECT 1"))
        finally:
            engine.dispose()
    except Exception as exc:
        return str(exc).strip().splitlines()[0]
    return None


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    cells = [[str(h) for h in headers], *[[str(c) for c in row] for row in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = []
    for index, row in enumerate(cells):
        lines.append(
            "  ".join(
                c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True))
            )
        )
        if index == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)
