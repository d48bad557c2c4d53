"""Legal moves (C-9, N-7): card plays, fallbacks, exchange picks, 7 segments."""

from __future__ import annotations

from typing import Any

from engine.race.cards import COUNTS, ORDER, RANKS
from engine.race.geometry import HOME, Walk, loc_text
from engine.race.move import Move
from engine.race.seven import Key, Outcome, SevenSearch
from engine.race.state import State


def card_part(token: str, rank: str) -> str:
    """``rank`` or ``X=rank`` (N-6.1)."""
    return rank if token == rank else f"X={rank}"


def segments_text(keys: tuple[Key, ...] | list[tuple[int, int]]) -> str:
    """Segments as ``a-b,c-d``."""
    return ",".join(f"{loc_text(k[0])}-{loc_text(k[-1])}" for k in keys)


class _Gen:
    """Generates the card plays of one seat; one instance per call."""

    def __init__(self, state: State, seat: int) -> None:
        self.state = state
        self.cfg = state.cfg
        self.seat = seat
        self.colour = state.moved_colour(seat)
        self.occ = state.occupied()
        self.guarded = state.guarded_fields()
        self.mine = [(loc, s) for loc, s in self.occ.items() if s == self.colour]
        self.moves: dict[str, Move] = {}
        #: Outcome -> move, for the plays whose outcome may equal another play's (C-9.4):
        #: every 7, and every walk that captures a pawn of its own colour.
        self.by_outcome: dict[tuple[str, Outcome], Move] = {}
        #: Texts of plays dropped for a better spelling of the same outcome -> that move.
        self.aliases: dict[str, Move] = {}
        self.seven_result: dict[Outcome, tuple[Key, ...]] | None = None

    def add(self, token: str, rank: str, body: str, action: tuple[Any, ...]) -> None:
        text = f"{card_part(token, rank)}:{body}"
        if text in self.moves:
            return
        move = Move(text, self.seat, "play", token, rank, action)
        if action[0] == "walk":
            frm, to = action[1], action[2]
            mover = self.occ[frm]
            if self.occ.get(to) == mover:
                # Capturing an own pawn: another play may leave the very same board.
                occ = dict(self.occ)
                del occ[frm]
                occ[to] = mover
                out = (frozenset(occ.items()), self.guarded - {frm})
                self.keep(token, out, move)
                return
        self.moves[text] = move

    def keep(self, token: str, out: Outcome, move: Move) -> None:
        """Keep one move per outcome: the lowest declared kind, then segment keys (N-6)."""
        key = (token, out)
        old = self.by_outcome.get(key)
        if old is not None:
            if move_key(old) <= move_key(move):
                self.aliases[move.text] = old
                return
            del self.moves[old.text]
            self.aliases[old.text] = move
        self.by_outcome[key] = move
        self.moves[move.text] = move

    def walk_ok(self, frm: int, walk: Walk) -> bool:
        # C-4.2: no guarded ring field entered, no occupied home slot entered.
        if not self.guarded.isdisjoint(walk.ring_fields):
            return False
        occ = self.occ
        for loc in walk.home_fields:
            if loc in occ:
                return False
        # D-8.3: a pawn standing on its start field when the play began may not turn in
        # at once (bsw: never; braendi: not while blocking).
        return not (
            walk.turns_in_first
            and self.cfg.is_dog
            and (not self.cfg.braendi or frm in self.guarded)
        )

    def walks(self, token: str, rank: str, count: int) -> None:
        pawns = self.mine
        if rank == "5" and self.cfg.variant5:
            # T-7.5 variant 5: any pawn on the ring, besides the moved colour's own.
            pawns = [(loc, s) for loc, s in self.occ.items() if s == self.colour or loc < HOME]
        forward = self.cfg.forward
        for loc, s in pawns:
            for walk in forward[s][loc][count]:
                if self.walk_ok(loc, walk):
                    self.add(
                        token,
                        rank,
                        f"{loc_text(loc)}-{loc_text(walk.target)}",
                        ("walk", loc, walk.target, walk.path),
                    )

    def backward(self, token: str) -> None:
        for loc, _ in self.mine:
            if loc >= HOME:
                continue
            walk = self.cfg.backward4[loc]
            if self.guarded.isdisjoint(walk.ring_fields):
                self.add(
                    token,
                    "4",
                    f"{loc_text(loc)}-{loc_text(walk.target)}",
                    ("walk", loc, walk.target, walk.path),
                )

    def bring_out(self, token: str, rank: str) -> None:
        colour = self.colour
        start = self.cfg.start[colour]
        on_board = sum(1 for s in self.occ.values() if s == colour)
        if on_board < 4 and start not in self.guarded:
            body = "E" if colour == self.seat else f"E{colour}"
            if token == "X":
                rank = "A"  # N-6.1: the lowest declared kind with this outcome
            self.add(token, rank, body, ("out", colour))

    def swappable(self, loc: int, s: int) -> bool:
        if loc >= HOME or loc in self.guarded:
            return False
        # D-11.2 (bsw): no pawn standing on its own start field takes part.
        return not (self.cfg.is_dog and not self.cfg.braendi and loc == self.cfg.start[s])

    def jack(self, token: str) -> None:
        colour, dog = self.colour, self.cfg.is_dog
        mine = sorted(loc for loc, s in self.occ.items() if s == colour and self.swappable(loc, s))
        others = sorted(loc for loc, s in self.occ.items() if self.swappable(loc, s))
        found = False
        for a in mine:
            for b in others:
                if a == b:
                    continue
                if self.occ[b] == colour:
                    if not dog:
                        self.add(token, "J", "N", ("null",))
                        found = True
                    continue
                self.add(token, "J", f"{loc_text(a)}<>{loc_text(b)}", ("swap", a, b))
                found = True
        # D-11.4 (braendi): a null Jack needs a pawn of the moved colour on the ring.
        if (
            not found
            and dog
            and self.cfg.braendi
            and any(loc < HOME for loc, s in self.occ.items() if s == colour)
        ):
            self.add(token, "J", "N", ("null",))

    def seven(self, token: str) -> None:
        search = self.search() if self.seven_result is None else None
        prefix = card_part(token, "7")
        if self.cfg.seven_single:
            assert search is not None
            for frm, to, steps in search.segments(7, need_completion=False):
                self.add(
                    token,
                    "7",
                    f"{loc_text(frm)}-{loc_text(to)}",
                    ("steps", ((frm, steps, to),), True),
                )
            return
        if self.seven_result is None:
            # A 7 and a joker played as 7 share one search.
            assert search is not None
            self.seven_result = search.outcomes(7)
        for out, keys in self.seven_result.items():
            text = f"{prefix}:{segments_text(keys)}"
            move = Move(text, self.seat, "play", token, "7", ("steps", tuple(keys), True))
            self.keep(token, out, move)

    def search(self) -> SevenSearch:
        return SevenSearch(
            self.cfg,
            self.occ,
            self.guarded,
            self.colour,
            self.seat,
            carry=self.cfg.is_dog,
        )

    def card(self, token: str, rank: str) -> None:
        if rank == "7":
            self.seven(token)
        elif rank == "J":
            self.jack(token)
        elif rank == "4":
            self.backward(token)
            if self.cfg.is_dog:
                self.walks(token, rank, 4)
        else:
            if rank in ("A", "K"):
                self.bring_out(token, rank)
            self.walks(token, rank, COUNTS[rank])
            if rank == "A" and self.cfg.is_dog:
                self.walks(token, rank, 11)

    def all_plays(self) -> dict[str, Move]:
        for token in sorted(set(self.state.hands[self.seat]), key=ORDER.__getitem__):
            if token == "X":
                for rank in RANKS:
                    self.card(token, rank)
            else:
                self.card(token, token)
        return self.moves


def card_plays(state: State, seat: int) -> Plays:
    """The legal card plays of ``seat`` by text, the outcome index and the aliases."""
    gen = _Gen(state, seat)
    plays = gen.all_plays()
    return plays, gen.by_outcome, gen.aliases


Plays = tuple[dict[str, Move], dict[tuple[str, Outcome], Move], dict[str, Move]]

_KIND_ORDER = {"out": 0, "null": 1, "swap": 2, "walk": 3, "steps": 3}


def move_key(move: Move) -> tuple[int, int, int, tuple[tuple[int, int, int], ...]]:
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


def sort_key(move: Move) -> tuple[int, int, int, tuple[tuple[int, int, int], ...]]:
    """Display order (N-7.5): card order of the token (jokers last), then segment keys."""
    return move_key(move)
