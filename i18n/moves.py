"""Legal moves in words, with what they do, for buttons, menus and the console.

A label is a :class:`~i18n.message.Message` built from the move's notation, the viewer's view
and the events the move would cause (the engine's facts of applying it): ``K: bring a pawn out
onto your start field``, ``7: your pawn 3 fields past your start → home 2 — sends Blue's pawn
back to its kennel``, ``10: your pawn … — Green must then discard``. Notation never reaches the
label; it stays the move's value.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from i18n.events import card_short, card_word, feature_words, place_words, walk_words
from i18n.message import Message, msg

_PLAY = re.compile(r"(?P<card>X=(?P<declared>[0-9AJQK]+)|[0-9AJQKX]+):(?P<action>.+)")

Names = Mapping[int, Any]


def _owner(view: Mapping[str, Any], loc: str) -> int | None:
    for seat, locations in (view.get("pawns") or {}).items():
        for held in locations:
            if str(held).rstrip("*") == loc:
                return int(seat)
    return None


def _seat_word(names: Names, seat: int) -> Any:
    return names.get(seat) or msg("move.seat", number=seat + 1)


def _walk(walk: str, view: Mapping[str, Any], names: Names, viewer: Any, steps: bool) -> Message:
    start, _, end = walk.partition("-")
    owner = _owner(view, start)
    board = view.get("board")
    if owner is None:
        owner = viewer if isinstance(viewer, int) else 0
    own = owner == viewer
    way = walk_words(start, end, owner, board, own=own)
    if own:
        text = msg("move.walk", way=way)
    else:
        text = msg("move.walk_other", name=_seat_word(names, owner), way=way)
    ring = (board or {}).get("ring")
    if steps and ring and start.startswith("r") and end.startswith("r"):
        count = (int(end[1:]) - int(start[1:])) % int(ring)
        if 0 < count <= 7:
            text = msg("move.steps", walk=text, count=count)
    return text


def walks_words(
    walks: str, view: Mapping[str, Any], names: Names, *, show_steps: bool = False
) -> list[Message]:
    """``r11-r14,r10-r14`` in words, one phrase per pawn (a split 7's steps on request)."""
    viewer = view.get("viewer")
    return [_walk(w, view, names, viewer, show_steps) for w in walks.split(",")]


def _effects(
    events: Sequence[Mapping[str, Any]], view: Mapping[str, Any], names: Names
) -> list[Message]:
    """What a move does beyond moving: pawns it sends home, the seat a 10 bans."""
    viewer = view.get("viewer")
    said: list[Message] = []
    captured: dict[int, int] = {}  # seat -> pawns sent back: a 7 may send two of one seat's
    for event in events:
        kind, seat = event.get("kind"), event.get("seat")
        if not isinstance(seat, int):
            continue
        if kind == "capture":
            captured[seat] = captured.get(seat, 0) + 1
        elif kind == "ban":
            said.append(msg("move.effect.bans", name=_seat_word(names, seat)))
    sent = [
        msg("move.effect.captures_own", count=count)
        if seat == viewer
        else msg("move.effect.captures", name=_seat_word(names, seat), count=count)
        for seat, count in captured.items()
    ]
    return [*sent, *said]


def race_label(
    move: str,
    view: Mapping[str, Any],
    names: Names,
    events: Sequence[Mapping[str, Any]] = (),
) -> Message:
    """A race move in words for its owner (``view`` is their own view; ``names`` per seat;
    ``events``: what applying the move would cause, for its effects)."""
    if move == "F":
        return msg("move.fold")
    if move.startswith("G:"):
        return msg("move.give", card=card_word(move[2:]))
    match = _PLAY.fullmatch(move)
    if match is None:  # a bare segment of a pending 7
        return _with_effects(
            msg("move.walks", walks=walks_words(move, view, names, show_steps=True)),
            events,
            view,
            names,
        )
    declared = match["declared"]
    card: Message | str = (
        msg("move.joker_as", card=card_short(declared)) if declared else card_short(match["card"])
    )
    action = match["action"]
    viewer = view.get("viewer")
    if action == "D":
        text = msg("move.discard")
    elif action.startswith("E"):
        target = action[1:]
        if not target or int(target) == viewer:
            text = msg("move.bring_out")
        else:
            text = msg("move.bring_out_of", name=_seat_word(names, int(target)))
    elif action == "N":
        text = msg("move.null_swap")
    elif "<>" in action:
        mine, _, other = action.partition("<>")
        board = view.get("board")
        me = viewer if isinstance(viewer, int) else 0
        owner = _owner(view, other)
        mine_words = place_words(mine, me, board, own=True)
        if owner is None:
            text = msg("move.swap_unknown", mine=mine_words)
        elif owner == viewer:
            text = msg(
                "move.swap_own", mine=mine_words, other=place_words(other, owner, board, own=True)
            )
        else:
            text = msg(
                "move.swap_other",
                mine=mine_words,
                name=_seat_word(names, owner),
                other=place_words(other, owner, board),
            )
    else:
        seven = match["card"] in ("7", "X=7")
        text = msg("move.walks", walks=walks_words(action, view, names, show_steps=seven))
    return _with_effects(msg("move.card_action", card=card, action=text), events, view, names)


@dataclass(frozen=True, slots=True)
class LabelParts:
    """A race move's label taken apart: the card (None for a bare segment of a 7, a fold or
    a pick), what the move does, and its effects (captures, a ban), so that a menu can show
    the move on its option and the effects below it."""

    card: Any
    action: Any
    effects: tuple[Any, ...]


def label_parts(label: Any) -> LabelParts:
    """The parts of a label made by :func:`race_label` (any other label is all action)."""
    effects: tuple[Any, ...] = ()
    if isinstance(label, Message) and label.key == "move.with_effects":
        effects = tuple(label.params.get("effects") or ())
        label = label.params.get("move")
    if isinstance(label, Message) and label.key == "move.card_action":
        return LabelParts(label.params.get("card"), label.params.get("action"), effects)
    return LabelParts(None, label, effects)


def counted_effects(effects: Sequence[Any]) -> list[Any]:
    """``effects`` with the captures said as one count (``sends 3 pawns back to their
    kennels``): for a menu with no room for every name."""
    captures = [e for e in effects if getattr(e, "key", "").startswith("move.effect.captures")]
    rest = [e for e in effects if e not in captures]
    sent = sum(int(getattr(e, "params", {}).get("count", 1)) for e in captures)
    counted = [msg("move.effect.captures_count", count=sent)] if captures else []
    return counted + rest


def race_option(move: str, view: Mapping[str, Any], names: Names) -> tuple[Message, Message | None]:
    """A race move in few words for a menu option: (what it does, a detail for the option's
    description or None). Others' pawns are named by ``names`` (menus pass the colours, as
    the board shows them); a swap says the pawn swapped with, and the player's own pawn in the
    detail; a split 7 of the player's own pawns says the first pawn's way, and the others' in
    the detail. The card is not said: the menu's title says it."""
    parts = label_parts(race_label(move, view, names))
    match = _PLAY.fullmatch(move)
    action = match["action"] if match is not None else move
    viewer = view.get("viewer")
    walks = [w.partition("-") for w in action.split(",")] if "-" in action else []
    if len(walks) > 1 and all(_owner(view, start) == viewer for start, _, _ in walks):
        # A split 7 of the player's own pawns: the first pawn's way on the option, the
        # others' below it ("and 6 → 2 fields before your start (4 steps)").
        board = view.get("board")
        ways = [_own_steps(start, end, int(viewer), board) for start, _, end in walks]
        return msg("move.own_walks", walks=ways[:1]), msg("move.split_rest", walks=ways[1:])
    if "<>" not in action:
        return parts.action, None
    mine, _, other = action.partition("<>")
    board = view.get("board")
    me = viewer if isinstance(viewer, int) else 0
    owner = _owner(view, other)
    detail = msg("move.swap_mine", mine=place_words(mine, me, board, own=True))
    if owner is None:
        return parts.action, None
    if owner == viewer:
        other_words = place_words(other, owner, board, own=True)
        return msg("move.swap_with_own", other=other_words), detail
    other_words = place_words(other, owner, board)
    return msg("move.swap_with", name=_seat_word(names, owner), other=other_words), detail


def _own_steps(start: str, end: str, viewer: int, board: Mapping[str, Any] | None) -> Message:
    """One pawn's part of a split 7, without "your pawn": its way and, on the ring, its steps."""
    way = walk_words(start, end, viewer, board, own=True)
    ring = (board or {}).get("ring")
    if ring and start.startswith("r") and end.startswith("r"):
        count = (int(end[1:]) - int(start[1:])) % int(ring)
        if 0 < count <= 7:
            return msg("move.steps", walk=way, count=count)
    return way


def _with_effects(
    label: Message, events: Sequence[Mapping[str, Any]], view: Mapping[str, Any], names: Names
) -> Message:
    effects = _effects(events, view, names)
    if not effects:
        return label
    return msg("move.with_effects", move=label, effects=effects)


_PLACEMENT = re.compile(r"(-?\d+),(-?\d+)@(\d+)")


def cell_number(move: str, legal: Sequence[str]) -> int | None:
    """The number the placement image gives the cell of ``move`` among the cells of the
    ``legal`` placements (1, 2, … by y, then x, as CN-4.1 lists them), or None."""
    cells = set()
    for text in legal:
        found = _PLACEMENT.fullmatch(text)
        if found is not None:
            cells.add((int(found[1]), int(found[2])))
    placement = _PLACEMENT.fullmatch(move)
    if placement is None:
        return None
    cell = (int(placement[1]), int(placement[2]))
    order = sorted(cells, key=lambda c: (c[1], c[0]))
    return order.index(cell) + 1 if cell in order else None


def tile_label(
    move: str, events: Sequence[Mapping[str, Any]] = (), legal: Sequence[str] = ()
) -> Message:
    """A Carcassonne decision in words: a placement (``cell 3, turned right``: the cell by its
    number among the ``legal`` placements, as the image shows it), a figure action or none."""
    if move == "none":
        return msg("tile.no_figure")
    placement = _PLACEMENT.fullmatch(move)
    if placement is not None:
        turn = msg(f"tile.turned.{int(placement[3]) % 360}")
        number = cell_number(move, legal)
        if number is None:  # no list to count in: how it is turned is all that can be said
            return turn
        return msg("tile.place_label", number=number, turn=turn)
    kind, _, segment = move.partition(":")
    sides: list[str] = []
    for event in events:
        if event.get("kind") == "figure":
            sides = list((event.get("data") or {}).get("sides") or ())
    return msg(
        "tile.figure_label",
        figure=msg(f"figure.{kind}"),
        feature=feature_words(segment, sides, onto=True),
    )


def move_label(
    game: str,
    move: str,
    view: Mapping[str, Any],
    names: Names,
    events: Sequence[Mapping[str, Any]] = (),
    legal: Sequence[str] = (),
) -> Message:
    """The label of ``move`` in any game (see :func:`race_label`, :func:`tile_label`;
    ``legal``: the whole legal list, which numbers Carcassonne's cells)."""
    if game == "carcassonne":
        return tile_label(move, events, legal)
    if game in ("tock", "dog"):
        return race_label(move, view, names, events)
    return msg("move.as_written", move=move)  # a game Pöppel has no words for
