"""The Carcassonne game state.

A state is a value for callers: the engine copies it before changing anything (copy-on-apply,
see :meth:`State.copy`). Features are tracked incrementally by :mod:`.features`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from engine.carcassonne.features import SEG_BITS, Cell, Feature, place_tile
from engine.carcassonne.tiles import TILES, Rotated
from engine.protocol import Event

# An event, or the recipe of one: the function that builds it and the arguments to pass.
EventPart = Event | tuple[Callable[..., Event], tuple[Any, ...]]
_new_object = object.__new__
_AROUND = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))
FIGURE_INDEX = {"follower": 0, "big": 1, "builder": 2, "pig": 3}
EMPTY = -1
__all__ = [
    "EMPTY",
    "FIGURE_INDEX",
    "SEG_BITS",
    "Cell",
    "EventPart",
    "Feature",
    "Figure",
    "Options",
    "State",
]


@dataclass(frozen=True, slots=True)
class Options:
    """The validated table options (K-11.1)."""

    farms: str = "third"
    small_cities: bool = False
    river: bool = False
    inns_cathedrals: str = "off"
    traders_builders: str = "off"

    def to_json(self) -> dict[str, Any]:
        """The options as the CN-6.1 ``options`` object."""
        return {
            "farms": self.farms,
            "small_cities": self.small_cities,
            "river": self.river,
            "inns_cathedrals": self.inns_cathedrals,
            "traders_builders": self.traders_builders,
        }


@dataclass(frozen=True, slots=True)
class Figure:
    """A figure on the board: on segment ``sid`` of the tile at ``(x, y)``."""

    player: int
    kind: str
    x: int
    y: int
    sid: int
    segment: str


@dataclass(slots=True, eq=False)
class State:
    """A Carcassonne game. Treat it as immutable: every engine function returns a new one."""

    options: Options
    names: tuple[str, ...]
    seed: int
    start_player: int
    start_player_given: bool
    draws_given: tuple[str, ...] | None
    pile: tuple[str, ...]
    pile_pos: int = 0
    current: str | None = None
    phase: str = "place"
    to_act: int | None = 0
    extra_turn: bool = False
    extra_earned: bool = False
    tiles: list[tuple[str, int, int, int]] = field(default_factory=list)  # id, x, y, k
    cells: dict[Cell, int] = field(default_factory=dict)
    parent: dict[int, int] = field(default_factory=dict)
    feats: dict[int, Feature] = field(default_factory=dict)
    frontier: dict[int, int] = field(default_factory=dict)  # features.cell_key -> constraint
    figures: tuple[Figure, ...] = ()
    # Board indexes of monastery tiles that may still be completed (never changed in place).
    open_monasteries: tuple[int, ...] = ()
    supply: tuple[tuple[int, int, int, int], ...] = ()
    scores: tuple[int, ...] = ()
    goods: tuple[tuple[int, int, int], ...] = ()
    discarded: tuple[str, ...] = ()
    event_parts: tuple[EventPart, ...] = ()  # see the ``events`` property
    last_tiles: dict[int, Cell] = field(default_factory=dict)
    left: frozenset[int] = frozenset()
    log: tuple[str, ...] = ()
    pending: str | None = None  # the placement part of the turn in phase figure
    river_end: tuple[Cell, int] | None = None  # cell and board side of the open river end
    last_bend: int = 0  # +1 clockwise, -1 counter-clockwise, 0 none yet (K-12.4)
    winners: tuple[int, ...] = ()
    placements_cache: list[Any] | None = None  # rules.placements, for this state only
    actions_cache: list[Any] | None = None

    @property
    def players(self) -> int:
        """Number of seats."""
        return len(self.names)

    def copy(self, share_board: bool = False) -> State:
        """A copy whose containers can be changed without touching ``self``.

        ``share_board``: keep the board containers (tiles, cells, union-find, features,
        frontier, last tiles) shared, for an action that places no tile. Sharing is safe
        because only a placement changes them, and a placement always works on a full copy.
        """
        # Slot by slot on a bare object: the generated __init__ with its 33 parameters and
        # default factories costs more than twice as much, and this runs on every move.
        new = _new_object(State)
        new.options = self.options
        new.names = self.names
        new.seed = self.seed
        new.start_player = self.start_player
        new.start_player_given = self.start_player_given
        new.draws_given = self.draws_given
        new.pile = self.pile
        new.pile_pos = self.pile_pos
        new.current = self.current
        new.phase = self.phase
        new.to_act = self.to_act
        new.extra_turn = self.extra_turn
        new.extra_earned = self.extra_earned
        if share_board:
            new.tiles = self.tiles
            new.cells = self.cells
            new.parent = self.parent
            new.feats = self.feats
            new.frontier = self.frontier
            new.last_tiles = self.last_tiles
        else:
            new.tiles = self.tiles.copy()
            new.cells = self.cells.copy()
            new.parent = self.parent.copy()
            new.feats = self.feats.copy()
            new.frontier = self.frontier.copy()
            new.last_tiles = self.last_tiles.copy()
        new.figures = self.figures
        new.open_monasteries = self.open_monasteries
        new.supply = self.supply
        new.scores = self.scores
        new.goods = self.goods
        new.discarded = self.discarded
        new.event_parts = ()
        new.left = self.left
        new.log = self.log
        new.pending = self.pending
        new.river_end = self.river_end
        new.last_bend = self.last_bend
        new.winners = self.winners
        new.placements_cache = None
        new.actions_cache = None
        return new

    @property
    def events(self) -> tuple[Event, ...]:
        """What the action that made this state did, as readable events.

        The engine stores most events as recipes (a function and its arguments) and builds
        them here on first read: random playouts and bots never read them, and their texts
        would cost a good part of a move.
        """
        parts = self.event_parts
        if all(type(part) is Event for part in parts):
            return cast(tuple[Event, ...], parts)
        built = tuple(part if isinstance(part, Event) else part[0](*part[1]) for part in parts)
        self.event_parts = built
        return built

    @events.setter
    def events(self, value: tuple[Event, ...]) -> None:
        self.event_parts = tuple(value)

    # -- board queries ---------------------------------------------------------------------

    def place_tile(self, tile: str, x: int, y: int, k: int) -> None:
        """Put ``tile`` on the board (no legality check) and join its segments (K-2.5)."""
        place_tile(self, tile, x, y, k)

    def rotated(self, index: int) -> Rotated:
        """The rotated tile of board tile ``index``."""
        tid, _x, _y, k = self.tiles[index]
        return TILES[tid].rotations[k]

    def find(self, sid: int) -> int:
        """The root of segment ``sid`` (the union-find is flat: one lookup, never a write)."""
        return self.parent.get(sid, sid)

    def tiles_left(self) -> int:
        """Tiles still in the pile, the current tile not counted."""
        return len(self.pile) - self.pile_pos

    def last_index(self) -> int:
        """Index of the tile placed last."""
        return len(self.tiles) - 1

    # -- figures ---------------------------------------------------------------------------

    def strengths(self, root: int) -> list[int]:
        """Each player's majority strength on the feature with ``root`` (K-6.2)."""
        out = [0] * len(self.names)
        parent = self.parent
        for fig in self.figures:
            kind = fig.kind
            if kind == "follower":
                if parent.get(fig.sid, fig.sid) == root:
                    out[fig.player] += 1
            elif kind == "big" and parent.get(fig.sid, fig.sid) == root:
                out[fig.player] += 2
        return out

    def monastery_neighbours(self, cell: Cell) -> int:
        """How many of the 8 surrounding cells hold a tile (K-2.8)."""
        x, y = cell
        cells = self.cells
        count = 0
        for dx, dy in _AROUND:
            if (x + dx, y + dy) in cells:
                count += 1
        return count

    def seg_name(self, sid: int) -> str:
        """The CN-2 name of segment ``sid``."""
        tid = self.tiles[sid >> SEG_BITS][0]
        return TILES[tid].segments[sid & 15].name

    def seg_kind(self, sid: int) -> int:
        """The kind code of segment ``sid``."""
        tid = self.tiles[sid >> SEG_BITS][0]
        return TILES[tid].segments[sid & 15].kind
