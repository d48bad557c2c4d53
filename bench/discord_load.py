"""Tables with bots under load: the real bot process against the fake Discord.

    python -m bench.discord_load [--levels easy normal hard] [--tables 40] [--guilds 4]
                                 [--duration 60] [--asked-by hand|board] [--verbose]
                                 [--code DIR] [--database-url URL]

For each bot level, a fresh fake Discord (``tests/fakediscord``) and a fresh ``poeppel run``
process (``bench/bot_under_load.py``, which adds an event-loop lag probe and notes when the
service stored each click's change) over a fresh SQLite file (or ``--database-url``).
``--tables`` Tock tables of four are opened on ``--guilds`` servers, each with one person and
three bots of the level; then for ``--duration`` seconds every person plays as a person does:
from the private hand that follows the game as soon as it says it is their turn (the card,
the move; the card to pass), and from the thread's board ("Show my hand") when no hand of
theirs is open or the board has asked them for 2 s while the hand stayed silent. With
``--asked-by board`` a person plays a turn only once the thread's board asks for it (the
steps within one prompt go on at once). ``--code`` runs another checkout's bot (e.g. main's,
for a "before" figure). A level takes ``--duration`` + 20 to 35 seconds.

Printed per level (issue 30's figures and issue 29's answer delay, in one run):

* moves/s: entries added to the tables' move logs (the people's and the bots' moves), read
  from the SQLite file; thread posts/s (public messages, on the thread's route or as a
  click's follow-up) and the requests/s on routes under Discord's global limit of 50 a second
  (the publisher paces itself to 40: ``bot/discord_ui/pace.py``; interaction routes are not
  bound to it: ``bot/discord_ui/click_route.py``);
* click → ack: from a click to the bot's initial response (Discord's 3 s deadline);
* click → board: from a click that stored a change (a move, a card passed) to the first board
  image in the table's thread made for that change's version or a later one (posted or
  edited in); changes clicked more than 5 s before the end with no such board are counted
  as never posted;
* click → turn: from that click to the moment the person is asked again (the bots played);
* answer after commit: from the service storing a click's change (the bot process's clock)
  to the bot's next touch of that interaction (its answer), p99 and max, and how many came
  later than 1 s (issue 29);
* loop lag: how late a 10 ms timer fires in the bot process's event loop, during the run;
* CPU: the bot process's own CPU time during the run as a share of one core (the event loop's
  process: issue 30 wants it under one core), and its worker processes' (bot searches, board
  drawing) together, read from ``/proc``;
* the waits the driver gave up, by what it waited for (a stall shows here; ``--verbose``
  prints every 5 s what the players wait for, and SIGUSR1 to the bot process writes what
  each of its tasks awaits to ``$TMPDIR/discord_load_tasks.txt``).

For hard bots the budgets of issue 23 are checked (ack p99 ≤ 100 ms, lag p99 ≤ 50 ms, board
p50 ≤ 2 s and p99 ≤ 5 s). The machine is shared: figures are noisy, so compare runs made back
to back; the load average is printed with them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import signal
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.bot.test_two_processes import process_env
from tests.fakediscord import rest
from tests.fakediscord.models import Channel, Message, iter_components
from tests.fakediscord.scripting import ScriptedUser
from tests.fakediscord.server import FakeDiscord

ROOT = Path(__file__).resolve().parent.parent
WRAPPER = Path(__file__).with_name("bot_under_load.py")
#: A step nobody answered in this long is given up (the driver starts over from the board).
STEP_LIMIT = 120.0
VERSION_IN_ID_ANYWHERE = re.compile(r"t:\d+:v:(\d+):")
#: Seconds a person with an open hand lets the board ask them before they open a new hand
#: from it (the open hand did not follow the game).
BOARD_PATIENCE = 2.0
#: A change clicked this long before the end without a board of it counts as never posted.
UNPOSTED_AFTER = 5.0
#: The version given to a board image without controls (the end of the game).
FINAL_BOARD = 10**9
#: After the play, how long the boards of the last changes are waited for (so that a board
#: slower than the end of the run is timed, not taken for one never posted).
LAST_BOARDS_WAIT = 15.0
#: The budgets of issue 23 for tables with three hard bots (seconds).
HARD_BUDGETS = {
    "click→ack p99": 0.100,
    "loop lag p99": 0.050,
    "click→board p50": 2.0,
    "click→board p99": 5.0,
}
#: The fake's route pattern of a message posted in a channel or thread.
POST_MESSAGE = "^/channels/(?P<channel>[^/]+)/messages$"
#: ... and of a message edited.
EDIT_MESSAGE = "^/channels/(?P<channel>[^/]+)/messages/(?P<message>[^/]+)$"
#: ... and the same through an interaction's token (a click's board goes out as a follow-up).
POST_FOLLOWUP = "^/webhooks/(?P<app>[^/]+)/(?P<token>[^/]+)$"
EDIT_FOLLOWUP = "^/webhooks/(?P<app>[^/]+)/(?P<token>[^/]+)/messages/(?P<message>[^/]+)$"
MESSAGE_ROUTES = (POST_MESSAGE, EDIT_MESSAGE, POST_FOLLOWUP, EDIT_FOLLOWUP)


def percentile(values: list[float], fraction: float) -> float:
    """The ``fraction`` quantile of ``values`` (nearest rank); NaN when empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) of process ``pid`` so far, from ``/proc`` (0 when gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children_cpu(pid: int) -> dict[int, float]:
    """CPU time so far of every child process of ``pid`` (its workers)."""
    found: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found[int(entry.name)] = cpu_seconds(int(entry.name))
    return found


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.2f}/{five:.2f} ({os.cpu_count()} cores)"


def versions_in(components: Any) -> list[int]:
    """The table versions named by the custom_ids of ``components`` (raw dicts)."""
    return [int(v) for v in VERSION_IN_ID_ANYWHERE.findall(json.dumps(components or []))]


@dataclass
class Watch:
    """What the fake saw, with times: acknowledgements, every touch of an interaction, the
    board images the threads got, the requests under Discord's global limit, and a wake-up
    for the drivers whenever the bot did anything."""

    acks: dict[int, float] = field(default_factory=dict)
    #: Interaction id -> wall times the bot touched it (its deferral, its answers).
    touches: dict[int, list[float]] = field(default_factory=dict)
    #: Thread id -> (time, table version) of each public post or edit that carried a board
    #: image (on the thread's route, or as a click's follow-up).
    boards: dict[int, list[tuple[float, int]]] = field(default_factory=dict)
    #: Thread id -> times of the messages posted in it.
    posts: dict[int, list[float]] = field(default_factory=dict)
    #: Requests on routes bound to Discord's global limit (not the interaction routes).
    limited: int = 0
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    def install(self, fake: FakeDiscord) -> Callable[[], None]:
        """Wrap the fake's route handlers; returns the function that unwraps them."""
        original = list(rest.ROUTES)

        def wrap(method: str, regex: Any, handler: Any, auth: bool) -> Any:
            is_callback = regex.pattern.endswith("/callback$")
            exempt = is_callback or regex.pattern.startswith("^/webhooks/")
            message_route = regex.pattern in MESSAGE_ROUTES

            async def watched(fake: FakeDiscord, req: Any) -> Any:
                result = await handler(fake, req)
                now = time.perf_counter()
                if is_callback:
                    self.acks.setdefault(int(req.args["interaction"]), now)
                if not exempt:
                    self.limited += 1
                public = isinstance(result, dict) and not int(result.get("flags") or 0) & 64
                if message_route and method in ("POST", "PATCH") and public:
                    # In the thread, on its route or as a click's follow-up (not a private one).
                    channel = int(result["channel_id"])
                    if method == "POST":
                        self.posts.setdefault(channel, []).append(now)
                    payload = req.payload if isinstance(req.payload, dict) else {}
                    found = versions_in(payload.get("components"))
                    if req.uploads:
                        # A board without controls is the game's last: after every change.
                        version = max(found) if found else FINAL_BOARD
                        self.boards.setdefault(channel, []).append((now, version))
                self.changed.set()
                return result

            return (method, regex, watched, auth)

        rest.ROUTES[:] = [wrap(*entry) for entry in original]
        touch = fake.touch

        def timed_touch(interaction: Any) -> None:
            self.touches.setdefault(interaction.id, []).append(time.time())
            touch(interaction)

        fake.touch = timed_touch  # type: ignore[method-assign]

        def restore() -> None:
            rest.ROUTES[:] = original

        return restore

    async def until(self, predicate: Callable[[], Any], limit: float = STEP_LIMIT) -> Any:
        """Wait until ``predicate()`` is true (re-checked whenever the bot made a request)."""
        deadline = time.perf_counter() + limit
        while not (value := predicate()):
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(left, 0.5))
        return value


@dataclass
class Figures:
    """The measurements of one run."""

    acks: list[float] = field(default_factory=list)
    #: (thread, click time, version clicked, interaction) of every click that stored a change.
    commits: list[tuple[int, float, int, int]] = field(default_factory=list)
    turns: list[float] = field(default_factory=list)
    #: Waits given up, by what was awaited (the driver's log of where players stall).
    timeouts: dict[str, int] = field(default_factory=dict)
    late_acks: int = 0
    #: Times a person opened their hand from the board (the first time, or when the open hand
    #: did not follow the game).
    from_board: int = 0

    def gave_up(self, what: str) -> None:
        self.timeouts[what] = self.timeouts.get(what, 0) + 1


def newest_board(fake: FakeDiscord, thread: Channel) -> Message | None:
    """The newest message of the thread with controls (the board to play from)."""
    ids = fake.channel_messages.get(thread.id, [])
    for message_id in reversed(ids):
        message = fake.messages_by_id[message_id]
        if message.components and not message.ephemeral and not message.deleted:
            return message
    return None


def version_of(message: Message) -> int:
    """The table version a message's controls were made for (-1 without any)."""
    return max(versions_in(message.components), default=-1)


def enabled(message: Message) -> list[dict[str, Any]]:
    return [c for c in iter_components(message.components) if not c.get("disabled")]


def state(message: Message) -> tuple[str, str]:
    return (message.content, repr(message.components))


class Player:
    """One person at one table, playing as a person does: from the private hand that follows
    the game whenever it says it is their turn, and from the thread's board (its "Show my
    hand") when no hand of theirs is open or the board asks for them while the hand still
    shows an older turn."""

    def __init__(
        self,
        fake: FakeDiscord,
        watch: Watch,
        user: ScriptedUser,
        thread: Channel,
        figures: Figures,
        rng: random.Random,
    ) -> None:
        self.fake, self.watch, self.user, self.thread = fake, watch, user, thread
        self.figures, self.rng = figures, rng
        #: The private prompt that follows the game for this person.
        self.hand: Message | None = None
        #: The hand as it was when last clicked (a prompt unchanged since is not clicked again).
        self.clicked: tuple[str, str] | None = None
        #: The card to pass is chosen for this deal: its buttons stay to change it, not clicked.
        self.gave = False
        #: When the newest board first asked this person while their hand showed no turn.
        self.board_asks: tuple[int, float] | None = None
        #: The last click that stored a change: (time, version); for the click -> turn figure.
        self.committed: tuple[float, int] | None = None
        #: What the player waits for now (printed with ``--verbose``).
        self.waiting = "start"
        #: Plays a turn only once the thread's board asks for it (``--asked-by board``).
        self.board_only = False
        #: The version of the controls last clicked in the hand.
        self.last_clicked = -1

    def _choose(self, controls: list[dict[str, Any]]) -> dict[str, Any] | None:
        def having(part: str) -> list[dict[str, Any]]:
            return [c for c in controls if part in str(c.get("custom_id", ""))]

        for part in (":give:", ":mv:", ":ms:", ":jok:", ":card:", ":fold"):
            found = having(part)
            if part == ":give:" and self.gave:
                continue
            if found:
                return self.rng.choice(found)
        return None

    def _next(self) -> tuple[Message, dict[str, Any]] | None:
        """What the person clicks next, once there is something: a control of their hand that
        asks them, else the board's "Show my hand"."""
        hand = self.hand
        board = newest_board(self.fake, self.thread)
        asking = board is not None and f"<@{self.user.id}>" in board.content
        if hand is not None and not hand.deleted and state(hand) != self.clicked:
            choice = self._choose(enabled(hand))
            # Following the board: a turn the thread has not asked for yet waits for it (the
            # steps within one prompt, a card's moves after the card, go on at once).
            seen = (
                not self.board_only
                or version_of(hand) == self.last_clicked
                or (asking and board is not None and version_of(board) >= version_of(hand))
            )
            if choice is not None and seen:
                self.board_asks = None
                return hand, choice
        if board is None or not asking:
            return None
        version = version_of(board)
        if hand is not None and not hand.deleted and version_of(hand) >= version:
            return None  # the hand shows this turn (or a later one): it is played from there
        show = next((c for c in enabled(board) if c.get("custom_id", "").endswith(":hand")), None)
        if show is None:
            return None
        now = time.perf_counter()
        if self.board_asks is None or self.board_asks[0] != version:
            self.board_asks = (version, now)
        # With a hand open, a person looks at the board only when the hand stays silent.
        if hand is None or hand.deleted or now - self.board_asks[1] >= BOARD_PATIENCE:
            return board, show
        return None

    async def _click(self, message: Message, component: dict[str, Any]) -> Any:
        """Click a button or pick a random option of a select; note the time to the ack."""
        started = time.perf_counter()
        if component["type"] == 3:
            value = self.rng.choice([o["value"] for o in component["options"]])
            result = await self.user.select(
                message, custom_id=component["custom_id"], values=[value], wait=False
            )
        else:
            result = await self.user.click(message, custom_id=component["custom_id"], wait=False)
        interaction = result.interaction
        try:
            await self.watch.until(lambda: interaction.id in self.watch.acks, 30)
        except TimeoutError:
            self.figures.gave_up("acknowledgement")
            return result
        if result.errors:
            self.figures.late_acks += 1
        self.figures.acks.append(self.watch.acks[interaction.id] - started)
        return result

    async def play(self, stop_at: float) -> None:
        while time.perf_counter() < stop_at:
            self.waiting = "to be asked (hand or board)"
            try:
                message, control = await self.watch.until(
                    self._next, max(0.1, stop_at - time.perf_counter())
                )
            except TimeoutError:
                return
            if message is self.hand:
                await self._on_hand(message, control)
            else:
                await self._open_hand(message, control)

    async def _open_hand(self, board: Message, show: dict[str, Any]) -> None:
        self.figures.from_board += 1
        self.waiting = "the hand opened from the board"
        result = await self._click(board, show)

        def prompt() -> Message | None:
            for message in result.visible_to(self.user):
                if message.ephemeral and not message.loading and message.id != board.id:
                    return message
            return None

        try:
            self.hand = await self.watch.until(prompt)
        except TimeoutError:
            self.figures.gave_up("the hand opened from the board")
            return
        self.clicked = None
        self.board_asks = None

    async def _on_hand(self, hand: Message, control: dict[str, Any]) -> None:
        custom_id = str(control.get("custom_id", ""))
        version = version_of(hand)
        if self.committed is not None and version > self.committed[1]:
            # Asked again (the bots have played): the turn figure of the last change stored.
            self.figures.turns.append(time.perf_counter() - self.committed[0])
            self.committed = None
        before = state(hand)
        self.clicked = before
        self.last_clicked = version
        self.waiting = f"the answer to {custom_id}"
        clicked_at = time.perf_counter()
        result = await self._click(hand, control)
        try:
            await self.watch.until(lambda: state(hand) != before or hand.deleted, 30)
        except TimeoutError:
            self.figures.gave_up("the answer in the hand")
            return
        if version_of(hand) > version:  # the click stored a change (a move, a card passed)
            self.committed = (clicked_at, version)
            self.figures.commits.append(
                (self.thread.id, clicked_at, version, result.interaction.id)
            )
            # After the card passed, its buttons stay (to change it) until the deal is played.
            self.gave = ":give:" in custom_id


async def until_alive(
    predicate: Callable[[], Any], process: asyncio.subprocess.Process, limit: float, what: str
) -> None:
    deadline = time.monotonic() + limit
    while not predicate():
        if process.returncode is not None:
            raise RuntimeError(f"the bot process exited ({process.returncode}) before {what}")
        if time.monotonic() > deadline:
            raise TimeoutError(what)
        await asyncio.sleep(0.05)


async def open_tables(
    fake: FakeDiscord, watch: Watch, tables: int, guilds: int, level: str, with_option: bool
) -> list[tuple[ScriptedUser, Channel]]:
    servers = []
    for number in range(guilds):
        guild = fake.add_guild(f"Server {number}")
        servers.append((guild, fake.add_channel(guild, "games")))

    async def one(index: int) -> tuple[ScriptedUser, Channel]:
        guild, channel = servers[index % guilds]
        user = fake.add_user(f"player{index}", guild=guild)
        options: dict[str, Any] = {"players": 4}
        if with_option:
            options["bot_level"] = level
        opened = await user.slash(channel, "tock new", timeout=STEP_LIMIT, **options)
        text = " ".join(m.text for m in opened.messages)
        table = int(text.split("#", 1)[1].split(" ", 1)[0])
        lobby = next(
            m
            for m in reversed(fake.messages(channel))
            if re.search(rf"#{table} — ", m.text.split("\n", 1)[0])
        )
        for _ in range(3):
            await user.click(lobby, label="Add bot", timeout=STEP_LIMIT)
        await user.click(lobby, label="Start", timeout=STEP_LIMIT)
        assert lobby.thread_id is not None
        return user, fake.channel_of(lobby.thread_id)

    # A few at a time: opening is not what is measured.
    opened: list[tuple[ScriptedUser, Channel]] = []
    for start in range(0, tables, 8):
        opened += await asyncio.gather(*(one(i) for i in range(start, min(tables, start + 8))))
    return opened


def logged_moves(database: Path) -> int:
    """The log entries of every table so far (moves, bots' moves, automatic actions), read
    from the bot's SQLite file (0 when it cannot be read)."""
    try:
        with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
            row = db.execute("SELECT COALESCE(SUM(log_length), 0) FROM tables").fetchone()
    except sqlite3.Error:
        return 0
    return int(row[0])


def board_delays(figures: Figures, watch: Watch, ended: float) -> tuple[list[float], int]:
    """For each change a click stored, the seconds until the thread got a board image of that
    version or a later one; and how many changes made more than ``UNPOSTED_AFTER`` seconds
    before the end of the play got none (the boards are waited for a while after it)."""
    delays: list[float] = []
    missing = 0
    for thread, clicked, version, _ in figures.commits:
        shown = [t for t, v in watch.boards.get(thread, []) if t >= clicked and v > version]
        if shown:
            delays.append(min(shown) - clicked)
        elif ended - clicked > UNPOSTED_AFTER:
            missing += 1
    return delays, missing


def all_posted(figures: Figures, watch: Watch) -> bool:
    """Whether every change clicked has a board of its version (or a later one) by now."""
    newest: dict[int, int] = {}
    for thread, boards in watch.boards.items():
        newest[thread] = max((v for _, v in boards), default=-1)
    return all(newest.get(thread, -1) > version for thread, _, version, _ in figures.commits)


def answer_delays(figures: Figures, watch: Watch, commits: dict[int, float]) -> list[float]:
    """For each click that stored a change, the seconds from the commit (the bot process's
    clock) to the bot's next touch of the interaction (its answer)."""
    delays = []
    for _, _, _, interaction in figures.commits:
        committed = commits.get(interaction)
        if committed is None:
            continue
        after = [t for t in watch.touches.get(interaction, []) if t >= committed]
        delays.append(min(after) - committed if after else float("inf"))
    return delays


async def run_level(args: argparse.Namespace, level: str) -> str:
    figures = Figures()
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        lag_file = work / "lag.json"
        commit_file = work / "commits.json"
        sqlite_file = work / "bench.sqlite3"
        watch = Watch()
        async with FakeDiscord() as fake:
            restore = watch.install(fake)
            try:
                database = args.database_url or f"sqlite:///{sqlite_file}"
                env = process_env(fake, database)
                env.update(
                    PYTHONPATH=args.code,
                    BENCH_LAG_FILE=str(lag_file),
                    BENCH_COMMIT_FILE=str(commit_file),
                    BENCH_BOT_LEVEL=level,
                    BENCH_TASKS_FILE=str(Path(tempfile.gettempdir()) / "discord_load_tasks.txt"),
                )
                log = (work / "bot.log").open("wb")
                process = await asyncio.create_subprocess_exec(
                    sys.executable, "-P", str(WRAPPER), env=env, cwd=work, stdout=log, stderr=log
                )
                try:
                    await until_alive(
                        lambda: fake.global_commands and fake.connected_shards,
                        process,
                        120,
                        "connecting",
                    )
                    tock = next(c for c in fake.global_commands if c["name"] == "tock")
                    new = next(o for o in tock.get("options", []) if o["name"] == "new")
                    with_option = any(o["name"] == "bot_level" for o in new.get("options", []))
                    # The fake's 3 s deadline stays: a late answer is counted, not hidden.
                    players = await open_tables(
                        fake, watch, args.tables, args.guilds, level, with_option
                    )
                    threads = {thread.id for _, thread in players}
                    started_wall, started = time.time(), time.perf_counter()
                    moves_before = logged_moves(sqlite_file)
                    posts_before = sum(len(watch.posts.get(t, [])) for t in threads)
                    limited_before = watch.limited
                    before = load()
                    main_cpu = cpu_seconds(process.pid)
                    workers_cpu = children_cpu(process.pid)
                    stop_at = started + args.duration
                    rng = random.Random(7)
                    drivers = [
                        Player(fake, watch, user, thread, figures, random.Random(rng.random()))
                        for user, thread in players
                    ]
                    for driver in drivers:
                        driver.board_only = args.asked_by == "board"
                    reporter = asyncio.create_task(report_waits(drivers, args.verbose))
                    try:
                        await asyncio.gather(*(driver.play(stop_at) for driver in drivers))
                    finally:
                        reporter.cancel()
                    elapsed = time.perf_counter() - started
                    ended_wall, ended = time.time(), time.perf_counter()
                    main_share = (cpu_seconds(process.pid) - main_cpu) / elapsed
                    workers_share = (
                        sum(
                            seconds - workers_cpu.get(child, 0.0)
                            for child, seconds in children_cpu(process.pid).items()
                        )
                        / elapsed
                    )
                    moves = logged_moves(sqlite_file) - moves_before
                    posts = sum(len(watch.posts.get(t, [])) for t in threads) - posts_before
                    limited = watch.limited - limited_before
                    with contextlib.suppress(TimeoutError):
                        await watch.until(lambda: all_posted(figures, watch), LAST_BOARDS_WAIT)
                except BaseException:
                    log.flush()
                    tail = (work / "bot.log").read_text(errors="replace")[-3000:]
                    print(f"the bot process said:\n{tail}", file=sys.stderr)
                    raise
                finally:
                    if process.returncode is None:
                        process.send_signal(signal.SIGTERM)
                        try:
                            await asyncio.wait_for(process.wait(), 60)
                        except TimeoutError:
                            process.kill()
                            await process.wait()
                    log.close()
            finally:
                restore()
        lags = []
        if lag_file.exists():
            lags = [
                lag
                for wall, lag in json.loads(lag_file.read_text())
                if started_wall <= wall <= ended_wall
            ]
        commits: dict[int, float] = {}
        if commit_file.exists():
            commits = {int(k): v for k, v in json.loads(commit_file.read_text()).items()}
        output = (work / "bot.log").read_text(errors="replace")
        errors = output.count("Traceback")
        first_error = output[output.find("Traceback") :][:2000] if errors else ""
    ms = 1000.0
    acks, turns = figures.acks, figures.turns
    boards, unposted = board_delays(figures, watch, ended)
    answers = answer_delays(figures, watch, commits)
    lag99 = percentile(lags, 0.99)
    stalls = ", ".join(f"{what} {count}" for what, count in figures.timeouts.items()) or "none"
    moves_text = (
        f"{moves / elapsed:5.1f} moves/s ({moves} in {elapsed:.0f} s)"
        if moves
        else ("moves/s n/a (not SQLite)")
    )
    answer_text = (
        f"answer after commit p99 {ms * percentile(answers, 0.99):.0f} / max "
        f"{ms * max(answers):.0f} ms ({sum(a > 1.0 for a in answers)} over 1 s)"
        if answers
        else "answer after commit n/a"
    )
    line = (
        f"{level:6} bots: {moves_text}, {posts / elapsed:.1f} thread posts/s, "
        f"{limited / elapsed:.1f} requests/s under the global limit\n"
        f"       click→ack p50 {ms * percentile(acks, 0.5):.0f} / p99 "
        f"{ms * percentile(acks, 0.99):.0f} ms | click→board p50 {percentile(boards, 0.5):.2f}"
        f" / p99 {percentile(boards, 0.99):.2f} s ({unposted} never posted) | click→turn p50 "
        f"{percentile(turns, 0.5):.2f} / p99 {percentile(turns, 0.99):.2f} s | {answer_text}\n"
        f"       CPU bot process {100 * main_share:.0f} %, workers {100 * workers_share:.0f} % |"
        f" loop lag p99 {ms * lag99:.0f} / max {ms * max(lags or [0]):.0f} ms | "
        f"{len(figures.commits)} changes clicked, {figures.from_board} hands opened from the "
        f"board, {figures.late_acks} late acks, {errors} tracebacks | waits given up: {stalls}"
        f"\n       load {before} -> {load()}"
    )
    if level == "hard":
        measured = {
            "click→ack p99": percentile(acks, 0.99),
            "loop lag p99": lag99,
            "click→board p50": percentile(boards, 0.5),
            "click→board p99": percentile(boards, 0.99),
        }
        verdicts = [
            f"{name} {'ok' if measured[name] <= limit else 'OVER'}"
            for name, limit in HARD_BUDGETS.items()
        ]
        line += "\n       budgets (issue 23, hard bots): " + ", ".join(verdicts)
    if first_error:
        line += f"\n       the bot process's first error:\n{first_error}"
    return line


async def report_waits(players: list[Player], verbose: bool) -> None:
    """With ``--verbose``: every 5 s, what the players wait for (where a driver stalls)."""
    if not verbose:
        return
    while True:
        await asyncio.sleep(5)
        counts: dict[str, int] = {}
        for player in players:
            what = VERSION_IN_ID_ANYWHERE.sub("t:…:", player.waiting)
            counts[what] = counts.get(what, 0) + 1
        print(f"  waiting: {counts}", file=sys.stderr, flush=True)


async def main(args: argparse.Namespace) -> None:
    print(
        f"code: {args.code}; {args.tables} tables on {args.guilds} servers; a person plays "
        f"when {'the board' if args.asked_by == 'board' else 'their open hand or the board'} "
        "asks"
    )
    for level in args.levels:
        line = await run_level(args, level)
        print(line, flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", nargs="+", default=["easy", "normal", "hard"])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--guilds", type=int, default=4)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of play per level")
    parser.add_argument("--code", default=str(ROOT), help="the checkout whose bot is run")
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--verbose", action="store_true", help="print what players wait for")
    parser.add_argument(
        "--asked-by",
        choices=("hand", "board"),
        default="hand",
        help="a person plays when their open hand or the board asks (hand), or only once the "
        "thread's board asks (board)",
    )
    arguments = parser.parse_args()
    arguments.code = str(Path(arguments.code).resolve())
    asyncio.run(main(arguments))
