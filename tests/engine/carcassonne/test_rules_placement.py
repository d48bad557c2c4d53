"""Set-up, the turn and tile placement: rules K-1, K-3 and K-4 of carcassonne.md."""

from __future__ import annotations

import json

import pytest

import engine.carcassonne as carc
from engine import IllegalMove, InvalidOptions
from tests.engine.carcassonne.rules_helpers import (
    BLUE,
    RED,
    duel,
    legal,
    play,
    position,
    scores,
    setup,
    supply,
)

# --- K-1 Set-up -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_carcassonne_k_1_1_two_to_six_players(players: int) -> None:
    pos = position(carc.new_game(players, {}, 1))
    assert len(pos["scores"]) == players
    assert len(pos["supply"]) == players
    assert 0 <= pos["to_act"] < players


@pytest.mark.parametrize("players", [0, 1, 7])
def test_carcassonne_k_1_1_other_player_counts_are_refused(players: int) -> None:
    with pytest.raises(ValueError):
        carc.new_game(players, {}, 1)


def test_carcassonne_k_1_1_turns_wrap_from_the_last_seat() -> None:
    state = setup(players=3, start_player=2, draws=["U", "U", "U"])
    assert position(state)["to_act"] == 2
    state = play(state, "U 1,0@0 none")
    assert position(state)["to_act"] == 0
    state = play(state, "U 2,0@0 none")
    assert position(state)["to_act"] == 1


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({}, supply(7)),
        ({"inns_cathedrals": "tiles"}, supply(7)),
        ({"inns_cathedrals": "full"}, supply(7, big=1)),
        ({"traders_builders": "tiles"}, supply(7)),
        ({"traders_builders": "full"}, supply(7, builder=1, pig=1)),
        (
            {"inns_cathedrals": "full", "traders_builders": "full"},
            supply(7, big=1, builder=1, pig=1),
        ),
    ],
)
def test_carcassonne_k_1_2_starting_supply(options: dict[str, str], expected: dict) -> None:
    pos = position(carc.new_game(4, options, 3))
    assert pos["supply"] == [expected] * 4


@pytest.mark.parametrize(
    ("options", "pile"),
    [
        ({}, 71),
        ({"inns_cathedrals": "tiles"}, 89),
        ({"inns_cathedrals": "full"}, 89),
        ({"traders_builders": "tiles"}, 95),
        ({"traders_builders": "full"}, 95),
        ({"inns_cathedrals": "tiles", "traders_builders": "full"}, 113),
        ({"river": True}, 82),
        ({"river": True, "inns_cathedrals": "full", "traders_builders": "full"}, 124),
    ],
)
def test_carcassonne_k_1_3_and_k_1_5_pile_sizes(options: dict, pile: int) -> None:
    # tiles_left does not count the current tile (CN-5), which is drawn at the start.
    pos = position(carc.new_game(2, options, 0))
    assert pos["tiles_left"] == pile - 1
    assert pos["current_tile"] is not None


def test_carcassonne_k_1_3_seeded_pile_holds_exactly_the_base_tiles() -> None:
    """A seeded base game meets every base tile once: 72 = start + placed + discarded."""
    state = carc.new_game(2, {}, 4)
    counts: dict[str, int] = {}
    while not position(state)["finished"]:
        pos = position(state)
        counts[pos["current_tile"]] = counts.get(pos["current_tile"], 0) + 1
        state = play(state, str(carc.legal_moves(state)[0]))
        state = play(state, "none")
    final = position(state)
    for tile in final["discarded"]:
        counts[tile] = counts.get(tile, 0) + 1
    expected = {
        "A": 2, "B": 4, "C": 1, "D": 3, "E": 5, "F": 2, "G": 1, "H": 3, "I": 2, "J": 3, "K": 3,
        "L": 3, "M": 2, "N": 3, "O": 2, "P": 3, "Q": 1, "R": 3, "S": 2, "T": 1, "U": 8, "V": 9,
        "W": 4, "X": 1,
    }  # fmt: skip
    assert counts == expected
    assert len(final["board"]) + len(final["discarded"]) == 72


def test_carcassonne_k_1_4_start_tile_d_city_north() -> None:
    pos = position(carc.new_game(2, {}, 9))
    assert pos["board"] == [{"tile": "D", "x": 0, "y": 0, "rot": 0}]
    # City north: only a city side may touch (0,-1); road east and west; field south.
    state = duel(["C"])
    assert legal(state) == {"0,-1@0"}


def test_carcassonne_k_1_4_no_figure_on_the_start_tile() -> None:
    state = duel(["U"], ["U 1,0@0"])
    for action in legal(state):
        assert action == "none" or action.split(":")[1] in {"road0", "field0", "field1"}
    final = play(state, "follower:road0")
    assert [(f["x"], f["y"]) for f in position(final)["figures"]] == [(1, 0)]


def test_carcassonne_k_1_6_start_player_drawn_from_the_seed() -> None:
    starts = {position(carc.new_game(2, {}, seed))["to_act"] for seed in range(30)}
    assert starts == {0, 1}
    for seed in range(5):
        assert (
            position(carc.new_game(2, {}, seed))["to_act"]
            == position(carc.new_game(2, {}, seed))["to_act"]
        )


def test_carcassonne_k_1_7_scores_start_at_zero() -> None:
    assert position(carc.new_game(5, {}, 2))["scores"] == [0] * 5


def test_carcassonne_k_1_8_same_seed_same_game() -> None:
    def dump(seed: int) -> str:
        state = carc.new_game(3, {"traders_builders": "full"}, seed)
        return json.dumps(position(state), sort_keys=True)

    assert dump(21) == dump(21)
    # Different seeds shuffle differently: over a few seeds the first tiles are not all equal.
    firsts = {position(carc.new_game(3, {}, seed))["current_tile"] for seed in range(12)}
    assert len(firsts) > 1


def test_carcassonne_k_11_1_unknown_or_bad_options_are_refused() -> None:
    for options in [{"farms": "fourth"}, {"weather": "rain"}, {"small_cities": 1}]:
        with pytest.raises(InvalidOptions):
            carc.new_game(2, options, 0)


# --- K-3 The turn ---------------------------------------------------------------------------


def test_carcassonne_k_3_1_turn_passes_to_the_next_seat() -> None:
    state = duel(["U", "U", "U"])
    assert position(state)["to_act"] == RED
    state = play(state, "U 1,0@0 none")
    assert position(state)["to_act"] == BLUE
    state = play(state, "U -1,0@0 none")
    assert position(state)["to_act"] == RED


def test_carcassonne_k_3_2_a_player_cannot_pass() -> None:
    state = duel(["U", "U"])
    for text in ["none", "pass", "U none", "U discard"]:
        with pytest.raises(IllegalMove):
            carc.apply(state, text)
    assert position(state)["phase"] == "place"


def test_carcassonne_k_3_3_scores_change_only_in_step_4() -> None:
    state = duel(["E", "U"], ["E 0,-1@180"])
    # Figure phase: the city is already closed, but scoring waits for step 4.
    assert scores(state) == [0, 0]
    assert scores(play(state, "follower:city0")) == [4, 0]


# --- K-4 Drawing and placing ----------------------------------------------------------------


def test_carcassonne_k_4_1_current_tile_is_public_pile_order_is_not() -> None:
    state = duel(["E", "U", "C"])
    pos = position(state)
    assert pos["current_tile"] == "E"
    assert pos["tiles_left"] == 2
    view = carc.view(state, BLUE)
    assert view["current_tile"] == "E"
    assert view["tiles_left"] == 2
    text = json.dumps(view)
    assert '"draws"' not in text
    assert '"pile"' not in text


def test_carcassonne_k_4_2_terrain_must_match_every_neighbour() -> None:
    # After the U east of D, a V at (1,1) touches U's field (north) only: V has fields N and E.
    state = duel(["U", "V"], ["U 1,0@0 none"])
    placements = legal(state)
    # V@0: N field, E field, S road, W road. At (1,1) its W road would face the empty (0,1).
    assert "1,1@0" in placements
    # V@180: N road against U's south field: illegal.
    assert "1,1@180" not in placements
    # At (0,1) V's north side must be a field (D's south side).
    assert "0,1@0" in placements
    assert "0,1@90" not in placements


def test_carcassonne_k_4_2_corner_contact_is_not_enough() -> None:
    state = duel(["B"])
    for cell in ["1,1@0", "-1,-1@0", "1,-1@0", "-1,1@0"]:
        assert cell not in legal(state)
        with pytest.raises(IllegalMove):
            carc.apply(state, f"B {cell} none")


def test_carcassonne_k_4_2_cell_must_be_empty() -> None:
    state = duel(["U", "U"], ["U 1,0@0 none"])
    assert "1,0@0" not in legal(state)
    with pytest.raises(IllegalMove):
        carc.apply(state, "U 1,0@0 none")


def test_carcassonne_k_4_2_two_neighbours_must_both_match() -> None:
    # (1,-1) touches the east side of E@180 (field) and the north side of U (field).
    state = duel(["U", "E", "N"], ["U 1,0@0 none", "E 0,-1@180 none"])
    placements = {p for p in legal(state) if p.startswith("1,-1@")}
    # N@90: west field, south field. N@0: west city. N@180: south city. N@270: west city.
    assert placements == {"1,-1@90"}
    with pytest.raises(IllegalMove):
        carc.apply(state, "N 1,-1@180 none")


def test_carcassonne_k_4_4_equal_rotations_are_one_placement() -> None:
    assert legal(duel(["U"])) == {"-1,0@0", "1,0@0", "0,1@0"}


def test_carcassonne_k_4_5_unplaceable_tile_is_discarded_and_announced() -> None:
    state = duel(["E", "C", "U"])
    after = carc.apply(state, "E 0,-1@180 none")
    pos = position(after)
    assert pos["discarded"] == ["C"]
    assert pos["current_tile"] == "U"
    assert pos["to_act"] == BLUE
    assert any("discard" in event.kind for event in after.events)
    assert [e.data["tile"] for e in after.events if e.kind == "tile_discarded"] == ["C"]


def test_carcassonne_k_4_5_several_discards_in_a_row() -> None:
    pos = position(duel(["E", "C", "C", "C", "U"], ["E 0,-1@180 none"]))
    assert pos["discarded"] == ["C", "C", "C"]
    assert pos["current_tile"] == "U"
    assert pos["to_act"] == BLUE
    assert pos["tiles_left"] == 0


def test_carcassonne_k_4_6_pile_runs_out_during_redraws() -> None:
    state = duel(["E", "C"], ["E 0,-1@180 none"])
    pos = position(state)
    assert pos["discarded"] == ["C"]
    assert pos["finished"] is True
    assert pos["phase"] == "finished"
    assert pos["current_tile"] is None
    assert pos["winners"] == [0, 1]
    assert len(pos["board"]) == 2


def test_carcassonne_k_4_7_placed_tiles_never_move() -> None:
    state = duel(["U", "V", "E"], ["U 1,0@0 none", "V 1,1@0 none"])
    board = position(state)["board"]
    after = play(state, "E 0,-1@180 none")
    assert position(after)["board"][: len(board)] == board
