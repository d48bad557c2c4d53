"""Notation rules of carcassonne-notation.md: CN-2.4, CN-3, CN-4, CN-5, CN-6, and bad input."""

from __future__ import annotations

import json
from typing import Any

import pytest

import engine.carcassonne as carc
from engine import IllegalMove
from tests.engine.carcassonne.rules_helpers import (
    BLUE,
    RED,
    duel,
    figure,
    legal,
    legal_list,
    no_goods,
    play,
    position,
    scores,
    setup,
    supply,
)


def _frozen(state: Any) -> str:
    return json.dumps(position(state), sort_keys=True)


def _assert_rejected(state: Any, text: str) -> None:
    """K-15.2 / CN-4.4: the move raises IllegalMove and the state stays exactly as it was."""
    before = _frozen(state)
    with pytest.raises(IllegalMove):
        carc.apply(state, text)
    assert _frozen(state) == before


# --- CN-2.4: symmetric tile types -----------------------------------------------------------


@pytest.mark.parametrize(
    ("tile", "options", "expected"),
    [
        ("B", {}, {"0,1@0"}),
        ("C", {}, {"0,-1@0"}),
        ("X", {}, {"-1,0@0", "1,0@0"}),
        ("F", {}, {"0,-1@90", "0,1@0"}),
        ("G", {}, {"0,-1@0", "0,1@90"}),
        ("H", {}, {"0,-1@90", "0,1@0"}),
        ("I01", {"inns_cathedrals": "tiles"}, {"0,-1@0"}),
        ("I03", {"inns_cathedrals": "tiles"}, {"0,-1@0"}),
        ("I05", {"inns_cathedrals": "tiles"}, {"0,-1@0", "-1,0@0", "1,0@0"}),
        ("T24", {"traders_builders": "tiles"}, {"-1,0@0", "1,0@0"}),
        ("I10", {"inns_cathedrals": "tiles"}, {"0,-1@90", "-1,0@90", "1,0@90"}),
    ],
)
def test_carcassonne_cn_2_4_only_canonical_rotations_are_listed(
    tile: str, options: dict[str, str], expected: set[str]
) -> None:
    assert legal(duel([tile], options=options)) == expected


@pytest.mark.parametrize(
    ("tile", "options", "given", "canonical"),
    [
        ("U", {}, "U 1,0@180 follower:field1", "U 1,0@0 follower:field0"),
        ("U", {}, "U 0,1@180 follower:road0", "U 0,1@0 follower:road0"),
        ("F", {}, "F 0,1@180 follower:field0", "F 0,1@0 follower:field1"),
        ("H", {}, "H 0,1@180 follower:city0", "H 0,1@0 follower:city1"),
        ("X", {}, "X 1,0@90 follower:road0", "X 1,0@0 follower:road1"),
        ("X", {}, "X 1,0@270 follower:field0", "X 1,0@0 follower:field3"),
        ("B", {}, "B 0,1@270 follower:monastery", "B 0,1@0 follower:monastery"),
        (
            "I05",
            {"inns_cathedrals": "tiles"},
            "I05 1,0@180 follower:road0",
            "I05 1,0@0 follower:road1",
        ),
        (
            "I05",
            {"inns_cathedrals": "tiles"},
            "I05 1,0@180 follower:field1",
            "I05 1,0@0 follower:field3",
        ),
        (
            "T24",
            {"traders_builders": "tiles"},
            "T24 1,0@90 follower:road0",
            "T24 1,0@0 follower:road1",
        ),
        (
            "T24",
            {"traders_builders": "tiles"},
            "T24 1,0@180 follower:road0",
            "T24 1,0@0 follower:road0",
        ),
        (
            "T24",
            {"traders_builders": "tiles"},
            "T24 1,0@90 follower:field0",
            "T24 1,0@0 follower:field1",
        ),
        (
            "I10",
            {"inns_cathedrals": "tiles"},
            "I10 1,0@270 follower:road0",
            "I10 1,0@90 follower:road1",
        ),
        ("R06", {"river": True}, "R06 0,1@270 follower:city0", "R06 0,1@90 follower:city1"),
        ("R06", {"river": True}, "R06 0,1@270 follower:field0", "R06 0,1@90 follower:field1"),
    ],
)
def test_carcassonne_cn_2_4_non_canonical_rotation_is_renamed(
    tile: str, options: dict[str, str], given: str, canonical: str
) -> None:
    state = duel([tile], options=options)
    assert str(carc.parse_move(state, given)) == canonical
    assert _frozen(carc.apply(state, given)) == _frozen(carc.apply(state, canonical))


def test_carcassonne_cn_2_4_placement_alone_prints_canonical_rotation() -> None:
    state = duel(["U"])
    assert str(carc.parse_move(state, "1,0@180")) == "1,0@0"


# --- CN-3: grammar and canonical form -------------------------------------------------------


def test_carcassonne_cn_3_2_round_trip_of_every_legal_move() -> None:
    state = duel(["U", "E"], ["U 1,0@0 follower:road0"])
    for move in carc.legal_moves(state):
        assert carc.parse_move(state, str(move)) == move
    placed = play(state, "1,-1@0")
    actions = carc.legal_moves(placed)
    assert actions
    for move in actions:
        assert carc.parse_move(placed, str(move)) == move


def test_carcassonne_cn_3_2_whole_turn_prints_canonically() -> None:
    state = duel(["E"])
    text = "E 0,-1@180 follower:city0"
    assert str(carc.parse_move(state, text)) == text


@pytest.mark.parametrize(
    "text",
    [
        "",
        "E",
        "E 0,-1@180",  # CN-4.5: a whole turn carries its action
        "E 0,-1@180  none",
        " E 0,-1@180 none",
        "E 0,-1@180 none ",
        "e 0,-1@180 none",
        "E 0,-1@180 None",
        "E 0,-1@180 NONE",
        "E 0,-1@180 Follower:city0",
        "E 0,-1@180 follower:City0",
        "E 0,-1@180 follower: city0",
        "E 0,-1@180 follower:city",
        "E 0,-1@180 follower:city00",
        "E 0,-1@180 follower:city01",
        "E 0,-1@180 follower:monastery0",
        "E 0,-1@180 knight:city0",
        "E 0,-1@180 follower:city0 none",
        "E 0,-1@45 none",
        "E 0,-1@360 none",
        "E 0,-1@-180 none",
        "E 0,-1@0180 none",
        "E +0,-1@180 none",
        "E -0,-1@180 none",
        "E 00,-1@180 none",
        "E 0,-01@180 none",
        "E 0, -1@180 none",
        "E 0,-1 @180 none",
        "E\t0,-1@180 none",
        "E 0;-1@180 none",
        "Z 0,-1@180 none",  # not a tile id
        "C 0,-1@180 none",  # not the current tile
        "E 0,-1@180 follower:road0",  # E has no road
        "E 0,-1@180 follower:city1",  # E has one city
        "E 0,-1@180 follower:monastery",  # E has no monastery
        "E 0,-1@180 big:city0",  # no big follower without Inns & Cathedrals
        "E 0,-1@180 builder:city0",  # no builder without Traders & Builders
        "E 0,-1@180 pig:field0",  # no pig without Traders & Builders
    ],
)
def test_carcassonne_cn_3_2_malformed_or_foreign_text_is_rejected(text: str) -> None:
    state = duel(["E"])
    _assert_rejected(state, text)
    with pytest.raises(IllegalMove):
        carc.parse_move(state, text)


# --- CN-4: the two phases -------------------------------------------------------------------


def test_carcassonne_cn_4_1_placements_sorted_by_y_x_rot() -> None:
    assert legal_list(duel(["E"])) == ["0,-1@180", "0,1@90", "0,1@180", "0,1@270"]
    assert legal_list(duel(["U"])) == ["-1,0@0", "1,0@0", "0,1@0"]


def test_carcassonne_cn_4_2_actions_in_segment_then_kind_order() -> None:
    state = duel(["U"], ["U 1,0@0"])
    assert legal_list(state) == ["none", "follower:road0", "follower:field0", "follower:field1"]
    pig = duel(
        ["E", "U", "B"],
        ["E 0,-1@180 follower:field0", "U 1,0@0 follower:field0", "B -1,-1@0"],
        options={"traders_builders": "full"},
    )
    assert legal_list(pig) == ["none", "pig:field0", "follower:monastery"]
    big = duel(["U"], ["U 1,0@0"], options={"inns_cathedrals": "full"})
    assert legal_list(big) == [
        "none",
        "follower:road0",
        "big:road0",
        "follower:field0",
        "big:field0",
        "follower:field1",
        "big:field1",
    ]


def test_carcassonne_cn_4_3_figure_phase_exists_with_only_none() -> None:
    # Red's knight holds the city and farms are off, so Blue's cap offers nothing but none.
    state = duel(["N", "E"], ["N 0,-1@180 follower:city0", "E 1,-1@270"], options={"farms": "off"})
    pos = position(state)
    assert pos["phase"] == "figure"
    assert pos["to_act"] == BLUE
    assert legal_list(state) == ["none"]
    after = play(state, "none")
    assert position(after)["phase"] == "finished"
    assert scores(after) == [6, 0]


def test_carcassonne_cn_4_4_two_phase_equals_whole_turn() -> None:
    state = duel(["E", "U"])
    placed = play(state, "0,-1@180")
    assert position(placed)["phase"] == "figure"
    assert position(placed)["to_act"] == RED
    assert position(placed)["board"][-1] == {"tile": "E", "x": 0, "y": -1, "rot": 180}
    two_phase = play(placed, "follower:city0")
    whole = play(state, "E 0,-1@180 follower:city0")
    assert _frozen(two_phase) == _frozen(whole)


def test_carcassonne_cn_4_4_whole_turn_with_illegal_action_is_atomic() -> None:
    state = duel(["N", "J"], ["N 0,-1@180 follower:city0"])
    _assert_rejected(state, "J 1,-1@270 follower:city0")
    assert position(state)["phase"] == "place"
    assert len(position(state)["board"]) == 2


@pytest.mark.parametrize("text", ["none", "follower:city0", "follower:field0"])
def test_carcassonne_cn_4_4_action_in_place_phase_is_rejected(text: str) -> None:
    _assert_rejected(duel(["E"]), text)


@pytest.mark.parametrize("text", ["0,1@90", "E 0,1@90 none", "0,-1@180", "E 0,-1@180 none"])
def test_carcassonne_cn_4_4_placement_in_figure_phase_is_rejected(text: str) -> None:
    _assert_rejected(duel(["E", "U"], ["E 0,-1@180"]), text)


def test_carcassonne_cn_4_4_placement_off_the_legal_list_is_rejected() -> None:
    state = duel(["E"])
    for text in ["E 0,1@0 none", "E 5,5@0 none", "E 0,0@0 none", "E 1,0@0 none", "0,1@0"]:
        _assert_rejected(state, text)


def test_carcassonne_cn_4_6_non_canonical_placement_then_canonical_names() -> None:
    state = duel(["U", "U", "E"])
    placed = play(state, "1,0@180")
    assert position(placed)["board"][-1] == {"tile": "U", "x": 1, "y": 0, "rot": 0}
    assert legal(placed) == {"none", "follower:road0", "follower:field0", "follower:field1"}
    # field0 of the canonical U@0 is the north field, in one farm with D's strip.
    after = play(placed, "follower:field0")
    assert position(after)["figures"] == [figure(RED, "follower", 1, 0, "field0")]
    blue = play(after, "-1,0@0")
    assert legal(blue) == {"none", "follower:road0", "follower:field1"}
    final = play(blue, "follower:field1", "E 0,-1@180 none")
    assert scores(final) == [3, 0]


def test_carcassonne_cn_4_6_whole_turn_non_canonical_scores_like_cn_8_11() -> None:
    state = duel(
        ["U", "U", "E"],
        ["U 1,0@180 follower:field1", "U -1,0@0 follower:field1", "E 0,-1@180 none"],
    )
    assert scores(state) == [3, 0]


def test_carcassonne_k_15_2_other_seat_has_no_legal_moves() -> None:
    state = duel(["E"])
    assert carc.legal_moves(state, BLUE) == []
    assert {str(m) for m in carc.legal_moves(state, RED)} == legal(state)


# --- CN-5: the position ---------------------------------------------------------------------


def test_carcassonne_cn_5_position_of_the_example() -> None:
    state = duel(
        ["U", "E", "U", "B", "U", "C", "U", "V"],
        ["U 1,0@0 follower:road0", "E 0,-1@180 none", "U 2,0@0 builder:road0"],
        options={"traders_builders": "full"},
    )
    expected = {
        "board": [
            {"tile": "D", "x": 0, "y": 0, "rot": 0},
            {"tile": "U", "x": 1, "y": 0, "rot": 0},
            {"tile": "E", "x": 0, "y": -1, "rot": 180},
            {"tile": "U", "x": 2, "y": 0, "rot": 0},
        ],
        "figures": [
            figure(RED, "follower", 1, 0, "road0"),
            figure(RED, "builder", 2, 0, "road0"),
        ],
        "scores": [0, 0],
        "supply": [supply(6, pig=1), supply(7, builder=1, pig=1)],
        "goods": [no_goods(), no_goods()],
        "tiles_left": 4,
        "current_tile": "B",
        "phase": "place",
        "to_act": 1,
        "extra_turn": False,
        "discarded": [],
        "finished": False,
        "winners": [],
    }
    pos = position(state)
    for key, value in expected.items():
        assert pos[key] == value, key
    assert set(pos) == set(expected)
    assert json.loads(json.dumps(pos)) == pos


def test_carcassonne_cn_5_figures_sorted_by_y_then_x() -> None:
    state = duel(
        ["U", "E", "B"],
        ["U 1,0@0 follower:road0", "E 0,-1@180 follower:field0", "B 0,1@0 follower:monastery"],
    )
    assert position(state)["figures"] == [
        figure(BLUE, "follower", 0, -1, "field0"),
        figure(RED, "follower", 1, 0, "road0"),
        figure(RED, "follower", 0, 1, "monastery"),
    ]


# --- CN-6: set-up ---------------------------------------------------------------------------


def test_carcassonne_cn_6_2_defaults() -> None:
    pos = position(carc.from_setup({}))
    assert len(pos["scores"]) == 2
    assert pos["tiles_left"] == 70
    assert pos["supply"] == [supply(7), supply(7)]


def test_carcassonne_cn_6_2_players_as_names() -> None:
    pos = position(setup(players=["Ann", "Bob", "Cy"], start_player=2, draws=["U", "U"]))
    assert pos["scores"] == [0, 0, 0]
    assert pos["to_act"] == 2


def test_carcassonne_cn_6_2_start_player_defaults_to_the_seed() -> None:
    for seed in range(4):
        from_setup = position(setup(players=3, seed=seed))
        fresh = position(carc.new_game(3, {}, seed))
        assert from_setup == fresh


def test_carcassonne_cn_6_2_empty_draws_give_a_finished_game() -> None:
    state = setup(players=2, draws=[])
    pos = position(state)
    assert pos["finished"] is True
    assert pos["phase"] == "finished"
    assert pos["current_tile"] is None
    assert pos["to_act"] is None
    assert pos["scores"] == [0, 0]
    assert pos["winners"] == [0, 1]
    assert carc.legal_moves(state) == []


def test_carcassonne_cn_6_2_draw_counts_are_not_checked() -> None:
    state = duel(["C", "C", "C", "C", "C", "U"])
    pos = position(state)
    assert pos["current_tile"] == "C"
    assert pos["tiles_left"] == 5


def test_carcassonne_cn_6_2_last_move_without_action_leaves_figure_phase() -> None:
    pos = position(duel(["E", "U"], ["E 0,-1@180"]))
    assert pos["phase"] == "figure"
    assert pos["current_tile"] == "E"
    assert pos["to_act"] == RED
    assert pos["scores"] == [0, 0]


def test_carcassonne_cn_6_2_discards_happen_between_moves() -> None:
    pos = position(duel(["E", "C", "C", "U"], ["E 0,-1@180 none", "U 1,0@0 none"]))
    assert pos["discarded"] == ["C", "C"]
    assert pos["finished"] is True


@pytest.mark.parametrize(
    ("data", "names"),
    [
        ({"players": 1}, ["players"]),
        ({"players": 7}, ["players"]),
        ({"players": ["Solo"]}, ["players"]),
        ({"players": "two"}, ["players"]),
        ({"seed": -1}, ["seed"]),
        ({"seed": "0"}, ["seed"]),
        ({"start_player": 2}, ["start_player"]),
        ({"start_player": -1}, ["start_player"]),
        ({"colour": "red"}, ["colour"]),
        ({"options": {"farms": "fourth"}}, ["farms"]),
        ({"options": {"colour": "red"}}, ["colour"]),
        ({"options": {"small_cities": 1}}, ["small_cities"]),
        ({"options": {"river": "yes"}}, ["river"]),
        ({"options": {"inns_cathedrals": True}}, ["inns_cathedrals"]),
        ({"options": {"traders_builders": "all"}}, ["traders_builders"]),
        ({"draws": ["E", "Z9"]}, ["Z9"]),
        ({"draws": ["E", "e"]}, ["'e'", '"e"', "[1]", "tile e", "draw 2"]),
        ({"draws": ["I01"]}, ["I01"]),
        ({"draws": ["T01"]}, ["T01"]),
        ({"draws": ["R03"]}, ["R03"]),
        ({"options": {"river": True}, "draws": ["R01"]}, ["R01"]),
        (
            {"draws": ["E", "U"], "moves": ["E 0,-1@180 none", "U 5,5@0 none"]},
            ["U 5,5@0 none", "[1]", "move 2", "moves 2"],
        ),
        ({"draws": ["E"], "moves": ["0,-1@180 none"]}, ["0,-1@180 none", "[0]", "move 1"]),
        ({"draws": ["E"], "moves": ["C 0,-1@0 none"]}, ["C 0,-1@0 none", "[0]", "move 1"]),
        (
            {"draws": ["E", "U"], "moves": ["E 0,-1@180", "U 1,0@0 none"]},
            ["E 0,-1@180", "[0]", "move 1"],
        ),
        (
            {"draws": ["E", "U", "U"], "moves": ["E 0,-1@180 none", "none"]},
            ["none", "[1]", "move 2"],
        ),
        ({"draws": ["E"], "moves": ["E 0,-1@180 none", "U 1,0@0 none"]}, ["U 1,0@0 none", "[1]"]),
    ],
)
def test_carcassonne_cn_6_3_bad_setup_names_the_first_bad_entry(
    data: dict[str, Any], names: list[str]
) -> None:
    with pytest.raises(ValueError) as info:
        carc.from_setup(data)
    message = str(info.value)
    assert any(name in message for name in names), message


def test_carcassonne_cn_6_4_setup_replays_identically() -> None:
    data = {
        "players": 2,
        "start_player": 0,
        "draws": ["U", "U", "E"],
        "moves": ["U 1,0@0 follower:field0", "U -1,0@0 follower:field1"],
    }
    assert _frozen(carc.from_setup(data)) == _frozen(carc.from_setup(data))
    assert data["moves"] == ["U 1,0@0 follower:field0", "U -1,0@0 follower:field1"]


# --- Immutability of states (engine/protocol.py) --------------------------------------------


def test_carcassonne_apply_never_changes_its_input() -> None:
    state = duel(["E", "U"])
    before = _frozen(state)
    after = carc.apply(state, "E 0,-1@180 follower:city0")
    assert _frozen(state) == before
    assert scores(after) == [4, 0]
