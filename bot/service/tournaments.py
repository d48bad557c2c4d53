"""Tournaments: sign-up, the host's controls, and rounds that open their tables by themselves.

The rules (pairing, points, standings) are pure and live in :mod:`bot.tournament`; this part
keeps a tournament in storage and plays its rounds through the ordinary table machinery: each
match becomes a table whose seats are filled at once (bots only where the host allowed them),
with the tournament's turn clock (a tournament cannot stall) and started by the host's right.

Exactly once: a round is recorded by one guarded write of the tournament (its stored version
must not have moved), and each match's table is inserted together with its link
``(tournament, round, slot)`` in one transaction, so a slot never gets a second table. Every
step can therefore be tried again: :meth:`Tournaments.advance` folds in the results of the
finished tables, records the next round when the current one is complete, and opens the
tables the current round still lacks. It runs after a tournament table's last commit (a
commit hook) and, for every active tournament of the guilds this process owns, at
:meth:`Tournaments.start`: a kill anywhere in between loses nothing and opens nothing twice.

What happens is told to a :class:`TournamentListener` (the front end): a round's tables that
need a thread (with the effects of their start, when they started just now), and the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.after_game.game_result import GameResult
from bot.model.clock import Clock
from bot.model.effects import Effects
from bot.model.table import (
    BOT_LEVELS,
    DEFAULT_BOT_LEVEL,
    MAX_ID,
    TURN_TIMES,
    LogEntry,
    Phase,
    Seat,
    TableError,
    TableRecord,
)
from bot.service.games import Games
from bot.service.lobby import Lobby, option_error
from bot.service.results import Results
from bot.service.store import TableStore
from bot.storage.base import Storage
from bot.tournament import (
    Entrant,
    Format,
    Settings,
    Standing,
    Tournament,
    champion,
    next_round,
    standings,
)
from bot.tournament.record import TournamentPhase, TournamentRecord

log = logging.getLogger(__name__)

#: Seconds between looks for tournaments whose start time has come.
START_POLL = 30.0


class TournamentError(TableError):
    """A tournament request the service refuses (a catalogue key and its parameters)."""

    default_key = "tournament.error.refused"


@dataclass(slots=True)
class OpenedTable:
    """A tournament table that needs its thread: ``effects`` of its start when it started
    just now (``None`` when it had started before a restart)."""

    record: TableRecord
    effects: Effects | None
    entrants: tuple[str, ...]


@dataclass(slots=True)
class RoundOpened:
    """A round whose tables are open: who sits where, and who has a bye."""

    tournament: TournamentRecord
    number: int
    tables: list[OpenedTable] = field(default_factory=list)
    byes: tuple[str, ...] = ()


class TournamentListener(Protocol):
    """The front end, told what a tournament did by itself."""

    async def round_opened(self, opened: RoundOpened) -> None:
        """A round's tables are open (or still lack their thread after a restart)."""

    async def tournament_finished(self, tournament: TournamentRecord) -> None:
        """The last round is played: the final standings and the champion."""


class LaterHook:
    """The tournaments' commit hook, handed to the table store before the tournaments part
    exists (it needs the lobby, which needs the store); :attr:`target` is set once it does."""

    def __init__(self) -> None:
        self.target: Tournaments | None = None

    async def committed(self, record: TableRecord, entries: Sequence[LogEntry]) -> None:
        """Tell the tournaments part (when there is one) about a commit."""
        if self.target is not None:
            await self.target.committed(record, entries)


def entrant_of(result: GameResult, entrant: Entrant) -> tuple[int, int]:
    """An entrant's (place, game score) at a finished table: its best-placed member's place
    and its members' scores added up (partners share a place)."""
    members = {f"u:{m}" for m in entrant.members}
    seats = [s for s in result.seats if s.player in members]
    if not seats:
        return (len(result.seats) + 1, 0)
    return min(s.place for s in seats), sum(s.score for s in seats)


def dense(places: Sequence[int]) -> list[int]:
    """Places renumbered 1, 2, ... keeping ties (bot seats between entrants drop out)."""
    ranked = sorted(set(places))
    return [ranked.index(p) + 1 for p in places]


class Tournaments:
    """Tournaments of many guilds in one process. See the module docstring."""

    def __init__(
        self,
        storage: Storage,
        store: TableStore,
        games: Games,
        results: Results,
        lobby: Lobby,
        clock: Clock,
    ) -> None:
        self._storage = storage
        self._store = store
        self._games = games
        self._results = results
        self._lobby = lobby
        self._clock = clock
        self.listener: TournamentListener | None = None
        self.owns_guild: Callable[[int], bool] = lambda _guild: True
        self._locks: dict[int, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._poll: asyncio.Task[None] | None = None

    # --- the process ---------------------------------------------------------------------------

    async def start(self, owns_guild: Callable[[int], bool]) -> None:
        """Catch up every active tournament of this process's guilds (results folded in,
        missing rounds and tables opened), and look for start times from now on."""
        self.owns_guild = owns_guild
        await self.recover()
        if self._poll is None:
            self._poll = asyncio.create_task(self._poll_starts())

    async def recover(self) -> None:
        """Advance every active tournament of this process's guilds once."""
        for record in await self._storage.list_tournaments(None, active=True):
            if self.owns_guild(record.guild_id):
                await self.advance(record.id, resend=True)

    async def stop(self) -> None:
        """Stop the start-time loop and wait for the rounds being opened."""
        if self._poll is not None:
            self._poll.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._poll
            self._poll = None
        await self.idle()

    async def idle(self) -> None:
        """Wait until the rounds being opened in the background are open."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def _poll_starts(self) -> None:
        while True:
            await asyncio.sleep(START_POLL)
            try:
                await self.run_due()
            except Exception:
                log.exception("tournament start times")

    async def run_due(self) -> None:
        """Start every tournament of this process whose start time has come."""
        now = self._clock.now()
        for record in await self._storage.list_tournaments(None, active=True):
            start_at = record.setup.get("start_at")
            if (
                self.owns_guild(record.guild_id)
                and record.phase in (TournamentPhase.SIGNUP, TournamentPhase.CLOSED)
                and start_at is not None
                and float(start_at) <= now
            ):
                try:
                    await self.begin(record.id, record.host_id)
                except TableError as error:  # too few entrants: the host hears at the post
                    log.info("tournament %s could not start: %s", record.id, error)

    # --- hosting -------------------------------------------------------------------------------

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        game: str,
        host_id: int,
        *,
        format: str,
        players: int,
        rounds: int = 3,
        options: Mapping[str, Any] | None = None,
        turn_time: int = 300,
        bots: bool = False,
        bot_level: str = DEFAULT_BOT_LEVEL,
        start_at: float | None = None,
        points: Sequence[int] = (),
    ) -> TournamentRecord:
        """Open a tournament's sign-up. ``players`` is the seats per table; ``turn_time`` must
        be a turn clock (not 0); ``bots`` lets bots fill a seat no entrant can. Raises
        :class:`TournamentError` or the lobby's option errors naming what is wrong."""
        module = self._games.module_or_refuse(game)
        try:
            fmt = Format(format)
        except ValueError:
            raise TournamentError("tournament.error.format") from None
        if players not in module.PLAYER_COUNTS:
            raise TournamentError(
                "tournament.error.seats", allowed=[str(c) for c in module.PLAYER_COUNTS]
            )
        if turn_time == 0 or turn_time not in TURN_TIMES:
            raise TournamentError("tournament.error.turn_clock")
        if bot_level not in BOT_LEVELS:
            raise TournamentError("tournament.error.bot_level")
        if fmt == Format.SWISS and not 1 <= rounds <= 20:
            raise TournamentError("tournament.error.rounds")
        from engine.protocol import InvalidOptions, validate_options

        try:
            checked = validate_options(module.OPTIONS, options)
            module.new_game(players, checked, 0)
        except InvalidOptions as error:
            raise option_error(error) from None
        team_size, table_size = self._team_shape(game, players, checked)
        if fmt != Format.SWISS and table_size != 2:
            raise TournamentError("tournament.error.two_sides")
        smallest = min(module.PLAYER_COUNTS)
        settings = Settings(
            fmt,
            rounds=rounds,
            table_size=table_size,
            min_table=table_size if team_size > 1 else max(2, smallest),
            points=tuple(points),
        )
        now = self._clock.now()
        record = TournamentRecord(
            id=0,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            game=game,
            state=Tournament(settings, ()),
            setup={
                "options": checked,
                "players": players,
                "team_size": team_size,
                "turn_time": turn_time,
                "bots": bots,
                "bot_level": bot_level,
                "start_at": start_at,
                "singles": [],
            },
            created_at=now,
            updated_at=now,
        )
        tournament_id = await self._storage.create_tournament(record)
        return record.with_changes(id=tournament_id)

    def _team_shape(self, game: str, players: int, options: Mapping[str, Any]) -> tuple[int, int]:
        """(seats per entrant, entrants per table) of ``game`` at ``players`` seats."""
        module = self._games.module(game)
        view = module.view(module.new_game(players, options, 0), None)
        teams = view.get("teams")
        if teams:
            return players // len(teams), len(teams)
        return 1, players

    async def get(self, tournament_id: int) -> TournamentRecord:
        """The tournament; :class:`TournamentError` if there is none (also for an id no
        database could hold: a crafted button)."""
        if not 0 < tournament_id <= MAX_ID:
            raise TournamentError("tournament.error.not_found")
        record = await self._storage.load_tournament(tournament_id)
        if record is None:
            raise TournamentError("tournament.error.not_found")
        return record

    async def of_guild(self, guild_id: int, active: bool = True) -> list[TournamentRecord]:
        """A guild's tournaments (by default those not over), oldest first."""
        return await self._storage.list_tournaments(guild_id, active)

    async def _change(
        self,
        tournament_id: int,
        change: Callable[[TournamentRecord], TournamentRecord],
    ) -> TournamentRecord:
        """Apply ``change`` to the stored tournament under its guarded write, retrying when
        another writer got there first."""
        async with self._lock(tournament_id):
            for _ in range(5):
                record = await self.get(tournament_id)
                new = change(record).with_changes(
                    version=record.version + 1, updated_at=self._clock.now()
                )
                if await self._storage.save_tournament(new, record.version):
                    return new
            raise TournamentError("tournament.error.busy")

    def _lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    @staticmethod
    def _require_signup(record: TournamentRecord) -> None:
        if record.phase not in (TournamentPhase.SIGNUP, TournamentPhase.CLOSED):
            raise TournamentError("tournament.error.started")

    @staticmethod
    def _require_host(record: TournamentRecord, user_id: int) -> None:
        if user_id != record.host_id:
            raise TournamentError("tournament.error.not_host")

    async def join(
        self,
        tournament_id: int,
        user_id: int,
        name: str,
        *,
        partner_id: int | None = None,
        partner_name: str = "",
    ) -> TournamentRecord:
        """Sign up: alone, or (in a team game) with a fixed partner; a single in a team game
        waits to be paired at the start."""

        def change(record: TournamentRecord) -> TournamentRecord:
            if record.phase != TournamentPhase.SIGNUP:
                raise TournamentError("tournament.error.signup_closed")
            state = record.state
            taken = {m for e in state.entrants for m in e.members}
            taken |= {int(s["id"]) for s in record.setup.get("singles", [])}
            if user_id in taken or (partner_id is not None and partner_id in taken):
                raise TournamentError("tournament.error.already_in")
            team_size = int(record.setup.get("team_size", 1))
            setup = dict(record.setup)
            if team_size == 1:
                entrant = Entrant(f"u:{user_id}", name, (user_id,))
            elif partner_id is None:
                setup["singles"] = [*setup.get("singles", []), {"id": user_id, "name": name}]
                return record.with_changes(setup=setup)
            else:
                if partner_id == user_id:
                    raise TournamentError("tournament.error.partner_self")
                entrant = Entrant(
                    f"p:{user_id}+{partner_id}", f"{name} & {partner_name}", (user_id, partner_id)
                )
            new_state = Tournament(state.settings, (*state.entrants, entrant))
            return record.with_changes(state=new_state, setup=setup)

        return await self._change(tournament_id, change)

    async def leave(self, tournament_id: int, user_id: int) -> TournamentRecord:
        """Leave the sign-up (a fixed pair leaves together)."""

        def change(record: TournamentRecord) -> TournamentRecord:
            self._require_signup(record)
            return self._without_person(record, user_id)

        return await self._change(tournament_id, change)

    @staticmethod
    def _without_person(record: TournamentRecord, user_id: int) -> TournamentRecord:
        state = record.state
        entrants = tuple(e for e in state.entrants if user_id not in e.members)
        singles = [s for s in record.setup.get("singles", []) if int(s["id"]) != user_id]
        if len(entrants) == len(state.entrants) and len(singles) == len(
            record.setup.get("singles", [])
        ):
            raise TournamentError("tournament.error.not_in")
        setup = {**record.setup, "singles": singles}
        return record.with_changes(state=Tournament(state.settings, entrants), setup=setup)

    async def set_post(self, tournament_id: int, message_id: int) -> TournamentRecord:
        """Remember the sign-up post's message (the front end edits it as people join)."""

        def change(record: TournamentRecord) -> TournamentRecord:
            return record.with_changes(setup={**record.setup, "post_id": message_id})

        return await self._change(tournament_id, change)

    async def close_signup(self, tournament_id: int, user_id: int) -> TournamentRecord:
        """The host closes the sign-up (the start comes later)."""

        def change(record: TournamentRecord) -> TournamentRecord:
            self._require_host(record, user_id)
            if record.phase != TournamentPhase.SIGNUP:
                raise TournamentError("tournament.error.signup_closed")
            return record.with_changes(phase=TournamentPhase.CLOSED)

        return await self._change(tournament_id, change)

    async def remove(self, tournament_id: int, user_id: int, target_id: int) -> TournamentRecord:
        """The host removes a person: from the sign-up, or (once running) from every later
        pairing; what they scored stays."""

        def change(record: TournamentRecord) -> TournamentRecord:
            self._require_host(record, user_id)
            if record.phase in (TournamentPhase.SIGNUP, TournamentPhase.CLOSED):
                return self._without_person(record, target_id)
            if not record.active:
                raise TournamentError("tournament.error.over")
            found = [e for e in record.state.entrants if target_id in e.members]
            if not found:
                raise TournamentError("tournament.error.not_in")
            return record.with_changes(state=record.state.without(found[0].key))

        return await self._change(tournament_id, change)

    async def pause(
        self, tournament_id: int, user_id: int, paused: bool = True
    ) -> TournamentRecord:
        """The host pauses (the next round waits; tables in play go on) or resumes."""

        def change(record: TournamentRecord) -> TournamentRecord:
            self._require_host(record, user_id)
            want = TournamentPhase.RUNNING if paused else TournamentPhase.PAUSED
            if record.phase != want:
                raise TournamentError("tournament.error.not_running")
            return record.with_changes(
                phase=TournamentPhase.PAUSED if paused else TournamentPhase.RUNNING
            )

        record = await self._change(tournament_id, change)
        if not paused:
            await self.advance(tournament_id)
            record = await self.get(tournament_id)
        return record

    async def cancel(self, tournament_id: int, user_id: int) -> TournamentRecord:
        """The host cancels: no more rounds (tables in play finish as ordinary games)."""

        def change(record: TournamentRecord) -> TournamentRecord:
            self._require_host(record, user_id)
            if not record.active:
                raise TournamentError("tournament.error.over")
            return record.with_changes(phase=TournamentPhase.CANCELLED)

        return await self._change(tournament_id, change)

    async def begin(self, tournament_id: int, user_id: int) -> TournamentRecord:
        """The host starts: singles of a team game are paired (a bot partner for the last
        one where bots are allowed), entrants are seeded by rating, and round 1 opens."""
        ratings = await self._seeds(await self.get(tournament_id))

        def change(record: TournamentRecord) -> TournamentRecord:
            self._require_host(record, user_id)
            self._require_signup(record)
            entrants = list(record.state.entrants)
            singles = list(record.setup.get("singles", []))
            while len(singles) >= 2:
                a, b = singles.pop(0), singles.pop(0)
                entrants.append(
                    Entrant(
                        f"p:{a['id']}+{b['id']}", f"{a['name']} & {b['name']}", (a["id"], b["id"])
                    )
                )
            if singles and record.setup.get("bots"):
                a = singles.pop(0)
                entrants.append(Entrant(f"u:{a['id']}", a["name"], (a["id"],)))
            seeded = tuple(
                Entrant(e.key, e.name, e.members, ratings.get(e.key, 0.0)) for e in entrants
            )
            if len(seeded) < 2:
                raise TournamentError("tournament.error.too_few")
            state = Tournament(record.state.settings, seeded)
            setup = {**record.setup, "singles": singles}
            return record.with_changes(state=state, setup=setup, phase=TournamentPhase.RUNNING)

        record = await self._change(tournament_id, change)
        await self.advance(tournament_id)
        return await self.get(record.id)

    async def _seeds(self, record: TournamentRecord) -> dict[str, float]:
        """Each entrant's seed: its members' mean rating (ordinal) in the game here."""
        seeds: dict[str, float] = {}
        for entrant in record.state.entrants:
            values = []
            for member in entrant.members:
                found = await self._storage.rating(record.guild_id, record.game, f"u:{member}")
                values.append(found[1].ordinal if found is not None else 0.0)
            seeds[entrant.key] = sum(values) / len(values)
        return seeds

    # --- reading -------------------------------------------------------------------------------

    async def standings(self, tournament_id: int) -> tuple[TournamentRecord, list[Standing]]:
        """The tournament and its standings now."""
        record = await self.get(tournament_id)
        return record, standings(record.state)

    async def record_of(self, tournament_id: int) -> dict[str, Any]:
        """The downloadable record: every round, every table's record, the standings."""
        record = await self.get(tournament_id)
        tables: list[dict[str, Any]] = []
        for (round_number, slot), table_id in sorted(
            (await self._storage.tournament_tables(tournament_id)).items()
        ):
            table = await self._storage.load_table(table_id)
            entry: dict[str, Any] = {"round": round_number, "slot": slot, "table": table_id}
            if table is not None and table.phase == Phase.FINISHED:
                entry["record"] = await self._results.game_record(table_id)
            tables.append(entry)
        # Like a game's record, the download names people but carries no Discord ids: the
        # entrants are numbered in sign-up order instead.
        alias = {e.key: f"e{i}" for i, e in enumerate(record.state.entrants, start=1)}
        state = record.state.to_json()
        for entrant in state["entrants"]:
            entrant.pop("members", None)
            entrant["key"] = alias[entrant["key"]]
        for round_ in state["rounds"]:
            round_["byes"] = [alias[k] for k in round_["byes"]]
            round_["lineup"] = [alias.get(k, "") for k in round_["lineup"]]
            for match in round_["matches"]:
                match["entrants"] = [alias[k] for k in match["entrants"]]
        state["removed"] = [alias[k] for k in state["removed"]]
        winner = champion(record.state)
        return {
            "tournament": record.id,
            "game": record.game,
            "phase": str(record.phase),
            "state": state,
            "champion": None if winner is None else alias[winner],
            "standings": [
                {"rank": s.rank, "entrant": alias[s.key], "name": s.name, "points": s.points}
                for s in standings(record.state)
            ],
            "tables": tables,
        }

    # --- rounds --------------------------------------------------------------------------------

    async def committed(self, record: TableRecord, entries: Sequence[LogEntry]) -> None:
        """A commit hook: a tournament table ended, so its round may be complete."""
        tournament_id = record.extra.get("tournament")
        if tournament_id is None or record.active or not self.owns_guild(record.guild_id):
            return
        task = asyncio.create_task(self._advance_logged(int(tournament_id)))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _advance_logged(self, tournament_id: int) -> None:
        try:
            await self.advance(tournament_id)
        except Exception:  # stored state is whole; start() tries again
            log.exception("could not advance tournament %s", tournament_id)

    async def advance(self, tournament_id: int, *, resend: bool = False) -> None:
        """Fold in the finished tables, record the next round once the current one is
        complete (or finish), and open the tables the current round lacks. Safe to call any
        number of times, from any process. ``resend`` tells the listener again about the
        current round's tables that have no thread yet."""
        async with self._lock(tournament_id):
            record = await self.get(tournament_id)
            if record.phase not in (TournamentPhase.RUNNING, TournamentPhase.PAUSED):
                return
            new = await self._with_results(record)
            state = new.state
            finished_now = False
            if (not state.rounds or state.rounds[-1].finished) and (
                record.phase == TournamentPhase.RUNNING
            ):
                # A large field takes a blossom matching of a few hundred ms: off the loop.
                upcoming = await asyncio.to_thread(next_round, state)
                if upcoming is None:
                    new = new.with_changes(phase=TournamentPhase.FINISHED)
                    finished_now = True
                else:
                    new = new.with_changes(state=state.with_round(upcoming))
            if new != record:
                new = new.with_changes(version=record.version + 1, updated_at=self._clock.now())
                if not await self._storage.save_tournament(new, record.version):
                    return  # another writer moved it on; it opens what it recorded
                record = new
            if finished_now:
                if self.listener is not None:
                    await self.listener.tournament_finished(record)
                return
            await self._open_tables(record, resend=resend)

    async def _with_results(self, record: TournamentRecord) -> TournamentRecord:
        """``record`` with the results of the current round's finished tables."""
        state = record.state
        if not state.rounds:
            return record
        current = state.rounds[-1]
        links = await self._storage.tournament_tables(record.id)
        for index, match in enumerate(current.matches):
            table_id = links.get((current.number, index))
            if match.finished or table_id is None:
                continue
            table = await self._store.find(table_id)
            if table is None or table.active:
                continue
            entrants = [state.entrant(k) for k in match.entrants]
            result = await self._results.result(table_id) if table.phase == Phase.FINISHED else None
            if result is None:  # abandoned: nobody won
                places = [1] * len(entrants)
                scores = [0] * len(entrants)
            else:
                found = [entrant_of(result, e) for e in entrants]
                places = dense([p for p, _ in found])
                scores = [s for _, s in found]
            state = state.with_result(current.number, index, places, scores)
        return record.with_changes(state=state)

    async def _open_tables(self, record: TournamentRecord, *, resend: bool) -> None:
        """Open (once) every table of the current round, start those in the lobby, and tell
        the listener about the tables that need their thread."""
        state = record.state
        if not state.rounds:
            return
        current = state.rounds[-1]
        opened = RoundOpened(record, current.number, byes=current.byes)
        for index, match in enumerate(current.matches):
            if match.finished:
                continue
            table = self._table_for(record, current.number, index, match.entrants)
            table_id, created = await self._storage.create_tournament_table(
                table, record.id, current.number, index
            )
            stored = await self._store.stored(table_id)
            effects = None
            if stored.phase == Phase.LOBBY:
                effects = await self._lobby.start_game(table_id, record.host_id)
                stored = effects.table
            if created or effects is not None or (resend and stored.thread_id is None):
                opened.tables.append(OpenedTable(stored, effects, match.entrants))
        if opened.tables and self.listener is not None:
            await self.listener.round_opened(opened)

    def _table_for(
        self, record: TournamentRecord, round_number: int, slot: int, keys: Sequence[str]
    ) -> TableRecord:
        """The table of one match: its entrants' members seated (partners in one team),
        bots in the seats no entrant fills."""
        setup = record.setup
        state = record.state
        team_size = int(setup.get("team_size", 1))
        players = int(setup["players"]) if team_size > 1 else max(len(keys), 2)
        module = self._games.module(record.game)
        if players not in module.PLAYER_COUNTS:
            players = min(c for c in module.PLAYER_COUNTS if c >= players)
        now = self._clock.now()
        level = str(setup.get("bot_level", DEFAULT_BOT_LEVEL))
        seats: list[Seat] = [Seat(i) for i in range(players)]
        draft = TableRecord(
            id=0,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            game=record.game,
            options=dict(setup.get("options", {})),
            seed=random.SystemRandom().getrandbits(63),
            host_id=record.host_id,
            seats=tuple(seats),
            players=players,
        )
        teams = self._lobby.teams(draft) if team_size > 1 else None
        positions = teams if teams is not None else [[i] for i in range(players)]
        for team, key in zip(positions, keys, strict=False):
            entrant = state.entrant(key)
            names = entrant.name.split(" & ") if len(entrant.members) > 1 else [entrant.name]
            for place, member, name in zip(team, entrant.members, names, strict=False):
                seats[place] = Seat(place, user_id=member, name=name)
        for i, seat in enumerate(seats):
            if seat.user_id is None:
                seats[i] = Seat(i, bot_level=level, bot_number=i + 1)
        return draft.with_changes(
            seats=tuple(seats),
            turn_time=int(setup["turn_time"]),
            absent_policy="bot" if setup.get("bots") else "auto",
            version=1,
            created_at=now,
            updated_at=now,
            extra={
                "bot_level": level,
                "tournament": record.id,
                "tournament_round": round_number,
                "tournament_slot": slot,
            },
        )
