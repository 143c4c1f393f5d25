"""The load generator of ``manage.py loadtest``: WebSocket clients that play like browsers.

No Django here: the command (``management/commands/loadtest.py``) prepares the tables and the server,
then hands this module a list of tables (public id + one signed seat link per seat) and a ``ws://``
base URL on the loopback interface.

Every seat of every table gets a WebSocket client in JSON mode (``?format=json&token=<resume link>``,
with an ``Origin`` header), and each table gets ``spectators`` more clients without a seat. A seat
client that receives its own state with a decision open for it waits a think time, picks a legal
answer from the decision in its view (a random number of options within min..max, at random) and
sends it. A choice's latency runs from the moment it is sent to the moment EVERY client of that table
has received a state with a newer version. Nothing else is timed.

``crowd`` more spectators watch the first table only (issue 28: do many spectators of one table slow
its players, or other tables?), in HTML mode as browsers do (``crowd_format`` "json" for JSON). The
crowd runs in a process of its own (``Crowd``): reading hundreds of updates in the players' event loop
would delay the players' own messages there and be measured as the server's latency. A crowd's
spectator reads only the version and status of each update. The report then adds, for the players
alone (the seats' own connections), the latency on that table and on the others, and the latency
until the last spectator of the crowded table has the new state (both processes stamp with the
system's monotonic clock).

The run is bounded: new choices stop after ``seconds``; choices in flight then get ``grace`` seconds
to land (those that do not are counted as ``timeout`` errors); every connection is then closed.
"""

from __future__ import annotations

import asyncio
import json
import math
import multiprocessing
import random
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import urlsplit

MAX_TABLES = 1000  # a bound on what one run may open (3 connections a table by default)
MAX_CROWD = 5000  # spectators of the first table (`crowd`)
CONNECT_CONCURRENCY = 50  # handshakes in flight at once while the clients connect
# What a crowd's spectator reads of each message: the head of a JSON state as the server writes it
# (`consumers`), or the version and status of an HTML update's #play-status, which comes first.
STATE_HEAD = re.compile(r'\{"type": "state", "version": (\d+), "status": "(\w+)"')
HTML_VERSION = re.compile(r'id="play-status"[^>]*?data-version="(\d+)"')
HTML_STATUS = re.compile(r'id="play-status"[^>]*?data-status="(\w+)"')
HTML_ERROR = re.compile(r'id="play-error"[^>]*?data-code="(\w+)"')
HTML_HEAD = 2000  # characters of an HTML update searched for its #play-status


# ---------------------------------------------------------------------------------- pure parts ---
def percentile(values: list[float], pct: float) -> float | None:
    """The `pct` percentile (0-100) of `values`, nearest-rank on the sorted values; None if empty."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(pct / 100.0 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def pick_options(pending: dict, rng: random.Random) -> list[str]:
    """A legal answer to a decision as the JSON view shows it to its seat: between ``min`` and
    ``max`` distinct option ids, at random. An empty list declines (legal when ``min`` is 0)."""
    options = [o["id"] for o in pending.get("options") or []]
    low = max(0, int(pending.get("min", 1)))
    high = min(int(pending.get("max", 1)), len(options))
    if high < low:  # the engine never asks this; answer something and let the server judge
        high = low = min(low, len(options))
    count = rng.randint(low, high)
    return rng.sample(options, count)


def think_time(mean: float, rng: random.Random) -> float:
    """A person's pause before answering: uniform in [mean/2, 3*mean/2] (0 when mean is 0)."""
    return rng.uniform(0.5 * mean, 1.5 * mean) if mean > 0 else 0.0


def summarize(
    latencies_ms: list[float],
    *,
    seconds: float,
    errors: Counter,
    extra: dict | None = None,
) -> dict:
    """The report of a run as plain data (what ``--json`` prints as one line)."""

    def rounded(value):
        return None if value is None else round(value, 2)

    count = len(latencies_ms)
    report = {
        "choices": count,
        "seconds": round(seconds, 3),
        "choices_per_s": round(count / seconds, 2) if seconds > 0 else 0.0,
        "latency_ms": {
            "p50": rounded(percentile(latencies_ms, 50)),
            "p95": rounded(percentile(latencies_ms, 95)),
            "p99": rounded(percentile(latencies_ms, 99)),
            "max": rounded(max(latencies_ms) if latencies_ms else None),
            "mean": rounded(sum(latencies_ms) / count if count else None),
        },
        "errors": sum(errors.values()),
        "errors_by_kind": dict(sorted(errors.items())),
    }
    if extra:
        report.update(extra)
    return report


def format_report(report: dict) -> str:
    """The report for people, a few lines."""
    lat = report["latency_ms"]

    def ms(value):
        return "-" if value is None else f"{value:.1f}"

    lines = [
        f"{report.get('mode', 'standard')}: "
        f"server {report.get('server', '?')} x{report.get('processes', 1)}, "
        f"{report.get('tables', '?')} tables, "
        f"{report.get('connections', '?')} connections, think {report.get('think', '?')} s, "
        f"measured {report['seconds']:.1f} s",
        f"choices {report['choices']} ({report['choices_per_s']:.1f}/s), games finished "
        f"{report.get('games_finished', 0)}",
        f"latency ms (sent -> every client of the table has the new state): p50 {ms(lat['p50'])}  "
        f"p95 {ms(lat['p95'])}  p99 {ms(lat['p99'])}  max {ms(lat['max'])}  mean {ms(lat['mean'])}",
        f"errors {report['errors']}" + (f" {report['errors_by_kind']}" if report["errors"] else ""),
    ]
    crowd = report.get("crowd")
    if crowd:
        table, others = crowd["players_ms"]["crowd_table"], crowd["players_ms"]["other_tables"]
        everyone = crowd["everyone_ms"]
        lines.append(
            f"crowd: {crowd['connected']}/{crowd['spectators']} spectators on table 1; players' latency "
            f"ms there p50 {ms(table['p50'])} p95 {ms(table['p95'])} ({table['count']} choices), "
            f"on the other tables p50 {ms(others['p50'])} p95 {ms(others['p95'])} ({others['count']}); "
            f"until the last spectator has it p50 {ms(everyone['p50'])} p95 {ms(everyone['p95'])}"
            + (f" ({crowd['crowd_missed']} the crowd never all had)" if crowd.get("crowd_missed") else "")
        )
    flood = report.get("flood")
    if flood:
        lines.append(
            f"flood: {flood['workers']} + {flood['workers']} loops, {flood['replay_pages']} replay pages "
            f"(p50 {ms(flood['replay_ms_p50'])} ms, p99 {ms(flood['replay_ms_p99'])} ms), "
            f"{flood['event_sockets']} event sockets, errors {sum(flood['errors'].values())}"
            + (f" {flood['errors']}" if flood["errors"] else "")
        )
    cpu = report.get("cpu")
    if cpu:
        server = (
            f"server {cpu['server_s']} s ({cpu['server_ms_per_choice']} ms a choice)"
            if cpu.get("server_ms_per_choice") is not None
            else "server not measured"
        )
        lines.append(
            f"cpu: {server}, load generator {cpu['client_s']} s, machine busy {cpu['machine_busy_pct']}% "
            f"of {cpu['cores']} cores, load average at start {cpu['loadavg']}"
        )
    return "\n".join(lines)


# ---------------------------------------------------------------------------------- the clients --
@dataclass
class TablePlan:
    public_id: str
    seat_links: list[str]  # each seat holder's own link (services.resume_link_token), in seat order
    watch: str = ""  # the spectators' socket: "" a plain spectator, "display" the table display


@dataclass
class _Conn:
    table: _Table
    seat: int | None
    url: str
    ws: object = None
    version: int = -1
    answered: int = -1  # the last version this seat has answered (or is about to)
    done: bool = False


@dataclass
class _Table:
    plan: TablePlan
    conns: list[_Conn] = field(default_factory=list)
    # Choices sent and not yet seen by every client: version answered -> perf_counter when sent.
    # A fast seat may answer its next decision before the others have seen its last choice.
    inflight: dict[int, float] = field(default_factory=dict)
    # How many of the table's clients (and of its seats) have a version past each choice in flight:
    # counted as each client's version moves, so a table of hundreds of clients costs little.
    reached: dict[int, int] = field(default_factory=dict)
    seats_reached: dict[int, int] = field(default_factory=dict)
    players_landed: set[int] = field(default_factory=set)
    finished: bool = False
    crowded: bool = False  # the first table, when the run has a crowd
    sent_at: dict[int, float] = field(default_factory=dict)  # the crowded table's, time.monotonic()
    open_conns: int = 0  # how many of its clients connected (and of its seats), once all have tried
    open_seats: int = 0

    def count_open(self) -> None:
        self.open_conns = sum(1 for c in self.conns if c.ws is not None)
        self.open_seats = sum(1 for c in self.conns if c.ws is not None and c.seat is not None)


class LoadRun:
    """One bounded run of the clients against one or more server processes (``ws_bases``: their
    ``ws://127.0.0.1:PORT`` addresses). ``await run()`` returns the report."""

    def __init__(
        self,
        ws_bases: list[str],
        origin: str,
        tables: list[TablePlan],
        *,
        seconds: float,
        think: float = 1.0,
        spectators: int = 1,
        grace: float = 5.0,
        seed: int = 1,
        max_choices: int | None = None,
        on_window=None,
        route: str = "connection",
        crowd: int | None = None,
        crowd_format: str = "html",
    ):
        if isinstance(ws_bases, str):
            ws_bases = [ws_bases]
        for base in ws_bases:
            if not base.startswith(("ws://127.", "ws://localhost:", "ws://[::1]:")):
                raise ValueError(f"the load test only targets the loopback interface, not {base!r}")
        if len(tables) > MAX_TABLES:
            raise ValueError(f"at most {MAX_TABLES} tables in one run")
        if crowd is not None and not 0 <= crowd <= MAX_CROWD:
            raise ValueError(f"a crowd is 0 to {MAX_CROWD} spectators")
        if crowd_format not in ("html", "json"):
            raise ValueError(f"a crowd reads html or json, not {crowd_format!r}")
        self.crowd = crowd
        self.ws_bases = [b.rstrip("/") for b in ws_bases]
        self.origin = origin
        self.seconds = seconds
        self.think = think
        self.grace = grace
        self.max_choices = max_choices
        self.on_window = on_window  # called with "start" and "end" of the measured window
        self.rng = random.Random(seed)
        self.errors: Counter = Counter()
        self.latencies: list[float] = []
        # With a crowd: the players' latencies (a choice sent -> both seats have the new state) on
        # the crowded table and on the others; and the crowded table's choices as (version, sent,
        # its clients here have it), time.monotonic(), for the latency until the crowd has it too.
        self.player_latencies: dict[str, list[float]] = {"crowd_table": [], "other_tables": []}
        self.crowd_landed: list[tuple[int, float, float]] = []
        self.crowd_urls: list[str] = []
        self.crowd_result: dict = {}
        self.sent = 0
        self.closing = False
        self.stop_sending_at = math.inf
        self.tables = [_Table(plan) for plan in tables]
        # With several server processes the connections are spread over them. `route`
        # "connection": one after the other, the seats of one table included (a round-robin load
        # balancer; the channel layer carries the table's pings between processes, and each process
        # catches its copy of the game up). "game": every connection of a table to the same process
        # (a balancer that hashes the game's URL, such as nginx's `hash $request_uri consistent`).
        if route not in ("connection", "game"):
            raise ValueError(f"route is 'connection' or 'game', not {route!r}")
        spread = 0
        for number, table in enumerate(self.tables):
            seats = list(enumerate(table.plan.seat_links)) + [(None, None)] * spectators
            if crowd is not None and number == 0:
                table.crowded = True
                seats += [(None, "crowd")] * crowd
            for seat, link in seats:
                index = number if route == "game" else spread
                base = self.ws_bases[index % len(self.ws_bases)]
                spread += 1
                fmt = crowd_format if link == "crowd" else "json"  # any value but json is HTML
                url = f"{base}/ws/games/{table.plan.public_id}/?format={fmt}"
                if seat is not None:
                    url = f"{url}&token={link}"
                elif table.plan.watch:
                    url = f"{url}&watch={table.plan.watch}"
                if link == "crowd":
                    self.crowd_urls.append(url)
                else:
                    table.conns.append(_Conn(table, seat, url))
        self.connections = sum(len(t.conns) for t in self.tables) + len(self.crowd_urls)
        self._tasks: set[asyncio.Task] = set()
        self._go = asyncio.Event()

    # ------------------------------------------------------------------ running ------------------
    async def run(self) -> dict:
        from websockets.asyncio.client import connect

        self._connect = connect
        gate = asyncio.Semaphore(CONNECT_CONCURRENCY)
        connect_started = time.perf_counter()
        readers = []
        crowd = None
        if self.crowd_urls:
            crowd = Crowd(self.crowd_urls, self.origin)
            await crowd.start()
        opened = await asyncio.gather(*(self._open(c, gate) for t in self.tables for c in t.conns))
        connect_seconds = time.perf_counter() - connect_started
        for table in self.tables:
            table.count_open()
        for conn, ok in zip((c for t in self.tables for c in t.conns), opened, strict=True):
            if ok:
                readers.append(asyncio.create_task(self._read(conn)))
        if self.on_window is not None:
            self.on_window("start")
        started = time.perf_counter()
        self.stop_sending_at = started + self.seconds
        self._go.set()  # the seats asked on connecting start to answer now
        while time.perf_counter() < self.stop_sending_at and not self._all_finished():
            if self.max_choices is not None and self.sent >= self.max_choices:
                break
            await asyncio.sleep(0.05)
        self.stop_sending_at = min(self.stop_sending_at, time.perf_counter())
        measured = time.perf_counter() - started
        drain_until = time.perf_counter() + self.grace
        while any(t.inflight for t in self.tables) and time.perf_counter() < drain_until:
            await asyncio.sleep(0.02)
        if self.on_window is not None:
            self.on_window("end")  # after the choices in flight have landed (or timed out)
        timeouts = sum(len(t.inflight) for t in self.tables)
        if timeouts:
            self.errors["timeout"] += timeouts
        if crowd is not None:
            await asyncio.sleep(CROWD_SETTLE)  # the crowd is served after the players
            self.crowd_result = await crowd.stop()
            for kind, count in self.crowd_result["errors"].items():
                self.errors[f"crowd:{kind}"] += count
        self.closing = True
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*(self._close(c) for t in self.tables for c in t.conns))
        for task in readers:
            task.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
        extra = {
            "tables": len(self.tables),
            "connections": self.connections,
            "think": self.think,
            "sent": self.sent,
            "connect_seconds": round(connect_seconds, 3),
            "games_finished": sum(1 for t in self.tables if t.finished),
        }
        if self.crowd is not None:  # 0 too: the same figures without a crowd, to compare
            extra["crowd"] = self.crowd_report()
        return summarize(self.latencies, seconds=measured, errors=self.errors, extra=extra)

    def crowd_report(self) -> dict:
        def spread(values: list[float]) -> dict:
            return {
                "count": len(values),
                **{f"p{p}": None if values == [] else round(percentile(values, p), 2) for p in (50, 95, 99)},
            }

        everyone, missed = crowd_latencies(self.crowd_landed, self.crowd_result.get("all_at") or {})
        return {
            "spectators": self.crowd or 0,
            "connected": self.crowd_result.get("connected", 0),
            "players_ms": {name: spread(values) for name, values in self.player_latencies.items()},
            "everyone_ms": spread(everyone),
            "crowd_missed": missed,
        }

    def _all_finished(self) -> bool:
        return all(t.finished for t in self.tables)

    async def _open(self, conn: _Conn, gate: asyncio.Semaphore) -> bool:
        async with gate:
            try:
                conn.ws = await self._connect(
                    conn.url,
                    origin=_page_origin(conn.url, self.origin),
                    compression=None,
                    proxy=None,
                    open_timeout=30,
                    ping_interval=None,
                    max_size=4 * 1024 * 1024,
                    max_queue=None,
                )
                return True
            except Exception as exc:  # noqa: BLE001 - every failure is counted, the run goes on
                self.errors[f"connect:{type(exc).__name__}"] += 1
                conn.done = True
                return False

    async def _close(self, conn: _Conn) -> None:
        if conn.ws is not None:
            try:
                await asyncio.wait_for(conn.ws.close(), 5)
            except Exception:  # noqa: BLE001 - closing at the end; nothing left to measure
                pass

    async def _read(self, conn: _Conn) -> None:
        try:
            async for raw in conn.ws:
                self._receive(conn, raw)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001
            if not self.closing:
                self.errors[f"closed:{type(exc).__name__}"] += 1
            return
        if not self.closing and not conn.done:
            code = getattr(conn.ws, "close_code", None)
            self.errors[f"closed:{code}"] += 1

    # ------------------------------------------------------------------ messages -----------------
    def _receive(self, conn: _Conn, raw) -> None:
        try:
            message = json.loads(raw)
        except ValueError:
            self.errors["bad_json"] += 1
            return
        kind = message.get("type")
        if kind == "error":
            self.errors[f"server:{message.get('code')}"] += 1
            return
        if kind != "state":
            return  # "ok": the chooser's own acknowledgement
        version = int(message.get("version") or 0)
        self._reached(conn, version, message.get("status"))
        if conn.seat is None or message.get("status") != "active":
            return
        pending = (message.get("view") or {}).get("pending") or {}
        if "options" in pending and pending.get("seat") == conn.seat and conn.answered < version:
            conn.answered = version
            task = asyncio.get_running_loop().create_task(self._answer(conn, version, pending))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def _reached(self, conn: _Conn, version: int, status: str | None) -> None:
        """`conn` has the state at `version`: count it for each choice in flight that it is past;
        a choice has landed for the players once both seats are past it, and for everyone once
        every client of the table is."""
        table = conn.table
        before = conn.version
        if version > before:
            conn.version = version
        if status == "finished":
            conn.done = True
            table.finished = True
        if version <= before or not table.inflight:
            return
        if not table.open_conns:
            table.count_open()
        now = time.perf_counter()
        for sent_at_version in [v for v in table.inflight if before <= v < version]:
            sent = table.inflight[sent_at_version]
            table.reached[sent_at_version] = table.reached.get(sent_at_version, 0) + 1
            if conn.seat is not None:
                table.seats_reached[sent_at_version] = table.seats_reached.get(sent_at_version, 0) + 1
                if (
                    table.seats_reached[sent_at_version] >= table.open_seats
                    and sent_at_version not in table.players_landed
                ):
                    table.players_landed.add(sent_at_version)
                    name = "crowd_table" if table.crowded else "other_tables"
                    self.player_latencies[name].append((now - sent) * 1000.0)
            if table.reached[sent_at_version] >= table.open_conns:
                latency = (now - table.inflight.pop(sent_at_version)) * 1000.0
                table.reached.pop(sent_at_version, None)
                table.seats_reached.pop(sent_at_version, None)
                table.players_landed.discard(sent_at_version)
                self.latencies.append(latency)
                if table.crowded and sent_at_version in table.sent_at:
                    sent_mono = table.sent_at.pop(sent_at_version)
                    self.crowd_landed.append((sent_at_version, sent_mono, time.monotonic()))

    async def _answer(self, conn: _Conn, version: int, pending: dict) -> None:
        await self._go.wait()
        pause = think_time(self.think, self.rng)
        if pause:
            await asyncio.sleep(pause)
        if time.perf_counter() >= self.stop_sending_at or self.closing:
            return
        if self.max_choices is not None and self.sent >= self.max_choices:
            return
        if conn.version != version:  # the game moved on meanwhile (it never does with one decider)
            self.errors["moved_on"] += 1
            return
        choice = {
            "type": "choice",
            "seq": version,
            "decision": pending["id"],
            "options": pick_options(pending, self.rng),
        }
        conn.table.inflight[version] = time.perf_counter()
        conn.table.reached[version] = conn.table.seats_reached[version] = 0
        if conn.table.crowded:
            conn.table.sent_at[version] = time.monotonic()
        self.sent += 1
        try:
            await conn.ws.send(json.dumps(choice))
        except Exception as exc:  # noqa: BLE001
            conn.table.inflight.pop(version, None)
            self.errors[f"send:{type(exc).__name__}"] += 1


def _page_origin(url: str, default: str) -> str:
    """The Origin a browser would send to this server process: the page of the very scheme, host
    and port the socket goes to (the server checks all three), `default` for another address."""
    parts = urlsplit(url)
    if parts.scheme not in ("ws", "wss") or not parts.netloc:
        return default
    return f"{'https' if parts.scheme == 'wss' else 'http'}://{parts.netloc}"


# ---------------------------------------------------------------------------------- the crowd ----
CROWD_START_TIMEOUT = 300.0  # seconds for the crowd to connect
CROWD_SETTLE = 2.0  # seconds the crowd gets after the run's last choice landed for its players


def head_of(raw) -> tuple[int, str] | str | None:
    """What a crowd's spectator reads of an update: its (version, status), or an error's code, or
    None (anything else: an acknowledgement, the live state)."""
    if not isinstance(raw, str):
        return None
    head = STATE_HEAD.match(raw[:120])
    if head is not None:
        return int(head.group(1)), head.group(2)
    if raw.startswith("{"):
        try:
            message = json.loads(raw)
        except ValueError:
            return "bad_json"
        return message.get("code") if message.get("type") == "error" else None
    start = raw[:HTML_HEAD]
    version, status = HTML_VERSION.search(start), HTML_STATUS.search(start)
    if version is not None and status is not None:
        return int(version.group(1)), status.group(1)
    error = HTML_ERROR.search(start)
    if error is not None and error.group(1) not in ("", "ok"):
        return error.group(1)
    return None


class CrowdCount:
    """When every spectator of the crowd had each version (time.monotonic()): counted as each one's
    version moves, so that hundreds of them cost little."""

    def __init__(self, size: int):
        self.size = size
        self.versions = [-1] * size
        self.reached: Counter = Counter()
        self.all_at: dict[int, float] = {}

    def saw(self, index: int, version: int, now: float) -> None:
        before = self.versions[index]
        if version <= before:
            return
        self.versions[index] = version
        for v in range(before + 1, version + 1):
            self.reached[v] += 1
            if self.reached[v] == self.size:
                self.all_at[v] = now


def crowd_latencies(landed: list[tuple[int, float, float]], all_at: dict) -> tuple[list[float], int]:
    """The crowded table's latencies (ms) until its players and its whole crowd had each choice:
    `landed` (version answered, sent, the players' process had it), `all_at` (version -> when the
    whole crowd had it). Also how many choices the crowd never all had."""
    latencies, missed = [], 0
    for version, sent, here in landed:
        crowd_at = all_at.get(version + 1)
        if crowd_at is None:
            missed += 1
            continue
        latencies.append((max(here, crowd_at) - sent) * 1000.0)
    return latencies, missed


class Crowd:
    """The crowd's spectators in a process of their own (``multiprocessing``, spawned: no state of
    this one), so that reading their updates takes nothing from the players' event loop. ``await
    start()`` returns once they have connected; ``await stop()`` closes them and returns how many
    connected, when the whole crowd had each version, and the errors."""

    def __init__(self, urls: list[str], origin: str):
        self.urls = urls
        self.origin = origin
        self.pipe = None
        self.process = None

    async def start(self) -> None:
        context = multiprocessing.get_context("spawn")
        self.pipe, child = context.Pipe()
        self.process = context.Process(target=_crowd_main, args=(child, self.urls, self.origin), daemon=True)
        self.process.start()
        child.close()
        ready = await self._receive(CROWD_START_TIMEOUT)
        if ready != "ready":
            raise RuntimeError(f"the crowd did not start: {ready!r}")

    async def stop(self) -> dict:
        try:
            self.pipe.send("stop")
            result = await self._receive(60.0)
        finally:
            await asyncio.get_running_loop().run_in_executor(None, self.process.join, 10)
            if self.process.is_alive():
                self.process.kill()
        return result

    async def _receive(self, timeout: float):
        loop = asyncio.get_running_loop()
        if not await loop.run_in_executor(None, self.pipe.poll, timeout):
            self.process.kill()
            raise RuntimeError("the crowd's process did not answer")
        return self.pipe.recv()


def _crowd_main(pipe, urls: list[str], origin: str) -> None:  # pragma: no cover - a child process
    asyncio.run(_crowd_watch(pipe, urls, origin))


async def _crowd_watch(pipe, urls: list[str], origin: str) -> None:  # pragma: no cover - its process
    from websockets.asyncio.client import connect

    errors: Counter = Counter()
    gate = asyncio.Semaphore(CONNECT_CONCURRENCY)

    async def open_one(url: str):
        async with gate:
            try:
                return await connect(
                    url, origin=_page_origin(url, origin), compression=None, proxy=None, open_timeout=30,
                    ping_interval=None, max_size=4 * 1024 * 1024, max_queue=None,
                )  # fmt: skip
            except Exception as exc:  # noqa: BLE001 - counted
                errors[f"connect:{type(exc).__name__}"] += 1
                return None

    sockets = [ws for ws in await asyncio.gather(*(open_one(url) for url in urls)) if ws is not None]
    count = CrowdCount(len(sockets))
    closing = False

    async def read(index: int, ws) -> None:
        try:
            async for raw in ws:
                head = head_of(raw)
                if isinstance(head, tuple):
                    count.saw(index, head[0], time.monotonic())
                elif head is not None:
                    errors[f"server:{head}"] += 1
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001
            if not closing:
                errors[f"closed:{type(exc).__name__}"] += 1

    readers = [asyncio.create_task(read(i, ws)) for i, ws in enumerate(sockets)]
    loop = asyncio.get_running_loop()
    pipe.send("ready")
    await loop.run_in_executor(None, pipe.recv)  # "stop"
    closing = True
    for task in readers:
        task.cancel()
    await asyncio.gather(*readers, return_exceptions=True)

    async def close(ws) -> None:
        try:
            await asyncio.wait_for(ws.close(), 5)
        except Exception:  # noqa: BLE001 - closing at the end
            pass

    await asyncio.gather(*(close(ws) for ws in sockets))
    pipe.send({"connected": len(sockets), "all_at": count.all_at, "errors": dict(errors)})


# ---------------------------------------------------------------------------------- the flood ----
@dataclass
class FloodPlan:
    """What the flood hits beside the tables (issue 12: a flood of replay pages and event sockets
    slowed every table): a finished game's replay, at `steps` + 1 steps and `seats` seats, and an
    event's socket."""

    replay_id: str
    steps: int
    seats: int
    event_id: int


class Flood:
    """`workers` loops fetching replay pages (a random step and seat each, so nothing can be served
    from a cache) and `workers` loops opening an event socket, reading its state, sending it a
    message and closing it, all as fast as the server answers, against the same server(s) as the
    tables. ``start()`` inside the running loop, ``await stop()`` for the counts."""

    def __init__(self, ws_bases: list[str], origin: str, plan: FloodPlan, workers: int, seed: int = 1):
        self.ws_bases = ws_bases
        self.origin = origin
        self.plan = plan
        self.workers = workers
        self.rng = random.Random(seed)
        self.running = False
        self.tasks: list[asyncio.Task] = []
        self.replay_ms: list[float] = []
        self.sockets = 0
        self.errors: Counter = Counter()

    def start(self) -> None:
        self.running = True
        loop = asyncio.get_running_loop()
        for i in range(self.workers):
            base = self.ws_bases[i % len(self.ws_bases)]
            self.tasks.append(loop.create_task(self._replays(base)))
            self.tasks.append(loop.create_task(self._event_sockets(base)))

    async def stop(self) -> dict:
        self.running = False
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        return {
            "workers": self.workers,
            "replay_pages": len(self.replay_ms),
            "replay_ms_p50": percentile(self.replay_ms, 50),
            "replay_ms_p99": percentile(self.replay_ms, 99),
            "event_sockets": self.sockets,
            "errors": dict(sorted(self.errors.items())),
        }

    async def _replays(self, base: str) -> None:
        parts = urlsplit(base)
        while self.running:
            step = self.rng.randint(0, self.plan.steps)
            path = (
                f"/play/g/{self.plan.replay_id}/replay/?step={step}&as={self.rng.randrange(self.plan.seats)}"
            )
            started = time.perf_counter()
            try:
                status = await http_get(parts.hostname, parts.port, path)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - counted; the flood goes on
                self.errors[f"replay:{type(exc).__name__}"] += 1
                await asyncio.sleep(0.05)
                continue
            if status == 200:
                self.replay_ms.append((time.perf_counter() - started) * 1000.0)
            else:
                self.errors[f"replay:{status}"] += 1

    async def _event_sockets(self, base: str) -> None:
        from websockets.asyncio.client import connect

        url = f"{base}/ws/events/{self.plan.event_id}/"
        while self.running:
            try:
                async with connect(
                    url,
                    origin=_page_origin(url, self.origin),
                    proxy=None,
                    open_timeout=30,
                    ping_interval=None,
                ) as ws:
                    first = json.loads(await ws.recv())
                    if first.get("type") != "state":
                        self.errors[f"event:{first.get('code', first.get('type'))}"] += 1
                        continue
                    await ws.send("{}")  # read-only: answered with an error, as a page's stray message
                    await ws.recv()
                    self.sockets += 1
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001
                self.errors[f"event:{type(exc).__name__}"] += 1
                await asyncio.sleep(0.05)


async def http_get(host: str, port: int, path: str, timeout: float = 30.0) -> int:
    """GET `path` from a loopback server over a fresh connection; the status code (the body is
    read to the end and dropped)."""

    async def fetch() -> int:
        reader, writer = await asyncio.open_connection(host, port)
        try:
            writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n".encode())
            await writer.drain()
            head = await reader.readline()
            while await reader.read(65536):
                pass
            return int(head.split(b" ", 2)[1])
        finally:
            writer.close()

    return await asyncio.wait_for(fetch(), timeout)
