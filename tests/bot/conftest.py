"""Fixtures of the table-service, storage and console tests.

``toy`` is a tiny throw-away game that follows the engine protocol (secret hands, a
simultaneous secret exchange, automatic actions, leaving, teams as an option) so the service's
mechanics can be tested on short games; the lifecycle tests also play the real engines.
"""

from __future__ import annotations

import dataclasses
import importlib
import os
import random
import types
import uuid
from collections.abc import AsyncIterator, Mapping
from typing import Any

import pytest

from bot.bots.choosers import random_chooser
from bot.model.clock import FakeClock
from bot.service import TableService
from bot.storage import open_storage
from bot.storage.base import Storage
from engine.protocol import (
    Event,
    IllegalMove,
    InvalidOptions,
    OptionSpec,
    Outcome,
    validate_options,
)

# --- the toy game ---------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class ToyMove:
    """``P:<n>`` plays card n (scores n); ``G:<n>`` passes card n to the next seat."""

    text: str
    seat: int | None = None

    def __str__(self) -> str:
        return self.text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ToyMove) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)


@dataclasses.dataclass(frozen=True)
class ToyState:
    players: int
    target: int
    teams: tuple[tuple[int, ...], ...] | None
    hands: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    scores: tuple[int, ...]
    turn: int
    phase: str
    picks: tuple[tuple[int, int], ...] = ()
    received: tuple[int | None, ...] = ()
    left: frozenset[int] = frozenset()
    events: tuple[Event, ...] = ()
    winners: tuple[int, ...] = ()


def _toy_module() -> types.ModuleType:
    toy = types.ModuleType("toy")
    toy.NAME = "toy"  # type: ignore[attr-defined]
    toy.PLAYER_COUNTS = (2, 3, 4)  # type: ignore[attr-defined]
    toy.OPTIONS = (  # type: ignore[attr-defined]
        OptionSpec("target", 12, (6, 12, 30), "points to win"),
        OptionSpec("teams", False, None, "4 players in teams {0,2} and {1,3}"),
    )

    def new_game(players: int, options: Mapping[str, Any], seed: int) -> ToyState:
        opts = validate_options(toy.OPTIONS, options)  # type: ignore[attr-defined]
        if players not in toy.PLAYER_COUNTS:  # type: ignore[attr-defined]
            raise InvalidOptions(f"players must be 2-4, got {players}")
        teams = None
        if opts["teams"]:
            if players != 4:
                raise InvalidOptions(
                    "option 'teams' needs 4 players", option="teams", value=True, players=4
                )
            teams = ((0, 2), (1, 3))
        deck = [1, 2, 3, 4] * 12
        random.Random(seed).shuffle(deck)
        hands = tuple(tuple(sorted(deck[i * 3 : i * 3 + 3])) for i in range(players))
        return ToyState(
            players,
            opts["target"],
            teams,
            hands,
            tuple(deck[players * 3 :]),
            (0,) * players,
            0,
            "exchange",
            received=(None,) * players,
        )

    def seats_to_act(state: ToyState) -> frozenset[int]:
        if state.phase == "exchange":
            picked = {s for s, _ in state.picks}
            return frozenset(s for s in range(state.players) if s not in picked)
        if state.phase == "play":
            return frozenset({state.turn})
        return frozenset()

    def legal_moves(state: ToyState, seat: int | None = None) -> list[ToyMove]:
        if state.phase == "exchange":
            if seat is None or seat not in seats_to_act(state):
                return []
            return [ToyMove(f"G:{c}", seat) for c in sorted(set(state.hands[seat]))]
        if state.phase == "play" and seat in (None, state.turn):
            return [ToyMove(f"P:{c}", state.turn) for c in sorted(set(state.hands[state.turn]))]
        return []

    def parse_move(state: ToyState, text: str) -> ToyMove:
        if state.phase == "play" and text.startswith("P:"):
            move = ToyMove(text, state.turn)
            if move in legal_moves(state):
                return move
        raise IllegalMove(f"{text!r} is not a legal move here")

    def _score(state: ToyState, seat: int) -> int:
        if state.teams:
            team = next(t for t in state.teams if seat in t)
            return sum(state.scores[s] for s in team)
        return state.scores[seat]

    def apply(state: ToyState, move: Any) -> ToyState:
        if isinstance(move, str):
            move = parse_move(state, move)
        seat = move.seat
        if seat is None or move not in legal_moves(state, seat):
            raise IllegalMove(f"{move} is not legal for seat {seat}")
        card = int(move.text[2:])
        hands = [list(h) for h in state.hands]
        if move.text.startswith("G:"):
            picks = (*state.picks, (seat, card))
            event = Event("pick", seat, {"card": card}, public=False)
            state = dataclasses.replace(state, picks=picks, events=(event,))
            if len(picks) < state.players:
                return state
            received: list[int | None] = [None] * state.players
            for giver, given in picks:
                hands[giver].remove(given)
                taker = (giver + 1) % state.players
                hands[taker].append(given)
                received[taker] = given
            done = Event("exchange_done", None, {})
            return dataclasses.replace(
                state,
                hands=tuple(tuple(sorted(h)) for h in hands),
                phase="play",
                picks=(),
                received=tuple(received),
                events=(done,),
            )
        hands[seat].remove(card)
        deck = list(state.deck)
        if deck:
            hands[seat].append(deck.pop(0))
        scores = list(state.scores)
        scores[seat] += card
        state = dataclasses.replace(
            state,
            hands=tuple(tuple(sorted(h)) for h in hands),
            deck=tuple(deck),
            scores=tuple(scores),
            turn=(seat + 1) % state.players,
            events=(Event("move", seat, {"card": card}),),
        )
        if _score(state, seat) >= state.target or not any(state.hands):
            best = max(_score(state, s) for s in range(state.players))
            winners = tuple(s for s in range(state.players) if _score(state, s) == best)
            over = Event("game_over", None, {})
            return dataclasses.replace(
                state, phase="finished", winners=winners, events=(*state.events, over)
            )
        while not state.hands[state.turn]:
            state = dataclasses.replace(state, turn=(state.turn + 1) % state.players)
        return state

    def auto_action(state: ToyState, seat: int) -> ToyState:
        moves = legal_moves(state, seat)
        if not moves:
            return state
        return apply(state, moves[0])

    def leave(state: ToyState, seat: int) -> ToyState:
        return dataclasses.replace(state, left=state.left | {seat}, events=())

    def outcome(state: ToyState) -> Outcome | None:
        if state.phase != "finished":
            return None
        return Outcome(state.winners, state.scores)

    def view(state: ToyState, seat: int | None) -> dict[str, Any]:
        picked = dict(state.picks)
        result: dict[str, Any] = {
            "game": "toy",
            "viewer": seat,
            "phase": state.phase,
            "seats": list(range(state.players)),
            "to_act": sorted(seats_to_act(state)),
            "finished": state.phase == "finished",
            "winners": list(state.winners),
            "events": [e.to_json() for e in state.events if e.public],
            "scores": list(state.scores),
            "hand_sizes": {str(s): len(h) for s, h in enumerate(state.hands)},
            "draw": len(state.deck),
            "exchanged": sorted(picked),
            "teams": None if state.teams is None else [list(t) for t in state.teams],
        }
        if seat is not None:
            result["hand"] = [str(c) for c in state.hands[seat]]
            result["my_pick"] = picked.get(seat)
            result["received"] = state.received[seat] if state.received else None
        return result

    def to_position(state: ToyState) -> dict[str, Any]:
        return {"scores": list(state.scores), "hands": [list(h) for h in state.hands]}

    for fn in (
        new_game,
        seats_to_act,
        legal_moves,
        parse_move,
        apply,
        auto_action,
        leave,
        outcome,
        view,
        to_position,
    ):
        setattr(toy, fn.__name__, fn)
    return toy


TOY = _toy_module()


def load_game(name: str) -> Any:
    """``engine.get_game`` plus the toy game."""
    if name == "toy":
        return TOY
    from engine import get_game

    return get_game(name)


def real_games() -> list[str]:
    """The real engines that can be imported right now."""
    names = []
    for name in ("tock", "dog", "carcassonne"):
        try:
            importlib.import_module(f"engine.{name}")
        except ModuleNotFoundError:
            continue
        names.append(name)
    return names


# --- fixtures -------------------------------------------------------------------------------


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def storage() -> AsyncIterator[Storage]:
    store = await open_storage("sqlite:///:memory:")
    yield store
    await store.close()


class Recorder:
    """A listener that keeps every delivered :class:`Effects`."""

    def __init__(self) -> None:
        self.effects: list[Any] = []

    async def __call__(self, effects: Any) -> None:
        self.effects.append(effects)


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
async def service(
    storage: Storage, clock: FakeClock, recorder: Recorder
) -> AsyncIterator[TableService]:
    svc = TableService(
        storage,
        clock=clock,
        listener=recorder,
        choose_bot_move=random_chooser,
        load_game=load_game,
    )
    yield svc
    await svc.stop()


# --- PostgreSQL -----------------------------------------------------------------------------

POSTGRES_ADMIN_URL = os.environ.get(
    "DATABASE_URL_TEST", "postgresql://postgres@127.0.0.1:5432/test"
)


async def postgres_database() -> tuple[str, str] | None:
    """Create a fresh database; return (its url, admin url), or None if no server answers."""
    try:
        import asyncpg
    except ImportError:
        return None
    name = f"poeppel_test_{uuid.uuid4().hex[:12]}"
    try:
        conn = await asyncpg.connect(POSTGRES_ADMIN_URL, timeout=3)
    except (OSError, asyncpg.PostgresError, TimeoutError):
        return None
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    base = POSTGRES_ADMIN_URL.rsplit("/", 1)[0]
    return f"{base}/{name}", name


async def drop_postgres_database(name: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(POSTGRES_ADMIN_URL, timeout=3)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


def require_postgres() -> bool:
    return os.environ.get("POEPPEL_REQUIRE_POSTGRES") == "1"


async def postgres_or_skip() -> tuple[str, str]:
    """A fresh database as (url, name) for :func:`drop_postgres_database`; without a server
    the test is skipped with a reason (or fails, when ``POEPPEL_REQUIRE_POSTGRES=1``)."""
    created = await postgres_database()
    if created is None:
        if require_postgres():
            pytest.fail("PostgreSQL at 127.0.0.1:5432 is required but unreachable")
        pytest.skip("no PostgreSQL server at 127.0.0.1:5432")
    return created


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def any_storage(request: pytest.FixtureRequest, tmp_path: Any) -> AsyncIterator[Storage]:
    """Each storage back end in turn (PostgreSQL skipped with a reason if unreachable)."""
    if request.param == "sqlite":
        store = await open_storage(f"sqlite:///{tmp_path / 'tables.sqlite3'}")
        yield store
        await store.close()
        return
    url, name = await postgres_or_skip()
    store = await open_storage(url)
    try:
        yield store
    finally:
        await store.close()
        await drop_postgres_database(name)
