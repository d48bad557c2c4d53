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
from collections.abc import Callable, Sequence
from typing import TypeVar

from engine.race.geometry import HOME, Config, home

_T = TypeVar("_T")

#: A segment key (N-6.4 step 2): (start location, steps, end location).
Key = tuple[int, int, int]
#: An outcome: the 128-bit code of the board after the play (see :func:`board_code`).
Outcome = int


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
_Undo = tuple[int, int, int, bool, bool, int, bool, bool, int, int]


def _zobrist_tables() -> tuple[dict[tuple[int, int], int], dict[int, int], dict[int, int]]:
    """Random 128-bit codes per (location, seat), per moved location and per guarded field.

    The memo keys of the search and the outcomes are XORs of these codes (incremental
    Zobrist hashes), so a step updates them in O(1) instead of rebuilding a frozenset of
    the board. With 128 bits a collision is out of reach in practice (about 1e-33 for a
    search of a thousand states).
    """
    rng = random.Random(0x7E57)
    locs = list(range(6 * 18)) + [home(s, n) for s in range(6) for n in range(1, 5)]
    occ = {(loc, s): rng.getrandbits(128) for loc in locs for s in range(6)}
    moved = {loc: rng.getrandbits(128) for loc in locs}
    guard = {loc: rng.getrandbits(128) for loc in range(6 * 18)}
    return occ, moved, guard


_Z_OCC, _Z_MOVED, _Z_GUARD = _zobrist_tables()


def board_code(occ: dict[int, int], guards: set[int] | frozenset[int]) -> Outcome:
    """The outcome key of a board: its pawns (location -> seat) and guarded ring fields.

    Equal boards have equal codes; different boards differ but with a chance of about
    1e-38 per pair (128-bit Zobrist codes).
    """
    code = 0
    for item in occ.items():
        code ^= _Z_OCC[item]
    for loc in guards:
        code ^= _Z_GUARD[loc]
    return code


def capture_own_code(code: Outcome, frm: int, seat: int, guarded: bool) -> Outcome:
    """The code after the pawn of ``seat`` on ``frm`` walks onto an own pawn and captures it.

    The board loses one pawn of ``seat`` (the target field keeps that seat) and the guard
    of ``frm`` if it had one.
    """
    code ^= _Z_OCC[frm, seat]
    return code ^ _Z_GUARD[frm] if guarded else code


#: One way for a pawn to take part in an independent 7: (steps, key, change of the code).
_Option = tuple[int, Key, int]


def _pawn_options(
    cfg: Config,
    occ: dict[int, int],
    guards: set[int] | frozenset[int],
    c: int,
    loc: int,
    left: int,
) -> list[list[_Option]]:
    """The walks of 1 … ``left`` steps of the pawn of ``c`` on ``loc``, by step count.

    Each step is checked as :meth:`SevenSearch.successors` does (C-8.2, D-8.3), on the
    board as it is: in an independent 7 no other moving pawn changes it. An option's
    last item is what the walk XORs into the board code (:func:`board_code`): the pawn
    leaving ``loc`` and its guard, the pawns it burns, the pawn arriving.
    """
    by_steps: list[list[_Option]] = [[] for _ in range(left + 1)]
    z_occ = _Z_OCC
    leave = z_occ[loc, c]
    if loc >= HOME:
        end = loc
        for n in range(1, min(left, 4 - (loc - HOME) % 10) + 1):
            end += 1
            if end in occ:
                break
            by_steps[n].append((n, (loc, n, end), leave ^ z_occ[end, c]))
        return by_steps
    if loc in guards:
        leave ^= _Z_GUARD[loc]
    ring = cfg.ring
    branch = cfg.branch[c]
    cur = loc
    n = 0
    while True:
        # The way into the home; D-8.3: not from the start field at once in Dog.
        if cur == branch and not (cfg.is_dog and n == 0 and (not cfg.braendi or loc in guards)):
            slot = home(c, 1)
            for k in range(n + 1, min(left, n + 4) + 1):
                if slot in occ:
                    break
                by_steps[k].append((k, (loc, k, slot), leave ^ z_occ[slot, c]))
                slot += 1
        if n == left:
            break
        cur = cur + 1 if cur + 1 < ring else 0
        if cur in guards:
            break
        n += 1
        victim = occ.get(cur)
        if victim is not None:
            leave ^= z_occ[cur, victim]  # burnt (C-8.3)
        by_steps[n].append((n, (loc, n, cur), leave ^ z_occ[cur, c]))
    return by_steps


def independent_outcomes(
    cfg: Config,
    occ: dict[int, int],
    guards: set[int] | frozenset[int],
    colour: int,
    own: int,
    carry: bool,
    left: int = 7,
    code: Outcome | None = None,
) -> dict[Outcome, tuple[Key, ...]] | None:
    """The answer of :meth:`SevenSearch.outcomes`, split into groups of pawns that can meet.

    Pawns whose reaches (:attr:`Config.reach7`: every field a walk of up to 7 steps could
    enter) are disjoint cannot meet in one 7: neither's walks enter a field the other
    stands on or could reach. So the pawns of the moved colour fall into groups (linked
    by overlapping reaches), each group's walks are legal or not regardless of the others,
    and an outcome is one choice of outcome per group with step counts adding up to
    ``left``. Its smallest key list (N-6.4) interleaves the groups' smallest lists by
    always taking the smaller next key: every interleaving is a valid execution, and the
    keys of different groups never tie (they start on different fields). A lone pawn's
    walks are listed directly (:func:`_pawn_options`); a group of several is searched on
    its own. Pawns packed at the top of the home never move and only block.

    ``None`` asks for the full search: a Dog carry-over (D-10.2) may switch the colour
    midway, or all pawns form one group (then nothing is gained). ``code`` is
    :func:`board_code` of the board if known.
    """
    c = colour
    movers: list[int] = []
    own_on_board = 0
    own_to_home = 0  # the fewest steps that could bring every own pawn home
    ring = cfg.ring
    for loc, s in occ.items():
        if s == own:
            own_on_board += 1
            if loc < HOME:
                own_to_home += (cfg.branch[own] - loc) % ring + 1
        if s != c:
            continue
        if loc >= HOME:
            slot = (loc - HOME) % 10
            if all(loc + m in occ for m in range(1, 5 - slot)):
                continue  # packed at the top of the home: it never moves
        movers.append(loc)
    if not movers:
        return {}
    if carry and c == own and cfg.partner[own] >= 0 and own_on_board == 4 and own_to_home <= left:
        return None
    count = len(movers)
    groups: list[list[int]] = [movers]
    if count > 1:
        groups = _groups(cfg.reach7[c], sorted(movers))
        if len(groups) == 1:
            return None
    base = board_code(occ, guards) if code is None else code
    if count == 1:
        return {
            base ^ d: (key,)
            for _, key, d in _pawn_options(cfg, occ, guards, c, movers[0], left)[left]
        }
    if len(groups) == count:
        return _combine_pawns(cfg, occ, guards, c, movers, left, base)
    return _combine_groups(cfg, occ, guards, c, own, groups, left, base)


def _groups(reach: dict[int, frozenset[int]], movers: list[int]) -> list[list[int]]:
    """``movers`` (sorted) in groups linked by overlapping reaches, each group sorted."""
    groups: list[list[int]] = []
    regions: list[frozenset[int]] = []
    for loc in movers:
        region = reach[loc]
        members = [loc]
        keep_groups: list[list[int]] = []
        keep_regions: list[frozenset[int]] = []
        for group, area in zip(groups, regions, strict=True):
            if area.isdisjoint(region):
                keep_groups.append(group)
                keep_regions.append(area)
            else:
                members += group
                region = region | area
        keep_groups.append(sorted(members))
        keep_regions.append(region)
        groups, regions = keep_groups, keep_regions
    return groups


def _combine_pawns(
    cfg: Config,
    occ: dict[int, int],
    guards: set[int] | frozenset[int],
    c: int,
    movers: list[int],
    left: int,
    base: Outcome,
) -> dict[Outcome, tuple[Key, ...]]:
    """Every pawn on its own: an outcome is one walk (or none) per pawn.

    Its keys are the walks sorted by start location, which is the order of ``movers``.
    """
    options = [
        [[(key, d) for _, key, d in per] for per in _pawn_options(cfg, occ, guards, c, loc, left)]
        for loc in sorted(movers)
    ]
    result: dict[Outcome, tuple[Key, ...]] = {}

    def settle(code: int, keys: list[Key]) -> None:
        result[code] = tuple(keys)

    _choose(options, left, base, settle)
    return result


def _combine_groups(
    cfg: Config,
    occ: dict[int, int],
    guards: set[int] | frozenset[int],
    c: int,
    own: int,
    groups: list[list[int]],
    left: int,
    base: Outcome,
) -> dict[Outcome, tuple[Key, ...]]:
    """Independent groups, some of several pawns: one outcome (or none) per group."""
    # options[i][n]: (key list, change of the board code) of group i using n steps.
    options: list[list[list[tuple[tuple[Key, ...], int]]]] = []
    movers = {loc for group in groups for loc in group}
    for group in groups:
        if len(group) == 1:
            walks = _pawn_options(cfg, occ, guards, c, group[0], left)
            options.append([[((key,), d) for _, key, d in per] for per in walks])
            continue
        # The other groups' pawns are out of reach: leave them out, so only this group moves.
        mine = set(group)
        board = {loc: s for loc, s in occ.items() if s != c or loc in mine or loc not in movers}
        search = SevenSearch(cfg, board, guards, c, own, carry=False)
        start = search.code
        options.append(
            [[]]
            + [
                [(keys, out ^ start) for out, keys in search.outcomes_of(n).items()]
                for n in range(1, left + 1)
            ]
        )
    result: dict[Outcome, tuple[Key, ...]] = {}

    def settle(code: int, parts: list[tuple[Key, ...]]) -> None:
        # Several splits of the steps may reach one board: keep the smallest key list.
        keys = _interleave(parts)
        old = result.get(code)
        if old is None or keys < old:
            result[code] = keys

    _choose(options, left, base, settle)
    return result


def _choose(
    options: Sequence[Sequence[Sequence[tuple[_T, int]]]],
    left: int,
    base: Outcome,
    settle: Callable[[int, list[_T]], None],
) -> None:
    """Every way to spend ``left`` steps on the independent parts of ``options``.

    ``options[i][n]`` lists what part ``i`` can do with exactly ``n`` steps, each with the
    change it makes to the board code; ``settle(code, picks)`` gets every combination (one
    pick or none per part, in part order) that uses all the steps.
    """
    last = len(options) - 1

    def choose(i: int, rest: int, code: int, picks: list[_T]) -> None:
        if rest == 0:
            settle(code, picks)
            return
        if i == last:
            for pick, d in options[i][rest]:
                settle(code ^ d, [*picks, pick])
            return
        choose(i + 1, rest, code, picks)
        per = options[i]
        for n in range(1, rest + 1):
            for pick, d in per[n]:
                choose(i + 1, rest - n, code ^ d, [*picks, pick])

    choose(0, left, base, [])


def _interleave(parts: list[tuple[Key, ...]]) -> tuple[Key, ...]:
    """The smallest interleaving of key lists whose keys all differ: smaller head first."""
    parts = [part for part in parts if part]
    if len(parts) == 1:
        return parts[0]
    merged: list[Key] = []
    heads = [0] * len(parts)
    while True:
        best = -1
        for i, part in enumerate(parts):
            if heads[i] < len(part) and (best < 0 or part[heads[i]] < parts[best][heads[best]]):
                best = i
        if best < 0:
            return tuple(merged)
        merged.append(parts[best][heads[best]])
        heads[best] += 1


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
        #: :func:`board_code` of the current board, kept up to date step by step.
        self.code = board_code(self.occ, self.guards)
        self.own_home = sum(1 for loc, s in self.occ.items() if s == own and loc >= HOME)
        self.dog = cfg.is_dog
        self.braendi = cfg.braendi
        self._nodes: dict[_MemoKey, _Node | None] = {}
        self._can: dict[_MemoKey, bool] = {}
        # Outcome ids of the memoized nodes' reach sets: kept for the life of the search,
        # so that nodes stay valid across calls of outcomes_of.
        self._ids: dict[Outcome, int] = {}
        self._outs: list[Outcome] = []

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
        old_code = self.code
        del occ[loc]
        z_leave = _Z_OCC[loc, c]
        zh ^= z_leave
        code = old_code ^ z_leave
        guarded = loc in self.guards
        if guarded:
            self.guards.discard(loc)
            code ^= _Z_GUARD[loc]
        was_moved = loc in moved
        if was_moved:
            moved.discard(loc)
            zh ^= _Z_MOVED[loc]
        else:
            self.unmoved[c] -= 1
        captured = occ.get(nxt, -1)
        cap_moved = nxt in moved
        if captured >= 0:
            z_victim = _Z_OCC[nxt, captured]
            zh ^= z_victim
            code ^= z_victim
            if cap_moved:
                zh ^= _Z_MOVED[nxt]
            else:
                self.unmoved[captured] -= 1
        occ[nxt] = c
        moved.add(nxt)
        z_arrive = _Z_OCC[nxt, c]
        self.zh = zh ^ z_arrive ^ _Z_MOVED[nxt]
        self.code = code ^ z_arrive
        entered = nxt >= HOME > loc and c == self.own
        if entered:
            self.own_home += 1
        return (loc, nxt, c, guarded, was_moved, captured, cap_moved, entered, old_zh, old_code)

    def undo(self, u: _Undo) -> None:
        """Take back :meth:`do_step`."""
        loc, nxt, c, guarded, was_moved, captured, cap_moved, entered, self.zh, self.code = u
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
        """The current board as an outcome key (:func:`board_code`)."""
        return self.code

    # -- complete 7s ----------------------------------------------------------------------

    def outcomes(self, left: int = 7, fast: bool = True) -> dict[Outcome, tuple[Key, ...]]:
        """Every reachable outcome with its smallest segment-key list (N-6.4).

        With ``fast`` the shortcut :func:`independent_outcomes` answers when it can.

        First the graph of one-segment-per-pawn executions is built with memoization, each
        node knowing the set of outcomes it can reach; then, per outcome, a walk down the
        graph takes at every node the smallest segment that can still reach it.
        """
        if fast and not self.moved and self.colour == self.base_colour:
            answer = independent_outcomes(
                self.cfg,
                self.occ,
                self.guards,
                self.base_colour,
                self.own,
                self.carry,
                left,
                self.code,
            )
            if answer is not None:
                return answer
        c = self.colour
        if self.unmoved[c] == 1 and not (self.carry and c == self.own and self.own_home == 3):
            # One pawn to move and no carry-over possible: its walks are the whole answer.
            single: dict[Outcome, tuple[Key, ...]] = {}
            for loc, s in self.occ.items():
                if s == c and loc not in self.moved:
                    self._single(loc, loc, 0, left, c, single)
                    break
            return single
        return self.outcomes_of(left)

    def outcomes_of(self, left: int) -> dict[Outcome, tuple[Key, ...]]:
        """Like :meth:`outcomes` without shortcuts: the graph search itself.

        Several calls on one search share its memo (a group searched for every step count).
        """
        root = self._node(left)
        if root is None:
            return {}
        result: dict[Outcome, tuple[Key, ...]] = {}
        reach = root.reach
        for oid, out in enumerate(self._outs):
            if not reach >> oid & 1:
                continue
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
