"""What the table service asks a front end to deliver after an operation.

Every service operation returns :class:`Effects`. A front end sends, in order:

* each :class:`PublicUpdate` to the table's channel or thread (it never holds a seat's cards or
  a secret exchange pick: ``view`` is the engine's spectator view ``view(state, None)``);
* each :class:`PrivateUpdate` to its ``user_id`` only (ephemeral message / DM / hot seat);
* mentions for the user ids in ``pings`` (whose turn it is now, reminders).

One operation can cause several public updates: after a person's action the service runs the
bot turns and automatic actions that follow until a person owes a decision again or the game
ends, and each of those actions is its own update, in order. Effects that happen with no
caller (the turn clock's reminders and timeouts, and the bot turns after them; with
``defer_bots=True`` also every bot turn) are delivered to the service's listener
(``TableService(listener=...)``), an ``async`` callable taking :class:`Effects`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.model.table import TableRecord
from i18n.message import Said


@dataclass(frozen=True, slots=True)
class PublicUpdate:
    """Something everyone at the table may see.

    ``kind``: ``"created"``, ``"lobby"`` (seats changed), ``"started"``, ``"action"`` (a move,
    an automatic action or a leave), ``"reminder"``, ``"finished"``, ``"abandoned"``.
    ``message`` says what happened, as catalogue keys and parameters: a front end says it in
    its reader's language (``update.message.text(locale)``). ``view`` is the spectator view
    to render (``None`` in the lobby), ``to_act`` the seats that owe a decision now,
    ``version`` the table version after this update (buttons carry it). ``actor`` is the seat
    that acted, if any; ``move`` the public move text (``None`` when the move is secret, e.g.
    an exchange pick). ``by_person``: the update is a decision a person took (not a bot's
    move nor an automatic action): it begins a new turn digest in the thread.
    """

    table_id: int
    kind: str
    message: Said
    version: int
    view: Mapping[str, Any] | None = None
    to_act: tuple[int, ...] = ()
    actor: int | None = None
    move: str | None = None
    events: tuple[Mapping[str, Any], ...] = ()
    finished: bool = False
    winners: tuple[int, ...] = ()
    by_person: bool = False


@dataclass(frozen=True, slots=True)
class PrivateUpdate:
    """Something only ``user_id`` (sitting at ``seat``) may see.

    ``kind``: ``"your_turn"`` (a decision is owed: ``legal_moves`` lists it), ``"hand"`` (the
    hand changed, e.g. a new deal), ``"received"`` (the card a partner passed; ``message``
    names it), ``"reminder"`` (half the turn time is gone), ``"timeout"`` (the engine acted for
    you). ``message`` is what to tell, in keys (see :class:`PublicUpdate`); ``view`` is
    ``view(state, seat)``.
    """

    table_id: int
    user_id: int
    seat: int
    kind: str
    message: Said
    version: int
    view: Mapping[str, Any] | None = None
    legal_moves: tuple[str, ...] = ()


@dataclass(slots=True)
class Effects:
    """The result of one service operation: what to deliver, and the table afterwards."""

    table: TableRecord
    public: list[PublicUpdate] = field(default_factory=list)
    private: list[PrivateUpdate] = field(default_factory=list)
    pings: list[int] = field(default_factory=list)

    def extend(self, other: Effects) -> None:
        """Append ``other``'s updates (keeping order) and take its table record."""
        self.table = other.table
        self.public.extend(other.public)
        self.private.extend(other.private)
        for user in other.pings:
            if user not in self.pings:
                self.pings.append(user)


@dataclass(frozen=True, slots=True)
class PrivateInfo:
    """What :meth:`bot.service.TableService.private_info` tells one user about a table."""

    table: TableRecord
    seat: int | None
    view: Mapping[str, Any] | None
    legal_moves: tuple[str, ...] = ()
    to_act: bool = False
    #: Words for each legal move, in the same order, as messages (with the move's effects:
    #: captures, a ban), for buttons, menus and the console.
    labels: tuple[Said, ...] = ()
    #: While a split 7 can be started: the first segments the engine accepts, per card
    #: (``{"7": ["7:r0-r3", ...]}``); empty when the game has no such thing.
    seven_starts: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: The seat's current exchange pick (a card token), or ``None``. While the exchange is
    #: open a seat that picked may change it (C-10.5): ``to_act`` is then False but
    #: ``legal_moves`` still lists the ``G:`` picks.
    pick: str | None = None
    #: When the seat must discard (Tock) or fold (Dog) because no card can move a pawn: why,
    #: as the engine's facts (``{"reason": "blocked", "by": [1], ...}``); else ``None``.
    stuck: Mapping[str, Any] | None = None


#: Update kinds whose events are a move a board draws.
MOVE_KINDS = frozenset({"action", "finished"})
#: The most moves a digest's board draws (numbered 1…n).
MAX_DRAWN_MOVES = 12


def newest_board(updates: Sequence[PublicUpdate]) -> PublicUpdate | None:
    """The newest update with a board to draw (a reminder points back at the last one)."""
    for update in reversed(updates):
        if update.view is not None and update.kind != "reminder":
            return update
    return None


def digest_view(updates: Sequence[PublicUpdate]) -> Mapping[str, Any] | None:
    """The view a turn digest draws for ``updates``: the newest position, and, when more than
    one move happened among them, every move's events oldest first under ``recent`` (the
    renderer numbers them, the newest strongest; Carcassonne frames each tile placed)."""
    newest = newest_board(updates)
    if newest is None or newest.view is None:
        return None
    moves = [list(u.events) for u in updates if u.kind in MOVE_KINDS and u.events]
    if len(moves) < 2:
        return newest.view
    # A round of a table is a handful of moves; a long run of bots alone (no person seated
    # or all left) shows its last moves only, so the board stays readable.
    return {**newest.view, "recent": moves[-MAX_DRAWN_MOVES:]}


#: An async callable that delivers effects nobody asked for (turn clock, deferred bots).
Listener = Callable[[Effects], Awaitable[None]]
