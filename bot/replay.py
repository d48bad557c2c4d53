"""A finished (or running) table's public history, rebuilt from its stored log.

Results, records and replays are made from what a spectator could see: the spectator view
(``view(state, None)``) before the first log entry and after each one, and the public text of
each move. The full engine state exists only inside this module's loop and never leaves it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.table_core import apply_entry
from bot.table_model import LogEntry, LogKind, TableRecord

#: Move texts that are secret whatever the phase: the exchange pick of the race games (C-10.5).
SECRET_PREFIXES: dict[str, tuple[str, ...]] = {"tock": ("G:",), "dog": ("G:",)}


@dataclass(frozen=True, slots=True)
class PublicStep:
    """One log entry as a spectator saw it.

    ``text`` is the move notation, or ``None`` when the move was secret (an exchange pick, or
    any decision taken while several seats decided at once) or the entry was no move (an
    automatic action, a seat that left, a seat handed to a bot). ``view`` is the spectator
    view after the entry.
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
    secret_prefixes = SECRET_PREFIXES.get(record.game, ())

    def steps() -> Iterator[PublicStep]:
        nonlocal state
        before = first
        for entry in entries:
            several = len(before.get("to_act") or ()) > 1
            exchange = before.get("phase") == "exchange"
            state = apply_entry(module, state, entry)
            text: str | None = None
            if entry.kind == LogKind.MOVE and not (
                several or exchange or entry.text.startswith(secret_prefixes)
            ):
                text = entry.text
            before = module.view(state, None)
            yield PublicStep(entry.index, entry.kind, entry.seat, text, before)

    return first, steps()
