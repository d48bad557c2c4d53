"""Move values and the move notation of carcassonne-notation CN-3.

Three move kinds exist: a :class:`Placement` (``x,y@rot``, phase ``place``), an :class:`Action`
(``none`` or ``kind:segment``, phase ``figure``) and a whole :class:`Turn`
(``tile x,y@rot [action]``). ``str()`` of each is its canonical text once the engine has
translated rotation and segment names (CN-2.4).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.carcassonne.tiles import ROTATIONS, TILES
from engine.protocol import IllegalMove

FIGURE_KINDS = ("follower", "big", "builder", "pig")

_INT = r"(0|-?[1-9][0-9]*)"
_PLACEMENT_RE = re.compile(rf"{_INT},{_INT}@(0|90|180|270)")
_SEGMENT_RE = re.compile(r"(?:(city|road|field)(0|[1-9][0-9]*)|monastery)")
_ACTION_RE = re.compile(rf"none|(follower|big|builder|pig):({_SEGMENT_RE.pattern})")


@dataclass(frozen=True, slots=True)
class Placement:
    """Put the current tile on cell ``(x, y)`` turned ``rot`` degrees clockwise."""

    x: int
    y: int
    rot: int

    def __str__(self) -> str:
        return f"{self.x},{self.y}@{self.rot}"


@dataclass(frozen=True, slots=True)
class Action:
    """The figure step: ``kind`` on ``segment`` of the tile just placed, or nothing."""

    kind: str | None = None
    segment: str | None = None

    def __str__(self) -> str:
        if self.kind is None:
            return "none"
        return f"{self.kind}:{self.segment}"


@dataclass(frozen=True, slots=True)
class Turn:
    """A whole turn: tile id, placement and (except at the end of a set-up) an action."""

    tile: str
    placement: Placement
    action: Action | None = None

    def __str__(self) -> str:
        text = f"{self.tile} {self.placement}"
        if self.action is not None:
            text += f" {self.action}"
        return text


Move = Placement | Action | Turn

NONE = Action()


def parse_placement(text: str) -> Placement | None:
    """Parse ``x,y@rot`` or return None."""
    m = _PLACEMENT_RE.fullmatch(text)
    if m is None:
        return None
    return Placement(int(m.group(1)), int(m.group(2)), int(m.group(3)))


def parse_action(text: str) -> Action | None:
    """Parse ``none`` / ``kind:segment`` or return None."""
    m = _ACTION_RE.fullmatch(text)
    if m is None:
        return None
    if text == "none":
        return NONE
    return Action(m.group(1), m.group(2))


def parse_syntax(text: str) -> Move:
    """Parse any CN-3.1 input without looking at a state; raise IllegalMove on bad text."""
    if not isinstance(text, str):
        raise IllegalMove(f"a move must be text, got {type(text).__name__}")
    placement = parse_placement(text)
    if placement is not None:
        return placement
    action = parse_action(text)
    if action is not None:
        return action
    parts = text.split(" ")
    if len(parts) in (2, 3):
        if parts[0] not in TILES:
            raise IllegalMove(f"unknown tile id {parts[0]!r} in {text!r}")
        placement = parse_placement(parts[1])
        if placement is None:
            raise IllegalMove(f"bad placement {parts[1]!r} in {text!r} (expected x,y@rot)")
        if len(parts) == 2:
            return Turn(parts[0], placement)
        action = parse_action(parts[2])
        if action is None:
            raise IllegalMove(f"bad figure action {parts[2]!r} in {text!r}")
        return Turn(parts[0], placement, action)
    raise IllegalMove(
        f"cannot read {text!r}: expected 'x,y@rot', 'none', 'kind:segment' or 'tile x,y@rot action'"
    )


def canonical_placement(tile: str, placement: Placement) -> tuple[Placement, tuple[int, ...]]:
    """The canonical rotation of ``placement`` and the renaming of local segment indexes."""
    if placement.rot not in ROTATIONS:
        raise IllegalMove(f"rotation must be 0, 90, 180 or 270, not {placement.rot}")
    tt = TILES[tile]
    k = placement.rot // 90
    c = tt.canonical[k]
    if c == k:
        return placement, tt.renaming[k]
    return Placement(placement.x, placement.y, 90 * c), tt.renaming[k]


def rename_action(tile: str, action: Action, renaming: tuple[int, ...]) -> Action:
    """Translate ``action``'s segment name from a non-canonical rotation to the canonical."""
    if action.kind is None or action.segment is None:
        return action
    tt = TILES[tile]
    i = tt.segment_index(action.segment)
    if i < 0:
        raise IllegalMove(f"tile {tile} has no segment {action.segment}")
    return Action(action.kind, tt.segments[renaming[i]].name)
