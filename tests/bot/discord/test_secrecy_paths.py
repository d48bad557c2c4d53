"""No path shows a reader a secret: complete games read by every seat and a spectator.

Each game is played through the fake Discord (bots fill the seats the three members do not
take) while everything anyone can read is recorded: every message as it was created and after
each edit (public ones and the ephemeral ones addressed to a member; content, embeds, button
and select labels and values, placeholders, custom_ids, file names), the answers to
``/table log``, ``/table status`` and ``/table board`` and to the autocompletes (``table``, and
``/move``'s list of the reader's own moves), asked by every reader during exchanges and after
the game, the lobby and the thread, and the bot's
own log records from INFO up. Each recorded item is checked against the engine's state of its
moment, for each reader who could read it (see :mod:`tests.bot.discord.leaks`):

* every card mentioned (in any language, in a sentence, a label, notation or a custom_id) is
  the reader's own (hand, pick, received card) or just became public (played, discarded,
  folded, a pending 7); a public message carries no card-bearing control at all;
* no exchange pick in notation (``G:K``) outside its author's own prompts;
* ``/table log`` line by line: a line tells only its own move's card, and a pick's card only
  to its author or, once the exchange is over, to the partner who received it (an oracle
  replays the log with the engine to know which pick arrived);
* no draw-pile or tile-bag order (the next cards or tiles, in order);
* and, exactly, by two runs of each race game that differ only in the card the author picks
  in the first exchange: until that exchange is over, every other reader — partner,
  opponent, spectator — reads exactly the same things in both runs;
* the live board (#33): a spectator's socket is read too — every state it received is
  checked like a message (the cards its words name, no pick, no draw order), carries no
  hand, pick or draw order, and is the same in both runs for every version both received
  before the first exchange ended.

``poeppel play`` has its own part: a hot-seat game whose output is split into what the seat
at the keyboard reads and what everyone at the screen reads.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import logging
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from bot.discord_ui.texts import card_of_move, declared_of_move
from bot.model.history import is_secret_move, partners_of
from bot.model.table import LogEntry, LogKind
from engine import get_game
from tests.bot.discord.conftest import RecordingRenderer, World, running_world
from tests.bot.discord.driving import (
    Stats,
    find,
    greedy_chooser,
    move_score,
    open_prompt,
    play_race_turn,
    play_tile_turn,
    press,
)
from tests.bot.discord.leaks import (
    PUBLIC_ACTIONS,
    Shown,
    card_mentions,
    control_cards,
    knowledge,
    pick_mentions,
    secret_runs,
    shown,
)
from tests.fakediscord.models import Message
from tests.fakediscord.scripting import ScriptedUser
from tests.web.socket_reader import SocketReader, spectator_socket

LOG_LINE = re.compile(r"^(\d+)\. (.*)$", re.MULTILINE)
SNOWFLAKE = re.compile(r"\d{15,}")


# --- recording what everyone reads ---------------------------------------------------------


@dataclass
class Seen:
    """One thing some readers read, with the engine states of its moment."""

    item: Shown
    states: list[Any]
    log: list[LogEntry] | None = None  # a /table log answer: the log when it was asked
    played: set[str] = field(default_factory=set)  # cards played lately (public)
    length: int = 0  # the log's length when it was recorded


@dataclass
class Table:
    """A game in progress and everything recorded about it."""

    world: World
    table_id: int = 0
    game: str = ""
    readers: dict[int, int | None] = field(default_factory=dict)  # user id -> seat
    names: dict[int, str] = field(default_factory=dict)
    seen: list[Seen] = field(default_factory=list)
    states: list[Any] = field(default_factory=list)
    log: list[LogEntry] = field(default_factory=list)
    first_seen: dict[int, Seen] = field(default_factory=dict)  # message id -> its first look
    module: Any = None
    drawn: list[dict[str, Any]] = field(default_factory=list)  # the views drawn for the public
    started: int = 0  # len(seen) when the game started
    cut: int | None = None  # len(seen) when the first exchange was about to end
    cut_version: int = 0  # the table's version then
    socket: SocketReader | None = None  # the spectator's live-board socket (#33)

    @property
    def service(self) -> Any:
        assert self.world.desk is not None
        return self.world.desk.service

    def state(self) -> Any:
        """The engine's state of the newest committed action (the judge's own replay)."""
        return self.states[-1] if self.states else None

    def committed(self, record: Any, entries: list[LogEntry]) -> None:
        """Replay what the service committed: the service commits before it tells anyone,
        so this state is never older than what a message shows."""
        if record.extra.get("started_version") is None:
            return
        if not self.states:
            self.started = len(self.seen)
            self.module = get_game(record.game)
            self.states.append(self.module.new_game(record.players, record.options, record.seed))
        for entry in entries:
            self.states.append(apply_entry(self.module, self.states[-1], entry))
            self.log.append(entry)

    def window(self) -> tuple[list[Any], set[str]]:
        """The states since the previous recording (a message may show either), and the
        cards played in between and in the round before: what was public lately."""
        now = self.state()
        if now is None:
            return [], set()
        previous = self.seen[-1] if self.seen and self.seen[-1].states else None
        start = previous.length if previous is not None else 0
        start = max(0, start - 2 * len(now.cfg.seats)) if self.game != "carcassonne" else start
        played: set[str] = set()
        for e in self.log[start:]:
            if e.kind == LogKind.MOVE and not is_secret_move(self.game, e.text):
                # The card, and the kind a joker was declared as, are public once played.
                played |= {c for c in (card_of_move(e.text), declared_of_move(e.text)) if c}
        return [previous.states[-1] if previous else now, now], played

    def record(self, item: Shown, log: list[LogEntry] | None = None) -> None:
        states, played = self.window()
        first = self.first_seen.get(item.message_id) if item.message_id else None
        if first is not None:
            # An edit (e.g. an old board losing its controls) may still show what the message
            # showed when it was sent: its first moment counts too.
            states, played = [*first.states, *states], played | first.played
        seen = Seen(item, states, log, played, len(self.log))
        self.seen.append(seen)
        if item.message_id and first is None:
            self.first_seen[item.message_id] = seen

    def watch(self) -> None:
        """Record every message the bot creates or edits, at that moment."""
        fake = self.world.fake
        announce = fake.announce_message

        def announce_and_record(message: Message, event: str = "MESSAGE_CREATE") -> None:
            if message.author.id == fake.bot_user.id:
                self.record(shown(message))
            announce(message, event)

        fake.announce_message = announce_and_record  # type: ignore[method-assign]
        storage = self.service.storage
        commit = storage.commit

        async def commit_and_replay(record: Any, expected: int, entries: list[LogEntry]) -> bool:
            done = await commit(record, expected, entries)
            if done:
                self.committed(record, entries)
            return bool(done)

        storage.commit = commit_and_replay

    def readers_of(self, item: Shown) -> list[tuple[int, int | None]]:
        return [
            (u, s) for u, s in self.readers.items() if item.readers is None or u in item.readers
        ]


async def ask_everything(table: Table, users: list[ScriptedUser], *, everything: bool) -> None:
    """Every reader asks ``/table log`` (in words, and in notation); with ``everything`` also
    ``/table status``, the
    autocompletes (``table``, and ``/move``'s list of the reader's own moves), and one of
    them ``/table board``. The answers are recorded as
    they arrive (the log's with the log of that moment, to check them line by line)."""
    world = table.world
    thread = world.thread_of(world.lobby(table.table_id))
    for user in users:
        for view in ({}, {"notation": True}):  # in words, and in notation when asked
            log = list(table.log)
            answer = await user.slash(thread, "table log", **view)
            ids = {m.id for m in answer.visible_to(user)}
            assert ids, "/table log answers"
            for seen in table.seen:
                if seen.item.message_id in ids:
                    seen.log = log
        if everything:
            await user.slash(thread, "table status")
            tables = await user.autocomplete(world.channel, "table join", "table", "")
            moves = await user.autocomplete(thread, "move", "move", "")
            table.record(
                Shown(
                    frozenset({user.id}),
                    [str(c.get("name", "")) for c in tables]
                    + [str(c.get("value", "")) for c in [*tables, *moves]],
                    [str(c.get("name", "")) for c in moves],  # moves in words, like labels
                    [],
                    "autocomplete",
                )
            )
    if everything:
        await users[-1].slash(thread, "table board")


# --- the checks ----------------------------------------------------------------------------


def check_message(table: Table, seen: Seen) -> int:
    """Check one recorded item for each of its readers; return the strings checked."""
    item = seen.item
    if not seen.states and table.game != "carcassonne":
        # Before the game no card is dealt: none may be mentioned.
        assert not item.mentions(), f"a card before the game: {item.strings()}"
    checked = 0
    for user, seat in table.readers_of(item):
        if seen.log is None and seen.states and table.game != "carcassonne":
            known = knowledge(seen.states, seat, seen.played)
            leaked = {c for c in item.mentions() if not known.allows(c)}
            assert not leaked, f"reader {user} (seat {seat}) reads {leaked} in {item.strings()}"
        for text in item.strings():
            picks = pick_mentions(text)
            if picks:
                assert item.readers is not None, f"a pick in public: {text!r}"
                known = knowledge(seen.states, seat, seen.played)
                assert picks <= known.own, f"reader {user} reads pick {picks} in {text!r}"
            checked += 1
        for custom_id in item.custom_ids:
            action, cards = control_cards(custom_id)
            if item.readers is None:
                assert action in PUBLIC_ACTIONS, f"a public control {custom_id}"
            elif cards:
                known = knowledge(seen.states, seat, seen.played)
                assert cards <= known.own or "X" in known.own, (user, custom_id)
    for state in seen.states:
        for hidden in hidden_orders(table.game, state):
            for pattern in secret_runs(hidden):
                for text in item.strings():
                    assert not pattern.search(text), f"a hidden order in {text!r}"
    return checked


def hidden_orders(game: str, state: Any) -> list[tuple[str, ...]]:
    """The draw pile (race games) or the tiles still in the bag (Carcassonne), in order."""
    if game == "carcassonne":
        return [tuple(state.pile[state.pile_pos :])]
    return [tuple(state.draw)]


def apply_entry(module: Any, state: Any, entry: LogEntry) -> Any:
    """The state after one log entry, as the service replays it."""
    if entry.kind == LogKind.MOVE:
        legal = [m for m in module.legal_moves(state, entry.seat) if str(m) == entry.text]
        return module.apply(state, legal[0] if legal else module.parse_move(state, entry.text))
    if entry.kind == LogKind.AUTO:
        return module.auto_action(state, entry.seat)
    if entry.kind == LogKind.LEAVE:
        return module.leave(state, entry.seat)
    return state


def deliveries(table: Table, log: list[LogEntry]) -> tuple[dict[int, bool], dict[int, int]]:
    """For each pick of ``log``: whether its card reached the partner (the exchange ended
    with it) within ``log``, by the judge's replay; and each seat's partner."""
    before_each, after_each = table.states[: len(log)], table.states[1 : len(log) + 1]
    open_picks: dict[int, int] = {}  # seat -> entry index of its latest pick
    delivered: dict[int, bool] = {}
    for entry, before, state in zip(log, before_each, after_each, strict=True):
        if entry.kind == LogKind.MOVE and is_secret_move(table.game, entry.text):
            delivered[entry.index] = False
            open_picks[entry.seat] = entry.index
        if before.phase == "exchange" and state.phase != "exchange":
            for seat, index in open_picks.items():
                card = log[index].text[2:]
                delivered[index] = (state.cfg.partner[seat], card) in state.received
            open_picks = {}
    return delivered, partners_of(table.module.view(table.states[-1], None).get("teams"))


def told_cards(table: Table, entry: LogEntry) -> set[str]:
    """The cards the public events of ``entry`` name, by the judge's replay: the thread was
    told them when the entry was made (a played card, a discard), so its line may name them."""
    cards: set[str] = set()
    for event in table.states[entry.index + 1].events:
        if getattr(event, "public", True):
            move = str(event.data.get("move", ""))
            cards |= {str(c) for c in (event.data.get("card"), *_move_cards(move)) if c}
    return cards


def _move_cards(move: str) -> tuple[str | None, str | None]:
    return card_of_move(move), declared_of_move(move)


def check_log_answer(table: Table, seen: Seen, setup: dict[str, Any]) -> int:
    """``/table log`` line by line against the log and the engine's deliveries, in words or
    in notation: a line names only the cards its entry made public, and a pick's card only
    to whom the rules give it."""
    log = seen.log
    assert log is not None
    delivered, partners = deliveries(table, log)
    checked = 0
    for user, seat in table.readers_of(seen.item):
        for text in seen.item.texts:
            for match in LOG_LINE.finditer(text):
                entry = log[int(match[1]) - 1]
                allowed: set[str] = told_cards(table, entry)
                if entry.kind == LogKind.MOVE and is_secret_move(table.game, entry.text):
                    card = entry.text[2:]
                    mine = seat is not None and seat == entry.seat
                    passed = partners.get(entry.seat) == seat and delivered[entry.index]
                    if mine or (seat is not None and passed):
                        allowed.add(card)
                    setup["picks"] += 1
                elif entry.kind == LogKind.MOVE:
                    allowed |= {c for c in _move_cards(entry.text) if c}
                found = card_mentions(match[2]) | pick_mentions(match[2])
                assert found <= allowed, (
                    f"reader {user} (seat {seat}) reads {found - allowed} in {match[0]!r}"
                )
                checked += 1
    return checked


async def check_histories(table: Table) -> int:
    """The service's structured history for each reader, every entry of the whole game
    (``/table log`` shows the newest 40): a pick's card only to whom the rules give it."""
    delivered, partners = deliveries(table, table.log)
    checked = 0
    for user, seat in table.readers.items():
        _record, history = await table.service.history(table.table_id, user)
        assert len(history) == len(table.log)
        for entry, logged in zip(history, table.log, strict=True):
            if entry.card is not None:
                assert is_secret_move(table.game, logged.text)
                mine = seat == logged.seat
                passed = partners.get(logged.seat) == seat and delivered[logged.index]
                assert seat is not None, (user, entry)
                assert mine or passed, (user, seat, entry)
                assert entry.card == logged.text[2:]
            assert entry.move is None or not is_secret_move(table.game, entry.move)
            # The facts its words are made of: public events only, never a pick's card.
            assert all(e.get("public", True) for e in entry.events), (user, entry)
            assert not {e["kind"] for e in entry.events} & {"pick_made", "exchange_received"}
            checked += 1
    return checked


# --- playing -------------------------------------------------------------------------------


@dataclass
class Game:
    game: str
    players: int
    options: dict[str, Any]
    seed: int


RACE_GAMES = [
    pytest.param(Game("tock", 4, {"game_type": "2v2"}, 11), id="tock-2v2"),
    pytest.param(Game("tock", 6, {"game_type": "2v2v2"}, 12), id="tock-2v2v2"),
    pytest.param(Game("dog", 4, {"ruleset": "bsw"}, 13), id="dog-4-bsw"),
    pytest.param(Game("dog", 4, {"ruleset": "braendi"}, 14), id="dog-4-braendi"),
    pytest.param(Game("dog", 6, {"ruleset": "bsw"}, 15), id="dog-6-bsw"),
    pytest.param(Game("dog", 6, {"ruleset": "braendi"}, 16), id="dog-6-braendi"),
]


async def open_game(world: World, game: Game, spectator: ScriptedUser) -> Table:
    """Alice opens the table, Carol sits in her team, Bob in another, bots fill the rest."""
    world.bot_brain = greedy_chooser
    recorder = RecordingRenderer()
    world.renderer = recorder.renderer()
    await world.restart()
    world.seeds.append(game.seed)
    table = Table(world, game=game.game, drawn=recorder.public_views)
    table.watch()
    command = {"tock": "tock new", "dog": "dog new"}.get(game.game, "carcassonne new")
    options: dict[str, Any] = {"players": game.players}
    if game.game == "tock":
        options["game_type"] = game.options["game_type"]
    elif game.game == "dog":
        options["ruleset"] = game.options["ruleset"]
    else:
        options.update(game.options)
    opened = await world.alice.slash(world.channel, command, **options)
    text = "\n".join(m.text for m in opened.visible_to(world.alice))
    table.table_id = int(text.split("#", 1)[1].split(" ", 1)[0])
    teams = game.game != "carcassonne"
    join = {"team": 1} if teams else {}
    await world.carol.slash(world.channel, "table join", table=table.table_id, **join)
    await world.bob.slash(
        world.channel, "table join", table=table.table_id, **({"team": 2} if teams else {})
    )
    for _ in range(game.players - 3):
        await world.alice.click(world.lobby(table.table_id), label="Add bot")
    await world.alice.click(world.lobby(table.table_id), label="Start")
    record = await world.desk.service.get(table.table_id)
    table.readers = {spectator.id: None}
    table.names = {u.id: u.name for u in (world.alice, world.bob, world.carol, spectator)}
    for user in (world.alice, world.bob, world.carol):
        seat = record.seat_of(user.id)
        assert seat is not None
        table.readers[user.id] = seat.index
    return table


async def pick_for(
    world: World, table: Table, user: ScriptedUser, choose: Callable[[list[str]], str]
) -> None:
    """``user`` opens their hand and passes the card ``choose`` takes from their picks."""
    thread = world.thread_of(world.lobby(table.table_id))
    prompt = await open_prompt(world, user, world.newest_board(thread), "Show my hand")
    info = await table.service.private_info(table.table_id, user.id)
    token = choose(sorted({m[2:] for m in info.legal_moves}))
    await press(world, user, prompt, find(prompt, f":give:{token}")["custom_id"])


#: The members click every decision until this many exchanges are over (everyone asks
#: everything while each is open); after that they move through the service and only every
#: DELIVER_EVERY-th of their moves (with the bot turns after it) is posted, which keeps the
#: module quick: the later boards go through the same code as the earlier ones.
CLICKED_EXCHANGES = 2
DELIVER_EVERY = 6
#: Carcassonne has no exchange: its members click this many turns.
CLICKED_TILES = 12


async def quiet(table: Table) -> None:
    """Wait until the bot has posted everything it had to (nothing new for a while)."""
    count = -1
    while count != len(table.seen):
        count = len(table.seen)
        await asyncio.sleep(0.05)


async def acting_members(table: Table, humans: list[ScriptedUser]) -> list[ScriptedUser]:
    """The members who owe a decision now (several in an exchange)."""
    view = await table.service.public_view(table.table_id)
    owing = set(view["to_act"]) if view is not None else set()
    return [u for u in humans if table.readers[u.id] in owing]


async def move_quickly(world: World, table: Table, user: ScriptedUser, step: int) -> None:
    """``user`` moves through the service as a bot would; some of the effects are posted."""
    info = await table.service.private_info(table.table_id, user.id)
    move = greedy_chooser(table.game, info.view or {}, "easy", list(info.legal_moves), step)
    effects = await table.service.act(table.table_id, user.id, move, info.table.version)
    if step % DELIVER_EVERY == 0 or effects.table.phase != "playing":
        await world.desk.deliver(effects)


async def play_race(
    world: World,
    table: Table,
    humans: list[ScriptedUser],
    readers: list[ScriptedUser],
    author_pick: Callable[[list[str]], str],
    *,
    stop_after_first_exchange: bool = False,
) -> Stats:
    """Play to the end (or through the first exchange); the readers ask everything while
    the first two exchanges are open, after the author (alice) picked and before they end."""
    stats = Stats()
    rng = random.Random(7)
    thread = world.thread_of(world.lobby(table.table_id))
    exchanges = 0
    was_exchange = False
    for step in range(5000):
        if (await table.service.get(table.table_id)).phase != "playing":
            return stats
        acting = await acting_members(table, humans)
        assert acting, "a member owes a decision whenever the bots have played"
        exchange = (await table.service.public_view(table.table_id))["phase"] == "exchange"
        exchanges += exchange and not was_exchange
        was_exchange = exchange
        if exchanges > CLICKED_EXCHANGES or (exchanges == CLICKED_EXCHANGES and not exchange):
            for user in acting:
                await move_quickly(world, table, user, step)
            continue
        if not exchange:
            for user in acting:
                await play_race_turn(world, table.table_id, user, thread, rng, stats)
            continue
        first = exchanges == 1
        order = sorted(acting, key=lambda u: u is not world.alice)
        for position, user in enumerate(order):
            if position == len(order) - 1:
                await quiet(table)
                await ask_everything(table, readers, everything=first)
                if first:
                    await quiet(table)
                    table.cut = len(table.seen)
                    table.cut_version = (await table.service.get(table.table_id)).version
                    if stop_after_first_exchange:
                        return stats
            if user is world.alice and first:
                await pick_for(world, table, user, author_pick)
                await quiet(table)
                await ask_everything(table, readers, everything=False)
            else:
                await play_race_turn(world, table.table_id, user, thread, rng, stats)
    raise AssertionError("the game did not end")


def reader_view(table: Table, name: str) -> set[str]:
    """Everything the member ``name`` read from the start of the game to the cut, ids
    normalised.

    A set: the bot posts public and private answers concurrently, and edits of one message
    in quick succession may reach Discord as one, so order and repetitions may vary.
    """
    user = next(u for u, n in table.names.items() if n == name)
    texts: set[str] = set()
    for seen in table.seen[table.started : table.cut]:
        if seen.item.readers is None or user in seen.item.readers:
            texts |= {SNOWFLAKE.sub("#", s) for s in seen.item.strings()}
    return texts


def check_everything(table: Table, caplog: pytest.LogCaptureFixture) -> dict[str, int]:
    setup: dict[str, Any] = {"picks": 0}
    strings = 0
    for seen in table.seen:
        strings += check_message(table, seen)
        if seen.log is not None:
            strings += check_log_answer(table, seen, setup)
    for view in table.drawn:  # every board image was drawn from a spectator's view
        assert view["viewer"] is None
        assert not {"hand", "hands", "exchange", "pile", "seed"} & set(view)
        assert view.get("my_pick") is None
        assert view.get("received") is None
        assert not isinstance(view.get("draw"), list)
        assert isinstance(view.get("draw", view.get("tiles_left")), int)
    for log_record in caplog.records:
        text = log_record.getMessage()
        assert not pick_mentions(text), f"a pick in the bot's log: {text!r}"
        assert not any(control_cards(w)[1] for w in text.split()), text
        strings += 1
    return {
        "strings": strings,
        "log picks": setup["picks"],
        "items": len(table.seen),
        "boards drawn": len(table.drawn),
    }


def socket_recorder(table: Table, user_id: int) -> Callable[[dict[str, Any], SocketReader], None]:
    """Record each state a spectator's live-board socket receives, as it arrives: its words
    are read by that user alone."""

    def record(state: dict[str, Any], reader: SocketReader) -> None:
        table.record(Shown(frozenset({user_id}), reader.words(state), [], [], "live socket"))
        # Its lines tell the moves since the last person's decision (up to 12, as a turn
        # digest): their cards were made public by those moves (the judge's log says which).
        seen = table.seen[-1]
        for line in state.get("since") or []:
            index = int(line["number"]) - 1
            if 0 <= index < len(table.log) and index + 1 < len(table.states):
                entry = table.log[index]
                seen.played |= told_cards(table, entry)
                if entry.kind == LogKind.MOVE and not is_secret_move(table.game, entry.text):
                    seen.played |= {c for c in _move_cards(entry.text) if c}

    return record


@pytest.mark.slow
@pytest.mark.parametrize("game", RACE_GAMES)
async def test_no_reader_learns_a_hand_a_pick_or_the_draw_order(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, game: Game
) -> None:
    caplog.set_level(logging.INFO)
    runs: list[Table] = []
    for run, choose in enumerate((lambda cards: cards[0], lambda cards: cards[-1])):
        folder = tmp_path / f"run{run}"
        folder.mkdir()
        async with running_world(folder) as world:
            dave = world.fake.add_user("dave", guild=world.guild)
            table = await open_game(world, game, dave)
            readers = [world.alice, world.bob, world.carol, dave]
            humans = [world.alice, world.bob, world.carol]

            async with spectator_socket(
                table.service, table.table_id, dave.id, socket_recorder(table, dave.id)
            ) as table.socket:
                stats = await play_race(
                    world, table, humans, readers, choose, stop_after_first_exchange=run == 1
                )
            assert table.socket.states, "the spectator's socket received states"
            if run == 0:
                await ask_everything(table, readers, everything=True)  # after the game
                figures = check_everything(table, caplog)
                figures["history entries"] = await check_histories(table)
                print(f"{game.game} {game.players} {game.options}: {figures} {stats.turns} turns")
                assert figures["log picks"] > 0
            runs.append(table)
    first, second = runs
    for name in ("bob", "carol", "dave"):  # alice, the author, knows her pick
        assert reader_view(first, name) == reader_view(second, name), (
            f"{name} reads something that depends on alice's pick"
        )
    # The spectator's socket: each version both runs sent before the cut, sent alike.
    assert first.socket is not None
    assert second.socket is not None
    cut = min(first.cut_version, second.cut_version)
    ones, others = first.socket.until(cut), second.socket.until(cut)
    both = set(ones) & set(others)
    assert both, "the socket received states before the first exchange ended"
    for version in sorted(both):
        assert ones[version] == others[version], f"the socket's state {version} differs"


@pytest.mark.slow
async def test_carcassonne_with_every_expansion_shows_no_tile_bag_order(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    options = {"river": True, "inns_cathedrals": "full", "traders_builders": "full"}
    game = Game("carcassonne", 4, options, 17)
    async with running_world(tmp_path) as world:
        dave = world.fake.add_user("dave", guild=world.guild)
        table = await open_game(world, game, dave)
        readers = [world.alice, world.bob, world.carol, dave]
        humans = readers[:3]
        stats = Stats()
        rng = random.Random(3)
        thread = world.thread_of(world.lobby(table.table_id))
        async with spectator_socket(
            table.service, table.table_id, dave.id, socket_recorder(table, dave.id)
        ) as table.socket:
            for step in range(1000):
                if (await table.service.get(table.table_id)).phase != "playing":
                    break
                user = (await acting_members(table, humans))[0]
                if stats.turns < CLICKED_TILES:
                    await play_tile_turn(world, table.table_id, user, thread, rng, stats)
                    if stats.turns == CLICKED_TILES:
                        await quiet(table)
                        await ask_everything(table, readers, everything=True)
                else:
                    await move_quickly(world, table, user, step)
        assert len(table.socket.states) > 50, "the spectator's socket followed the game"
        await ask_everything(table, readers, everything=True)  # after the game
        figures = check_everything(table, caplog)
        print(f"carcassonne {options}: {figures} {stats.turns} turns clicked")
        assert len(table.states) > 100, "a whole game with every expansion's tiles"


# --- poeppel play ------------------------------------------------------------------------


#: How many exchanges after the first the two people play at the keyboard before stopping.
EXCHANGES_AT_THE_KEYBOARD = 3


@pytest.mark.slow
async def test_poeppel_play_shows_each_seat_only_its_own_cards(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Two people at one keyboard (opponents in Tock 2v2) and two bots. What is printed from
    "<seat>, your decision." to that seat's answer is the seat's own (and so is the log it
    asks for with ``log`` during each exchange); everything else both read."""
    from bot.console import play as console_module
    from bot.service import facade as tables

    services: list[Any] = []

    class WatchedService(tables.TableService):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            services.append(self)

    monkeypatch.setattr(tables, "TableService", WatchedService)
    buffer = io.StringIO()
    table = Table(world=None, game="tock")  # type: ignore[arg-type]
    rng = random.Random(1)
    position = 0
    keyboard: int | None = None  # the person whose decision is asked
    log_for: int | None = None  # the person whose log is being printed
    asked: set[tuple[int, int, str]] = set()

    def follow() -> Any:
        """Replay what the service committed since the last look (the judge's truth)."""
        live = services[0].store.cached(1)
        if not table.readers:
            table.table_id = 1
            table.readers = {s.user_id: s.index for s in live.record.seats if s.is_human}
            table.names = {u: f"Player {u}" for u in table.readers}
        table.committed(live.record, [e for e in live.recent if e.index >= len(table.log)])
        return live

    def part(text: str, reader: int | None, *, log: bool = False) -> None:
        if text.strip():
            readers = None if reader is None else frozenset({reader})
            table.record(Shown(readers, text.splitlines(), [], [], "console"))
            if log:
                table.seen[-1].log = list(table.log)

    def ask(prompt: str) -> str:
        nonlocal position, keyboard, log_for
        live = follow()
        text = buffer.getvalue()[position:]
        position += len(text)
        if not prompt.lstrip().startswith("Your move"):
            part(text, None)  # "press Enter": what was printed since is everyone's
            return ""
        user = (
            next(
                s.user_id
                for s in live.record.seats
                if s.index in live.state.cfg.seats
                and f"{console_module._seat_label(live.record, s.index)}, your decision." in text
            )
            if ", your decision." in text
            else keyboard
        )
        if log_for is not None:
            part(text, log_for, log=True)
        else:
            start = text.rfind("\n", 0, text.rfind(", your decision.")) + 1
            part(text[:start], None)
            part(text[start:], user)
        keyboard, log_for = user, None
        state, seat = table.state(), table.readers[user]
        exchange = sum(
            b.phase == "exchange" and a.phase != "exchange"
            for a, b in zip(table.states, table.states[1:], strict=False)
        )
        if exchange > EXCHANGES_AT_THE_KEYBOARD:
            return "q"  # enough: the game is saved, as a person stopping would leave it
        if state.phase == "exchange":
            for command in ("log", "log notation"):
                if (exchange, user, command) not in asked:
                    asked.add((exchange, user, command))
                    log_for = user
                    return command
        legal = [str(m) for m in table.module.legal_moves(state, seat)]
        best = max(move_score(m, state.cfg.ring) for m in legal)
        return rng.choice([m for m in legal if move_score(m, state.cfg.ring) == best])

    parser = argparse.ArgumentParser()
    console_module.add_play_arguments(parser)
    args = parser.parse_args(
        [
            "tock",
            "game_type=2v2",
            "--players",
            "4",
            "--bots",
            "2",
            "--seed",
            "21",
            "--db",
            str(tmp_path / "play.sqlite3"),
            "--no-images",
            "--bot-time",
            "0.01",
            "--bot-level",
            "easy",
        ]
    )
    console = Console(file=buffer, width=200, color_system=None, highlight=False)
    assert await console_module._play(args, console, ask) == 0
    part(buffer.getvalue()[position:], None)
    figures = check_everything(table, caplog)
    print(f"poeppel play: {figures}")
    assert figures["log picks"] > 0
    for seen in table.seen:
        if seen.item.readers is None:
            assert not any("Your hand" in x for x in seen.item.texts), seen.item.texts


def test_the_detectors_find_cards_picks_and_orders_in_every_form() -> None:
    """The leak test's detectors themselves (not slow): what they must find, they find."""
    assert card_mentions("alice: G:K") == {"K"}
    assert pick_mentions("2. alice: G:10") == {"10"}
    assert card_mentions("Dein Partner hat dir B gegeben.") == {"J"}  # German Bube
    assert card_mentions("A társad egy dámát adott neked.") == {"Q"}  # Hungarian dáma
    assert card_mentions("Zöld kijátszik egy 5-öst.") == {"5"}  # a Hungarian case form
    assert card_mentions("You received a **A** from your partner.") == {"A"}
    assert card_mentions("Blue plays 7:r18-r22,r50-r52.") == {"7"}
    assert card_mentions("K: bring a pawn out", label=True) == {"K"}
    assert card_mentions("3. König", label=True) == {"K"}
    assert control_cards("t:4:v:12:give:Q") == ("give", {"Q"})
    assert control_cards("t:4:v:12:mv:X=7:3") == ("mv", {"X"})
    # Not cards: seat numbers, table numbers, pawn places, bots' names, Carcassonne tiles.
    for text in ("Table #12: 3 players", "pawns 0:k0 2:r18,k2", "Bot 2 (easy)", "R04 at (0,2)"):
        assert card_mentions(text) == frozenset(), text
    (run,) = secret_runs(("D", "E", "V"))
    assert run.search("next: D, E, V")
    assert not run.search("D, V, E")
