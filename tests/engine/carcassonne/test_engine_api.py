"""The protocol functions: bad input, views, determinization, automatic actions, helpers."""

from __future__ import annotations

import json
from typing import Any

import pytest

import engine.carcassonne as carc
from engine.carcassonne.tiles import TILES
from engine.protocol import IllegalMove, InvalidOptions, InvalidPosition
from i18n.events import event_text


def duel(draws: list[str], moves: list[str] | None = None, **extra: Any) -> carc.State:
    data: dict[str, Any] = {"players": 2, "start_player": 0, "draws": draws, "moves": moves or []}
    data.update(extra)
    return carc.from_setup(data)


def snapshot(state: carc.State) -> str:
    return json.dumps(carc.to_position(state), sort_keys=True)


# -- bad input changes nothing (K-15.2, CN-4.4) --------------------------------------------


@pytest.mark.parametrize(
    ("draws", "moves", "bad", "reason"),
    [
        (["E"], [], "0,1@0", "cannot be placed"),  # placement off the list
        (["E"], [], "5,5@0", "cannot be placed"),  # not next to the board
        (["E"], [], "none", "place the tile first"),  # action in phase place
        (["E"], [], "follower:city0", "place the tile first"),
        (["E"], [], "C 0,-1@180 none", "current tile is E"),  # wrong tile id
        (["E"], [], "E 0,-1@180", "needs its figure action"),
        (["E"], [], "E 0,-1@180 follower:road0", "no segment road0"),  # illegal action: atomic
        (["E"], ["E 0,-1@180"], "0,1@90", "choose a figure action"),  # placement in phase figure
        (["E"], ["E 0,-1@180"], "big:city0", "no big follower in supply"),  # empty supply
        (["E"], ["E 0,-1@180"], "builder:city0", "no builder in supply"),
        (
            ["N", "J"],
            ["N 0,-1@180 follower:city0", "J 1,-1@270"],
            "follower:city0",
            "already occupied",
        ),
        (["G"], ["G 0,-1@0"], "follower:field0", "farms are off"),
        (["E"], [], "E 0,-1@180  none", "cannot read"),  # two spaces
        (["E"], [], "E 0,-01@180 none", "bad placement"),
        (["E"], [], "E 0,-1@45 none", "bad placement"),
        (["E"], [], "e 0,-1@180 none", "unknown tile id"),
        (["E"], [], "E 0,-1@180 Follower:city0", "bad figure action"),
    ],
)
def test_illegal_input_is_rejected_without_change(
    draws: list[str], moves: list[str], bad: str, reason: str
) -> None:
    options = {"farms": "off"} if draws == ["G"] else {}
    state = duel(draws, moves, options=options)
    before = snapshot(state)
    with pytest.raises(IllegalMove, match=reason):
        carc.apply(state, bad)
    with pytest.raises(IllegalMove):
        carc.parse_move(state, bad)
    assert snapshot(state) == before


def test_figure_on_full_supply_of_followers_used_up_is_rejected() -> None:
    # Red puts all 7 followers on monasteries (no monastery completes), then has none left.
    draws = ["B", "U"] * 7 + ["B"]
    moves = []
    for i in range(7):
        moves += [f"B {i},1@0 follower:monastery", f"U {i + 1},0@0 none"]
    state = duel(draws, moves)
    assert carc.to_position(state)["supply"][0]["follower"] == 0
    state = carc.apply(state, "7,1@0")
    assert [str(m) for m in carc.legal_moves(state)] == ["none"]
    before = snapshot(state)
    with pytest.raises(IllegalMove, match="no follower in supply"):
        carc.apply(state, "follower:monastery")
    assert snapshot(state) == before


def test_moves_of_a_finished_game_and_of_the_wrong_seat_are_refused() -> None:
    state = duel(["E"], ["E 0,-1@180 none"])
    assert carc.outcome(state) is not None
    assert carc.legal_moves(state) == []
    with pytest.raises(IllegalMove, match="over"):
        carc.apply(state, "none")
    running = duel(["E", "U"])
    assert carc.legal_moves(running, seat=1) == []
    assert carc.legal_moves(running, seat=0) == carc.legal_moves(running)


# -- notation round trip (CN-3.2) -------------------------------------------------------------


def test_non_canonical_rotation_is_translated_with_its_segment_names() -> None:
    state = duel(["U"])
    move = carc.parse_move(state, "U 1,0@180 follower:field1")
    assert str(move) == "U 1,0@0 follower:field0"
    a = carc.apply(state, "U 1,0@180 follower:field1")
    b = carc.apply(state, "U 1,0@0 follower:field0")
    assert snapshot(a) == snapshot(b)
    placed = carc.apply(state, "1,0@180")
    assert carc.to_position(placed)["board"][-1]["rot"] == 0
    assert "follower:field0" in [str(m) for m in carc.legal_moves(placed)]


def test_printed_legal_moves_parse_back_to_themselves() -> None:
    state = carc.new_game(3, {"inns_cathedrals": "full", "traders_builders": "full"}, 11)
    for _ in range(30):
        for move in carc.legal_moves(state):
            assert carc.parse_move(state, str(move)) == move
        state = carc.apply(state, carc.legal_moves(state)[-1])


# -- game creation and set-ups ---------------------------------------------------------------


def test_new_game_validates_options_and_players() -> None:
    with pytest.raises(InvalidOptions, match="farms"):
        carc.new_game(2, {"farms": "fourth"}, 0)
    with pytest.raises(InvalidOptions, match="river"):
        carc.new_game(2, {"river": 1}, 0)
    with pytest.raises(InvalidOptions, match="2 to 6"):
        carc.new_game(7, {}, 0)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"colour": 1}, "unknown set-up key 'colour'"),
        ({"options": {"river": 1}}, "river"),
        ({"players": 1}, "2 to 6"),
        ({"draws": ["E", "Z9"]}, r"draws\[1\]"),
        ({"draws": ["R01"]}, r"draws\[0\].*spring"),
        ({"draws": ["I01"]}, r"draws\[0\].*inns_cathedrals"),
        ({"draws": ["E", "E"], "moves": ["E 0,-1@180 none", "E 0,-1@180 none"]}, r"moves\[1\]"),
        ({"draws": ["E", "E"], "moves": ["E 0,-1@180", "E 1,0@0 none"]}, r"moves\[0\]"),
        ({"draws": ["E"], "moves": ["0,-1@180"]}, r"moves\[0\].*whole turn"),
        ({"seed": -1}, "seed"),
        ({"start_player": 2}, "start_player"),
    ],
)
def test_bad_setups_name_the_first_bad_entry(data: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidPosition, match=message):
        carc.from_setup(data)


def test_same_seed_same_game_and_seeded_pile_sizes() -> None:
    a = carc.new_game(4, {}, 123)
    b = carc.new_game(4, {}, 123)
    assert snapshot(a) == snapshot(b)
    sizes = {
        (False, "off", "off"): 70,
        (False, "tiles", "off"): 88,
        (False, "off", "full"): 94,
        (False, "full", "tiles"): 112,
        (True, "off", "off"): 81,
    }
    for (river, ic, tb), left in sizes.items():
        state = carc.new_game(2, {"river": river, "inns_cathedrals": ic, "traders_builders": tb}, 5)
        assert carc.to_position(state)["tiles_left"] == left


def test_river_pile_draws_river_tiles_then_the_lake_then_land() -> None:
    state = carc.new_game(2, {"river": True}, 77)
    drawn = []
    while len(drawn) < 12:
        drawn.append(state.current)
        state = carc.auto_action(state, state.to_act)
        state = carc.auto_action(state, state.to_act) if state.phase == "figure" else state
    assert all(t.startswith("R") and t not in ("R01", "R02") for t in drawn[:10])
    assert drawn[10] == "R02"
    assert not TILES[drawn[11]].river
    assert carc.to_position(state)["discarded"] == []


# -- views and bots ---------------------------------------------------------------------------


def test_view_has_protocol_keys_and_never_the_pile_order() -> None:
    state = carc.new_game(3, {"traders_builders": "full"}, 9)
    state = carc.apply(state, carc.legal_moves(state)[0])
    v = carc.view(state, 1)
    assert v["game"] == "carcassonne"
    assert v["viewer"] == 1
    assert v["seats"] == [0, 1, 2]
    assert v["to_act"] == [state.to_act]
    assert v["finished"] is False
    assert v["winners"] == []
    assert [e["kind"] for e in v["events"]] == ["place"]
    assert v["last_tiles"] == {str(state.to_act): [v["board"][-1]["x"], v["board"][-1]["y"]]}
    text = json.dumps(v)
    upcoming = list(state.pile[state.pile_pos :])
    assert "pile" not in v
    assert json.dumps(upcoming[:12])[1:-1] not in text
    assert isinstance(v["tiles_left"], int)


@pytest.mark.parametrize(
    "options",
    [{}, {"river": True, "inns_cathedrals": "full", "traders_builders": "full", "farms": "first"}],
)
def test_sample_state_keeps_position_and_legal_moves(options: dict[str, Any]) -> None:
    state = carc.new_game(2, options, 4)
    for step in range(60):
        v = carc.view(state, state.to_act)
        sampled = carc.sample_state(v, step)
        assert carc.to_position(sampled) == carc.to_position(state)
        assert carc.legal_moves(sampled) == carc.legal_moves(state)
        moves = carc.legal_moves(state)
        state = carc.apply(state, moves[step % len(moves)])
        if carc.outcome(state) is not None:
            break
    # A sampled state plays on to the end.
    sampled = carc.sample_state(carc.view(state, 0), 1)
    while carc.outcome(sampled) is None:
        sampled = carc.auto_action(sampled, sampled.to_act)


def test_sample_state_remembers_a_builder_extra_turn() -> None:
    data = {
        "players": 2,
        "start_player": 0,
        "options": {"traders_builders": "full"},
        "draws": ["U", "E", "U", "B", "U", "C", "U", "V"],
        "moves": [
            "U 1,0@0 follower:road0",
            "E 0,-1@180 none",
            "U 2,0@0 builder:road0",
            "B 0,1@0 none",
            "U 3,0@0",
        ],
    }
    state = carc.from_setup(data)
    sampled = carc.sample_state(carc.view(state, 0), 3)
    after = carc.apply(sampled, "none")
    assert carc.to_position(after)["to_act"] == 0
    assert carc.to_position(after)["extra_turn"] is True


def test_auto_action_places_first_listed_placement_without_figure() -> None:
    state = duel(["E", "U"])
    first = str(carc.legal_moves(state)[0])
    after = carc.auto_action(state, 0)
    pos = carc.to_position(after)
    assert f"{pos['board'][-1]['x']},{pos['board'][-1]['y']}@{pos['board'][-1]['rot']}" == first
    assert pos["figures"] == []
    assert pos["to_act"] == 1
    placed = carc.apply(after, "1,0@0")
    done = carc.auto_action(placed, 1)
    assert carc.to_position(done)["figures"] == []
    with pytest.raises(IllegalMove):
        carc.auto_action(after, 0)


def test_leave_marks_the_seat_and_keeps_the_game() -> None:
    state = duel(["E", "U"])
    left = carc.leave(state, 1)
    assert carc.view(left, None)["left"] == [1]
    assert carc.to_position(left) == carc.to_position(state)


def test_ui_helpers_describe_placements_and_spots() -> None:
    state = duel(["E"])
    assert carc.legal_placements(state) == {(0, -1): [180], (0, 1): [90, 180, 270]}
    placed = carc.apply(state, "0,-1@180")
    spots = carc.figure_spots(placed)
    assert [{k: v for k, v in spot.items() if k != "anchor"} for spot in spots] == [
        {"segment": "city0", "kind": "city", "x": 0, "y": -1, "figures": ["follower"]},
        {"segment": "field0", "kind": "field", "x": 0, "y": -1, "figures": ["follower"]},
    ]
    # E@180: the city is on the south side, its field fills the north part of the tile.
    assert spots[0]["anchor"][1] > 0.7
    assert spots[1]["anchor"][1] < 0.5


def test_score_events_carry_a_readable_breakdown() -> None:
    state = duel(["E", "U"], ["E 0,-1@180 follower:city0"])
    texts = [_said(e, state) for e in state.events]
    assert "City of 2 tiles ×2 = 4 — Red." in texts
    assert any(e.kind == "figure_returned" for e in state.events)
    tie = carc.from_setup(
        {
            "players": 2,
            "start_player": 0,
            "draws": ["N", "J", "N"],
            "moves": ["N 0,-1@270 follower:city0", "J -1,0@0 follower:city0", "N -1,-1@180 none"],
        }
    )
    assert "City of 4 tiles ×2 = 8 — Red and Blue tie." in [_said(e, tie) for e in tie.events]
    discard = duel(["E", "C", "U"], ["E 0,-1@180 none"])
    assert [e.data["tile"] for e in discard.events if e.kind == "tile_discarded"] == ["C"]


def test_apply_never_changes_its_input_even_when_branching() -> None:
    """Copy-on-apply: two continuations from one state do not disturb it or each other."""
    options = {"inns_cathedrals": "full", "traders_builders": "full"}
    root = carc.new_game(2, options, 21)
    for _ in range(20):
        root = carc.apply(root, carc.legal_moves(root)[-1])
    before = snapshot(root)
    legal_before = carc.legal_moves(root)

    def play(state: carc.State, pick: int, steps: int) -> list[str]:
        seen = []
        for _ in range(steps):
            moves = carc.legal_moves(state)
            if not moves:
                break
            state = carc.apply(state, moves[pick % len(moves)])
            seen.append(snapshot(state))
        return seen

    first = play(root, 0, 30)
    second = play(root, 1, 30)
    assert snapshot(root) == before
    assert carc.legal_moves(root) == legal_before
    assert play(root, 0, 30) == first
    assert first != second


def test_apply_refuses_a_move_announced_for_a_seat_not_to_act() -> None:
    import engine.carcassonne as carc
    from engine import IllegalMove

    state = carc.new_game(2, {}, seed=3)
    (to_act,) = carc.seats_to_act(state)
    move = carc.legal_moves(state)[0]
    with pytest.raises(IllegalMove, match="turn"):
        carc.apply(state, move, seat=1 - to_act)
    assert carc.to_position(carc.apply(state, move, seat=to_act))["phase"] == "figure"


def test_placing_no_figure_is_said_in_words() -> None:
    import engine.carcassonne as carc

    state = carc.new_game(2, {}, seed=5)
    state = carc.apply(state, carc.legal_moves(state)[0])
    state = carc.apply(state, "none")
    (event,) = [e for e in state.events if e.kind == "no_figure"]
    assert _said(event, state) == "Red places no figure."


def _said(event: Any, state: Any) -> str:
    """The event in English, seats named as the engine's state names them."""
    return event_text(event.to_json(), "en", game="carcassonne", names=list(state.names))
