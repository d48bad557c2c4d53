"""Team sense: positions where a player would agree on what a good partner plays.

Each test loads a position (N-3 for Tock and Dog, a CN-6 set-up for Carcassonne), asks the
bot of the seat to act, and checks its choice; the docstring says the expected choice and
why. Unless a test says otherwise, Tock tables are ``2v2`` and Dog tables have 4 players:
seat 0 (the bot) and seat 2 are partners against seats 1 and 3. ``normal`` must get them
right (it is also the policy inside the ``hard`` search) and ``hard`` must not spoil them.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import engine.carcassonne as carc
from engine import dog, tock
from engine.bots import choose_move
from engine.carcassonne.setup import land_tiles, make_options

#: A generous clock with an iteration cap (about the worlds of a real move): ``hard`` is
#: deterministic for its seed.
HARD = {"iterations": 48, "time_budget": 60.0}
LEVELS = ("normal", "hard")
TEAMS = {"teams": [[0, 2], [1, 3]]}
#: Filler hands for the seats whose cards do not matter.
TOCK_HAND = ["2", "3", "4", "6", "Q"]
DOG_HAND = ["2", "3", "5", "6", "9", "Q"]


def _game(name: str) -> Any:
    return tock if name == "tock" else dog


def _load(name: str, **fields: Any) -> Any:
    extra = {"players": 4, **TEAMS} if name == "tock" else {}
    return _game(name).from_position({"game": name, **extra, **fields})


def _choice(name: str, level: str, seat: int = 0, **fields: Any) -> str:
    """The move the ``level`` bot of ``seat`` chooses in the position ``fields``."""
    state = _load(name, **fields)
    view = _game(name).view(state, seat)
    extra = HARD if level == "hard" else {}
    return choose_move(name, view, level, seed=1, **extra)


def _after(name: str, move: str, seat: int = 0, **fields: Any) -> dict[str, Any]:
    """The position written after ``move`` (to check what it did, not how it is written)."""
    game = _game(name)
    return game.to_position(game.apply(_load(name, **fields), move, seat))


def _exchange(name: str, hand: list[str], pawns: dict[str, list[str]]) -> dict[str, Any]:
    filler = TOCK_HAND if name == "tock" else DOG_HAND
    return {
        "phase": "exchange",
        "pawns": pawns,
        "hands": {"0": hand, "1": filler, "2": filler, "3": filler},
    }


def _turn(hand: list[str], pawns: dict[str, list[str]]) -> dict[str, Any]:
    """Seat 0 to play ``hand``; the others hold two small cards each."""
    small = ["2", "3"]
    return {"turn": 0, "pawns": pawns, "hands": {"0": hand, "1": small, "2": small, "3": small}}


RACES = pytest.mark.parametrize("name", ["tock", "dog"])
BOTH = pytest.mark.parametrize("level", LEVELS)


# -- the exchange ---------------------------------------------------------------------------


@BOTH
@RACES
def test_exchange_gives_a_start_card_to_a_partner_with_no_pawn_out(name: str, level: str) -> None:
    """Partner: every pawn in the kennel. Bot: two pawns out, A and K in hand.

    Expected: pass the A or the K. Without a start card the partner cannot move at all this
    hand; the bot keeps the other start card for its own kennel.
    """
    hand = ["A", "K", "3", "5", "8", "9"][: 5 if name == "tock" else 6]
    pawns = {"0": ["r5", "r20", "k0", "k0"], "1": ["r30"], "3": ["r60"]}
    assert _choice(name, level, **_exchange(name, hand, pawns)) in ("G:A", "G:K")


@BOTH
@RACES
def test_exchange_gives_the_only_start_card_to_a_partner_stuck_in_the_kennel(
    name: str, level: str
) -> None:
    """Partner: every pawn in the kennel. Bot: all four pawns out, one K in hand.

    Expected: pass the K. It is the only card the bot holds that lets the partner move at
    all this hand, and the bot, with no pawn waiting, has no use for it.
    """
    hand = ["3", "5", "8", "9", "10", "K"][-5 if name == "tock" else -6 :]
    pawns = {"0": ["r5", "r20", "r40", "r50"], "1": ["r30"], "3": ["r60"]}
    assert _choice(name, level, **_exchange(name, hand, pawns)) == "G:K"


@BOTH
@RACES
def test_exchange_keeps_the_only_start_card_when_own_pawns_all_wait(name: str, level: str) -> None:
    """Bot: every pawn in the kennel, one K. Partner: three pawns out.

    Expected: keep the K (pass anything else). It is the only card that lets the bot move
    at all; the partner, with pawns out, can use the small card it gets.
    """
    hand = ["3", "5", "8", "9", "10", "K"][-5 if name == "tock" else -6 :]
    pawns = {"2": ["r40", "r50", "r60", "k2"], "1": ["r30"], "3": ["r10"]}
    assert _choice(name, level, **_exchange(name, hand, pawns)) != "G:K"


# -- captures and the partner's pawns ----------------------------------------------------------


@BOTH
@RACES
def test_no_capture_of_the_partner_when_another_move_exists(name: str, level: str) -> None:
    """Bot: a pawn on r17 with an 8 and a 5; the partner's pawn stands on r25.

    Expected: the 5. The 8 lands on r25 and sends the partner's pawn back to its kennel,
    which costs the team a start card and a long way round.
    """
    pawns = {"0": ["r17"], "1": ["r60"], "2": ["r25", "r38"], "3": ["r50"]}
    assert _choice(name, level, **_turn(["5", "8"], pawns)) == "5:r17-r22"


@BOTH
@RACES
def test_captures_the_opponent_that_threatens_the_partner(name: str, level: str) -> None:
    """Opponent (seat 1) on r28, five or six fields behind the partner's pawn; bot on r20.

    Expected: the 8 onto r28: it sends the threat home instead of creeping with the 2.
    """
    partner = "r33" if name == "tock" else "r34"
    pawns = {"0": ["r20"], "1": ["r28"], "2": [partner], "3": ["r60"]}
    assert _choice(name, level, **_turn(["2", "8"], pawns)) == "8:r20-r28"


@BOTH
@RACES
def test_split_seven_burns_an_opponent_and_spares_the_partner(name: str, level: str) -> None:
    """Bot: pawns on r10 and r40, a 7. Partner on r14, opponent on r45.

    Expected: a split that leaves the partner's pawn on r14 and captures the opponent on
    r45 (a 7 captures every pawn it steps on, C-8.3, so running r10 on burns the partner).
    """
    pawns = {"0": ["r10", "r40"], "1": ["r45"], "2": ["r14"], "3": ["r60"]}
    fields = _turn(["7"], pawns)
    move = _choice(name, level, **fields)
    after = _after(name, move, **fields)
    assert "r14" in after["pawns"]["2"]
    assert after["pawns"]["1"] == ["k1"] * 4


# -- helping the partner finish ----------------------------------------------------------------


@BOTH
@RACES
def test_finished_player_brings_the_partner_home(name: str, level: str) -> None:
    """Bot: all four pawns home, so it moves the partner's colour (T-11.1, D-12).

    The partner's pawn stands five steps from its home (Tock: junction r34; Dog: start field
    r32). Expected: the 5 into the home rather than any walk on the ring.
    """
    partner = "r30" if name == "tock" else "r28"
    pawns = {
        "0": ["h0.1", "h0.2", "h0.3", "h0.4"],
        "1": ["r5"],
        "2": [partner, "r50"],
        "3": ["r60"],
    }
    assert _choice(name, level, **_turn(["3", "5"], pawns)) == f"5:{partner}-h2.1"


@BOTH
@RACES
def test_finished_player_jack_puts_the_partner_before_its_home(name: str, level: str) -> None:
    """Bot: all four pawns home. The partner's only pawn out stands just past its start
    (r40, nearly a whole round to go); an opponent's pawn stands on r30, a few steps before
    the partner's home.

    Expected: the Jack swapping the two (``J:r40<>r30``): the partner's pawn jumps to the
    door of its home and the opponent's goes back.
    """
    pawns = {"0": ["h0.1", "h0.2", "h0.3", "h0.4"], "1": ["r30"], "2": ["r40"], "3": ["r60"]}
    assert _choice(name, level, **_turn(["2", "J"], pawns)) == "J:r40<>r30"


@BOTH
def test_dog_seven_finishes_own_colour_and_carries_the_partner_home(level: str) -> None:
    """Bot: three pawns home, the last on r62 (three steps from h0.1). Partner: three home,
    the last on r29 (four steps from h2.1). A 3 and a 7 in hand.

    Expected: ``7:r62-h0.1,r29-h2.1``: the 7 takes the bot's last pawn home and carries the
    other four steps to the partner (D-10.2), which wins the game (D-10.3). The 3 would
    finish the bot only.
    """
    pawns = {
        "0": ["r62", "h0.2", "h0.3", "h0.4"],
        "1": ["r10"],
        "2": ["r29", "h2.2", "h2.3", "h2.4"],
        "3": ["r20"],
    }
    assert _choice("dog", level, **_turn(["3", "7"], pawns)) == "7:r62-h0.1,r29-h2.1"


@BOTH
def test_dog_finished_player_splits_the_seven_to_bring_two_partner_pawns_home(
    level: str,
) -> None:
    """Bot: finished. Partner: two pawns home (h2.3, h2.4), two on r29 and r31.

    Expected: ``7:r31-h2.2,r29-h2.1`` (three steps and four): both pawns home, the game won.
    Any other split leaves a pawn on the ring.
    """
    pawns = {
        "0": ["h0.1", "h0.2", "h0.3", "h0.4"],
        "1": ["r10"],
        "2": ["r29", "r31", "h2.3", "h2.4"],
        "3": ["r50"],
    }
    fields = _turn(["3", "7"], pawns)
    move = _choice("dog", level, **fields)
    state = dog.apply(_load("dog", **fields), move, 0)
    outcome = dog.outcome(state)
    assert outcome is not None
    assert outcome.winners == (0, 2)


@BOTH
def test_dog_jack_swaps_own_pawn_with_the_partner_at_its_home(level: str) -> None:
    """Bot: a pawn on r30, two steps before the partner's start field r32. Partner: a pawn on
    r40, just past it, with a whole round to go.

    Expected: ``J:r30<>r40``. Both gain: the partner's pawn lands at its door and the bot's
    moves ten fields on. Swapping with an opponent (r4, r55) would set the bot back.
    """
    pawns = {"0": ["r30"], "1": ["r4"], "2": ["r40"], "3": ["r55"]}
    assert _choice("dog", level, **_turn(["2", "J"], pawns)) == "J:r30<>r40"


# -- Carcassonne -------------------------------------------------------------------------------


def _carcassonne(order: list[str], moves: list[str]) -> Any:
    """Two players, Red (seat 0) first; ``order`` are the first tiles drawn, then the rest
    of the base game in a fixed order (the bots only know the multiset of unseen tiles)."""
    rest = Counter(land_tiles(make_options(None)))
    rest.subtract(order)
    draws = order + sorted(rest.elements())
    return carc.from_setup({"players": 2, "start_player": 0, "draws": draws, "moves": moves})


def _carc_choice(state: Any, level: str) -> str:
    extra = HARD if level == "hard" else {}
    view = carc.view(state, state.to_act)
    return choose_move("carcassonne", view, level, seed=1, **extra)


@BOTH
def test_carcassonne_completes_its_own_city(level: str) -> None:
    """Red's knight holds the city of the start tile and a G north of it, open at (0,-2).
    Red draws an E.

    Expected: the E at (0,-2) turned to close the city (``E 0,-2@180``): six points now and
    the knight back in supply.
    """
    state = _carcassonne(["G", "U", "E"], ["G 0,-1@0 follower:city0", "U 1,0@0 none"])
    assert _carc_choice(state, level).startswith("E 0,-2@180 ")


@BOTH
def test_carcassonne_does_not_complete_the_opponents_city(level: str) -> None:
    """Blue's knight holds the city of the start tile and a G north of it, open at (0,-2).
    Red draws an E.

    Expected: anywhere but ``E 0,-2@180``, which would score six points for Blue and give
    Blue its knight back.
    """
    state = _carcassonne(["U", "G", "E"], ["U 1,0@0 none", "G 0,-1@0 follower:city0"])
    assert not _carc_choice(state, level).startswith("E 0,-2@180 ")


#: Red holds a city (start tile + R north of it, open west and east); Blue holds with two
#: knights a city east of it (D at (2,0), E at (3,-1), joined by an R at (2,-1)), open at
#: (2,-2). Red draws an E.
FIGHT_MOVES = [
    "R 0,-1@180 follower:city0",
    "U 1,0@0 none",
    "U -1,0@0 none",
    "D 2,0@0 follower:city0",
    "U -2,0@0 none",
    "U 3,0@0 none",
    "U -3,0@0 none",
    "E 3,-1@270 follower:city0",
    "U -4,0@0 none",
    "R 2,-1@90 none",
]


@BOTH
def test_carcassonne_joins_its_own_city_rather_than_an_unwinnable_fight(level: str) -> None:
    """Expected: the E joins Red's own city (at (-1,-1) or (1,-1), closing one of its two
    open sides). Not a knight on an E at (3,-2) facing (2,-2): that city can only be
    finished by merging with Blue's, where two Blue knights beat one of Red's, so the knight
    would score nothing and be stuck there.
    """
    order = ["R", "U", "U", "D", "U", "U", "U", "E", "U", "R", "E"]
    move = _carc_choice(_carcassonne(order, FIGHT_MOVES), level)
    assert move.split(" ")[1] in ("-1,-1@90", "1,-1@270")
