"""How good a Carcassonne position is for one player: points, feature potential, followers.

Each figure's feature is valued by what it will most likely score by the end: an open city
or road by its size and its chance of being completed (fewer open sides and more tiles left
make completion likelier), a monastery by its neighbours and the tiles still to come, a farm
by the complete cities it borders plus a share of the open ones. Only the owners of a
feature (K-6.2) get its value. Followers in supply are worth the points they can still earn,
the first two more than the rest (a reserve keeps a player able to claim good features), so
a farmer placed early pays for a follower lost for the rest of the game ("farms late").
The position holds no hidden information; only the pile order is unknown.

``normal`` judges completion by a rule of thumb (open sides, tiles left); ``hard`` passes a
:class:`TileOdds` that counts the unseen tiles able to fill each open cell, so it knows a
city whose hole no remaining tile fits will never be finished.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from engine.carcassonne.state import SEG_BITS, Feature, State
from engine.carcassonne.tiles import CITY, FIELD, MONASTERY, ROAD, SIDE_DELTA, TILES

WIN = 1_000.0

#: Chance that a road or city with this many open sides gets completed with plenty of tiles.
_COMPLETE = {1: 0.8, 2: 0.6, 3: 0.42, 4: 0.3, 5: 0.22}


def completion_chance(open_sides: int, tiles_left: int, players: int) -> float:
    """A rough chance that a feature with ``open_sides`` open sides will be completed."""
    if open_sides <= 0:
        return 1.0
    base = _COMPLETE.get(open_sides, 0.15)
    # Late in the game fewer tiles are left to close it, and the owner draws fewer of them.
    turns = tiles_left / max(players, 1)
    time_factor = min(1.0, (turns + 1) / (2.0 * open_sides + 2))
    return base * time_factor


Needs = tuple[int, int, int, int]
_FITS: dict[tuple[str, Needs], bool] = {}


def cell_needs(state: State, cell: tuple[int, int]) -> Needs:
    """The terrain each neighbour of an empty cell shows towards it (N, E, S, W; -1 none)."""
    needs = [-1, -1, -1, -1]
    for side, (dx, dy) in enumerate(SIDE_DELTA):
        index = state.cells.get((cell[0] + dx, cell[1] + dy))
        if index is not None:
            tid, _x, _y, k = state.tiles[index]
            needs[side] = TILES[tid].rotations[k].edges[(side + 2) % 4]
    return (needs[0], needs[1], needs[2], needs[3])


def tile_fits(tile: str, needs: Needs) -> bool:
    """Whether some rotation of ``tile`` matches every neighbour's terrain in ``needs``."""
    key = (tile, needs)
    hit = _FITS.get(key)
    if hit is None:
        hit = any(
            all(t < 0 or rot.edges[side] == t for side, t in enumerate(needs))
            for rot in TILES[tile].rotations
        )
        _FITS[key] = hit
    return hit


class TileOdds:
    """Completion chances from the tiles still to come (the ``hard`` bot's evaluation).

    The multiset of unseen tiles is public (the counts of the game box minus the tiles on
    the board, discarded or in hand); a bot takes it from its determinized state, whose pile
    holds exactly those tiles in a random order. A road or city can only be completed if
    every empty cell on its open sides can still receive a tile; a cell that no unseen tile
    fits kills the feature (it will score as unfinished).
    """

    def __init__(self, state: State) -> None:
        self.unseen = Counter(state.pile[state.pile_pos :])
        self.total = max(1, sum(self.unseen.values()))
        self.players = state.players
        self._by_needs: dict[Needs, int] = {}
        self._open: dict[int, tuple[Feature, tuple[tuple[int, int], ...]]] = {}

    def fitting(self, needs: Needs) -> int:
        """How many unseen tiles fit an empty cell whose neighbours show ``needs``."""
        hit = self._by_needs.get(needs)
        if hit is None:
            hit = sum(n for tile, n in self.unseen.items() if tile_fits(tile, needs))
            self._by_needs[needs] = hit
        return hit

    def open_cells(self, state: State, root: int, feat: Feature) -> tuple[tuple[int, int], ...]:
        """The empty cells on the open sides of the road or city ``root``."""
        hit = self._open.get(id(feat))
        # A feature's open cells change only when a tile joins it, which makes a new record.
        if hit is not None and hit[0] is feat:
            return hit[1]
        cells: set[tuple[int, int]] = set()
        for cell in feat.cells:
            index = state.cells[cell]
            tid, _x, _y, k = state.tiles[index]
            rot = TILES[tid].rotations[k]
            base = index << SEG_BITS
            for i, seg in enumerate(TILES[tid].segments):
                if seg.kind != feat.kind or state.find(base + i) != root:
                    continue
                for side in rot.seg_sides[i]:
                    dx, dy = SIDE_DELTA[side]
                    other = (cell[0] + dx, cell[1] + dy)
                    if other not in state.cells:
                        cells.add(other)
        found = tuple(sorted(cells))
        self._open[id(feat)] = (feat, found)
        return found

    def chance(self, state: State, root: int, feat: Feature) -> float:
        """The chance that the road or city ``root`` gets completed."""
        tiles_left = state.tiles_left()
        chance = completion_chance(feat.open, tiles_left, self.players)
        draws = max(1.0, 1.5 * tiles_left / self.players)
        for cell in self.open_cells(state, root, feat):
            share = self.fitting(cell_needs(state, cell)) / self.total
            if share == 0.0:
                return 0.0
            # Rare fits make completion unlikely even when the cell is still open.
            chance *= min(1.0, (1.0 - (1.0 - share) ** draws) / 0.9)
        return chance


def road_city_potential(
    state: State, feat: Feature, tiles_left: int, odds: TileOdds | None = None, root: int = -1
) -> tuple[float, float]:
    """(expected points, chance of completion) of an open road or city."""
    players = state.players
    size = len(feat.cells)
    if odds is not None:
        chance = odds.chance(state, root, feat)
    else:
        chance = completion_chance(feat.open, tiles_left, players)
    growth = 0.5 * feat.open  # tiles a completion usually adds
    if feat.kind == ROAD:
        if feat.inn:
            return chance * 2 * (size + growth), chance
        return chance * (size + growth) + (1 - chance) * size, chance
    base = size + feat.shields
    mult = 3 if feat.cathedral else 2
    done = mult * (base + growth * 1.2)
    unfinished = 0.0 if feat.cathedral else base
    return chance * done + (1 - chance) * unfinished, chance


def monastery_potential(state: State, cell: tuple[int, int], tiles_left: int) -> float:
    """Expected points of a monastery by the end of the game."""
    around = state.monastery_neighbours(cell)
    missing = 8 - around
    fill = min(0.9, tiles_left / (6.0 * missing + 20.0)) if missing else 0.0
    return 1 + around + missing * fill


def follower_worth(tiles_left: int, players: int, in_supply: int) -> float:
    """What the followers in supply are worth: the first two more (a reserve)."""
    turns = tiles_left / max(players, 1)
    each = min(5.0, 0.35 * turns)
    first = min(in_supply, 2)
    return first * each * 1.4 + (in_supply - first) * each * 0.8


@dataclass
class Memo:
    """What one decision's evaluations share, keyed by the id of an engine record.

    Candidate boards of one decision share most feature records (an unchanged feature keeps
    its record), so most values need not be recomputed. Entries hold the record itself, so
    an id is never reused while its entry lives, and a hit is checked with ``is``.
    """

    #: id(road/city record) -> (record, expected points, completion chance)
    features: dict[int, tuple[Feature, float, float]] = field(default_factory=dict)
    #: id(farm's city-segment set) -> (that set, roots of the cities it borders)
    farms: dict[int, tuple[frozenset[int], frozenset[int]]] = field(default_factory=dict)
    #: tile-aware completion chances (``hard``); ``None``: the rough rule of thumb
    odds: TileOdds | None = None


def _farm_value(state: State, feat: Feature, tiles_left: int, memo: Memo | None) -> float:
    per_city = {"third": 3.0, "second": 3.0, "first": 4.0}.get(state.options.farms, 0.0)
    roots: frozenset[int] | None = None
    if memo is not None:
        hit = memo.farms.get(id(feat.cities))
        # A cached root stays valid while it is still a root: roots only vanish in merges.
        if hit is not None and hit[0] is feat.cities and all(r in state.feats for r in hit[1]):
            roots = hit[1]
    if roots is None:
        roots = frozenset(state.find(c) for c in feat.cities)
        if memo is not None:
            memo.farms[id(feat.cities)] = (feat.cities, roots)
    value = 0.0
    for root in roots:
        city = state.feats.get(root)
        if city is None:
            continue
        if city.open == 0:
            value += per_city
        else:
            value += per_city * completion_chance(city.open, tiles_left, state.players)
    return value


def player_values(state: State, memo: Memo | None = None) -> list[float]:
    """Each player's score plus the expected worth of their figures and supply.

    ``memo`` (one dict per decision, see :data:`Memo`) saves recomputing unchanged features.
    """
    players = state.players
    tiles_left = state.tiles_left()
    values = [float(s) for s in state.scores]
    if state.phase == "finished":
        return values
    strengths: dict[int, list[int]] = {}
    kinds: dict[int, tuple[int, tuple[int, int]]] = {}
    extras: list[tuple[int, str, int]] = []
    for fig in state.figures:
        root = state.find(fig.sid)
        if fig.kind in ("follower", "big"):
            per = strengths.setdefault(root, [0] * players)
            per[fig.player] += 2 if fig.kind == "big" else 1
            kinds[root] = (state.seg_kind(fig.sid), (fig.x, fig.y))
        else:
            extras.append((fig.player, fig.kind, root))
    one_follower = follower_worth(tiles_left, players, 1) * 0.5
    for root, per in strengths.items():
        best = max(per)
        kind, cell = kinds[root]
        chance = 0.0
        if kind == MONASTERY:
            value = monastery_potential(state, cell, tiles_left)
        elif kind == FIELD:
            value = _farm_value(state, state.feats[root], tiles_left, memo)
        else:
            feat = state.feats[root]
            if memo is not None and memo.odds is not None:
                # Not memoized by record: a tile next to an open cell changes the odds.
                value, chance = road_city_potential(state, feat, tiles_left, memo.odds, root)
            else:
                hit = memo.features.get(id(feat)) if memo is not None else None
                if hit is not None and hit[0] is feat:
                    value, chance = hit[1], hit[2]
                else:
                    value, chance = road_city_potential(state, feat, tiles_left)
                    if memo is not None:
                        memo.features[id(feat)] = (feat, value, chance)
        reuse = chance * one_follower
        for p, v in enumerate(per):
            if v == best:
                values[p] += value
            if v:
                values[p] += reuse * v
    for player, figure, root in extras:
        under = state.feats.get(root)
        if under is None:
            continue
        if figure == "builder" and under.open > 0:
            values[player] += 2.0 * min(1.0, tiles_left / 20.0)
        elif figure == "pig" and under.kind == FIELD:
            values[player] += _farm_value(state, under, tiles_left, memo) / 3.0
    for p in range(players):
        supply = state.supply[p]
        values[p] += follower_worth(tiles_left, players, supply[0] + 2 * supply[1])
        values[p] += 1.5 * sum(state.goods[p])
    return values


def evaluate(state: State, seat: int, memo: Memo | None = None) -> float:
    """The position for ``seat``: own value minus the best other player's (a win counts)."""
    values = player_values(state, memo)
    mine = values[seat]
    best_other = max(v for p, v in enumerate(values) if p != seat)
    result = mine - best_other
    if state.phase == "finished":
        result += WIN if seat in state.winners and len(state.winners) == 1 else 0.0
        if seat not in state.winners:
            result -= WIN
    return result


__all__ = ["CITY", "FIELD", "MONASTERY", "ROAD", "evaluate", "player_values"]
