"""End of the game, final scoring, winner and public information: K-8, K-10 and K-15."""

from __future__ import annotations

import json

import pytest

import engine.carcassonne as carc
from engine import IllegalMove, Outcome
from tests.engine.carcassonne.rules_helpers import (
    BLUE,
    RED,
    duel,
    figure,
    play,
    position,
    scores,
    setup,
)


def test_carcassonne_k_8_1_game_ends_after_the_turn_that_empties_the_pile() -> None:
    state = duel(["U", "U"], ["U 1,0@0 none"])
    assert position(state)["finished"] is False
    assert position(state)["tiles_left"] == 0
    # The last tile's turn still has its figure step.
    placed = play(state, "-1,0@0")
    assert position(placed)["phase"] == "figure"
    final = play(placed, "follower:road0")
    pos = position(final)
    assert pos["finished"] is True
    assert pos["scores"] == [0, 3]


def test_carcassonne_k_8_1_last_tile_completes_and_scores_normally() -> None:
    # CN-8.9: the last tile closes Blue's road, scored in step 4 of that turn.
    state = duel(["W", "U", "W"], ["W 1,0@0 none", "U 2,0@0 follower:road0", "W 3,0@0 none"])
    pos = position(state)
    assert pos["finished"] is True
    assert pos["scores"] == [0, 3]


def test_carcassonne_k_8_2_final_scoring_order() -> None:
    # At the end: Red's open road (3), Red's open city cap (1), Blue's monastery (1 + 4) and
    # Red's farm bordering D's closed city (3), reported in this order.
    before = duel(
        ["U", "E", "U", "B", "E"],
        [
            "U 1,0@0 follower:field0",
            "E 0,-1@180 none",
            "U -1,0@0 follower:road0",
            "B 0,1@0 follower:monastery",
        ],
    )
    after = carc.apply(before, "E 1,1@90 follower:city0")
    assert scores(after) == [7, 5]
    features = [e.data["feature"] for e in after.events if e.kind == "score"]
    assert features == ["road", "city", "monastery", "farm"]


def test_carcassonne_k_8_3_incomplete_road_one_per_tile() -> None:
    assert scores(duel(["U"], ["U 1,0@0 follower:road0"])) == [2, 0]


@pytest.mark.parametrize("small", [False, True])
def test_carcassonne_k_8_4_incomplete_city_one_per_tile_and_shield(small: bool) -> None:
    # M@180 (shield) north of D: city of 2 tiles, open to the east.
    state = duel(["M"], ["M 0,-1@180 follower:city0"], options={"small_cities": small})
    assert scores(state) == [3, 0]


def test_carcassonne_k_8_5_incomplete_monastery_one_plus_neighbours() -> None:
    assert scores(duel(["B"], ["B 0,1@0 follower:monastery"])) == [2, 0]


def test_carcassonne_k_8_6_tied_owners_of_an_incomplete_city() -> None:
    # Red's city D-N and Blue's city J merge under R@180, which leaves the city open west.
    state = duel(
        ["N", "J", "R"],
        ["N 0,-1@270 follower:city0", "J -1,0@0 follower:city0", "R -1,-1@180 none"],
    )
    pos = position(state)
    assert pos["scores"] == [4, 4]
    assert pos["winners"] == [0, 1]


def test_carcassonne_k_8_7_nothing_happens_after_the_end() -> None:
    state = duel(["U"], ["U 1,0@0 follower:road0"])
    pos = position(state)
    assert pos["figures"] == [figure(RED, "follower", 1, 0, "road0")]
    assert pos["to_act"] is None
    assert pos["extra_turn"] is False
    assert carc.legal_moves(state) == []
    for text in ["U 2,0@0 none", "none", "2,0@0"]:
        with pytest.raises(IllegalMove):
            carc.apply(state, text)


def test_carcassonne_k_10_1_highest_score_wins() -> None:
    state = duel(["E", "U"], ["E 0,-1@180 none", "U 1,0@0 follower:field0"])
    pos = position(state)
    assert pos["winners"] == [BLUE]
    outcome = carc.outcome(state)
    assert isinstance(outcome, Outcome)
    assert list(outcome.winners) == [BLUE]
    assert outcome.scores is not None
    assert list(outcome.scores) == [0, 3]


def test_carcassonne_k_10_1_tie_shares_the_victory() -> None:
    state = duel(
        ["N", "J", "N"],
        ["N 0,-1@270 follower:city0", "J -1,0@0 follower:city0", "N -1,-1@180 none"],
    )
    outcome = carc.outcome(state)
    assert outcome is not None
    assert sorted(outcome.winners) == [0, 1]


def test_carcassonne_k_10_1_no_outcome_while_running() -> None:
    state = duel(["E", "U"])
    assert carc.outcome(state) is None
    assert position(state)["winners"] == []


def test_carcassonne_k_15_1_view_shows_the_public_position_only() -> None:
    state = duel(["U", "E", "B", "C", "V"], ["U 1,0@0 follower:road0", "E 0,-1@180 none"])
    pos = position(state)
    for seat in [RED, BLUE, None]:
        view = carc.view(state, seat)
        assert view["game"] == "carcassonne"
        assert view["viewer"] == seat
        for key in ["board", "figures", "scores", "supply", "goods", "tiles_left"]:
            assert view[key] == pos[key], key
        assert view["current_tile"] == "B"
        assert view["discarded"] == []
        text = json.dumps(view)
        # The pile order (C then V) is secret: only its size is shown.
        assert '"C"' not in text
        assert '"V"' not in text
        assert view["last_tiles"] == {"0": [1, 0], "1": [0, -1]}


def test_carcassonne_k_15_1_discards_are_public() -> None:
    state = duel(["E", "C", "U"], ["E 0,-1@180 none"])
    assert carc.view(state, None)["discarded"] == ["C"]


def test_carcassonne_k_15_3_final_scoring_is_reported() -> None:
    before = duel(["U", "U"], ["U 1,0@0 follower:road0"])
    after = carc.apply(before, "U 2,0@0 none")
    assert scores(after) == [3, 0]
    scored = [e for e in after.events if "score" in e.kind]
    assert scored
    assert all(e.data["owners"] == [0] for e in scored)
    assert any(e.data["points"] == 3 for e in scored)


def test_carcassonne_k_1_8_seeded_game_is_deterministic() -> None:
    def run() -> str:
        state = setup(players=3, seed=17)
        for _ in range(10):
            state = carc.apply(state, carc.legal_moves(state)[0])
            state = carc.apply(state, carc.legal_moves(state)[-1])
        return json.dumps(position(state), sort_keys=True)

    assert run() == run()
