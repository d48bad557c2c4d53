"""The split-7 search checked against a brute-force enumeration of step sequences.

C-8.8 says every result of any step sequence is reached with one segment per pawn; N-6.4
says the canonical string is the smallest segment-key list among such executions. A naive
enumerator of all single-step sequences checks both on random positions.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import dog, tock
from engine.race.geometry import loc_text
from engine.race.seven import Key, Outcome, SevenSearch, independent_outcomes


def _brute(search: SevenSearch) -> tuple[set[Outcome], dict[Outcome, tuple[Key, ...]]]:
    """All outcomes of any 7 steps, and the smallest one-segment-per-pawn key lists."""
    outcomes: set[Outcome] = set()
    best: dict[Outcome, tuple[Key, ...]] = {}

    def steps(left: int, trail: list[tuple[int, int]], segs: list[tuple[int, int, int]]) -> None:
        if left == 0:
            out = search.outcome()
            outcomes.add(out)
            keys = tuple(segs)
            if _one_per_pawn(trail) and (out not in best or keys < best[out]):
                best[out] = keys
            return
        c = search.colour
        for loc in sorted(loc for loc, s in search.occ.items() if s == c):
            for nxt in search.successors(loc, c):
                u = search.do_step(loc, nxt, c)
                trail.append((loc, nxt))
                new = list(segs)
                # Consecutive steps of one pawn form one segment.
                if new and new[-1][2] == loc:
                    a, k, _ = new[-1]
                    new[-1] = (a, k + 1, nxt)
                else:
                    new.append((loc, 1, nxt))
                steps(left - 1, trail, new)
                trail.pop()
                search.undo(u)

    steps(7, [], [])
    return outcomes, best


def _one_per_pawn(trail: list[tuple[int, int]]) -> bool:
    """Whether no pawn moves again after another pawn moved (pawns tracked by location)."""
    finished: set[int] = set()
    current = None
    for frm, to in trail:
        if frm != current:
            if frm in finished:
                return False
            if current is not None:
                finished.add(current)
        finished.discard(to)  # a pawn arriving on a field of a finished pawn burnt it
        current = to
    return True


def _random_position(rng: random.Random, game: str) -> dict[str, Any]:
    ring = 64 if game == "dog" else 72
    seats = [0, 1, 2, 3]
    used: set[str] = set()
    pawns: dict[str, list[str]] = {}
    base = rng.randrange(ring)
    for s in seats:
        count = rng.randint(2, 4) if s == 0 else rng.randint(0, 2)
        locs = []
        for _ in range(count):
            if s == 0 and rng.random() < 0.25:
                slot = f"h0.{rng.randint(1, 4)}"
                if slot not in used:
                    used.add(slot)
                    locs.append(slot)
                continue
            loc = f"r{(base + rng.randrange(14)) % ring}"
            if loc not in used:
                used.add(loc)
                locs.append(loc)
        pawns[str(s)] = locs
    if all(p.startswith("h") for p in pawns["0"]):
        pawns["0"] = pawns["0"][:3]
    return {"game": game, "pawns": pawns, "hands": {"0": ["7"]}, "turn": 0}


def _search(state: Any) -> SevenSearch:
    return SevenSearch(
        state.cfg,
        state.occupancy(),
        state.guarded_fields(),
        state.moved_colour(0),
        0,
        carry=state.cfg.is_dog,
    )


def _shortcut(state: Any) -> dict[Outcome, tuple[Key, ...]] | None:
    """The independent-pawn shortcut for seat 0's 7 on ``state``."""
    return independent_outcomes(
        state.cfg,
        state.occupancy(),
        state.guarded_fields(),
        state.moved_colour(0),
        0,
        carry=state.cfg.is_dog,
    )


@pytest.mark.parametrize("game", ["tock", "dog"])
def test_c_8_8_and_n_6_4_seven_search_matches_brute_force(game: str) -> None:
    module = dog if game == "dog" else tock
    rng = random.Random(2024)
    checked = 0
    for _ in range(16):
        try:
            state = module.from_position(_random_position(rng, game))
        except ValueError:
            continue

        found = _search(state).outcomes(7)
        outcomes, best = _brute(_search(state))
        assert set(found) == outcomes
        for out, keys in found.items():
            assert keys == best[out], (
                [f"{loc_text(a)}-{loc_text(b)}" for a, _, b in keys],
                [f"{loc_text(a)}-{loc_text(b)}" for a, _, b in best[out]],
            )
        checked += 1
    assert checked >= 12


def test_c_8_7_dog_joker_seven_step_by_step_carries_over_to_the_partner() -> None:
    state = dog.from_position(
        {
            "game": "dog",
            "pawns": {"0": ["r61", "h0.2", "h0.3", "h0.4"], "2": ["r40", "r45"]},
            "hands": {"0": ["X"], "1": ["2"]},
            "turn": 0,
        }
    )
    starts = {str(m) for m in dog.seven_starts(state, "X")}
    assert "X=7:r61-h0.1" in starts
    assert not any("r40" in m or "r45" in m for m in starts)  # partner only after finishing
    pending = dog.apply(state, "X=7:r61-h0.1")
    assert dog.to_position(pending)["seven"] == {
        "card": "X",
        "colour": 2,
        "left": 3,
        "moved": ["h0.1"],
    }
    assert {str(m) for m in dog.legal_moves(pending)} == {
        "r40-r41",
        "r40-r42",
        "r40-r43",
        "r45-r46",
        "r45-r47",
        "r45-r48",
    }
    done = dog.apply(dog.apply(pending, "r45-r46"), "r40-r42")
    assert dog.to_position(done)["pawns"]["2"][:2] == ["r42", "r46"]
    assert any(e.data.get("move") == "X=7:r61-h0.1,r40-r42,r45-r46" for e in done.events)


def _spread_position(rng: random.Random, game: str) -> dict[str, Any]:
    """Own pawns anywhere (often far apart, sometimes in the home), opponents around them."""
    ring = 64 if game == "dog" else 72
    used: set[str] = set()
    pawns: dict[str, list[str]] = {}
    for s in range(4):
        locs = []
        for _ in range(rng.randint(1, 4) if s == 0 else rng.randint(0, 3)):
            if s == 0 and rng.random() < 0.2:
                loc = f"h0.{rng.randint(1, 4)}"
            else:
                loc = f"r{rng.randrange(ring)}"
                if s > 0 and rng.random() < 0.2:
                    loc = f"r{(ring // 4) * s}*"  # a guarded pawn on its start field
            if loc.rstrip("*") not in used:
                used.add(loc.rstrip("*"))
                locs.append(loc)
        pawns[str(s)] = locs
    options = {"preset": rng.choice(["bsw", "braendi"])} if game == "dog" else {}
    return {"game": game, "options": options, "pawns": pawns, "hands": {"0": ["7"]}, "turn": 0}


@pytest.mark.parametrize("game", ["tock", "dog"])
def test_n_6_4_shortcut_for_far_apart_pawns_matches_the_full_search(game: str) -> None:
    """The independent-pawn shortcut gives the full search's outcomes and canonical keys."""
    module = dog if game == "dog" else tock
    rng = random.Random(77)
    shortcut = 0
    for _ in range(300):
        try:
            state = module.from_position(_spread_position(rng, game))
        except ValueError:
            continue
        full = _search(state).outcomes(7, fast=False)
        answer = _shortcut(state)
        if answer is None:
            continue
        shortcut += 1
        assert answer == full
    assert shortcut >= 100  # the shortcut was really exercised


def _grouped_position(rng: random.Random, game: str) -> dict[str, Any]:
    """Two or three own pawns close together (they can meet) and one or two far away."""
    ring = 64 if game == "dog" else 72
    near = rng.randrange(ring)
    far = (near + ring // 2 + rng.randrange(-4, 5)) % ring
    own = {f"r{(near + d) % ring}" for d in rng.sample(range(6), rng.randint(2, 3))}
    own |= {f"r{(far + d) % ring}" for d in rng.sample(range(4), rng.randint(1, 2))}
    own_list = sorted(own)[:4]
    used = set(own_list)
    others: list[str] = []
    for _ in range(rng.randint(1, 4)):
        loc = f"r{(rng.choice([near, far]) + rng.randrange(-3, 10)) % ring}"
        if loc not in used:
            used.add(loc)
            others.append(loc)
    options = {"preset": rng.choice(["bsw", "braendi"])} if game == "dog" else {}
    return {
        "game": game,
        "options": options,
        "pawns": {"0": own_list, "1": others},
        "hands": {"0": ["7"]},
        "turn": 0,
    }


@pytest.mark.parametrize("game", ["tock", "dog"])
def test_n_6_4_groups_of_pawns_that_can_meet_match_the_full_search(game: str) -> None:
    """Pawns split into independent groups (some of several pawns) give the full answer.

    The smallest key list interleaves the groups' smallest lists; an outcome reached by
    several splits of the 7 steps keeps the smallest of them.
    """
    module = dog if game == "dog" else tock
    rng = random.Random(5150)
    grouped = 0
    for _ in range(120):
        try:
            state = module.from_position(_grouped_position(rng, game))
        except ValueError:
            continue
        answer = _shortcut(state)
        if answer is None:
            continue
        full = _search(state).outcomes(7, fast=False)
        assert answer == full
        grouped += 1
    assert grouped >= 60  # groups of several pawns were really exercised
