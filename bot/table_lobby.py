"""Lobby operations of the table service: open, join, bots, leave, kick, abandon, start."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from bot.effects import Effects, PublicUpdate
from bot.table_core import Conflict, LiveTable
from bot.table_model import (
    ABSENT_POLICIES,
    BOT_LEVELS,
    DEFAULT_BOT_LEVEL,
    TURN_TIMES,
    AlreadySeated,
    BadSeat,
    CannotStart,
    InvalidTableOptions,
    LogEntry,
    LogKind,
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
)
from bot.table_updates import UpdatesMixin


class LobbyMixin(UpdatesMixin):
    """Seats and the start of a game; leaving also hands a seat in play to the absent policy."""

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
    ) -> Effects:
        """Open a table in the lobby phase, with the host in seat 0 (unless ``seat_host``).

        ``hints`` lets seated players ask the ``hard`` bot for their move (see
        :mod:`bot.table_hints`); such a table is never rated.

        ``players`` is the number of seats (default: the game's largest count that is at most
        4). ``bot_level`` is the table's level of bots: of those added without a level, and
        of the bot that takes a seat a person leaves (absent policy ``bot``). Raises
        :class:`InvalidTableOptions` naming a bad game, option, player count, turn time,
        absent policy or bot level.
        """
        module = self._module_or_error(game)
        counts = tuple(module.PLAYER_COUNTS)
        if players is None:
            players = max((c for c in counts if c <= 4), default=min(counts))
        if players not in counts:
            allowed = ", ".join(str(c) for c in counts)
            raise InvalidTableOptions(
                f"{game_title(game)} is played by {allowed} players, not {players}."
            )
        from engine.protocol import InvalidOptions, validate_options

        try:
            checked = validate_options(module.OPTIONS, options)
            # Some options only fit some player counts (a 2v2 needs 4 players): ask the engine.
            module.new_game(players, checked, 0)
        except InvalidOptions as error:
            raise InvalidTableOptions(f"Invalid option: {error}") from None
        if turn_time not in TURN_TIMES:
            allowed = ", ".join(str(t) for t in TURN_TIMES)
            raise InvalidTableOptions(f"turn time must be one of {allowed} seconds (0 = off).")
        if absent_policy not in ABSENT_POLICIES:
            raise InvalidTableOptions(
                f"absent-player policy must be one of {', '.join(ABSENT_POLICIES)}."
            )
        self._check_bot_level(bot_level)
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        now = self.clock.now()
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
            extra={"bot_level": bot_level, **({"hints": True} if hints else {})},
        )
        table_id = await self.storage.create_table(record)
        record = record.with_changes(id=table_id)
        self._live[table_id] = LiveTable(record, stored_version=record.version)
        text = f"{host_name} opened a {game_title(game)} table for {players} players."
        return Effects(record, [self._lobby_update(record, "created", text)])

    async def join(
        self,
        table_id: int,
        user_id: int,
        name: str,
        *,
        seat: int | None = None,
        team: int | None = None,
    ) -> Effects:
        """Take a free seat (a chosen ``seat`` position, or any free seat of ``team``)."""
        async with self._session(table_id) as live:
            record = self._require_phase(live.record, Phase.LOBBY, "join")
            if record.seat_of(user_id) is not None:
                raise AlreadySeated("You already have a seat at this table.")
            index = self._free_position(record, seat, team)
            seats = list(record.seats)
            seats[index] = Seat(index, user_id=user_id, name=name)
            record = await self._commit_lobby(live, seats)
            text = f"{name} joined (seat {index + 1})."
            return Effects(record, [self._lobby_update(record, "lobby", text)])

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
        async with self._session(table_id) as live:
            record = self._require_phase(live.record, Phase.LOBBY, "add a bot")
            self._require_host(record, user_id)
            level = level or bot_level_of(record)
            index = self._free_position(record, seat, team)
            seats = list(record.seats)
            seats[index] = Seat(index, name=f"Bot {index + 1} ({level})", bot_level=level)
            record = await self._commit_lobby(live, seats)
            text = f"A {level} bot took seat {index + 1}."
            return Effects(record, [self._lobby_update(record, "lobby", text)])

    async def remove_bot(self, table_id: int, user_id: int, seat: int) -> Effects:
        """The host frees the bot seat at position ``seat``."""
        async with self._session(table_id) as live:
            record = self._require_phase(live.record, Phase.LOBBY, "remove a bot")
            self._require_host(record, user_id)
            if not 0 <= seat < len(record.seats) or not record.seats[seat].is_bot:
                raise BadSeat(f"Seat {seat + 1} is not a bot seat.")
            seats = list(record.seats)
            seats[seat] = Seat(seat)
            record = await self._commit_lobby(live, seats)
            text = f"The bot left seat {seat + 1}."
            return Effects(record, [self._lobby_update(record, "lobby", text)])

    async def leave(self, table_id: int, user_id: int) -> Effects:
        """Leave a table: in the lobby the seat is freed (the host's role passes on, and an
        empty lobby is abandoned); in play the seat goes to the absent-player policy."""
        async with self._session(table_id) as live:
            return await self._remove_person(live, user_id, kicked=False)

    async def kick(self, table_id: int, user_id: int, target_user_id: int) -> Effects:
        """The host removes another person, exactly as if they had left."""
        async with self._session(table_id) as live:
            self._require_host(live.record, user_id)
            if target_user_id == user_id:
                raise BadSeat("You cannot kick yourself; use leave.")
            return await self._remove_person(live, target_user_id, kicked=True)

    async def set_thread(self, table_id: int, thread_id: int | None) -> TableRecord:
        """Remember the thread the front end opened for this table."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            await self.storage.set_thread(table_id, thread_id)
            live.record = live.record.with_changes(thread_id=thread_id)
            return live.record

    async def abandon(self, table_id: int, user_id: int, *, can_manage: bool = False) -> Effects:
        """End a table without a result (the host, or a member with Manage Threads)."""
        async with self._session(table_id) as live:
            record = live.record
            if not record.active:
                raise WrongPhase("This table is already over.")
            if user_id != record.host_id and not can_manage:
                raise NotHost("Only the host or a moderator can abandon this table.")
            return await self._abandon(live, "The table was abandoned.")

    async def start_game(self, table_id: int, user_id: int) -> Effects:
        """The host starts the game with the seated players and bots.

        Every seat must be filled, except in games without teams, where the game starts with
        the seats taken if that number of players is allowed.
        """
        async with self._session(table_id) as live:
            record = self._require_phase(live.record, Phase.LOBBY, "start")
            self._require_host(record, user_id)
            module = self.load_game(record.game)
            taken = [s for s in record.seats if s.user_id is not None or s.is_bot]
            players = len(taken)
            if players < len(record.seats) and self._lobby_teams(record) is not None:
                raise CannotStart(
                    f"All {len(record.seats)} seats must be taken in a team game "
                    f"({players} are); add bots to fill them."
                )
            if players not in module.PLAYER_COUNTS:
                allowed = ", ".join(str(c) for c in module.PLAYER_COUNTS)
                raise CannotStart(
                    f"{game_title(record.game)} needs {allowed} players; {players} are seated."
                )
            if self.require_person and not any(s.user_id is not None for s in taken):
                raise CannotStart("At least one person must play.")
            from engine.protocol import InvalidOptions

            try:
                state = module.new_game(players, record.options, record.seed)
            except InvalidOptions as error:
                raise CannotStart(f"These options do not fit {players} players: {error}") from None
            engine_seats = list(module.view(state, None)["seats"])
            seats = tuple(
                Seat(
                    engine_seats[i],
                    user_id=s.user_id,
                    name=s.name,
                    bot_level=s.bot_level,
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
            new = self._with_clock(new, module, state, previous=frozenset())
            self._stage(live, new, [], state)
            effects = Effects(new)
            view = module.view(state, None)
            effects.public.append(
                PublicUpdate(
                    table_id,
                    "started",
                    f"The game of {game_title(record.game)} begins.",
                    new.version,
                    view,
                    tuple(view["to_act"]),
                )
            )
            self._private_updates(live, effects, actor=None, previous=frozenset())
            await self._follow_up(live, effects)
            return effects

    async def _remove_person(
        self, live: LiveTable, user_id: int, *, kicked: bool, timed_out: bool = False
    ) -> Effects:
        record = live.record
        seat = record.seat_of(user_id)
        if not record.active:
            raise WrongPhase("This table is already over.")
        if seat is None or seat.left:
            raise NotSeated(
                "That person has no seat at this table."
                if kicked
                else "You have no seat at this table."
            )
        verb = "was removed from" if kicked else "left"
        if timed_out:
            verb = "ran out of time too often and left"
        if record.phase == Phase.LOBBY:
            seats = list(record.seats)
            seats[seat.index] = Seat(seat.index)
            people = [s for s in seats if s.user_id is not None]
            if not people:
                return await self._abandon(live, f"{seat.name} {verb} and the table is empty.")
            host = record.host_id
            text = f"{seat.name} {verb} the table."
            if host == user_id:
                host = people[0].user_id or host
                text += f" {people[0].name} is the host now."
            record = await self._commit_lobby(live, seats, host_id=host)
            return Effects(record, [self._lobby_update(record, "lobby", text)])
        # In play: hand the seat to the engine (auto) or to a bot.
        remaining = [s for s in record.seats if s.is_human and s.user_id != user_id]
        if not remaining:
            return await self._abandon(live, f"{seat.name} {verb} and no person is left playing.")
        effects = Effects(record)
        seats = list(record.seats)
        position = seats.index(seat)
        module = self._game(live)
        before = frozenset(module.seats_to_act(live.state))
        version = record.version + 1
        if record.absent_policy == "bot":
            seats[position] = Seat(
                seat.index,
                name=f"{seat.name} (bot)",
                bot_level=bot_level_of(record),
                former_user_id=user_id,
            )
            entry = LogEntry(record.log_length, LogKind.BOT, seat.index, "", version)
            state = live.state
            text = f"{seat.name} {verb} the game; a bot plays their seat now."
        else:
            seats[position] = Seat(seat.index, name=seat.name, left=True, former_user_id=user_id)
            entry = LogEntry(record.log_length, LogKind.LEAVE, seat.index, "", version)
            state = module.leave(live.state, seat.index)
            text = f"{seat.name} {verb} the game; their seat plays automatically now."
        host = record.host_id
        if host == user_id:
            host = remaining[0].user_id or host
            text += f" {remaining[0].name} is the host now."
        new = self._after_action(
            record.with_changes(seats=tuple(seats), host_id=host), module, state, version, before
        )
        self._stage(live, new, [entry], state)
        effects.table = live.record
        view = live.public_view(module)
        effects.public.append(
            PublicUpdate(
                record.id,
                "action",
                text,
                new.version,
                view,
                tuple(view["to_act"]),
                actor=seat.index,
                events=self._public_events(state) if entry.kind == LogKind.LEAVE else (),
                finished=new.phase == Phase.FINISHED,
                winners=new.winners,
            )
        )
        self._private_updates(live, effects, actor=seat.index, previous=before)
        await self._follow_up(live, effects)
        return effects

    async def _abandon(self, live: LiveTable, text: str) -> Effects:
        record = live.record.with_changes(
            phase=Phase.ABANDONED, version=live.record.version + 1, deadline=None, reminded=False
        )
        await self._write(live, record, [], live.state)
        self._live.pop(record.id, None)
        return Effects(record, [self._lobby_update(record, "abandoned", text)])

    async def _commit_lobby(
        self, live: LiveTable, seats: Sequence[Seat], **changes: Any
    ) -> TableRecord:
        record = live.record.with_changes(
            seats=tuple(seats), version=live.record.version + 1, **changes
        )
        try:
            await self._write(live, record, [], None)
        except Conflict:
            self._live.pop(record.id, None)
            raise TableError("The table changed at the same moment; please try again.") from None
        return live.record

    @staticmethod
    def _check_bot_level(level: str) -> None:
        if level not in BOT_LEVELS:
            raise InvalidTableOptions(f"bot level must be one of {', '.join(BOT_LEVELS)}.")

    @staticmethod
    def _require_host(record: TableRecord, user_id: int) -> None:
        if user_id != record.host_id:
            raise NotHost("Only the host of this table can do that.")

    def _lobby_teams(self, record: TableRecord) -> list[list[int]] | None:
        """Teams as lobby positions, from a trial game (``None`` if the game has none)."""
        module = self.load_game(record.game)
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
                raise BadSeat(f"There is no seat {seat + 1}; seats are 1 to {len(record.seats)}.")
            if seat not in free:
                raise TableFull(f"Seat {seat + 1} is taken.")
            return seat
        if team is not None:
            teams = self._lobby_teams(record)
            if teams is None:
                raise BadSeat("This game has no teams.")
            if not 0 <= team < len(teams):
                raise BadSeat(f"There is no team {team + 1}; teams are 1 to {len(teams)}.")
            free = [p for p in free if p in teams[team]]
            if not free:
                raise TableFull(f"Team {team + 1} is full.")
        if not free:
            raise TableFull("This table is full.")
        return free[0]
