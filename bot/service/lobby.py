"""The lobby: open a table, take and free seats, add bots, leave, kick, abandon, start.

Owns nothing of its own: the tables are the store's. It also keeps the rule of a rematch
lobby's kept seats (:mod:`bot.service.rematch`): a kept seat goes only to its player, and the
game starts once every kept seat is taken, whichever way a person joins.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot.model.clock import Clock
from bot.model.effects import Effects, PublicUpdate
from bot.model.table import (
    ABSENT_POLICIES,
    BOT_LEVELS,
    DEFAULT_BOT_LEVEL,
    TURN_TIMES,
    AlreadySeated,
    BadSeat,
    CannotStart,
    InvalidTableOptions,
    NotHost,
    NotSeated,
    Phase,
    Seat,
    TableError,
    TableFull,
    TableRecord,
    WrongPhase,
    bot_level_of,
    game_title,
    reserved_seats,
)
from bot.service.announce import Announcer
from bot.service.bot_turns import BotTurns
from bot.service.games import Games
from bot.service.steps import Steps
from bot.service.store import Conflict, LiveTable, TableStore, require_phase
from i18n.message import Said, joined, msg

if TYPE_CHECKING:
    from engine.protocol import InvalidOptions


def _numbers(values: Sequence[int]) -> list[str]:
    """Allowed numbers for a sentence (``2, 3 and 4``)."""
    return [str(v) for v in values]


def option_error(error: InvalidOptions) -> InvalidTableOptions:
    """The engine's refusal of an option, as a keyed error naming the option and value."""
    if error.option is None:
        return InvalidTableOptions("error.options_invalid")
    if error.unknown:
        return InvalidTableOptions(
            "error.option_unknown", option=error.option, known=list(error.choices or ())
        )
    if error.players is not None:
        return InvalidTableOptions(
            "error.option_players", option=error.option, value=error.value, count=error.players
        )
    choices = error.choices
    if choices is None:
        return InvalidTableOptions("error.option_bad", option=error.option, value=error.value)
    return InvalidTableOptions(
        "error.option_value",
        option=error.option,
        value=error.value,
        allowed=[str(c) for c in choices],
    )


class Lobby:
    """Seats and the start of a game; leaving also hands a seat in play to the absent policy."""

    def __init__(
        self,
        store: TableStore,
        games: Games,
        steps: Steps,
        announcer: Announcer,
        bots: BotTurns,
        clock: Clock,
        *,
        require_person: bool = True,
    ) -> None:
        self._store = store
        self._games = games
        self._steps = steps
        self._announcer = announcer
        self._bots = bots
        self._clock = clock
        self._require_person = require_person

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        game: str,
        host_id: int,
        host_name: str,
        *,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        turn_time: int = 0,
        absent_policy: str = "auto",
        seed: int | None = None,
        seat_host: bool = True,
        bot_level: str = DEFAULT_BOT_LEVEL,
        hints: bool = False,
        live_watch: bool = False,
    ) -> Effects:
        """Open a table in the lobby phase, with the host in seat 0 (unless ``seat_host``).

        ``hints`` lets seated players ask the ``hard`` bot for their move (see
        :mod:`bot.service.hints`); such a table is never rated. ``live_watch`` lets anyone
        with the link watch the table's live page without signing in (#33; off by default:
        a server's games are its own).

        ``players`` is the number of seats (default: the game's largest count that is at most
        4). ``bot_level`` is the table's level of bots: of those added without a level, and
        of the bot that takes a seat a person leaves (absent policy ``bot``). Raises
        :class:`InvalidTableOptions` naming a bad game, option, player count, turn time,
        absent policy or bot level.
        """
        module = self._games.module_or_refuse(game)
        counts = tuple(module.PLAYER_COUNTS)
        if players is None:
            players = max((c for c in counts if c <= 4), default=min(counts))
        if players not in counts:
            raise InvalidTableOptions(
                "error.wrong_player_count",
                game=game_title(game),
                allowed=_numbers(counts),
                count=players,
            )
        from engine.protocol import InvalidOptions, validate_options

        try:
            checked = validate_options(module.OPTIONS, options)
            # Some options only fit some player counts (a 2v2 needs 4 players): ask the engine.
            module.new_game(players, checked, 0)
        except InvalidOptions as error:
            raise option_error(error) from None
        if turn_time not in TURN_TIMES:
            raise InvalidTableOptions("error.turn_time", allowed=_numbers(TURN_TIMES))
        if absent_policy not in ABSENT_POLICIES:
            raise InvalidTableOptions("error.absent_policy", allowed=list(ABSENT_POLICIES))
        self._check_bot_level(bot_level)
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        now = self._clock.now()
        seats = [Seat(i) for i in range(players)]
        if seat_host:
            seats[0] = Seat(0, user_id=host_id, name=host_name)
        record = TableRecord(
            id=0,
            guild_id=guild_id,
            channel_id=channel_id,
            game=game,
            options=checked,
            seed=seed,
            host_id=host_id,
            seats=tuple(seats),
            players=players,
            turn_time=turn_time,
            absent_policy=absent_policy,
            version=1,
            created_at=now,
            updated_at=now,
            extra={
                "bot_level": bot_level,
                **({"hints": True} if hints else {}),
                **({"live_watch": True} if live_watch else {}),
            },
        )
        record = await self._store.create(record)
        text = msg("table.opened", host=host_name, game=game_title(game), count=players)
        return Effects(record, [self._announcer.lobby_update(record, "created", text)])

    async def join(
        self,
        table_id: int,
        user_id: int,
        name: str,
        *,
        seat: int | None = None,
        team: int | None = None,
    ) -> Effects:
        """Take a free seat (a chosen ``seat`` position, or any free seat of ``team``); in a
        rematch lobby a kept seat goes only to its player (who gets it whatever they asked
        for), and the others only get the seats not kept."""
        async with self._store.session(table_id) as live:
            record = require_phase(live.record, Phase.LOBBY)
            seat, team = self._kept_seat_rule(record, user_id, seat, team)
            if record.seat_of(user_id) is not None:
                raise AlreadySeated()
            index = self._free_position(record, seat, team)
            seats = list(record.seats)
            seats[index] = Seat(index, user_id=user_id, name=name)
            record = await self.commit_seats(live, seats)
            text = msg("table.joined", name=name, seat=index + 1)
            return Effects(record, [self._announcer.lobby_update(record, "lobby", text)])

    async def add_bot(
        self,
        table_id: int,
        user_id: int,
        level: str | None = None,
        *,
        seat: int | None = None,
        team: int | None = None,
    ) -> Effects:
        """The host puts a bot of ``level`` (easy, normal, hard; default: the table's level)
        into a free seat."""
        if level is not None:
            self._check_bot_level(level)
        async with self._store.session(table_id) as live:
            record = require_phase(live.record, Phase.LOBBY)
            self._require_host(record, user_id)
            level = level or bot_level_of(record)
            index = self._free_position(record, seat, team)
            seats = list(record.seats)
            seats[index] = Seat(index, bot_level=level, bot_number=index + 1)
            record = await self.commit_seats(live, seats)
            text = msg("table.bot_joined", level=msg(f"bot_level.{level}"), seat=index + 1)
            return Effects(record, [self._announcer.lobby_update(record, "lobby", text)])

    async def remove_bot(self, table_id: int, user_id: int, seat: int) -> Effects:
        """The host frees the bot seat at position ``seat``."""
        async with self._store.session(table_id) as live:
            record = require_phase(live.record, Phase.LOBBY)
            self._require_host(record, user_id)
            if not 0 <= seat < len(record.seats) or not record.seats[seat].is_bot:
                raise BadSeat("error.not_bot_seat", seat=seat + 1)
            seats = list(record.seats)
            seats[seat] = Seat(seat)
            record = await self.commit_seats(live, seats)
            text = msg("table.bot_left", seat=seat + 1)
            return Effects(record, [self._announcer.lobby_update(record, "lobby", text)])

    async def leave(self, table_id: int, user_id: int) -> Effects:
        """Leave a table: in the lobby the seat is freed (the host's role passes on, and an
        empty lobby is abandoned); in play the seat goes to the absent-player policy."""
        async with self._store.session(table_id) as live:
            return await self._remove_person(live, user_id, kicked=False)

    async def kick(self, table_id: int, user_id: int, target_user_id: int) -> Effects:
        """The host removes another person, exactly as if they had left."""
        async with self._store.session(table_id) as live:
            self._require_host(live.record, user_id)
            if target_user_id == user_id:
                raise BadSeat("error.kick_self")
            return await self._remove_person(live, target_user_id, kicked=True)

    async def set_thread(self, table_id: int, thread_id: int | None) -> TableRecord:
        """Remember the thread the front end opened for this table."""
        return await self._store.set_thread(table_id, thread_id)

    async def abandon(self, table_id: int, user_id: int, *, can_manage: bool = False) -> Effects:
        """End a table without a result (the host, or a member with Manage Threads)."""
        async with self._store.session(table_id) as live:
            record = live.record
            if not record.active:
                raise WrongPhase("error.table_over")
            if user_id != record.host_id and not can_manage:
                raise NotHost("error.abandon_not_host")
            return await self._steps.abandon(live, msg("desk.abandoned"))

    async def start_game(self, table_id: int, user_id: int) -> Effects:
        """The host starts the game with the seated players and bots.

        Every seat must be filled, except in games without teams, where the game starts with
        the seats taken if that number of players is allowed. A rematch lobby starts only
        once every kept seat is taken (by its player, or by a bot the host added).
        """
        async with self._store.session(table_id) as live:
            record = require_phase(live.record, Phase.LOBBY)
            self._require_host(record, user_id)
            if reserved_seats(record):
                raise CannotStart("error.rematch_waiting")
            module = self._games.of(record)
            taken = [s for s in record.seats if s.user_id is not None or s.is_bot]
            players = len(taken)
            if players < len(record.seats) and self.teams(record) is not None:
                raise CannotStart("error.team_seats", seats=len(record.seats), count=players)
            if players not in module.PLAYER_COUNTS:
                raise CannotStart(
                    "error.needs_players",
                    game=game_title(record.game),
                    allowed=_numbers(module.PLAYER_COUNTS),
                    count=players,
                )
            if self._require_person and not any(s.user_id is not None for s in taken):
                raise CannotStart("error.needs_person")
            from engine.protocol import InvalidOptions

            try:
                state = module.new_game(players, record.options, record.seed)
            except InvalidOptions as error:
                raise option_error(error) from None
            engine_seats = list(module.view(state, None)["seats"])
            seats = tuple(
                Seat(
                    engine_seats[i],
                    user_id=s.user_id,
                    name=s.name,
                    bot_level=s.bot_level,
                    bot_number=s.bot_number,
                )
                for i, s in enumerate(taken)
            )
            new = record.with_changes(
                seats=seats,
                players=players,
                phase=Phase.PLAYING,
                version=record.version + 1,
                extra={**record.extra, "started_version": record.version + 1},
            )
            new = self._steps.with_deadline(new, module, state, previous=frozenset())
            self._store.stage(live, new, [], state)
            effects = Effects(new)
            view = module.view(state, None)
            effects.public.append(
                PublicUpdate(
                    table_id,
                    "started",
                    msg("table.begins", game=game_title(record.game)),
                    new.version,
                    view,
                    tuple(view["to_act"]),
                )
            )
            self._announcer.private_updates(live, effects, actor=None, previous=frozenset())
            await self._bots.follow_up(live, effects)
            return effects

    async def _remove_person(
        self, live: LiveTable, user_id: int, *, kicked: bool, timed_out: bool = False
    ) -> Effects:
        record = live.record
        seat = record.seat_of(user_id)
        if not record.active:
            raise WrongPhase("error.table_over")
        if seat is None or seat.left:
            raise NotSeated("error.person_no_seat" if kicked else "error.you_no_seat")
        # How the person went: removed by the host, left, or left after too many timeouts.
        how = "removed" if kicked else ("timed_out" if timed_out else "left")
        name = seat.label
        if record.phase == Phase.LOBBY:
            seats = list(record.seats)
            seats[seat.index] = Seat(seat.index)
            people = [s for s in seats if s.user_id is not None]
            if not people:
                return await self._steps.abandon(live, msg(f"table.{how}_empty", name=name))
            host = record.host_id
            text: Said = msg(f"table.{how}", name=name)
            if host == user_id:
                host = people[0].user_id or host
                text = joined([text, msg("table.new_host", name=people[0].label)])
            record = await self.commit_seats(live, seats, host_id=host)
            return Effects(record, [self._announcer.lobby_update(record, "lobby", text)])
        # In play: hand the seat to the engine (auto) or to a bot, then play what follows.
        effects = await self._steps.hand_over(live, seat, how)
        await self._bots.follow_up(live, effects)
        return effects

    async def commit_seats(
        self, live: LiveTable, seats: Sequence[Seat], **changes: Any
    ) -> TableRecord:
        """Commit new seats (and other record ``changes``) of a table in the lobby now."""
        record = live.record.with_changes(
            seats=tuple(seats), version=live.record.version + 1, **changes
        )
        try:
            await self._store.write(live, record, [], None)
        except Conflict:
            self._store.forget(record.id)
            raise TableError("error.conflict") from None
        return live.record

    def _kept_seat_rule(
        self, record: TableRecord, user_id: int, seat: int | None, team: int | None
    ) -> tuple[int | None, int | None]:
        """The seat (and team) a join in a rematch lobby may ask for, given its kept seats."""
        kept = reserved_seats(record)
        if not kept:
            return seat, team
        mine = [p for p, u in kept.items() if u == user_id]
        if mine:
            return mine[0], None
        if seat is None:
            open_seats = [
                s.index
                for s in record.seats
                if s.user_id is None and not s.is_bot and s.index not in kept
            ]
            teams = self.teams(record) if team is not None else None
            if teams is not None and team is not None and 0 <= team < len(teams):
                open_seats = [p for p in open_seats if p in teams[team]]
            if not open_seats:
                raise TableFull("error.rematch_seats_kept")
            return open_seats[0], None
        if seat in kept:
            raise TableFull("error.rematch_seat_kept", seat=seat + 1)
        return seat, team

    @staticmethod
    def _check_bot_level(level: str) -> None:
        if level not in BOT_LEVELS:
            raise InvalidTableOptions(
                "error.bot_level", allowed=[msg(f"bot_level.{b}") for b in BOT_LEVELS]
            )

    @staticmethod
    def _require_host(record: TableRecord, user_id: int) -> None:
        if user_id != record.host_id:
            raise NotHost("error.not_host")

    def teams(self, record: TableRecord) -> list[list[int]] | None:
        """Teams as lobby positions, from a trial game (``None`` if the game has none)."""
        module = self._games.of(record)
        try:
            view = module.view(module.new_game(len(record.seats), record.options, 0), None)
        except Exception:
            return None
        teams = view.get("teams")
        if not teams:
            return None
        position = {seat: i for i, seat in enumerate(view["seats"])}
        return [sorted(position[s] for s in team) for team in teams]

    def _free_position(self, record: TableRecord, seat: int | None, team: int | None) -> int:
        free = [s.index for s in record.seats if s.user_id is None and not s.is_bot]
        if seat is not None:
            if not 0 <= seat < len(record.seats):
                raise BadSeat("error.no_seat", seat=seat + 1, count=len(record.seats))
            if seat not in free:
                raise TableFull("error.seat_taken", seat=seat + 1)
            return seat
        if team is not None:
            teams = self.teams(record)
            if teams is None:
                raise BadSeat("error.no_teams")
            if not 0 <= team < len(teams):
                raise BadSeat("error.no_team", team=team + 1, count=len(teams))
            free = [p for p in free if p in teams[team]]
            if not free:
                raise TableFull("error.team_full", team=team + 1)
        if not free:
            raise TableFull("error.table_full")
        return free[0]
