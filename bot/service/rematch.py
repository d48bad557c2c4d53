"""Rematch: a new table with the options and seats of a finished one.

The first person of the finished table who asks opens the rematch and hosts it, seated where
they sat. Bots keep their seats. Every other person's seat is *kept* for them
(``extra["reserved"]``: lobby position -> user id) until they confirm with one click (asking
for the rematch again, or Join); nobody else is seated there. The host may start once every
kept seat is taken, or fill the seats still kept with bots (Add bot) and start then. The
lobby keeps that rule (:class:`bot.service.lobby.Lobby`); this part owns nothing.
"""

from __future__ import annotations

from typing import Any

from bot.model.effects import Effects
from bot.model.table import NotSeated, Phase, Seat, TableRecord, WrongPhase
from bot.service.announce import Announcer
from bot.service.lobby import Lobby
from bot.service.store import TableStore
from i18n.message import msg


class Rematch:
    """``rematch``: open a finished table's rematch, or confirm a kept seat there."""

    def __init__(self, store: TableStore, lobby: Lobby, announcer: Announcer) -> None:
        self._store = store
        self._lobby = lobby
        self._announcer = announcer

    async def rematch(self, table_id: int, user_id: int, name: str) -> Effects:
        """Open the rematch of the finished table ``table_id`` (hosted by ``user_id``), or,
        if it is open already, confirm ``user_id``'s kept seat there."""
        old = await self._store.find(table_id)
        if old is None or old.phase != Phase.FINISHED:
            raise WrongPhase("error.rematch_finished_only")
        people = [s for s in old.seats if (s.user_id or s.former_user_id) is not None]
        if not any((s.user_id or s.former_user_id) == user_id for s in people):
            raise NotSeated("error.rematch_players_only")
        existing = old.extra.get("rematch")
        if existing is not None:
            again = await self._store.stored(int(existing))
            if again.phase == Phase.LOBBY:
                if again.seat_of(user_id) is not None:
                    return Effects(again)
                return await self._lobby.join(again.id, user_id, name)
        return await self._open(old, user_id, name)

    async def _open(self, old: TableRecord, user_id: int, name: str) -> Effects:
        created = await self._lobby.create(
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
        async with self._store.session(table_id) as live:
            extra: dict[str, Any] = {**live.record.extra, "reserved": kept, "rematch_of": old.id}
            record = await self._lobby.commit_seats(live, seats, extra=extra)
        async with self._store.session(old.id) as live:
            # Later clicks on the old table's Rematch button confirm seats at this one.
            done = live.record.with_changes(
                version=live.record.version + 1,
                extra={**live.record.extra, "rematch": table_id},
            )
            await self._store.write(live, done, [], live.state)
        text = msg("table.rematch_opened", name=name, table=old.id)
        return Effects(
            record, [*created.public, self._announcer.lobby_update(record, "lobby", text)]
        )
