"""Reading the last move out of a race view's public events.

The engines report each action as :class:`engine.protocol.Event` dicts. The renderer needs
only three things from them: the walks of the moved pawns (to draw their paths), the fields
where pawns were captured, and swaps. It reads the move's canonical notation (N-5) from the
event data, so it does not depend on any other engine detail; unknown events are ignored.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from i18n.events import event_text
from renderer.race_layout import RaceLayout

_LOC = r"(?:r\d+|h\d\.[1-4])"
_WALK = re.compile(rf"({_LOC})-({_LOC})")
_SWAP = re.compile(r"(r\d+)<>(r\d+)")
#: Event data keys that may hold the move's notation, in order of preference.
_MOVE_KEYS = ("move", "notation", "segment", "walk")
#: Event data keys that may hold the location of a capture.
_AT_KEYS = ("at", "location", "loc", "field", "where", "to")


@dataclass(slots=True)
class LastMove:
    """What the board should show of the last action."""

    seat: int | None = None
    card: str | None = None
    #: Walks as (locations passed, start and end included; colour of the pawn, if known).
    paths: list[tuple[list[str], int | None]] = field(default_factory=list)
    #: Walks known only from notation, as (from, to); turned into paths with the layout.
    walks: list[tuple[str, str]] = field(default_factory=list)
    swaps: list[tuple[str, str]] = field(default_factory=list)
    bring_out: list[int] = field(default_factory=list)
    captures: list[tuple[str, int | None]] = field(default_factory=list)
    text: str = ""


def _notation(data: Mapping[str, Any]) -> str | None:
    for key in _MOVE_KEYS:
        value = data.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def _capture_location(data: Mapping[str, Any]) -> str | None:
    for key in _AT_KEYS:
        value = data.get(key)
        if isinstance(value, str) and re.fullmatch(r"r\d+", value.rstrip("*")):
            return value.rstrip("*")
    return None


def _int_or_none(value: Any) -> int | None:
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else None


def last_move(
    events: Iterable[Mapping[str, Any]],
    *,
    locale: str = "en",
    game: str = "tock",
    names: Mapping[int, str] | None = None,
    board: Mapping[str, Any] | None = None,
) -> LastMove:
    """Collect the drawable parts of the last action from ``view["events"]``.

    ``text`` is the events' sentences in ``locale`` (see :func:`i18n.events.event_text`,
    which also gets the players' ``names`` by seat and the view's ring geometry ``board``,
    for places in words).

    The engines report a card play as a ``play`` event (card and notation) followed by
    ``move`` (with the exact ``path``), ``bring_out``, ``swap`` and ``capture`` events. When
    only the notation is available, the walks are read from it (N-5) instead.
    """
    result = LastMove()
    texts: list[tuple[str, str]] = []
    notation_moves: list[tuple[str, Mapping[str, Any]]] = []
    structured = False
    for event in events:
        if not event.get("public", True):
            continue
        kind = str(event.get("kind", ""))
        data = event.get("data") or {}
        seat = _int_or_none(event.get("seat"))
        if kind not in ("deal", "shuffle", "dealer"):
            said = event_text(event, locale, game=game, names=names, board=board)
            if said:
                texts.append((kind, said))
        if kind == "capture":
            at = _capture_location(data)
            if at is not None:
                victim = _int_or_none(data.get("captured", data.get("owner", seat)))
                result.captures.append((at, victim))
        elif kind == "move" and isinstance(data.get("path"), list) and data.get("from"):
            structured = True
            path = [str(data["from"]), *(str(loc) for loc in data["path"])]
            result.paths.append((path, _int_or_none(data.get("colour"))))
            result.seat = seat if result.seat is None else result.seat
        elif kind == "bring_out":
            structured = True
            colour = _int_or_none(data.get("colour"))
            result.bring_out.append(colour if colour is not None else seat or 0)
        elif kind == "swap" and data.get("a") and data.get("b"):
            structured = True
            result.swaps.append((str(data["a"]), str(data["b"])))
        elif kind not in ("pick", "pick_made", "exchange_done", "exchange_received", "deal"):
            move = _notation(data)
            if move is not None:
                if seat is not None:
                    result.seat = seat
                if isinstance(data.get("card"), str):
                    result.card = str(data["card"]).split("=")[-1]
                notation_moves.append((move, data))
    if not structured:
        for move, data in notation_moves:
            _read_move(move, result, data)
    result.text = " ".join(text for _, text in texts[:4])
    return result


def _read_move(move: str, result: LastMove, data: Mapping[str, Any]) -> None:
    card, _, action = move.rpartition(":")
    if card:
        result.card = card.split("=")[-1]
    if action.startswith("E"):
        colour = action[1:]
        if colour.isdigit():
            result.bring_out.append(int(colour))
        elif _int_or_none(data.get("colour")) is not None:
            result.bring_out.append(int(data["colour"]))
        elif result.seat is not None:
            result.bring_out.append(result.seat)
        return
    result.swaps.extend(_SWAP.findall(action))
    if "<>" not in action:
        result.walks.extend(_WALK.findall(action))


def walk_path(
    layout: RaceLayout, start: str, end: str, seat: int | None, card: str | None
) -> list[str]:
    """The locations a walk from ``start`` to ``end`` passes, both ends included.

    ``seat`` is the colour of the moved pawn (its home and branch field); ``card`` decides the
    direction of a 4 (always backwards in Tock; in Dog, backwards when the target says so).
    """
    ring = layout.ring_size
    path = [start]
    if start.startswith("h"):
        owner, slot = start[1:].split(".")
        end_slot = int(end.split(".")[1]) if end.startswith("h") else 4
        path += [f"h{owner}.{n}" for n in range(int(slot) + 1, end_slot + 1)]
        return path
    position = int(start[1:])
    if end.startswith("r"):
        target = int(end[1:])
        backwards = card == "4" and (layout.game == "tock" or (position - target) % ring == 4)
        step = -1 if backwards else 1
        while position != target and len(path) <= ring:
            position = (position + step) % ring
            path.append(f"r{position}")
        return path
    owner_text, slot_text = end[1:].split(".")
    owner_seat = int(owner_text) if seat is None else seat
    branch = layout.branch_field(owner_seat)
    while position != branch and len(path) <= ring:
        position = (position + 1) % ring
        path.append(f"r{position}")
    path += [f"h{owner_text}.{n}" for n in range(1, int(slot_text) + 1)]
    return path


def owner_of(location: str, pawns: Mapping[str, Sequence[str]]) -> int | None:
    """The seat whose pawn stands on ``location`` in a view's ``pawns``, if any."""
    if location.startswith("h"):
        return int(location[1:].split(".")[0])
    for seat, locations in pawns.items():
        if location in (loc.rstrip("*") for loc in locations):
            return int(seat)
    return None
