"""Hands that stay open: the ephemeral hand message a player opened, kept up to date.

A player opens their hand once ("Show my hand"); from then on the bot edits that same
ephemeral message whenever something changes for them (their turn, a new deal, the exchange,
the card received), so a move is card → move. Discord lets a bot edit an ephemeral message only
through the webhook of an interaction on it, and an interaction token lives 15 minutes: every
click on the hand brings a fresher token, and once the newest one is too old the hand is
forgotten (the board's "Show my hand" opens a new one).

The hands live in memory only: they are a convenience, and after a restart the board's button
opens a fresh one. Tokens are never logged. They are kept per table and released with it
(:mod:`bot.model.table_memory`): a finished or idle table keeps no hand, no interaction and no
lock.

The move lists ``/move`` offered lately (:class:`MoveLists`) are kept here too: like the open
hands, they are what one player was last shown, held in memory by the front desk and read
back on that player's next interaction.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.model.table_memory import KeyedLocks, PerTable, Releasable

#: Discord's lifetime of an interaction token, less a margin for the edit's own round trip.
TOKEN_LIFETIME = 15 * 60
MARGIN = 60


@dataclass(slots=True)
class OpenHand:
    """The newest interaction on a player's hand message, when it arrived, and the table
    version the message shows (a refresh for that version or an older one is not needed: it
    would only undo what the player opened, e.g. a card's moves)."""

    interaction: Any  # discord.Interaction: its webhook edits the hand ("@original")
    since: float
    locale: str
    version: int


class OpenHands:
    """Per (table, user): the hand message the bot may still edit, and a lock per hand so
    that refreshes land in order (each one reads the newest state inside the lock)."""

    def __init__(self, now: Callable[[], float]) -> None:
        self._now = now
        #: table id -> user id -> the hand.
        self._hands: PerTable[dict[int, OpenHand]] = PerTable()
        self._locks: KeyedLocks[tuple[int, int]] = KeyedLocks(lambda key: key[0])
        #: One click of a player at a table at a time: a double click's second click is
        #: judged after the first one's answer is in its prompt (see :meth:`shows_newer`).
        self._clicks: KeyedLocks[tuple[int, int]] = KeyedLocks(lambda key: key[0])

    def per_table(self) -> tuple[Releasable, ...]:
        """What is kept per table (for the tables' memory to release)."""
        return (self._hands, self._locks, self._clicks)

    def remember(
        self, table_id: int, user_id: int, interaction: Any, locale: str, version: int
    ) -> None:
        """``interaction`` (a click on the hand, or the one that opened it) is the newest, and
        the hand now shows the table at ``version``."""
        hand = OpenHand(interaction, self._now(), locale, version)
        self._hands.setdefault(table_id, {})[user_id] = hand

    def live(self, table_id: int, user_id: int) -> OpenHand | None:
        """The hand of ``user_id`` at ``table_id`` if its token can still edit it."""
        hand = (self._hands.get(table_id) or {}).get(user_id)
        if hand is None:
            return None
        if self._now() - hand.since > TOKEN_LIFETIME - MARGIN:
            self.forget(table_id, user_id)
            return None
        return hand

    def users(self, table_id: int) -> list[int]:
        """The users with a hand open at ``table_id``."""
        return list(self._hands.get(table_id) or {})

    def forget(self, table_id: int, user_id: int) -> None:
        """Stop editing this hand (expired, dismissed, or the game is over)."""
        hands = self._hands.get(table_id)
        if hands is not None:
            hands.pop(user_id, None)
            if not hands:
                self._hands.pop(table_id)

    def forget_table(self, table_id: int) -> None:
        """Stop editing every hand of ``table_id`` (its game is over)."""
        self._hands.pop(table_id)

    def busy(self) -> bool:
        """Whether an edit of some hand is under way (a refresh holds its hand's lock)."""
        return self._locks.busy()

    def lock(self, table_id: int, user_id: int) -> asyncio.Lock:
        """The lock that orders the edits of one hand."""
        return self._locks((table_id, user_id))

    def click_lock(self, table_id: int, user_id: int) -> asyncio.Lock:
        """The lock that takes one player's clicks at one table one after the other."""
        return self._clicks((table_id, user_id))

    def shows_newer(
        self, table_id: int, user_id: int, message_id: int | None, version: int
    ) -> bool:
        """Whether the hand message ``message_id`` already shows a later version of the table
        than ``version`` (the version of the controls clicked): a click on it was made before
        the player saw their last answer (a double click), and a refusal of it must not
        replace that answer."""
        hand = (self._hands.get(table_id) or {}).get(user_id)
        if hand is None or message_id is None or hand.version <= version:
            return False
        shown = getattr(hand.interaction, "message", None)
        return shown is not None and shown.id == message_id


class MoveLists:
    """The move lists ``/move`` offered lately, per (table, version, seat, locale): typing
    asks again on every key, and a chosen value is read back from the list it was offered
    from."""

    SIZE = 64

    def __init__(self) -> None:
        self._lists: dict[tuple[int, int, int, str], list[tuple[str, str]]] = {}

    def get(self, key: tuple[int, int, int, str]) -> list[tuple[str, str]] | None:
        """The list offered under ``key``, if still kept."""
        return self._lists.get(key)

    def put(self, key: tuple[int, int, int, str], options: list[tuple[str, str]]) -> None:
        """Keep ``options`` (the oldest list goes when full)."""
        if len(self._lists) >= self.SIZE:
            self._lists.pop(next(iter(self._lists)))
        self._lists[key] = options

    def __len__(self) -> int:
        return len(self._lists)

    def release(self, table_id: int) -> bool:
        """Forget the lists offered at ``table_id`` (its memory released it)."""
        for key in [key for key in self._lists if key[0] == table_id]:
            del self._lists[key]
        return True
