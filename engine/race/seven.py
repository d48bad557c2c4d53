"""The split 7 (C-8, T-9, D-10): step search with burning, and its canonical form (N-6.4).

The search works on a mutable board (``occ``: location -> seat, ``guards``: guarded ring
fields, ``moved``: where the pawns that stepped in this 7 now stand) with do/undo of single
steps, and memoizes on (board, moved pawns, steps left):

* :meth:`SevenSearch.outcomes` enumerates executions in which every pawn moves in one
  segment at most (C-8.8) and keeps, per outcome, the smallest list of segment keys — the
  canonical string of N-6.4 step 3;
* :meth:`SevenSearch.segments` lists the segments acceptable now (C-8.7), each step legal
  and some completion of the remaining steps possible (any pawn, any number of segments).
"""

from __future__ import annotations

import random

from engine.race.geometry import HOME, Config, home

#: A segment key (N-6.4 step 2): (start location, steps, end location).
Key = tuple[int, int, int]
#: An outcome: (occupied locations with their seats, guarded ring fields).
Outcome = tuple[frozenset[tuple[int, int]], frozenset[int]]


class _Node:
    """A state of the 7 search: the outcomes it reaches and its next segments.

    ``reach`` is a bit set (an int) of outcome ids; a child is (segment key, outcome id of
    a final segment or -1, next node or ``None``).
    """

    __slots__ = ("children", "reach")

    def __init__(self, reach: int, children: list[tuple[Key, int, _Node | None]]) -> None:
        self.reach = reach
        self.children = children


def _first(item: tuple[Key, int, _Node | None]) -> Key:
    return item[0]


_MemoKey = tuple[int, int]
_Undo = tuple[int, int, int, bool, bool, int, bool, bool, int]


def _zobrist_tables() -> tuple[dict[tuple[int, int], int], dict[int, int]]:
    """Random 128-bit codes per (location, seat) and per moved location.

    The memo keys of the search are the XOR of the codes of the current board (an
    incremental Zobrist hash), so a step updates its key in O(1) instead of rebuilding a
    frozenset of the board. With 128 bits a collision is out of reach in practice
    (about 1e-33 for a search of a thousand states).
    """
    rng = random.Random(0x7E57)
    locs = list(range(6 * 18)) + [home(s, n) for s in range(6) for n in range(1, 5)]
    occ = {(loc, s): rng.getrandbits(128) for loc in locs for s in range(6)}
    moved = {loc: rng.getrandbits(128) for loc in locs}
    return occ, moved


_Z_OCC, _Z_MOVED = _zobrist_tables()


class SevenSearch:
    """Search the steps of one 7 for ``own`` (the acting seat) moving ``colour``.

    ``carry`` enables the Dog carry-over (D-10.2): once the acting seat's own four pawns are
    home, the remaining steps move the partner's pawns.
    """

    def __init__(
        self,
        cfg: Config,
        occ: dict[int, int],
        guards: set[int] | frozenset[int],
        colour: int,
        own: int,
        carry: bool,
        moved: set[int] | frozenset[int] = frozenset(),
    ) -> None:
        self.cfg = cfg
        self.occ = dict(occ)
        self.guards = set(guards)
        self.base_colour = colour
        self.own = own
        self.partner = cfg.partner[own]
        self.carry = carry and colour == own and self.partner >= 0
        self.moved = set(moved)
        # Pawns on the board that have not stepped in this 7, per seat: outcomes() stops at
        # once when the colour to move has none left.
        self.unmoved = [0] * len(cfg.start)
        for loc, s in self.occ.items():
            if loc not in self.moved:
                self.unmoved[s] += 1
        zh = 0
        for item in self.occ.items():
            zh ^= _Z_OCC[item]
        for loc in self.moved:
            zh ^= _Z_MOVED[loc]
        self.zh = zh
        self.own_home = sum(1 for loc, s in self.occ.items() if s == own and loc >= HOME)
        self.dog = cfg.is_dog
        self.braendi = cfg.braendi
        self._nodes: dict[_MemoKey, _Node | None] = {}
        self._can: dict[_MemoKey, bool] = {}

    # -- single steps ------------------------------------------------------------------

    @property
    def colour(self) -> int:
        """The colour the next step moves (switches to the partner under D-10.2)."""
        if self.carry and self.own_home == 4:
            return self.partner
        return self.base_colour

    def successors(self, loc: int, c: int) -> list[int]:
        """Locations a pawn of seat ``c`` on ``loc`` may step to now (C-8.2, D-8.3)."""
        result = []
        for nxt in self.cfg.step1[c][loc]:
            if nxt >= HOME:
                if nxt in self.occ:
                    continue
                if (
                    self.dog
                    and loc < HOME
                    and ((loc in self.guards) or (not self.braendi and loc not in self.moved))
                ):
                    # D-8.3: a pawn on its start field since the play began may not turn in.
                    continue
            elif nxt in self.guards:
                continue
            result.append(nxt)
        return result

    def do_step(self, loc: int, nxt: int, c: int) -> _Undo:
        """Move the pawn on ``loc`` to ``nxt``, burning what stands there (C-8.3)."""
        occ, moved = self.occ, self.moved
        old_zh = zh = self.zh
        del occ[loc]
        zh ^= _Z_OCC[loc, c]
        guarded = loc in self.guards
        if guarded:
            self.guards.discard(loc)
        was_moved = loc in moved
        if was_moved:
            moved.discard(loc)
            zh ^= _Z_MOVED[loc]
        else:
            self.unmoved[c] -= 1
        captured = occ.get(nxt, -1)
        cap_moved = nxt in moved
        if captured >= 0:
            zh ^= _Z_OCC[nxt, captured]
            if cap_moved:
                zh ^= _Z_MOVED[nxt]
            else:
                self.unmoved[captured] -= 1
        occ[nxt] = c
        moved.add(nxt)
        self.zh = zh ^ _Z_OCC[nxt, c] ^ _Z_MOVED[nxt]
        entered = nxt >= HOME > loc and c == self.own
        if entered:
            self.own_home += 1
        return (loc, nxt, c, guarded, was_moved, captured, cap_moved, entered, old_zh)

    def undo(self, u: _Undo) -> None:
        """Take back :meth:`do_step`."""
        loc, nxt, c, guarded, was_moved, captured, cap_moved, entered, self.zh = u
        occ, moved = self.occ, self.moved
        if captured >= 0:
            occ[nxt] = captured
            if not cap_moved:
                self.unmoved[captured] += 1
        else:
            del occ[nxt]
        if not cap_moved:
            moved.discard(nxt)
        occ[loc] = c
        if was_moved:
            moved.add(loc)
        else:
            self.unmoved[c] += 1
        if guarded:
            self.guards.add(loc)
        if entered:
            self.own_home -= 1

    def outcome(self) -> Outcome:
        """The current board as an outcome key."""
        return frozenset(self.occ.items()), frozenset(self.guards)

    # -- complete 7s ----------------------------------------------------------------------

    def outcomes(self, left: int = 7) -> dict[Outcome, tuple[Key, ...]]:
        """Every reachable outcome with its smallest segment-key list (N-6.4).

        First the graph of one-segment-per-pawn executions is built with memoization, each
        node knowing the set of outcomes it can reach; then, per outcome, a walk down the
        graph takes at every node the smallest segment that can still reach it.
        """
        c = self.colour
        if self.unmoved[c] == 1 and not (self.carry and c == self.own and self.own_home == 3):
            # One pawn to move and no carry-over possible: its walks are the whole answer.
            single: dict[Outcome, tuple[Key, ...]] = {}
            for loc, s in self.occ.items():
                if s == c and loc not in self.moved:
                    self._single(loc, loc, 0, left, c, single)
                    break
            return single
        self._ids: dict[Outcome, int] = {}
        self._outs: list[Outcome] = []
        root = self._node(left)
        if root is None:
            return {}
        result: dict[Outcome, tuple[Key, ...]] = {}
        for oid, out in enumerate(self._outs):
            keys: list[Key] = []
            node = root
            while True:
                for seg, leaf, child in node.children:
                    if child is None:
                        if leaf == oid:
                            keys.append(seg)
                            break
                    elif child.reach >> oid & 1:
                        keys.append(seg)
                        node = child
                        break
                else:  # pragma: no cover - the reach sets guarantee a way down
                    raise AssertionError("outcome lost in the 7 search")
                if child is None:
                    break
            result[out] = tuple(keys)
        return result

    def _single(
        self, start: int, cur: int, k: int, left: int, c: int, out: dict[Outcome, tuple[Key, ...]]
    ) -> None:
        for nxt in self.successors(cur, c):
            u = self.do_step(cur, nxt, c)
            if k + 1 == left:
                out[self.outcome()] = ((start, left, nxt),)
            else:
                self._single(start, nxt, k + 1, left, c, out)
            self.undo(u)

    def _node(self, left: int) -> _Node | None:
        c = self.colour
        if not self.unmoved[c]:
            return None
        moved = self.moved
        key = (self.zh, left)
        if key in self._nodes:
            return self._nodes[key]
        children: list[tuple[Key, int, _Node | None]] = []
        reach = [0]
        for loc in [loc for loc, s in self.occ.items() if s == c and loc not in moved]:
            self._grow(loc, loc, 0, left, c, children, reach)
        node = None
        if reach[0]:
            children.sort(key=_first)
            node = _Node(reach[0], children)
        self._nodes[key] = node
        return node

    def _grow(
        self,
        start: int,
        cur: int,
        k: int,
        left: int,
        c: int,
        children: list[tuple[Key, int, _Node | None]],
        reach: list[int],
    ) -> None:
        for nxt in self.successors(cur, c):
            u = self.do_step(cur, nxt, c)
            k1 = k + 1
            seg = (start, k1, nxt)
            if k1 == left:
                out = self.outcome()
                oid = self._ids.get(out)
                if oid is None:
                    oid = self._ids[out] = len(self._outs)
                    self._outs.append(out)
                children.append((seg, oid, None))
                reach[0] |= 1 << oid
            else:
                child = self._node(left - k1)
                if child is not None:
                    children.append((seg, -1, child))
                    reach[0] |= child.reach
                self._grow(start, nxt, k1, left, c, children, reach)
            self.undo(u)

    # -- segment by segment ----------------------------------------------------------------

    def can_complete(self, left: int) -> bool:
        """Whether ``left`` more legal steps can be made (any pawns, any order)."""
        if left == 0:
            return True
        key = (self.zh, left)
        known = self._can.get(key)
        if known is not None:
            return known
        ok = False
        c = self.colour
        for loc in [loc for loc, s in self.occ.items() if s == c]:
            for nxt in self.successors(loc, c):
                u = self.do_step(loc, nxt, c)
                ok = self.can_complete(left - 1)
                self.undo(u)
                if ok:
                    break
            if ok:
                break
        self._can[key] = ok
        return ok

    def segments(self, left: int, need_completion: bool = True) -> list[tuple[int, int, int]]:
        """Acceptable next segments as (from, to, steps), C-8.7.

        Without ``need_completion`` every legal run of 1 … ``left`` steps is listed (the
        single 7 of T-9.3).
        """
        found: list[tuple[int, int, int]] = []
        c = self.colour
        for loc in sorted(loc for loc, s in self.occ.items() if s == c):
            self._walk_segments(loc, loc, 0, left, c, need_completion, found)
        return found

    def _walk_segments(
        self,
        start: int,
        cur: int,
        k: int,
        left: int,
        c: int,
        need: bool,
        found: list[tuple[int, int, int]],
    ) -> None:
        for nxt in self.successors(cur, c):
            u = self.do_step(cur, nxt, c)
            k1 = k + 1
            if not need or self.can_complete(left - k1):
                found.append((start, nxt, k1))
            if k1 < left:
                self._walk_segments(start, nxt, k1, left, c, need, found)
            self.undo(u)

    def path(self, frm: int, to: int, left: int) -> list[int] | None:
        """The steps of the pawn on ``frm`` to ``to`` (at most ``left``), or ``None``.

        Only legality of each step is checked, not the completion.
        """
        seat = self.occ.get(frm)
        if seat is None:
            return None
        table = self.cfg.forward[seat].get(frm)
        if table is None:
            return None
        for n in range(1, min(left, 13) + 1):
            for walk in table[n]:
                if walk.target == to:
                    return list(walk.path)
        return None
