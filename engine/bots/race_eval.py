"""How good a Tock or Dog position is for one side: pawn progress, danger, cards in hand.

The numbers are in "steps": one step of progress on the ring is worth 1. A pawn leaving the
kennel is worth :data:`OUT` (it cost a start card), a pawn in the home is safe for good. A
pawn that an opponent could hit next loses its worth times a rough chance of being hit.
Everything here reads the board and the hand of the seat asked about only, so a bot using
it on a determinized state (``sample_state``) never profits from cards it cannot see.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine.race.geometry import HOME, KENNEL, Config, home_slot
from engine.race.state import State

OUT = 20.0  # a pawn out of its kennel
HOME_BONUS = 10.0  # a pawn in its home can never be lost again
SLOT_BONUS = 1.5  # per home slot deeper: leaves room for the next pawn
DANGER = 0.7  # share of a pawn's worth lost per unit of hit chance
WIN = 10_000.0
BAN_BONUS = 5.0  # a Tock 10-ban costs the banned seat a card play


@dataclass(frozen=True)
class Geometry:
    """Per-table numbers the evaluation needs, computed once per configuration."""

    ring: int
    start: tuple[int, ...]
    branch: tuple[int, ...]
    path: int  # steps from a fresh pawn on its start field to home slot 1
    dog: bool
    braendi: bool
    #: chance that an opponent holding a random hand can hit a pawn ``d`` steps ahead
    forward_hit: tuple[float, ...]
    backward_hit: float
    bring_out_hit: float
    #: chance that an enemy pawn ``d`` ring steps behind (``d`` in 0 … ring - 1) does not
    #: hit a pawn with its next card, forwards or with a 4 backwards (guards ignored)
    miss: tuple[float, ...]


@lru_cache(maxsize=32)
def geometry(cfg: Config) -> Geometry:
    """The :class:`Geometry` of a table."""
    ring = cfg.ring
    dog = cfg.is_dog
    path = ring + 1 if dog else (cfg.branch[0] - cfg.start[0]) % ring + 1
    # Exact walks of the cards (Tock: no forward 4, no 11; Dog: A also 11, 4 both ways,
    # jokers); the split 7 burns anything up to 7 ahead.
    exact = {1, 2, 3, 5, 6, 8, 9, 10, 12, 13}
    if dog:
        exact |= {4, 11}
    hits = [0.0]
    for d in range(1, 14):
        chance = 0.0
        if d in exact:
            chance += 0.28 if dog else 0.25
        if d <= 7:
            chance += 0.25
        hits.append(min(chance, 0.6))
    backward = 0.3 if dog else 0.25
    miss = [1.0] * ring
    for d in range(1, 14):
        miss[d] *= 1.0 - hits[d]
    miss[ring - 4] *= 1.0 - backward
    return Geometry(
        ring=ring,
        start=cfg.start,
        branch=cfg.branch,
        path=path,
        dog=dog,
        braendi=cfg.braendi,
        forward_hit=tuple(hits),
        backward_hit=backward,
        bring_out_hit=0.45 if dog else 0.4,
        miss=tuple(miss),
    )


def to_home(geo: Geometry, seat: int, loc: int, guarded: bool) -> int:
    """Steps a ring pawn of ``seat`` on ``loc`` still needs to reach home slot 1."""
    if geo.dog and loc == geo.start[seat] and (guarded or not geo.braendi):
        return geo.path  # D-8.3: a pawn on its start field must go round once more
    return (geo.branch[seat] - loc) % geo.ring + 1


def pawn_worth(geo: Geometry, seat: int, loc: int, guarded: bool) -> float:
    """What one pawn is worth where it stands (0 in the kennel)."""
    if loc >= KENNEL:
        return 0.0
    if loc >= HOME:
        return OUT + geo.path + HOME_BONUS + SLOT_BONUS * home_slot(loc)
    return OUT + geo.path - to_home(geo, seat, loc, guarded)


def sides_of(cfg: Config) -> tuple[tuple[int, ...], ...]:
    """The sides that win together: teams, or each seat alone."""
    if cfg.teams is not None:
        return cfg.teams
    return tuple((s,) for s in cfg.seats)


def seat_worths(state: State) -> dict[int, float]:
    """Each seat's pawn worth minus the expected loss of its pawns in danger."""
    cfg = state.cfg
    geo = geometry(cfg)
    ring = geo.ring
    guarded_fields = state.guarded_fields()
    team_of = {s: cfg.team_of(s) for s in cfg.seats}
    ring_pawns: list[tuple[int, int]] = []  # (loc, seat)
    kennels: dict[int, int] = {}
    for s in cfg.seats:
        for loc in state.pawns[s]:
            if loc < HOME:
                ring_pawns.append((loc, s))
            elif loc >= KENNEL:
                kennels[s] = kennels.get(s, 0) + 1
    worth: dict[int, float] = {}
    for s in cfg.seats:
        total = 0.0
        for loc in state.pawns[s]:
            guarded = s in state.guards and loc == geo.start[s]
            value = pawn_worth(geo, s, loc, guarded)
            if loc < HOME and not guarded:
                safe = 1.0
                friends = team_of[s]
                for q, o in ring_pawns:
                    if o in friends:
                        continue
                    d = (loc - q) % ring
                    if 0 < d <= 13 and not _blocked(guarded_fields, q, d, ring):
                        safe *= 1.0 - geo.forward_hit[d]
                    if (q - loc) % ring == 4 and not _blocked_back(guarded_fields, q, ring):
                        safe *= 1.0 - geo.backward_hit
                for o, n in kennels.items():
                    if n and o not in friends and geo.start[o] == loc:
                        safe *= 1.0 - geo.bring_out_hit
                value -= DANGER * (1.0 - safe) * value
            total += value
        worth[s] = total
    return worth


def _blocked(guarded: frozenset[int], q: int, d: int, ring: int) -> bool:
    """Whether a guarded pawn stands strictly between ``q`` and ``q + d`` (or on the end)."""
    return any(0 < (g - q) % ring <= d for g in guarded)


def _blocked_back(guarded: frozenset[int], q: int, ring: int) -> bool:
    return any(0 < (q - g) % ring <= 4 for g in guarded)


def card_worth(state: State, seat: int, card: str, copies: int = 1) -> float:
    """How much holding ``card`` is worth to ``seat`` now (a second copy counts less)."""
    cfg = state.cfg
    colour = state.moved_colour(seat)
    pawns = state.pawns[colour]
    in_kennel = sum(1 for loc in pawns if loc >= KENNEL)
    on_ring = sum(1 for loc in pawns if loc < HOME)
    start = cfg.start[colour]
    if card in ("A", "K"):
        value = 8.0 if in_kennel else 1.5
    elif card == "X":
        value = 12.0
    elif card == "7":
        value = 6.0 if on_ring or not in_kennel else 3.0
    elif card == "J":
        value = 4.0 if on_ring else 1.5
    elif card == "4":
        # Tock: a pawn on (or just past) its start field goes 4 back and is nearly home.
        near = any(loc < HOME and 0 <= (loc - start) % cfg.ring <= 3 for loc in pawns)
        value = 5.0 if near else 2.5
    elif card == "10" and not cfg.is_dog:
        value = 2.5
    else:
        value = 1.0
    return value * (0.6 ** (copies - 1))


def hand_worth(state: State, seat: int) -> float:
    """The worth of the cards ``seat`` holds (its own hand: the viewer's, or sampled)."""
    total = 0.0
    seen: dict[str, int] = {}
    for card in state.hands[seat]:
        seen[card] = seen.get(card, 0) + 1
        total += card_worth(state, seat, card, seen[card])
    return total


def evaluate(state: State, seat: int, hands: str = "all") -> float:
    """The position for ``seat``'s side: own side's worth minus the strongest other side's.

    ``hands`` says whose cards count: ``"all"`` seats (a search leaf, where every hand is
    a determinized sample), ``"own"`` (only ``seat``'s: enough to rank ``seat``'s own
    candidate moves, which change no other hand) or ``"none"``.
    """
    cfg = state.cfg
    if state.phase == "finished":
        won = state.winner is not None and seat in state.winner
        return WIN if won else -WIN
    worth = seat_worths(state)
    if hands == "all":
        for s in cfg.seats:
            worth[s] += hand_worth(state, s)
    elif hands == "own":
        worth[seat] += hand_worth(state, seat)
    if state.banned and state.phase == "play":
        worth[state.turn] -= BAN_BONUS
    mine = cfg.team_of(seat)
    own = sum(worth[s] for s in mine)
    others = [sum(worth[s] for s in side) for side in sides_of(cfg) if seat not in side]
    if not others:
        return own
    best = max(others)
    mean = sum(others) / len(others)
    return own - 0.6 * best - 0.4 * mean
