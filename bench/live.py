"""The live board under many watchers (#33): a move, then every socket's new state.

    PYTHONPATH=. python -m bench.live [--sockets 1000] [--moves 20] [--answer-moves 20]

One process serves a Tock table (a person and three bots, real service over SQLite) and its
live page; a second process opens ``--sockets`` watching sockets (spectators) to it. The
person makes ``--moves`` moves; for every socket and move: the time from the commit (the
service telling its listeners) to that socket receiving the new state. Printed: p50, p99
and max (goal: p99 <= 250 ms), how many states arrived of how many owed, and how many
times a state was serialised (once per version and kind of reader, not once per socket).

Then the click -> answer figure of :mod:`bench.answer_delay` (two people playing through
the fake Discord, boards slowed by ``--render``) twice, back to back: without sockets, and
with ``--sockets`` sockets watching that table.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
from asyncio.subprocess import Process
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from aiohttp import web

from bot.bots.choosers import random_chooser
from bot.service import TableService, open_tables
from bot.web.server import LiveServer, WebConfig

PERSON = 100


# --- the watching process ----------------------------------------------------------------------


class Watcher(asyncio.Protocol):
    """One watching socket, as light as a socket can be: the WebSocket handshake by hand,
    then only the arrival time of each state's version is noted (the server sends text
    frames unmasked and uncompressed, the version near the start of each state). A real
    client's parsing is its own machine's business; here it would share the server's cores
    and be counted in the server's figure."""

    def __init__(self, hello: bytes, ready: asyncio.Event) -> None:
        self.hello = hello
        self.ready = ready
        self.handshaken = False
        self.buffer = b""
        self.arrivals: list[tuple[int, float]] = []
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        now = time.time()
        if not self.handshaken:
            self.buffer += data
            head, found, rest = self.buffer.partition(b"\r\n\r\n")
            if not found:
                return
            assert b" 101 " in head.split(b"\r\n", 1)[0], head
            self.handshaken = True
            assert self.transport is not None
            self.transport.write(self.hello)
            data, self.buffer = rest, b""
        # A version marker may be cut between two reads: keep the tail of the last one.
        data, self.buffer = self.buffer + data, b""
        at = data.find(b'"version":')
        while at >= 0:
            end = data.find(b",", at)
            if end < 0:
                self.buffer = data[at:]
                return
            self.arrivals.append((int(data[at + 10 : end]), now))
            self.ready.set()
            at = data.find(b'"version":', end)
        self.buffer = data[-12:]


def client_frame(text: str) -> bytes:
    """A masked text frame, as a client must send it (RFC 6455)."""
    payload = text.encode()
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    if len(payload) < 126:
        head = bytes([0x81, 0x80 | len(payload)])
    else:
        head = bytes([0x81, 0x80 | 126]) + len(payload).to_bytes(2, "big")
    return head + mask + masked


async def watch(url: str, table: int, count: int) -> None:
    """Open ``count`` sockets on ``table``, say "ready", record each state's arrival until
    stdin closes, then print every (version, arrival) as JSON."""
    address = url.removeprefix("ws://")
    hostport, _, path = address.partition("/")
    host, _, port = hostport.partition(":")
    request = (
        f"GET /{path} HTTP/1.1\r\nHost: {hostport}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n"
    ).encode()
    hello = client_frame(json.dumps({"type": "hello", "table": table, "session": None}))
    loop = asyncio.get_running_loop()
    watchers: list[Watcher] = []
    for _ in range(count):
        watcher = Watcher(hello, asyncio.Event())
        transport, _ = await loop.create_connection(lambda w=watcher: w, host, int(port))  # type: ignore[misc]
        transport.write(request)
        watchers.append(watcher)
    await asyncio.gather(*(w.ready.wait() for w in watchers))
    print("ready", flush=True)
    await loop.run_in_executor(None, sys.stdin.read)
    for watcher in watchers:
        if watcher.transport is not None:
            watcher.transport.close()
    print(json.dumps([w.arrivals for w in watchers]), flush=True)


@contextlib.asynccontextmanager
async def watchers(url: str, table: int, count: int) -> AsyncIterator[Process]:
    """The watching process, once every socket got its first state."""
    env = {**os.environ, "PYTHONPATH": os.environ.get("PYTHONPATH", ".")}
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bench.live",
        "--watch",
        url,
        str(table),
        str(count),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        env=env,
    )
    assert child.stdout is not None
    line = (await child.stdout.readline()).decode()
    if line.strip() != "ready":
        child.kill()
        raise RuntimeError(f"the watchers did not start: {line!r}")
    try:
        yield child
    finally:
        if child.returncode is None:
            child.kill()
            await child.wait()


async def collect(child: Process) -> list[list[tuple[int, float]]]:
    """Stop the watchers and read what each socket received."""
    out, _ = await asyncio.wait_for(child.communicate(b""), 120)
    last = out.decode().splitlines()[-1]
    return [[(int(v), float(t)) for v, t in socket] for socket in json.loads(last)]


@contextlib.asynccontextmanager
async def serving(service: TableService) -> AsyncIterator[tuple[LiveServer, str]]:
    """The live server over ``service`` on a free local port, and its socket's URL."""
    server = LiveServer(service, WebConfig(public_url="http://127.0.0.1"))
    runner = web.AppRunner(server.app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0, backlog=2048)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        yield server, f"ws://127.0.0.1:{port}/live/socket"
    finally:
        await runner.cleanup()


# --- fan-out ------------------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def fan_out(count: int, moves: int) -> dict[str, Any]:
    """Moves on a watched table: the delay from each commit to each socket's new state."""
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'live.sqlite3'}"
        async with open_tables(url, choose_bot_move=random_chooser) as service:
            opened = await service.create(
                1, 2, "tock", PERSON, "Ann", players=4, seed=7, live_watch=True
            )
            table = opened.table.id
            for _ in range(3):
                await service.add_bot(table, PERSON)
            await service.start_game(table, PERSON)
            committed: dict[int, float] = {}
            service.live.listen(lambda _t, v: committed.__setitem__(v, time.time()))
            async with serving(service) as (server, socket_url):
                async with watchers(socket_url, table, count) as child:
                    made = 0
                    for _ in range(moves * 4):
                        if made == moves:
                            break
                        info = await service.private_info(table, PERSON)
                        if not info.to_act:
                            break
                        await service.act(table, PERSON, info.legal_moves[0], info.table.version)
                        made += 1
                        await asyncio.sleep(0.5)  # every socket has its state long before
                    arrivals = await collect(child)
                serialised = server.hub.serialised
    delays = [
        (arrived - committed[version]) * 1000
        for socket in arrivals
        for version, arrived in socket[1:]  # the first is the hello's
        if version in committed
    ]
    return {
        "sockets": count,
        "moves": made,
        "states": len(delays),
        "owed": count * made,
        "p50": percentile(delays, 0.5),
        "p99": percentile(delays, 0.99),
        "max": max(delays),
        "serialised": serialised,
    }


# --- the click -> answer figure with sockets ---------------------------------------------------


async def answer_delays(moves: int, render: float, sockets: int) -> list[float]:
    """bench.answer_delay's figure, with ``sockets`` watching the table when > 0."""
    from bench import answer_delay

    start = answer_delay.start_for_two
    held: list[Any] = []

    async def start_watched(world: Any, game: str, seed: int, **options: Any) -> Any:
        table_id, thread = await start(world, game, seed, watch_live=True, **options)
        if sockets:
            serve = serving(world.desk.service)
            _, socket_url = await serve.__aenter__()
            watch_them = watchers(socket_url, table_id, sockets)
            child = await watch_them.__aenter__()
            held.extend([(serve, watch_them, child)])
        return table_id, thread

    answer_delay.start_for_two = start_watched  # type: ignore[assignment]
    try:
        return await answer_delay.measure(moves, render)
    finally:
        answer_delay.start_for_two = start
        for serve, watch_them, _child in held:
            await watch_them.__aexit__(None, None, None)
            await serve.__aexit__(None, None, None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sockets", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--answer-moves", type=int, default=20)
    parser.add_argument("--render", type=float, default=0.4)
    parser.add_argument("--watch", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.watch:
        url, table, count = args.watch
        asyncio.run(watch(url, int(table), int(count)))
        return
    figures = asyncio.run(fan_out(args.sockets, args.moves))
    print(
        f"move -> state on {figures['sockets']} sockets over {figures['moves']} moves: "
        f"p50 {figures['p50']:.0f} ms, p99 {figures['p99']:.0f} ms, max {figures['max']:.0f} ms "
        f"({figures['states']} of {figures['owed']} states; {figures['serialised']} "
        f"serialisations); load {os.getloadavg()[0]:.2f}"
    )
    if args.answer_moves:
        for count in (0, args.sockets):
            ms = [
                d * 1000 for d in asyncio.run(answer_delays(args.answer_moves, args.render, count))
            ]
            print(
                f"commit -> answer with {count} sockets watching, {len(ms)} clicks "
                f"(boards +{args.render} s): median {statistics.median(ms):.0f} ms, "
                f"max {max(ms):.0f} ms; load {os.getloadavg()[0]:.2f}"
            )


if __name__ == "__main__":
    main()
