"""Legal moves (C-9, N-7): card plays, fallbacks, exchange picks, 7 segments.

This is the hot path of whole-game simulations (bots, benchmarks), so the generator works
on precomputed walks (:class:`~engine.race.geometry.Walk` carries its notation, action and
keys) and records each move's display key as it goes instead of sorting by a key function.
"""

from __future__ import annotations

from typing import Any

from engine.race.cards import COUNTS, ORDER, RANKS
from engine.race.geometry import HOME, KENNEL, NAMES, Config, Walk
from engine.race.move import Move
from engine.race.seven import (
    Key,
    Outcome,
    SevenSearch,
    board_code,
    capture_own_code,
    independent_outcomes,
)
from engine.race.state import State

#: Display / preference key of a move (N-7.5, N-6.1): token, declared kind, kind of action,
#: segment keys.
SortKey = tuple[int, int, int, tuple[tuple[int, int, int], ...]]

_new_move = tuple.__new__


def card_part(token: str, rank: str) -> str:
    """``rank`` or ``X=rank`` (N-6.1)."""
    return rank if token == rank else f"X={rank}"


def segments_text(keys: tuple[Key, ...] | list[tuple[int, int]]) -> str:
    """Segments as ``a-b,c-d``."""
    return ",".join([f"{NAMES[k[0]]}-{NAMES[k[-1]]}" for k in keys])


class _Gen:
    """Generates the card plays of one seat; one instance per call."""

    __slots__ = (
        "_code",
        "aliases",
        "blocked",
        "by_outcome",
        "cfg",
        "colour",
        "guarded",
        "keys",
        "mine",
        "moves",
        "occ",
        "seat",
        "seven_result",
        "state",
    )

    def __init__(self, state: State, seat: int) -> None:
        self.state = state
        self.cfg = state.cfg
        self.seat = seat
        self.colour = colour = state.moved_colour(seat)
        self.occ = state.occupied()
        self.guarded = guarded = state.guarded_fields()
        locs = state.pawns[colour]
        #: The fields of the moved colour's pawns on the board (pawns sort kennels last).
        self.mine = mine = locs[: 4 - locs.count(KENNEL + colour)]
        #: The fields no walk of the moved colour may enter: guarded ring fields and its
        #: occupied home slots (C-4.2).
        self.blocked = guarded
        if mine and mine[-1] >= HOME:
            self.blocked = guarded.union([loc for loc in mine if loc >= HOME])
        self.moves: dict[str, Move] = {}
        #: Text -> display key of every generated move (N-7.5).
        self.keys: dict[str, SortKey] = {}
        #: Outcome -> move, for the plays whose outcome may equal another play's (C-9.4):
        #: every 7, and every walk that captures a pawn of its own colour.
        self.by_outcome: dict[tuple[str, Outcome], Move] = {}
        #: Texts of plays dropped for a better spelling of the same outcome -> its key in
        #: ``by_outcome`` (resolved at the end, so they name the spelling finally kept).
        self.aliases: dict[str, tuple[str, Outcome]] = {}
        self.seven_result: dict[Outcome, tuple[Key, ...]] | None = None
        self._code: Outcome | None = None

    def code(self) -> Outcome:
        """:func:`~engine.race.seven.board_code` of the board before the play."""
        if self._code is None:
            self._code = board_code(self.occ, self.guarded)
        return self._code

    def add(
        self, token: str, rank: str, body: str, action: tuple[Any, ...], kind: int, keys: Any
    ) -> None:
        """Add a play that captures no own pawn (its outcome is its own)."""
        text = f"{card_part(token, rank)}:{body}"
        if text in self.moves:
            return
        self.moves[text] = _new_move(Move, (text, self.seat, "play", token, rank, action))
        self.keys[text] = (ORDER[token], ORDER[rank], kind, keys)

    def add_walk(self, token: str, rank: str, prefix: str, walk: Walk) -> None:
        """Add the play ``prefix`` + walk (``prefix`` is the card part and ``:``)."""
        text = prefix + walk.body
        moves = self.moves
        if text in moves:
            return
        move = _new_move(Move, (text, self.seat, "play", token, rank, walk.action))
        key = (ORDER[token], ORDER[rank], 3, walk.keys)
        occ = self.occ
        frm = walk.origin
        mover = occ[frm]
        if occ.get(walk.target) == mover:
            # Capturing an own pawn: another play may leave the very same board.
            out = capture_own_code(self.code(), frm, mover, frm in self.guarded)
            self.keep(token, out, move, key)
            return
        moves[text] = move
        self.keys[text] = key

    def keep(self, token: str, out: Outcome, move: Move, key: SortKey) -> None:
        """Keep one move per outcome: the lowest declared kind, then segment keys (N-6)."""
        index = (token, out)
        old = self.by_outcome.get(index)
        if old is not None:
            if self.keys[old[0]] <= key:
                self.aliases[move[0]] = index
                return
            del self.moves[old[0]]
            self.aliases[old[0]] = index
        self.by_outcome[index] = move
        self.moves[move[0]] = move
        self.keys[move[0]] = key

    def walk_all(self, tokens: list[str]) -> None:
        """The forward walks of ``tokens`` for every pawn of the moved colour (C-4)."""
        memo = self.cfg.memo
        blocked = self.blocked
        guarded = self.guarded
        # D-8.3: a pawn standing on its start field when the play began may not turn in at
        # once (bsw: never; braendi: not while blocking).
        dog, braendi = self.cfg.is_dog, self.cfg.braendi
        moves, keys = self.moves, self.keys
        own = self.mine
        s, seat = self.colour, self.seat
        for loc in own:
            turn_ok = not dog or (braendi and loc not in guarded)
            for token in tokens:
                entries = memo.get((seat, s, loc, token))
                if entries is None:
                    entries = _walk_entries(self.cfg, seat, s, loc, token)
                for fields, turns_in_first, target, text, move, key in entries:
                    # C-4.2: no guarded ring field entered, no occupied home slot entered.
                    if not blocked.isdisjoint(fields):
                        continue
                    if turns_in_first and not turn_ok:
                        continue
                    if target in own:
                        # Capturing an own pawn: another play may leave the very same board.
                        out = capture_own_code(self.code(), loc, s, loc in guarded)
                        self.keep(token, out, move, key)
                        continue
                    moves[text] = move
                    keys[text] = key

    def walks(self, token: str, rank: str, count: int) -> None:
        """Variant 5 (T-7.5): walks of ``count`` for any pawn on the ring, or own."""
        cfg = self.cfg
        occ = self.occ
        pawns = [(loc, s) for loc, s in occ.items() if s == self.colour or loc < HOME]
        blocked = self.guarded.union([loc for loc in occ if loc >= HOME])
        forward = cfg.forward
        guarded = self.guarded
        prefix = f"{rank}:" if token == rank else f"X={rank}:"
        moves, keys, seat = self.moves, self.keys, self.seat
        head = (ORDER[token], ORDER[rank], 3)
        for loc, s in pawns:
            for walk in forward[s][loc][count]:
                if not blocked.isdisjoint(walk.fields):
                    continue
                text = prefix + walk.body
                if text in moves:
                    continue
                move = _new_move(Move, (text, seat, "play", token, rank, walk.action))
                if occ.get(walk.target) == s:
                    out = capture_own_code(self.code(), loc, s, loc in guarded)
                    self.keep(token, out, move, (*head, walk.keys))
                    continue
                moves[text] = move
                keys[text] = (*head, walk.keys)

    def backward(self, token: str) -> None:
        backward4 = self.cfg.backward4
        guarded = self.guarded
        prefix = f"{card_part(token, '4')}:"
        for loc in self.mine:
            if loc >= HOME:
                continue
            walk = backward4[loc]
            if guarded.isdisjoint(walk.ring_fields):
                self.add_walk(token, "4", prefix, walk)

    def bring_out(self, token: str) -> None:
        colour = self.colour
        if len(self.mine) < 4 and self.cfg.start[colour] not in self.guarded:
            entry = self.cfg.memo.get(("out", self.seat, colour, token))
            if entry is None:
                entry = _out_entry(self.cfg, self.seat, colour, token)
            text, move, key = entry
            self.moves[text] = move
            self.keys[text] = key

    def jack(self, token: str) -> None:
        colour, dog = self.colour, self.cfg.is_dog
        occ = self.occ
        guarded = self.guarded
        # D-11.2 (bsw): no pawn standing on its own start field takes part.
        bsw, start = dog and not self.cfg.braendi, self.cfg.start
        others = sorted(
            [
                loc
                for loc, s in occ.items()
                if loc < HOME and loc not in guarded and not (bsw and loc == start[s])
            ]
        )
        mine = [loc for loc in others if occ[loc] == colour]
        found = False
        for a in mine:
            for b in others:
                if a == b:
                    continue
                if occ[b] == colour:
                    if not dog:
                        self.add(token, "J", "N", ("null",), 1, ())
                        found = True
                    continue
                self.add(token, "J", f"{NAMES[a]}<>{NAMES[b]}", ("swap", a, b), 2, ((a, 0, b),))
                found = True
        # D-11.4 (braendi): a null Jack needs a pawn of the moved colour on the ring.
        if (
            not found
            and dog
            and self.cfg.braendi
            and any(loc < HOME for loc, s in occ.items() if s == colour)
        ):
            self.add(token, "J", "N", ("null",), 1, ())

    def seven(self, token: str) -> None:
        prefix = card_part(token, "7")
        if self.cfg.seven_single:
            for frm, to, steps in self.search().segments(7, need_completion=False):
                self.add(
                    token,
                    "7",
                    f"{NAMES[frm]}-{NAMES[to]}",
                    ("steps", ((frm, steps, to),), True),
                    3,
                    ((frm, steps, to),),
                )
            return
        if self.seven_result is None:
            # A 7 and a joker played as 7 share one search; far-apart pawns need none.
            found = independent_outcomes(
                self.cfg,
                self.occ,
                self.guarded,
                self.colour,
                self.seat,
                self.cfg.is_dog,
                code=self._code,
            )
            self.seven_result = self.search().outcomes(7) if found is None else found
        head = (ORDER[token], ORDER["7"], 3)
        seat = self.seat
        for out, keys in self.seven_result.items():
            text = f"{prefix}:{segments_text(keys)}"
            move = _new_move(Move, (text, seat, "play", token, "7", ("steps", keys, True)))
            self.keep(token, out, move, (*head, keys))

    def search(self) -> SevenSearch:
        return SevenSearch(
            self.cfg,
            self.occ,
            self.guarded,
            self.colour,
            self.seat,
            carry=self.cfg.is_dog,
        )

    def all_plays(self) -> dict[str, Move]:
        cfg = self.cfg
        plans = _PLANS[cfg.is_dog, cfg.variant5]
        walkers: list[str] = []
        # Hands are kept in card order (N-2.2): their distinct tokens are in order too.
        for token in dict.fromkeys(self.state.hands[self.seat]):
            walks, actions = plans[token]
            if walks:
                walkers.append(token)
            for action, rank in actions:
                if action == "7":
                    self.seven(token)
                elif action == "J":
                    self.jack(token)
                elif action == "4":
                    self.backward(token)
                elif action == "E":
                    self.bring_out(token)
                else:
                    self.walks(token, rank, COUNTS[rank])
        if walkers and self.mine:
            self.walk_all(walkers)
        return self.moves


#: A forward walk to try for every pawn: (token, rank, count, text prefix, key head).
_WalkSpec = tuple[str, str, int, str, tuple[int, int, int]]
#: What a token offers: its forward walks, and its other actions as (action, rank) with
#: action "7" (split 7), "J" (swap), "4" (Tock/Dog 4 backwards), "E" (bring-out) or "5"
#: (the variant 5 walk).
_Plan = tuple[tuple[_WalkSpec, ...], tuple[tuple[str, str], ...]]


def _plan(dog: bool, variant5: bool, token: str) -> _Plan:
    """The forward walks and other actions of ``token`` in ``dog`` or Tock (C-9, T-7, D-5)."""
    walks: list[_WalkSpec] = []
    actions: list[tuple[str, str]] = []
    for rank in RANKS if token == "X" else (token,):
        prefix = f"{rank}:" if token == rank else f"X={rank}:"
        head = (ORDER[token], ORDER[rank], 3)
        if rank in ("7", "J"):
            actions.append((rank, rank))
            continue
        if rank == "4":
            actions.append(("4", rank))
            if dog:
                walks.append((token, rank, 4, prefix, head))
            continue
        if rank in ("A", "K"):
            actions.append(("E", rank))
        if rank == "5" and variant5:
            actions.append(("5", rank))
            continue
        walks.append((token, rank, COUNTS[rank], prefix, head))
        if rank == "A" and dog:
            walks.append((token, rank, 11, prefix, head))
    return tuple(walks), tuple(actions)


_PLANS: dict[tuple[bool, bool], dict[str, _Plan]] = {
    (dog, v5): {token: _plan(dog, v5, token) for token in (*RANKS, "X")}
    for dog in (False, True)
    for v5 in (False, True)
}

#: A forward walk ready to be offered: the fields it enters, whether it turns in with its
#: first step, its target, the move's text, the move itself and its display key.
_WalkEntry = tuple[frozenset[int], bool, int, str, Move, SortKey]


def _walk_entries(
    cfg: Config, seat: int, colour: int, loc: int, token: str
) -> tuple[_WalkEntry, ...]:
    """The forward walks ``token`` offers a pawn of ``colour`` on ``loc``, played by ``seat``.

    Built once per table configuration and kept in ``cfg.memo``: the moves themselves are
    immutable, so every position shares them and generation only filters. The walks of one
    pawn and token never share a text (they differ in kind or target), and walks of other
    pawns start elsewhere.
    """
    entries: list[_WalkEntry] = []
    table = cfg.forward[colour][loc]
    for _, rank, count, prefix, head in _PLANS[cfg.is_dog, cfg.variant5][token][0]:
        for walk in table[count]:
            text = prefix + walk.body
            move = _new_move(Move, (text, seat, "play", token, rank, walk.action))
            key = (*head, walk.keys)
            entries.append((walk.fields, walk.turns_in_first, walk.target, text, move, key))
    result = tuple(entries)
    cfg.memo[seat, colour, loc, token] = result
    return result


def _out_entry(cfg: Config, seat: int, colour: int, token: str) -> tuple[str, Move, SortKey]:
    """The bring-out play of ``token`` for ``colour`` by ``seat`` (C-6), kept in ``cfg.memo``.

    A joker declares an Ace (N-6.1: the lowest declared kind with this outcome).
    """
    rank = "A" if token == "X" else token
    text = (
        f"{card_part(token, rank)}:E" if colour == seat else f"{card_part(token, rank)}:E{colour}"
    )
    move = _new_move(Move, (text, seat, "play", token, rank, ("out", colour)))
    entry = (text, move, (ORDER[token], ORDER[rank], 0, ()))
    cfg.memo["out", seat, colour, token] = entry
    return entry


def card_plays(state: State, seat: int) -> Plays:
    """The legal card plays of ``seat``: by text, the outcome index, the aliases, sorted.

    The aliases map texts of plays dropped for a better spelling of the same outcome
    (C-9.4) to the play kept; the sorted list is the display order (N-7.5).
    """
    gen = _Gen(state, seat)
    plays = gen.all_plays()
    keys = gen.keys
    ordered = list(map(plays.__getitem__, sorted(plays, key=keys.__getitem__)))
    by_outcome = gen.by_outcome
    aliases = (
        {text: by_outcome[index] for text, index in gen.aliases.items()} if gen.aliases else {}
    )
    return plays, by_outcome, aliases, ordered


Plays = tuple[dict[str, Move], dict[tuple[str, Outcome], Move], dict[str, Move], list[Move]]

_KIND_ORDER = {"out": 0, "null": 1, "swap": 2, "walk": 3, "steps": 3}


def move_key(move: Move) -> SortKey:
    """Display / preference order (N-7.5, N-6.1): token, declared kind, segment keys."""
    act = move.action
    kind = act[0] if act else ""
    keys: tuple[tuple[int, int, int], ...] = ()
    if kind == "walk":
        keys = ((act[1], len(act[3]), act[2]),)
    elif kind == "steps":
        keys = tuple(act[1])
    elif kind == "swap":
        keys = ((act[1], 0, act[2]),)
    return (
        ORDER.get(move.card, 99),
        ORDER.get(move.rank, 99),
        _KIND_ORDER.get(kind, 9),
        keys,
    )


def sort_key(move: Move) -> SortKey:
    """Display order (N-7.5): card order of the token (jokers last), then segment keys."""
    return move_key(move)
