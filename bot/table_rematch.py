"""Rematch: a new table with the options and seats of a finished one.

The first person of the finished table who asks opens the rematch and hosts it, seated where
they sat. Bots keep their seats. Every other person's seat is *kept* for them
(``extra["reserved"]``: lobby position -> user id) until they confirm with one click (asking
for the rematch again, or Join); nobody else is seated there. The host may start once every
kept seat is taken, or fill the seats still kept with bots (Add bot) and start then.
"""

from __future__ import annotations

from typing import Any

from bot.effects import Effects
from bot.table_lobby import LobbyMixin
from bot.table_model import (
    CannotStart,
    NotSeated,
    Phase,
    Seat,
    TableFull,
    TableNotFound,
    TableRecord,
    WrongPhase,
)
from i18n.message import msg


def reserved_seats(record: TableRecord) -> dict[int, int]:
    """The kept seats of a rematch lobby that nobody took yet: position -> user id."""
    kept = record.extra.get("reserved") or {}
    taken = {s.index for s in record.seats if s.user_id is not None or s.is_bot}
    return {int(p): int(u) for p, u in kept.items() if int(p) not in taken}


class RematchMixin(LobbyMixin):
    """``rematch``, and the lobby rules of kept seats (joining, starting)."""

    async def _stored(self, table_id: int) -> TableRecord:
        record = await self.storage.load_table(table_id)
        if record is None:
            raise TableNotFound(table=table_id)
        return record

    async def rematch(self, table_id: int, user_id: int, name: str) -> Effects:
        """Open the rematch of the finished table ``table_id`` (hosted by ``user_id``), or,
        if it is open already, confirm ``user_id``'s kept seat there."""
        old = await self.storage.load_table(table_id)
        if old is None or old.phase != Phase.FINISHED:
            raise WrongPhase("error.rematch_finished_only")
        people = [s for s in old.seats if (s.user_id or s.former_user_id) is not None]
        if not any((s.user_id or s.former_user_id) == user_id for s in people):
            raise NotSeated("error.rematch_players_only")
        existing = old.extra.get("rematch")
        if existing is not None:
            again = await self._stored(int(existing))
            if again.phase == Phase.LOBBY:
                if again.seat_of(user_id) is not None:
                    return Effects(again)
                return await self.join(again.id, user_id, name)
        return await self._open_rematch(old, user_id, name)

    async def _open_rematch(self, old: TableRecord, user_id: int, name: str) -> Effects:
        created = await self.create(
            old.guild_id,
            old.channel_id,
            old.game,
            user_id,
            name,
            players=len(old.seats),
            options=old.options,
            turn_time=old.turn_time,
            absent_policy=old.absent_policy,
            seat_host=False,
        )
        table_id = created.table.id
        seats: list[Seat] = []
        kept: dict[str, int] = {}
        for position, seat in enumerate(old.seats):
            person = seat.user_id if seat.user_id is not None else seat.former_user_id
            if person == user_id:
                seats.append(Seat(position, user_id=user_id, name=name))
            elif person is not None:
                seats.append(Seat(position))
                kept[str(position)] = person
            elif seat.bot_level is not None:
                level = seat.bot_level
                seats.append(Seat(position, name=f"Bot {position + 1} ({level})", bot_level=level))
            else:
                seats.append(Seat(position))
        async with self._session(table_id) as live:
            extra: dict[str, Any] = {**live.record.extra, "reserved": kept, "rematch_of": old.id}
            record = await self._commit_lobby(live, seats, extra=extra)
        async with self._session(old.id) as live:
            # Later clicks on the old table's Rematch button confirm seats at this one.
            done = live.record.with_changes(
                version=live.record.version + 1,
                extra={**live.record.extra, "rematch": table_id},
            )
            await self._write(live, done, [], live.state)
        text = msg("table.rematch_opened", name=name, table=old.id)
        return Effects(record, [*created.public, self._lobby_update(record, "lobby", text)])

    async def join(
        self,
        table_id: int,
        user_id: int,
        name: str,
        *,
        seat: int | None = None,
        team: int | None = None,
    ) -> Effects:
        """Take a free seat; in a rematch lobby a kept seat goes only to its player (who
        gets it whatever they asked for), and the others only get the seats not kept."""
        record = await self._stored(table_id)
        kept = reserved_seats(record) if record.phase == Phase.LOBBY else {}
        if kept:
            mine = [p for p, u in kept.items() if u == user_id]
            if mine:
                seat, team = mine[0], None
            elif seat is None:
                open_seats = [
                    s.index
                    for s in record.seats
                    if s.user_id is None and not s.is_bot and s.index not in kept
                ]
                teams = self._lobby_teams(record) if team is not None else None
                if teams is not None and team is not None and 0 <= team < len(teams):
                    open_seats = [p for p in open_seats if p in teams[team]]
                if not open_seats:
                    raise TableFull("error.rematch_seats_kept")
                seat, team = open_seats[0], None
            elif seat in kept:
                raise TableFull("error.rematch_seat_kept", seat=seat + 1)
        return await super().join(table_id, user_id, name, seat=seat, team=team)

    async def start_game(self, table_id: int, user_id: int) -> Effects:
        """Start, unless seats are still kept for players who have not confirmed."""
        record = await self._stored(table_id)
        if record.phase == Phase.LOBBY and user_id == record.host_id and reserved_seats(record):
            raise CannotStart("error.rematch_waiting")
        return await super().start_game(table_id, user_id)
