"""The Carcassonne game state.

A state is a value for callers: the engine copies it before changing anything (copy-on-apply,
see :meth:`State.copy`). Features are tracked incrementally by :mod:`.features`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.carcassonne.features import SEG_BITS, Cell, Feature, place_tile
from engine.carcassonne.tiles import TILES, Rotated
from engine.protocol import Event

FIGURE_INDEX = {"follower": 0, "big": 1, "builder": 2, "pig": 3}
EMPTY = -1
__all__ = ["EMPTY", "FIGURE_INDEX", "SEG_BITS", "Cell", "Feature", "Figure", "Options", "State"]


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
    frontier: dict[Cell, int] = field(default_factory=dict)  # cell -> constraint code
    figures: tuple[Figure, ...] = ()
    supply: tuple[tuple[int, int, int, int], ...] = ()
    scores: tuple[int, ...] = ()
    goods: tuple[tuple[int, int, int], ...] = ()
    discarded: tuple[str, ...] = ()
    events: tuple[Event, ...] = ()
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
        because only a placement changes them, and a placement always works on a full copy;
        ``find``'s path halving may write to a shared union-find, but never changes a root.
        """
        if share_board:
            return State(
                self.options,
                self.names,
                self.seed,
                self.start_player,
                self.start_player_given,
                self.draws_given,
                self.pile,
                self.pile_pos,
                self.current,
                self.phase,
                self.to_act,
                self.extra_turn,
                self.extra_earned,
                self.tiles,
                self.cells,
                self.parent,
                self.feats,
                self.frontier,
                self.figures,
                self.supply,
                self.scores,
                self.goods,
                self.discarded,
                (),
                self.last_tiles,
                self.left,
                self.log,
                self.pending,
                self.river_end,
                self.last_bend,
                self.winners,
                None,
                None,
            )
        return State(
            self.options,
            self.names,
            self.seed,
            self.start_player,
            self.start_player_given,
            self.draws_given,
            self.pile,
            self.pile_pos,
            self.current,
            self.phase,
            self.to_act,
            self.extra_turn,
            self.extra_earned,
            list(self.tiles),
            dict(self.cells),
            dict(self.parent),
            dict(self.feats),
            dict(self.frontier),
            self.figures,
            self.supply,
            self.scores,
            self.goods,
            self.discarded,
            (),
            dict(self.last_tiles),
            self.left,
            self.log,
            self.pending,
            self.river_end,
            self.last_bend,
            self.winners,
            None,
            None,
        )

    # -- board queries ---------------------------------------------------------------------

    def place_tile(self, tile: str, x: int, y: int, k: int) -> None:
        """Put ``tile`` on the board (no legality check) and join its segments (K-2.5)."""
        place_tile(self, tile, x, y, k)

    def rotated(self, index: int) -> Rotated:
        """The rotated tile of board tile ``index``."""
        tid, _x, _y, k = self.tiles[index]
        return TILES[tid].rotations[k]

    def find(self, sid: int) -> int:
        """The root of segment ``sid`` (path halving; harmless on shared-free copies)."""
        parent = self.parent
        p = parent.get(sid, sid)
        while p != sid:
            gp = parent.get(p, p)
            parent[sid] = gp
            sid = p
            p = gp
        return sid

    def tiles_left(self) -> int:
        """Tiles still in the pile, the current tile not counted."""
        return len(self.pile) - self.pile_pos

    def last_index(self) -> int:
        """Index of the tile placed last."""
        return len(self.tiles) - 1

    # -- figures ---------------------------------------------------------------------------

    def strengths(self, root: int) -> list[int]:
        """Each player's majority strength on the feature with ``root`` (K-6.2)."""
        out = [0] * self.players
        for fig in self.figures:
            if fig.kind in ("follower", "big") and self.find(fig.sid) == root:
                out[fig.player] += 2 if fig.kind == "big" else 1
        return out

    def monastery_neighbours(self, cell: Cell) -> int:
        """How many of the 8 surrounding cells hold a tile (K-2.8)."""
        x, y = cell
        cells = self.cells
        return sum(
            1 for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx or dy) and (x + dx, y + dy) in cells
        )

    def seg_name(self, sid: int) -> str:
        """The CN-2 name of segment ``sid``."""
        tid = self.tiles[sid >> SEG_BITS][0]
        return TILES[tid].segments[sid & 15].name

    def seg_kind(self, sid: int) -> int:
        """The kind code of segment ``sid``."""
        tid = self.tiles[sid >> SEG_BITS][0]
        return TILES[tid].segments[sid & 15].kind
