"""What a reader may see of a table's history: the one place that decides it.

Every front end (Discord's ``/table log``, the terminal, a record exported later) asks
:meth:`bot.service.TableService.history` for the reader's view instead of reading raw
:class:`~bot.model.table.LogEntry` texts, and turns the :class:`HistoryEntry` values it gets
into sentences through the catalogues (:func:`i18n.history.history_line`).

The secret of a table's log is the exchange pick (C-10.5: "Picks are secret. The public view
shows only which seats have picked"). Who may know a pick:

* its author, always (during and after the game);
* the author's partner, once the exchange is over: the picked cards move "all at the same
  moment" when the last seat picks, and a player may look at the card received only then
  (D-4.4). Only the card that really arrived is shown; a pick the author replaced never
  reached the partner and stays hidden from them;
* nobody else, ever: opponents and spectators read only that a card was chosen (or changed).

An exchange is over when a public move follows its picks, or, for the newest one, when the
game is no longer in its exchange phase. Automatic actions (timeouts, left seats) may pick in
an exchange, so they do not end one; should every action between two exchanges be automatic,
the two are read as one, which can only hide more, never reveal more.

What an entry did is told by its *public* events (:func:`public_events`), the facts the thread
was told when it happened: an exchange pick's own event (``pick_made``, with the card) is
private, so a pick's entry carries only that a card was chosen, whoever reads it.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.model.table import LogEntry, LogKind

#: The move notation that is an exchange pick, per game (race notation N-7.2: ``G:<card>``).
_PICK_PREFIXES: Mapping[str, tuple[str, ...]] = {"tock": ("G:",), "dog": ("G:",)}


def is_secret_move(game: str, text: str) -> bool:
    """Whether a move text of ``game`` is an exchange pick, which the public never reads."""
    return text.startswith(_PICK_PREFIXES.get(game, ()))


#: An engine event as JSON (``Event.to_json()``: ``kind``, ``seat``, ``data``).
EventFacts = Mapping[str, Any]


def public_events(state: Any) -> tuple[EventFacts, ...]:
    """The events of the action that made ``state`` that everyone may read, as JSON.

    An event the engine marks private (a pick's card, the card a partner received) is left
    out: the thread, ``/table log`` and records all tell only these.
    """
    events = getattr(state, "events", ()) or ()
    return tuple(e.to_json() for e in events if getattr(e, "public", True))


def stuck_reason(module: Any, old: Any, new: Any, seat: int) -> dict[str, Any] | None:
    """Why ``seat`` had no card to play, when the action that turned ``old`` into ``new`` was
    its forced discard or fold (the engine's facts, asked of the state before it); None for
    any other action.

    Asked only then: working it out generates moves again, which no other turn needs.
    """
    explain = getattr(module, "stuck_reason", None)
    if explain is None:
        return None
    forced = any(
        e.seat == seat
        and (
            e.kind == "fold"
            or (e.kind == "discard" and not e.data.get("banned") and not e.data.get("auto"))
        )
        for e in getattr(new, "events", ()) or ()
    )
    if not forced:
        return None
    facts: dict[str, Any] | None = explain(old, seat)
    return facts


def with_stuck(
    events: Sequence[EventFacts], seat: int, stuck: Mapping[str, Any] | None
) -> tuple[EventFacts, ...]:
    """``events`` with the reason of a forced discard or fold in that event's data."""
    if stuck is None:
        return tuple(events)
    return tuple(
        {**e, "data": {**(e.get("data") or {}), "stuck": dict(stuck)}}
        if e.get("seat") == seat and e.get("kind") in ("discard", "fold")
        else e
        for e in events
    )


def told_events(module: Any, old: Any, new: Any, seat: int | None) -> tuple[EventFacts, ...]:
    """What the thread is told of the action that turned ``old`` into ``new``: its public
    events, a forced discard or fold with its reason. The thread when it happens and the log
    replayed later both say this."""
    events = public_events(new)
    if seat is None:
        return events
    return with_stuck(events, seat, stuck_reason(module, old, new, seat))


class HistoryKind(enum.StrEnum):
    """What a history entry tells."""

    MOVE = "move"  # a public move: ``move`` holds its notation
    PICK = "pick"  # an exchange pick: ``card`` only when the reader may know it
    AUTO = "auto"  # the rules acted for the seat (turn clock, or the seat left)
    LEAVE = "leave"  # the seat left; the rules play for it from now on
    BOT = "bot"  # the seat was handed to a bot


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One entry of a table's history as one reader may see it (facts, never sentences).

    ``number`` counts from 1 in the whole log. ``move`` is the public notation of a ``move``
    entry (``None`` for every other kind). For a ``pick``: ``card`` is the picked card when
    the reader may know it, else ``None``; ``changed`` says it replaced the seat's earlier
    pick in the same exchange; ``received`` says the reader is the partner it was passed to.

    For the entry in words: ``events`` are its public events (:func:`public_events`, empty
    when they were not asked for or the entry changed nothing); ``board`` is a race board's
    size (``ring``, ``per_seat``) to say places from a pawn's start; ``names`` says how the
    events name seats (``None``: by colour). See :func:`i18n.history.history_line`.
    """

    number: int
    kind: HistoryKind
    seat: int | None
    move: str | None = None
    card: str | None = None
    changed: bool = False
    received: bool = False
    events: tuple[EventFacts, ...] = ()
    board: Mapping[str, Any] | None = None
    names: Mapping[int, Any] | None = None


def partners_of(teams: Iterable[Sequence[int]] | None) -> dict[int, int]:
    """Each seat's partner in team games of two (``{}`` without teams)."""
    partners: dict[int, int] = {}
    for team in teams or ():
        if len(team) == 2:
            first, second = int(team[0]), int(team[1])
            partners[first], partners[second] = second, first
    return partners


def reader_history(
    game: str,
    entries: Sequence[LogEntry],
    reader: int | None,
    *,
    partners: Mapping[int, int],
    exchange_open: bool,
    told: Mapping[int, Sequence[EventFacts]] | None = None,
    board: Mapping[str, Any] | None = None,
    names: Mapping[int, Any] | None = None,
) -> list[HistoryEntry]:
    """The history of a table as ``reader`` (a seat, or ``None`` for anyone else) may see it.

    ``partners`` maps each seat to its partner (:func:`partners_of` of the engine's teams);
    ``exchange_open`` says the game is in an exchange phase now, so its newest picks have not
    reached anybody yet. See the module docstring for who may know a pick.

    ``told`` maps a position in ``entries`` to the entry's events; only the public ones are
    kept, so a caller cannot hand a private one through. ``board`` and ``names`` are given to
    every entry (see :class:`HistoryEntry`).
    """
    # Which picks reached a partner: each seat's last pick in an exchange that is over.
    delivered: set[int] = set()
    changed: set[int] = set()
    open_picks: dict[int, int] = {}  # seat -> position of its latest pick in this exchange
    for position, entry in enumerate(entries):
        if entry.kind != LogKind.MOVE or entry.seat is None:
            continue
        if is_secret_move(game, entry.text):
            if entry.seat in open_picks:
                changed.add(position)
            open_picks[entry.seat] = position
        elif open_picks:
            delivered.update(open_picks.values())  # a public move: that exchange is over
            open_picks = {}
    if not exchange_open:
        delivered.update(open_picks.values())
    history = [
        _entry_for(game, entry, position, reader, partners, delivered, changed)
        for position, entry in enumerate(entries)
    ]
    if told is None and board is None and names is None:
        return history
    told = told or {}
    return [
        replace(
            entry,
            events=tuple(e for e in told.get(position, ()) if e.get("public", True)),
            board=board,
            names=names,
        )
        for position, entry in enumerate(history)
    ]


def _entry_for(
    game: str,
    entry: LogEntry,
    position: int,
    reader: int | None,
    partners: Mapping[int, int],
    delivered: set[int],
    changed: set[int],
) -> HistoryEntry:
    number = entry.index + 1
    if entry.kind == LogKind.MOVE and is_secret_move(game, entry.text):
        card = entry.text.partition(":")[2]
        own = reader is not None and reader == entry.seat
        passed = (
            reader is not None
            and entry.seat is not None
            and partners.get(entry.seat) == reader
            and position in delivered
        )
        return HistoryEntry(
            number,
            HistoryKind.PICK,
            entry.seat,
            card=card if own or passed else None,
            changed=position in changed and not passed,
            received=passed,
        )
    if entry.kind == LogKind.MOVE:
        return HistoryEntry(number, HistoryKind.MOVE, entry.seat, move=entry.text)
    return HistoryEntry(number, HistoryKind(str(entry.kind)), entry.seat)
