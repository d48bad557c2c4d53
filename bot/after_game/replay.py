"""A finished (or running) table's public history, rebuilt from its stored log.

Results, records and replays are made from what a spectator could see: the spectator view
(``view(state, None)``) before the first log entry and after each one, and the public text of
each move. The full engine state exists only inside this module's loop and never leaves it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.model.game_log import apply_entry
from bot.model.history import EventFacts, reader_history, told_events
from bot.model.table import LogEntry, LogKind, TableRecord


@dataclass(frozen=True, slots=True)
class PublicStep:
    """One log entry as a spectator saw it.

    ``text`` is the move notation as a spectator reads it in the table's history
    (:func:`bot.model.history.reader_history`, the one place that decides): ``None`` for an
    exchange pick and for entries that are no move (an automatic action, a seat that left, a
    seat handed to a bot). ``view`` is the spectator view after the entry.
    """

    index: int
    kind: LogKind
    seat: int | None
    text: str | None
    view: Mapping[str, Any]


def public_steps(
    module: Any, record: TableRecord, entries: Sequence[LogEntry]
) -> tuple[Mapping[str, Any], Iterator[PublicStep]]:
    """The spectator view at the start and an iterator of the public steps after it."""
    state = module.new_game(record.players, record.options, record.seed)
    first = module.view(state, None)
    # A spectator, after the game: no partner, no exchange open.
    spectator = reader_history(record.game, entries, None, partners={}, exchange_open=False)

    def steps() -> Iterator[PublicStep]:
        nonlocal state
        for entry, seen in zip(entries, spectator, strict=True):
            state = apply_entry(module, state, entry)
            view = module.view(state, None)
            yield PublicStep(entry.index, entry.kind, entry.seat, seen.move, view)

    return first, steps()


def entry_events(
    module: Any,
    record: TableRecord,
    entries: Sequence[LogEntry],
    start: int,
    snapshot: tuple[int, Any] | None = None,
) -> dict[int, tuple[EventFacts, ...]]:
    """The public events of each entry from position ``start`` on (by position in
    ``entries``): what the thread was told when the entry was made.

    The log is replayed from the seed, or from ``snapshot`` (``(log_length, position)``, as
    storage keeps it) when it lies before ``start``. An entry that changed nothing (a seat
    handed to a bot) told nothing: the state it leaves still holds the previous events.
    """
    state = None
    begin = 0
    from_position = getattr(module, "from_position", None)
    if snapshot is not None and from_position is not None and snapshot[0] <= start:
        begin, position = snapshot
        state = from_position(position)
    if state is None:
        begin = 0
        state = module.new_game(record.players, record.options, record.seed)
    told: dict[int, tuple[EventFacts, ...]] = {}
    for position in range(begin, len(entries)):
        after = apply_entry(module, state, entries[position])
        if position >= start:
            entry = entries[position]
            told[position] = () if after is state else told_events(module, state, after, entry.seat)
        state = after
    return told
