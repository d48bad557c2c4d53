"""A fuzzer over the bot's components: every interaction, whatever it carries, is answered
privately in time and changes no table illegally.

Real custom_ids and select values are harvested from the messages the bot posted (boards,
prompts, lobbies) and mutated — table id (another table, 0, beyond BIGINT), version, action,
arguments, length and characters; component type; select values empty, duplicated, out of
range, not numbers, too long — and sent, on the real message or on a crafted one that carries
the mutated component (as a modified client could), by seated players, a spectator, a
moderator and a player who left. Some are modal submits (Pöppel opens no modals).

Counted: answered, unanswered (no answer, a deferral never filled, an answer refused by
Discord), public answers, tables changed illegally (a change by someone who was not to act,
or not starting with their own move), errors in the bot's log, and the answers that came later
than 1 s after the change their click made was stored. All but the first must be zero (the late
answers in the slow run only: a timed count, and the quick run shares a busy machine). Bounded
in count (``FUZZ_INTERACTIONS``, default 2,000, in the slow run; 300 in the quick one) and time.
By hand: ``FUZZ_INTERACTIONS=10000 pytest -m slow -s -k fuzzed`` prints the counts.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import dataclasses
import inspect
import logging
import os
import random
import time
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.discord_ui.rendering import Renderer
from bot.model.table import LogKind, Phase
from tests.bot.discord.conftest import World, running_world
from tests.bot.discord.driving import open_prompt
from tests.bot.discord.test_lobby import open_table
from tests.fakediscord.models import Message, iter_components
from tests.fakediscord.scripting import InteractionResult, ScriptedUser

COUNT = int(os.environ.get("FUZZ_INTERACTIONS", "2000"))
#: The interactions of the quick run (the default test run; the slow run sends ``COUNT``).
QUICK = 300
#: Wall-clock bound of the fuzzing loop (the test fails if the count is not reached by then).
TIME_LIMIT = max(240.0, COUNT / 20)
#: Interactions in flight at once (several users clicking at the same moment).
PARALLEL = 6
ACTIONS = [
    "join",
    "leave",
    "bot",
    "start",
    "hand",
    "tile",
    "hand2",
    "card",
    "jok",
    "pg",
    "mv",
    "ms",
    "fold",
    "give",
    "cpg",
    "cell",
    "cell2",
    "rot",
    "fig",
]
#: Seconds from a change stored to its answer beyond which an answer counts as late.
LATE = 1.0
#: The service's calls that store a change a click asked for.
COMMITS = ("act", "exchange_pick", "join", "leave", "add_bot", "start_game")
ODD_TEXT = ["", "-1", "x", "\u0663", "é", "a" * 41, "9" * 10, " 3", "3 ", "1_0", "0x1", "∞"]


def _tiny_png() -> bytes:
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (4, 4), "white").save(buffer, format="PNG")
    return buffer.getvalue()


def quick_renderer() -> Renderer:
    """The real renderer's cell order with tiny images: the fuzz is about answers."""
    png = _tiny_png()
    return dataclasses.replace(
        Renderer.load(),
        render_board=lambda *a, **k: png,
        render_hand=lambda *a, **k: png,
        render_placements=lambda *a, **k: png,
        render_figure_spots=lambda *a, **k: png,
    )


def is_board_post(message: Message) -> bool:
    """Whether ``message`` is a table's public board (a digest with its board image)."""
    return not message.ephemeral and any(f.filename.startswith("board-") for f in message.files)


@dataclasses.dataclass
class Tally:
    """What the fuzzer saw."""

    sent: int = 0
    answered: int = 0
    unanswered: int = 0
    late: int = 0
    slowest: float = 0.0
    public: int = 0
    illegal: int = 0
    legal_changes: int = 0
    stuck: int = 0
    errors: int = 0
    kinds: Counter[str] = dataclasses.field(default_factory=Counter)
    examples: list[str] = dataclasses.field(default_factory=list)

    def line(self) -> str:
        return (
            f"fuzz: {self.sent} interactions: {self.answered} answered privately, "
            f"{self.unanswered} unanswered, {self.late} answered later than {LATE:g} s after "
            f"the commit (slowest {self.slowest * 1000:.0f} ms), {self.public} public answers, "
            f"{self.illegal} tables "
            f"changed illegally ({self.legal_changes} moves by the seat to act), {self.stuck} "
            f"times a table in play had no board with controls, {self.errors} errors in the "
            "bot's log"
        )


class CraftedMessage:
    """The real message's payload with the mutated component in place of its components."""

    def __init__(self, real: Message, component: dict[str, Any]) -> None:
        self.id = real.id
        self._payload = real.payload()
        self._payload["components"] = [{"type": 1, "components": [component]}]

    def payload(self) -> dict[str, Any]:
        return copy.deepcopy(self._payload)


@dataclasses.dataclass
class Target:
    """A real component: where it is, what it is."""

    message: Message
    component: dict[str, Any]


def _interaction_id() -> int | None:
    """The id of the interaction whose handling called the service (its task's frames hold
    it as ``interaction``); None for the bot's own work (turn clock, deliveries)."""
    frame = inspect.currentframe()
    while frame is not None:
        found = frame.f_locals.get("interaction")
        if found is not None and hasattr(found, "id") and hasattr(found, "followup"):
            return int(found.id)
        frame = frame.f_back
    return None


class AnswerClock:
    """When the service stored each interaction's change, and when the fake saw the bot touch
    each interaction (its deferral, then its answer): how long an answer came after the
    commit."""

    def __init__(self, world: World) -> None:
        self.commits: dict[int, float] = {}
        self.touches: dict[int, list[float]] = {}
        service = world.desk.service  # type: ignore[union-attr]
        for name in COMMITS:
            setattr(service, name, self._timed(getattr(service, name)))
        touch = world.fake.touch

        def timed_touch(interaction: Any) -> None:
            self.touches.setdefault(interaction.id, []).append(time.monotonic())
            touch(interaction)

        world.fake.touch = timed_touch  # type: ignore[method-assign]

    def _timed(self, call: Any) -> Any:
        async def timed(*args: Any, **kwargs: Any) -> Any:
            result = await call(*args, **kwargs)
            interaction = _interaction_id()
            if interaction is not None:
                self.commits.setdefault(interaction, time.monotonic())
            return result

        return timed

    def delay(self, interaction_id: int) -> float | None:
        """Seconds from the commit of this interaction to its first answer after it (inf when
        none came); None when it committed nothing."""
        touched = self.touches.pop(interaction_id, [])
        committed = self.commits.pop(interaction_id, None)
        if committed is None:
            return None
        after = [t for t in touched if t >= committed]
        return min(after) - committed if after else float("inf")


class Fuzzer:
    """Mutates real components and sends them; judges each answer."""

    def __init__(self, world: World, tables: list[int], users: dict[str, ScriptedUser]) -> None:
        self.world = world
        self.tables = tables
        self.users = users
        self.rng = random.Random(17)
        self.tally = Tally()
        self.targets: list[Target] = []
        #: Times commits and answers (asserted in the slow run only).
        self.clock: AnswerClock | None = None

    # --- harvesting -----------------------------------------------------------------------

    def harvest(self) -> None:
        """Every component of every message of the bot that a user of ours can see."""
        fake = self.world.fake
        targets = []
        for message in list(fake.messages_by_id.values()):
            if message.deleted or message.author.id != fake.bot_user.id:
                continue
            for component in iter_components(message.components):
                if component.get("custom_id"):
                    targets.append(Target(message, component))
        self.targets = targets

    # --- mutating -------------------------------------------------------------------------

    def custom_id(self, real: str) -> str:
        rng = self.rng
        parts = real.split(":")
        roll = rng.random()
        if roll < 0.12 or len(parts) < 5:
            return real
        if roll < 0.30:
            parts[1] = rng.choice(
                [str(t) for t in self.tables]
                + ["0", "9999999999999999999", str(2**63), str(2**63 - 1), "-1", "x", "01"]
            )
        elif roll < 0.42:
            version = int(parts[3]) if parts[3].isdigit() else 0
            parts[3] = rng.choice([str(version + 1), str(max(version - 1, 0)), "0", "999999999"])
        elif roll < 0.55:
            parts[4] = rng.choice([*ACTIONS, "HAND", "zz", "a" * 13, ""])
        elif roll < 0.72:
            if len(parts) > 5 and rng.random() < 0.4:
                parts.pop()
            elif rng.random() < 0.5:
                parts.append(rng.choice([*ODD_TEXT, "0", "1", "25", "999"]))
            else:
                index = rng.randrange(5, len(parts) + 1)
                parts[min(index, len(parts) - 1)] = rng.choice(ODD_TEXT)
        elif roll < 0.80:
            text = real[: rng.randrange(len(real))]
            return text
        elif roll < 0.88:
            position = rng.randrange(len(real) + 1)
            return real[:position] + rng.choice([":", "\n", " ", "é", "0", "t:"]) + real[position:]
        elif roll < 0.94:
            return real + ":" + "9" * rng.randrange(60, 120)
        else:
            longest = f"t:{2**63 - 1}:v:999999999:{parts[4]}:{'a' * 40}:{'b' * 40}:{'c' * 40}"
            return rng.choice(["x:evil", "", "T" + real[1:], "t:", "t::v::", real.upper(), longest])
        return ":".join(parts)

    def values(self, component: dict[str, Any]) -> list[str] | None:
        rng = self.rng
        options = [str(o["value"]) for o in component.get("options") or []]
        if component["type"] != 3 and rng.random() < 0.8:
            return None
        roll = rng.random()
        if roll < 0.3 and options:
            return [rng.choice(options)]
        if roll < 0.4:
            return []
        if roll < 0.5 and options:
            value = rng.choice(options)
            return [value, value]
        if roll < 0.6:
            return [str(rng.choice([25, 26, 49, 99, 1000, 10**12]))]
        if roll < 0.8:
            return [rng.choice([*ODD_TEXT, "a" * 101, "1" * 200])]
        return [str(i) for i in range(rng.randrange(2, 30))]

    def component_type(self, real: int) -> int:
        if self.rng.random() < 0.75:
            return real
        return self.rng.choice([2, 3, 4, 5, 6, 7, 8, 99])

    # --- sending and judging --------------------------------------------------------------

    async def snapshot(self) -> dict[int, int]:
        service = self.world.desk.service  # type: ignore[union-attr]
        return {t: (await service.get(t)).version for t in self.tables}

    def visible(self, user: ScriptedUser) -> list[Target]:
        """The targets ``user`` sees: Discord routes no click on another's ephemeral message."""
        return [t for t in self.targets if t.message.visible_for(user.user)]

    async def send_one(self, user: ScriptedUser) -> InteractionResult:
        rng = self.rng
        target = rng.choice(self.visible(user))
        real = target.component
        custom_id = self.custom_id(str(real["custom_id"]))
        ctype = self.component_type(int(real["type"]))
        values = self.values(real)
        thread = self.world.fake.channels[target.message.channel_id]
        kind = "component"
        message: Any = target.message
        if rng.random() < 0.05:
            kind = "modal"
            data: dict[str, Any] = {"custom_id": custom_id, "components": []}
            return await user._interact(5, thread, data, message=message, wait=False, timeout=5)
        data = {"custom_id": custom_id, "component_type": ctype}
        if values is not None:
            data["values"] = values
        roll = rng.random()
        if roll < 0.35:
            # The message as if it carried the mutated custom_id (Discord sends the message as
            # the bot posted it, so its components stay well-formed), so that discord.py hands
            # the mutated id to the bot's own code rather than dropping it.
            crafted = {**real, "custom_id": custom_id}
            data["component_type"] = int(real["type"])
            message = CraftedMessage(target.message, crafted)
            kind = "crafted"
        elif roll < 0.38:
            message = None
            kind = "no message"
        self.tally.kinds[kind] += 1
        return await user._interact(3, thread, data, message=message, wait=False, timeout=5)

    def judge(self, user: ScriptedUser, result: InteractionResult, what: str) -> None:
        inter = result.interaction
        tally = self.tally
        tally.sent += 1
        delay = self.clock.delay(inter.id) if self.clock is not None else None
        if delay is not None:
            tally.slowest = max(tally.slowest, delay)
            if delay > LATE:
                tally.late += 1
                tally.examples.append(f"answered {delay:.2f} s after the commit: {what}")
        late = [e for e in inter.errors if e.get("code") in (10062, 40060, 10015)]
        filled = inter.acknowledged and (inter.response_type != 6 or inter.activity >= 2)
        if inter.response_type == 5 and inter.original_id:
            filled = filled and not result.message.loading
        if not filled or late:
            tally.unanswered += 1
            tally.examples.append(f"unanswered {what}: {result!r}")
            return
        # A move's board goes out as a public follow-up of the click (click_route.py): it is
        # the table's post, not the answer to the click.
        seen = [m for m in result.visible_to(user) if not is_board_post(m)]
        source = self.world.fake.messages_by_id.get(inter.source_message_id or 0)
        if inter.response_type in (6, 7) and source is not None:
            seen = [*seen, source]  # the answer is the clicked message, edited in place
        if not seen or any(not m.ephemeral or not m.visible_for(user.id) for m in seen):
            tally.public += 1
            tally.examples.append(f"public answer to {what}: {[m.text for m in seen]}")
            return
        tally.answered += 1

    async def to_act(self) -> dict[int, set[int]]:
        service = self.world.desk.service  # type: ignore[union-attr]
        acting: dict[int, set[int]] = {}
        for table_id in self.tables:
            record, view = await service.current_board(table_id)
            acting[table_id] = (
                set((view or {}).get("to_act") or ()) if record.phase is Phase.PLAYING else set()
            )
        return acting

    async def run(self, count: int) -> Tally:
        deadline = time.monotonic() + TIME_LIMIT
        names = list(self.users)
        while self.tally.sent < count and time.monotonic() < deadline:
            if self.tally.sent % 60 == 0:
                self.harvest()
            before = await self.snapshot()
            acting = await self.to_act()
            batch = []
            # (Someone who sees no control now, e.g. when a game is over, clicks nothing.)
            able = [n for n in names if self.visible(self.users[n])] or names
            for _ in range(min(PARALLEL, count - self.tally.sent)):
                name = self.rng.choice(able)
                user = self.users[name]
                batch.append((name, user, await self.send_one(user)))
            await asyncio.gather(*(settle(r) for _, _, r in batch))
            for name, user, result in batch:
                self.judge(user, result, f"{name} {result.interaction.payload['data']}")
            await self.check_controls()
            if await self.snapshot() != before:
                # Several users in the batch: the change must be explained by one of them.
                await self.check_batch(batch_users(batch), before, acting)
        return self.tally

    async def check_controls(self) -> None:
        """A table in play always has a board with controls in its thread (a new board comes
        before the old one loses them), whatever was clicked."""
        service = self.world.desk.service  # type: ignore[union-attr]
        for table_id in self.tables:
            table = await service.get(table_id)
            if table.phase is not Phase.PLAYING or table.thread_id is None:
                continue
            thread = self.world.fake.channel_of(table.thread_id)
            if not any(m.components for m in self.world.boards(thread)):
                self.tally.stuck += 1
                self.tally.examples.append(f"table {table_id} has no board with controls")

    async def check_batch(
        self, users: dict[str, ScriptedUser], before: dict[int, int], acting: dict[int, set[int]]
    ) -> None:
        service = self.world.desk.service  # type: ignore[union-attr]
        for table_id, version in before.items():
            record = await service.get(table_id)
            if record.version == version:
                continue
            log = await service.storage.load_log(table_id)
            new = [e for e in log if e.version > version]
            movers = {
                seat.index
                for user in users.values()
                if (seat := record.seat_of(user.id)) is not None and not seat.left
            }
            first = new[0] if new else None
            legal = (
                first is not None
                and first.kind == LogKind.MOVE
                and first.seat in movers & acting.get(table_id, set())
            )
            if legal:
                self.tally.legal_changes += 1
            else:
                self.tally.illegal += 1
                self.tally.examples.append(f"table {table_id} changed: {new[:2]}")


def is_error(record: logging.LogRecord) -> bool:
    """An error or a traceback in the log; not asyncio's note that the garbage collector
    found a pending task (left by an earlier test in this worker)."""
    if record.name == "asyncio" and record.getMessage().startswith("Task was destroyed"):
        return False
    return record.levelno >= logging.ERROR or record.exc_info is not None


async def settle(result: InteractionResult) -> None:
    """Wait for the answer; one that never comes is judged unanswered afterwards."""
    with contextlib.suppress(TimeoutError):
        await result.settled(timeout=4)


def batch_users(
    batch: list[tuple[str, ScriptedUser, InteractionResult]],
) -> dict[str, ScriptedUser]:
    """The users of a batch, by name."""
    return {name: user for name, user, _ in batch}


@pytest.fixture
async def fuzz_world(tmp_path: Path) -> AsyncIterator[World]:
    """The world of the Discord tests, drawing tiny images (the fuzz is about answers)."""
    async with running_world(tmp_path, renderer=quick_renderer()) as world:
        yield world


async def open_tables(world: World, dave: ScriptedUser) -> list[int]:
    """A Tock table in play (alice, bob, dave who left, a bot), an abandoned one, and a
    Carcassonne table in play (alice and a bot); hands opened on the way."""
    world.seeds.extend([41, 42, 43])
    tock, lobby = await open_table(world, "tock", players=4)
    await world.bob.click(lobby, label="Join")
    await dave.click(world.lobby(tock), label="Join")
    await world.alice.click(world.lobby(tock), label="Add bot")
    await world.alice.click(world.lobby(tock), label="Start")
    thread = world.thread_of(world.lobby(tock))
    await world.wait(lambda: world.newest_board(thread))
    await dave.slash(world.channel, "table leave", table=tock)
    await world.wait(lambda: world.newest_board(thread))

    over, lobby = await open_table(world, "tock", players=2)
    await world.alice.click(lobby, label="Add bot")
    await world.alice.click(world.lobby(over), label="Start")
    await world.alice.slash(world.channel, "table abandon", table=over)

    tiles, lobby = await open_table(world, "carcassonne", players=2)
    await world.alice.click(lobby, label="Add bot")
    await world.alice.click(world.lobby(tiles), label="Start")
    tile_thread = world.thread_of(world.lobby(tiles))
    await world.wait(lambda: world.newest_board(tile_thread))
    # Prompts to harvest: the hands of both seated players (the tile's placements are on
    # its board).
    for user in (world.alice, world.bob):
        await open_prompt(world, user, world.newest_board(thread), "Show my hand")
    return [tock, over, tiles]


@pytest.mark.parametrize("count", [QUICK, pytest.param(COUNT, marks=pytest.mark.slow)])
async def test_fuzzed_interactions_are_all_answered_privately_and_change_nothing_illegally(
    fuzz_world: World, caplog: pytest.LogCaptureFixture, count: int
) -> None:
    world = fuzz_world
    world.fake.settle_time = 0.01
    dave = world.fake.add_user("dave", guild=world.guild)
    tables = await open_tables(world, dave)
    service = world.desk.service  # type: ignore[union-attr]
    seats_before = {t: (await service.get(t)).seats for t in tables}
    abandoned = await service.get(tables[1])
    users = {"alice": world.alice, "bob": world.bob, "carol": world.carol, "dave": dave}
    fuzzer = Fuzzer(world, tables, users)
    fuzzer.clock = AnswerClock(world)

    caplog.set_level(logging.WARNING)
    caplog.clear()
    tally = await fuzzer.run(count)
    errors = [r for r in caplog.records if is_error(r)]
    tally.errors = len(errors)
    print(tally.line(), dict(tally.kinds), *tally.examples[:10], sep="\n")
    problems = tally.examples[:8] + [f"{r.name}: {r.getMessage()}" for r in errors][:8]

    assert tally.sent >= count, f"only {tally.sent} interactions in {TIME_LIMIT} s"
    counts = (tally.unanswered, tally.public, tally.illegal, tally.stuck, tally.errors)
    assert counts == (0, 0, 0, 0, 0), (
        tally.line(),
        problems,
    )
    if count > QUICK:
        # The slow run (the CI's 2,000): every answer within 1 s of the change it stored.
        assert tally.late == 0, (tally.line(), problems)
    # Nobody joined, left or was re-seated by a click; the abandoned table did not move.
    for table_id in tables:
        assert (await service.get(table_id)).seats == seats_before[table_id]
    assert (await service.get(tables[1])).version == abandoned.version
    # What was stored replays through the engine: every logged move was legal.
    world.desk.service.store.clear()  # type: ignore[union-attr]
    for table_id in (tables[0], tables[2]):
        info = await service.private_info(table_id, world.alice.id)
        assert info.view is not None
