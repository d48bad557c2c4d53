"""Hands that stay open: the ephemeral hand message a player opened, kept up to date.

A player opens their hand once ("Show my hand"); from then on the bot edits that same
ephemeral message whenever something changes for them (their turn, a new deal, the exchange,
the card received), so a move is card → move. Discord lets a bot edit an ephemeral message only
through the webhook of an interaction on it, and an interaction token lives 15 minutes: every
click on the hand brings a fresher token, and once the newest one is too old the hand is
forgotten (the board's "Show my hand" opens a new one).

The hands live in memory only: they are a convenience, and after a restart the board's button
opens a fresh one. Tokens are never logged.

The move lists ``/move`` offered lately (:class:`MoveLists`) are kept here too: like the open
hands, they are what one player was last shown, held in memory by the front desk and read
back on that player's next interaction.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

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
        self._hands: dict[tuple[int, int], OpenHand] = {}
        self._locks: dict[tuple[int, int], asyncio.Lock] = {}

    def remember(
        self, table_id: int, user_id: int, interaction: Any, locale: str, version: int
    ) -> None:
        """``interaction`` (a click on the hand, or the one that opened it) is the newest, and
        the hand now shows the table at ``version``."""
        self._hands[table_id, user_id] = OpenHand(interaction, self._now(), locale, version)

    def live(self, table_id: int, user_id: int) -> OpenHand | None:
        """The hand of ``user_id`` at ``table_id`` if its token can still edit it."""
        hand = self._hands.get((table_id, user_id))
        if hand is None:
            return None
        if self._now() - hand.since > TOKEN_LIFETIME - MARGIN:
            self.forget(table_id, user_id)
            return None
        return hand

    def users(self, table_id: int) -> list[int]:
        """The users with a hand open at ``table_id``."""
        return [user for table, user in self._hands if table == table_id]

    def forget(self, table_id: int, user_id: int) -> None:
        """Stop editing this hand (expired, dismissed, or the game is over)."""
        self._hands.pop((table_id, user_id), None)

    def busy(self) -> bool:
        """Whether an edit of some hand is under way (a refresh holds its hand's lock)."""
        return any(lock.locked() for lock in self._locks.values())

    def lock(self, table_id: int, user_id: int) -> asyncio.Lock:
        """The lock that orders the edits of one hand."""
        return self._locks.setdefault((table_id, user_id), asyncio.Lock())


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
