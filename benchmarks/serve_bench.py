"""Load benchmark of ``carddb serve``: ``--clients`` concurrent HTTP clients (httpx, asyncio) over
loopback send a fixed number of requests (``--requests``) to a real server (``carddb serve`` in a
child process, so that the load and the server do not share an interpreter), and the benchmark
prints the throughput and the p50/p99 latency per kind of request and over all of them.

The requests are a fixed mix, drawn with ``--seed`` from what the database holds: Scryfall API
searches (:data:`SEARCHES`), ``/cards/named`` lookups (exact names and names with a typo, fuzzy),
``/cards/:set/:number/:lang`` printings in their languages, and the web page of a printing
(``/card/:set/:number/:lang``). Every one of them must answer 200: the benchmark counts anything
else (and any connection failure) as an error, prints the count, and exits 1 when it is not zero.

The database is the 15 MTGJSON set files of the shared corpus imported into a fresh SQLite file or
PostgreSQL database (``--backend``; with ``--pool`` the whole card pool too), or an existing one
(``--db URL``, served read-only as it is), exactly as ``lookup_bench.py`` prepares it.

    python benchmarks/serve_bench.py
    python benchmarks/serve_bench.py --requests 10000 --clients 50 --backend postgres
    python benchmarks/serve_bench.py --db sqlite:////tmp/pool.sqlite

Exit status: 0 when every request succeeded, 1 when some failed, 2 when the corpus or the database
is unavailable or the server does not start.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import httpx
from sqlalchemy import select

import carddb
from carddb.db.models import Card, CardSet, Localization, Printing, PrintingLocalization
from carddb.scryfall_json import scryfall_code

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import BENCH_DATABASE, CORPUS, DEFAULT_PG_URL, PG_ENV, table
from lookup_bench import percentile, prepare
from pool import FACES_NAME

SEARCHES = (
    "t:creature c:r mv<=3",
    "t:dragon",
    'o:"draw a card"',
    "c:g t:instant",
    "lang:de t:kreatur",
    "o:flying pow>=3",
    "lang:ja 稲妻",
    "r:mythic",
    "t:legendary t:creature c:wu",
    "mv=2 t:artifact",
)
"""The searches of the mix: each finds cards in the 15 corpus sets."""


@dataclass(frozen=True, slots=True)
class Planned:
    kind: str
    path: str


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def typo(name: str, rng: random.Random) -> str:
    """``name`` with one letter dropped (not the first), as a fuzzy lookup might be typed."""
    letters = [i for i, ch in enumerate(name) if ch.isalpha() and i > 0]
    if not letters:
        return name
    drop = rng.choice(letters)
    return name[:drop] + name[drop + 1 :]


def plan(url: str, count: int, seed: int) -> list[Planned]:
    """The requests, in order: a fixed mix drawn from the database (10 % each of exact and fuzzy
    names, 30 % searches, 25 % API printings, 25 % card pages)."""
    rng = random.Random(seed)
    with carddb.open(url, read_only=True) as database, database.session() as session:
        names = list(
            session.scalars(select(Card.name).where(~Card.name.contains(" // ")).order_by(Card.name))
        )
        printed = session.execute(
            select(Printing.set_code, Printing.collector_number, Localization.language)
            .join(PrintingLocalization, PrintingLocalization.printing_id == Printing.id)
            .join(Localization, Localization.id == PrintingLocalization.localization_id)
            .join(CardSet, CardSet.code == Printing.set_code)
            .distinct()
            .order_by(Printing.set_code, Printing.collector_number, Localization.language)
        ).all()
    if not names or not printed:
        raise SystemExit("serve_bench: the database holds no cards")
    requests = []
    for index in range(count):
        share = index % 20
        if share < 2:
            requests.append(Planned("named exact", f"/cards/named?exact={quote(rng.choice(names))}"))
        elif share < 4:
            requests.append(
                Planned("named fuzzy", f"/cards/named?fuzzy={quote(typo(rng.choice(names), rng))}")
            )
        elif share < 10:
            requests.append(Planned("search", f"/cards/search?q={quote(rng.choice(SEARCHES))}"))
        else:
            set_code, number, language = rng.choice(printed)
            where = f"{set_code.lower()}/{quote(number)}/{scryfall_code(language)}"
            if share < 15:
                requests.append(Planned("API printing", f"/cards/{where}"))
            else:
                requests.append(Planned("card page", f"/card/{where}"))
    rng.shuffle(requests)
    return requests


@dataclass(slots=True)
class Outcome:
    kind: str
    seconds: float
    status: int
    detail: str = ""


async def drive(base: str, requests: Sequence[Planned], clients: int) -> tuple[list[Outcome], float]:
    """Send ``requests`` with ``clients`` concurrent clients (each its own connection); returns
    every outcome and the wall-clock time of the whole run."""
    queue: asyncio.Queue[Planned] = asyncio.Queue()
    for request in requests:
        queue.put_nowait(request)
    outcomes: list[Outcome] = []
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)

    async def client() -> None:
        async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
            while True:
                try:
                    request = queue.get_nowait()
                except asyncio.QueueEmpty:
                    return
                started = time.perf_counter()
                try:
                    response = await http.get(request.path)
                    await response.aread()
                    status, detail = response.status_code, ""
                    if status != 200:
                        detail = f"{request.path}: {response.text[:200]}"
                except httpx.HTTPError as exc:
                    status, detail = 0, f"{request.path}: {type(exc).__name__}: {exc}"
                outcomes.append(Outcome(request.kind, time.perf_counter() - started, status, detail))

    started = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(clients)))
    return outcomes, time.perf_counter() - started


def start_server(url: str, port: int, timeout: float, workers: int) -> subprocess.Popen[bytes] | None:
    """``carddb serve`` in a child process, once it answers; None when it does not start."""
    command = [sys.executable, "-m", "carddb.cli", "--db", url, "serve", "--port", str(port)]
    command += ["--timeout", str(timeout), "--workers", str(workers)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and server.poll() is None:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/sets", timeout=5).status_code == 200:
                return server
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    server.kill()
    _, stderr = server.communicate()
    print(
        f"serve_bench: the server did not start: {stderr.decode(errors='replace')[-2000:]}", file=sys.stderr
    )
    return None


def milliseconds(values: Sequence[float], fraction: float) -> str:
    return f"{percentile(sorted(values), fraction) * 1000:.1f}"


def report(outcomes: Sequence[Outcome], wall: float, clients: int) -> int:
    by_kind: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in outcomes:
        by_kind[outcome.kind].append(outcome)
    rows = []
    for kind in sorted(by_kind):
        done = by_kind[kind]
        seconds = [o.seconds for o in done]
        errors = sum(1 for o in done if o.status != 200)
        rows.append([kind, len(done), errors, milliseconds(seconds, 0.5), milliseconds(seconds, 0.99)])
    every = [o.seconds for o in outcomes]
    errors = [o for o in outcomes if o.status != 200]
    rows.append(["all", len(outcomes), len(errors), milliseconds(every, 0.5), milliseconds(every, 0.99)])
    print(table(["requests", "count", "errors", "p50 ms", "p99 ms"], rows))
    print(
        f"throughput: {len(outcomes) / wall:,.0f} requests/s ({len(outcomes):,} requests, {clients} clients, "
        f"{wall:.1f} s; mean latency {statistics.fmean(every) * 1000:.1f} ms)"
    )
    print(f"errors: {len(errors)}")
    for outcome in errors[:10]:
        print(f"  {outcome.status}: {outcome.detail}")
    return 1 if errors else 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--db", help="serve this existing database URL instead of importing the shared sets")
    p.add_argument(
        "--backend", choices=("sqlite", "postgres"), default="sqlite", help="where to import (no --db)"
    )
    p.add_argument("--pg-url", help=f"PostgreSQL server URL (default ${PG_ENV} or {DEFAULT_PG_URL})")
    p.add_argument(
        "--pg-reset",
        choices=("database", "schema"),
        default="database",
        help=f"drop and create the database {BENCH_DATABASE!r} (default) or the public schema of --pg-url",
    )
    p.add_argument(
        "--corpus", type=Path, default=CORPUS, help="the shared corpus folder (default: ../shared/corpus)"
    )
    p.add_argument(
        "--pool", action="store_true", help=f"also import the whole card pool (CORPUS/{FACES_NAME})"
    )
    p.add_argument("--requests", type=int, default=5000, help="requests to send (default 5000)")
    p.add_argument("--clients", type=int, default=50, help="concurrent clients (default 50)")
    p.add_argument("--warmup", type=int, default=200, help="unmeasured requests first (default 200)")
    p.add_argument(
        "--timeout", type=float, default=10.0, help="the server's request deadline, seconds (default 10)"
    )
    p.add_argument("--seed", type=int, default=1, help="random seed of the mix (default 1)")
    p.add_argument(
        "--workers", type=int, default=1, help="server processes, carddb serve --workers (default 1)"
    )
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.requests < 1 or args.clients < 1:
        print("serve_bench: --requests and --clients must be at least 1", file=sys.stderr)
        return 2
    prepared = prepare(args)
    if isinstance(prepared, int):
        return prepared
    url, label, temp = prepared
    try:
        port = free_port()
        server = start_server(url, port, args.timeout, args.workers)
        if server is None:
            return 2
        try:
            base = f"http://127.0.0.1:{port}"
            requests = plan(url, args.requests + args.warmup, args.seed)
            load = os.getloadavg()[0]
            asyncio.run(drive(base, requests[: args.warmup], args.clients))
            outcomes, wall = asyncio.run(drive(base, requests[args.warmup :], args.clients))
            after = os.getloadavg()[0]
            print(
                f"server: carddb serve --workers {args.workers} on {label} "
                f"({os.cpu_count()} CPUs, load {load:.2f} -> {after:.2f})"
            )
            return report(outcomes, wall, args.clients)
        finally:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
    finally:
        if temp is not None:
            temp.cleanup()


if __name__ == "__main__":
    sys.exit(main())
