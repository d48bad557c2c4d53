"""The learner's hint: the hard bot's move with reasons, from the seat's view only."""

from __future__ import annotations

import engine.carcassonne as carc
from engine import tock
from engine.bots import choose_move
from engine.bots.hints import Reason, hint

CAP = {"iterations": 8, "time_budget": 60.0}
#: Seat 0 can send Blue's pawn on r28 home with its 8; that pawn threatens seat 0's r20.
CAPTURE = {
    "game": "tock",
    "players": 4,
    "teams": [[0, 2], [1, 3]],
    "turn": 0,
    "pawns": {"0": ["r20", "r60"], "1": ["r28", "r57"], "2": ["r33"], "3": ["r64"]},
    "hands": {"0": ["2", "3", "8"], "1": ["2", "3"], "2": ["2", "3"], "3": ["2", "3"]},
}


def test_hint_is_the_hard_move_and_says_it_captures_and_keeps_the_pawn_safe() -> None:
    view = tock.view(tock.from_position(CAPTURE), 0)
    found = hint("tock", view, seed=4, **CAP)
    assert found.move == choose_move("tock", view, "hard", seed=4, **CAP)
    assert found.move == "8:r20-r28"
    assert found.reasons == (Reason("capture", {"seats": (1,)}), Reason("safe"))


def test_hint_never_depends_on_cards_the_player_cannot_see() -> None:
    one = dict(CAPTURE, hands={**CAPTURE["hands"], "1": ["K", "K"]})
    two = dict(CAPTURE, hands={**CAPTURE["hands"], "1": ["4", "5"]})
    hints = [hint("tock", tock.view(tock.from_position(p), 0), seed=2, **CAP) for p in (one, two)]
    assert hints[0] == hints[1]


def test_exchange_hint_says_the_partner_needs_a_start_card() -> None:
    position = {
        "game": "dog",
        "phase": "exchange",
        "pawns": {"0": ["r5", "r20", "r40", "r50"], "1": ["r30"], "3": ["r60"]},
        "hands": {str(s): ["2", "3", "5", "6", "9", "Q"] for s in (1, 2, 3)}
        | {"0": ["3", "5", "8", "9", "10", "K"]},
    }
    from engine import dog

    found = hint("dog", dog.view(dog.from_position(position), 0), seed=1, **CAP)
    assert found.move == "G:K"
    assert found.reasons == (Reason("pick_start", {"seat": 2}),)


def _red_city_then_e(city: str) -> carc.State:
    """Red's knight on the start tile's city and a ``city`` tile north of it; Red draws E."""
    moves = [f"{city} follower:city0", "U 1,0@0 none"]
    draws = [city.split(" ")[0], "U", "E", "C", "B", "A", "V", "W", "X"]
    return carc.from_setup({"players": 2, "start_player": 0, "draws": draws, "moves": moves})


def test_carcassonne_hint_counts_the_points_of_a_closed_city() -> None:
    state = _red_city_then_e("G 0,-1@0")
    found = hint("carcassonne", carc.view(state, 0), seed=1, **CAP)
    assert found.move.startswith("E 0,-2@180")
    assert found.reasons[0] == Reason("score", {"count": 6})


def test_carcassonne_hint_says_the_tile_adds_to_your_city() -> None:
    # Red holds the start tile's city and an R north of it, open west and east; the hint's
    # reason for an E joined to it without a new figure says so.
    from engine.bots.hints import carcassonne_reasons

    state = _red_city_then_e("R 0,-1@180")
    reasons = carcassonne_reasons(state, 0, "E 1,-1@270 none")
    assert reasons == [Reason("extend", {"feature": "city"})]
