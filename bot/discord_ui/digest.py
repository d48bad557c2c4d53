"""The turn digest: one thread message for everything between two decisions of people.

A person's decision begins a digest; the bot moves, automatic actions, the end of a hand and
the deal that follow it are added to the same message (edited while slow bots' moves arrive)
until a person owes a decision again. Its board draws every move since the digest began, each
numbered (the view's ``recent`` events, read by the renderer).

Pings: Discord notifies only for a *created* message (an edit never pings). A person is pinged
when their turn begins, at most once per turn, by the message created at that moment, and not
when the private prompt they keep open follows the game and they acted within the last
minute (that prompt already says "your turn").

This module decides; :mod:`bot.discord_ui.publisher` sends.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from bot.model.effects import MOVE_KINDS, PublicUpdate, digest_view, newest_board
from bot.model.table import TableRecord

#: Update kinds that begin a digest of their own besides a person's decision: the game's
#: start, and the board asked for again (``/table board``) which is posted at the bottom.
STARTS = frozenset({"started", "board"})
#: Update kinds whose events are a move to draw.
MOVES = MOVE_KINDS
#: A person who acted this recently on a prompt that follows the game is not pinged.
QUIET_AFTER_ACTING = 60.0
#: Discord's limit for a message's content.
CONTENT_LIMIT = 2000


@dataclass(slots=True)
class Digest:
    """The table's current digest message and the updates it tells, oldest first."""

    message_id: int
    updates: list[PublicUpdate] = field(default_factory=list)


def starts_digest(update: PublicUpdate) -> bool:
    """Whether ``update`` begins a new digest (a person's decision, the start, a re-post)."""
    return update.by_person or update.kind in STARTS


def continues(current: Digest | None, update: PublicUpdate) -> bool:
    """Whether ``update`` goes on with the decision the ``current`` digest ends with: the same
    person acting again within one turn (the parts of a 7, a tile's figure after the tile),
    not in a turn of their own after a new deal."""
    if current is None or not current.updates or not update.by_person:
        return False
    last = current.updates[-1]
    if not (last.by_person and last.actor == update.actor and last.actor in last.to_act):
        return False
    view = last.view or {}
    return bool(view.get("seven")) or view.get("phase") == "figure"


def groups(updates: Iterable[PublicUpdate]) -> list[list[PublicUpdate]]:
    """``updates`` cut before each one that begins a digest (the first group may continue the
    table's current digest)."""
    result: list[list[PublicUpdate]] = []
    for update in updates:
        if not result or starts_digest(update):
            result.append([update])
        else:
            result[-1].append(update)
    return result


#: The newest update with a board to draw, and the view a digest draws (bot.model.effects).
drawn_update = newest_board
drawn_view = digest_view


def fit_lines(lines: Sequence[str], limit: int = CONTENT_LIMIT) -> str:
    """The lines joined, the oldest left out (with an ellipsis) when they exceed ``limit``."""
    kept = [line for line in lines if line]
    text = "\n".join(kept)
    while len(text) > limit and len(kept) > 1:
        kept = kept[1:]
        text = "\u2026\n" + "\n".join(kept)
    return text[:limit]


def turns_ended(table: TableRecord, updates: Iterable[PublicUpdate]) -> set[int]:
    """The users whose turn ended during ``updates``: they acted (or the clock acted for
    them), or a position came when they owed nothing."""
    users = {s.index: s.user_id for s in table.seats if s.user_id is not None}
    ended: set[int] = set()
    for update in updates:
        if update.kind not in MOVES:
            continue
        for seat, user in users.items():
            if seat == update.actor or seat not in update.to_act:
                ended.add(user)
    return ended


def due_pings(
    to_act: Sequence[int],
    waiting: Iterable[int],
    ended: Iterable[int],
    recently_prompted: Callable[[int], bool],
) -> list[int]:
    """Who to ping now: each user of ``to_act`` whose turn begins (they were not ``waiting``
    before, or their turn ``ended`` since and they owe a decision again), unless their open
    prompt follows the game and they acted within the last minute."""
    before, again = set(waiting), set(ended)
    begins = [u for u in to_act if u not in before or u in again]
    return [u for u in begins if not recently_prompted(u)]
