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
from bot.model.table import NotSeated, Phase, Seat, StaleVersion, TableRecord, WrongPhase
from bot.service.announce import Announcer
from bot.service.lobby import Lobby
from bot.service.store import Conflict, TableStore
from i18n.message import msg


class Rematch:
    """``rematch``: open a finished table's rematch, or confirm a kept seat there."""

    def __init__(self, store: TableStore, lobby: Lobby, announcer: Announcer) -> None:
        self._store = store
        self._lobby = lobby
        self._announcer = announcer

    async def rematch(self, table_id: int, user_id: int, name: str) -> Effects:
        """Open the rematch of the finished table ``table_id`` (hosted by ``user_id``), or,
        if it is open already, confirm ``user_id``'s kept seat there.

        Two people asking at once (in one process, or in two during a rolling restart) open
        one rematch: the finished table records it under its version, and the click that
        finds it recorded meanwhile confirms its seat there instead."""
        for _attempt in range(3):
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
            try:
                return await self._open(old.id, existing, user_id, name)
            except _Taken:
                continue  # another click opened it meanwhile: confirm the seat there
        raise StaleVersion()

    async def _open(self, old_id: int, known: Any, user_id: int, name: str) -> Effects:
        """Open the rematch, claimed on the finished table: :class:`_Taken` when another
        click recorded one since ``known`` (the rematch it had, if any) was read."""
        table_id: int | None = None
        try:
            async with self._store.session(old_id) as live:
                old = live.record
                if old.extra.get("rematch") != known:
                    raise _Taken()
                created, record = await self._create(old, user_id, name)
                table_id = record.id
                # Later clicks on the old table's Rematch button confirm seats at this one.
                # Committed when the session ends, guarded by the finished table's version:
                # of two processes opening at once, one records its rematch.
                done = old.with_changes(
                    version=old.version + 1, extra={**old.extra, "rematch": table_id}
                )
                self._store.stage(live, done, [], live.state)
        except Conflict:
            if table_id is not None:
                # Another process recorded its rematch first: ours was never shown to
                # anyone (its lobby is posted from what this returns), so it just ends.
                await self._lobby.abandon(table_id, user_id, can_manage=True)
            raise _Taken() from None
        text = msg("table.rematch_opened", name=name, table=old_id)
        return Effects(
            record, [*created.public, self._announcer.lobby_update(record, "lobby", text)]
        )

    async def _create(
        self, old: TableRecord, user_id: int, name: str
    ) -> tuple[Effects, TableRecord]:
        """The rematch's lobby: ``user_id`` hosts where they sat, every other person's seat
        kept for them, the bots in theirs."""
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
        return created, record


class _Taken(Exception):
    """Another click opened the rematch first."""
