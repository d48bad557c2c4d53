"""The engine-side bots: legal moves at every level, view-only play, determinism, good sense."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

import engine.carcassonne as carc
from engine import dog, get_game, tock
from engine.bots import LEVELS, choose_move

#: Small caps keep ``hard`` fast; a generous clock keeps it deterministic under load.
HARD = {"iterations": 3, "time_budget": 30.0}
#: Whole games only check legality: a tight clock there also exercises the search cut-off.
HARD_GAME = {"iterations": 1, "time_budget": 0.05}


def _choose(name: str, view: Mapping[str, Any], level: str, seed: int, whole: bool = False) -> str:
    extra: dict[str, Any] = (HARD_GAME if whole else HARD) if level == "hard" else {}
    return choose_move(name, view, level, seed=seed, **extra)


def _play_out(
    name: str, players: int, options: Mapping[str, Any], levels: list[str], seed: int
) -> Any:
    """Play a whole game, seat ``s`` played at ``levels[s % len(levels)]``; every move legal."""
    game = get_game(name)
    state = game.new_game(players, options, seed)
    for ply in range(4000):
        if game.outcome(state) is not None:
            return state
        for seat in sorted(game.seats_to_act(state)):
            view = game.view(state, seat)
            text = _choose(name, view, levels[seat % len(levels)], seed * 7919 + ply, whole=True)
            assert isinstance(text, str)
            # apply raises IllegalMove on anything the rules do not allow.
            if name == "carcassonne":
                state = game.apply(state, text)
            else:
                state = game.apply(state, text, seat)  # type: ignore[call-arg]
    raise AssertionError(f"{name} did not finish")


@pytest.mark.parametrize(
    ("players", "options", "levels"),
    [
        (4, {"game_type": "2v2"}, ["normal", "easy"]),
        (2, {"seven": "single"}, ["normal", "hard"]),
        (5, {"variant5": True, "quick_start": True}, ["easy", "normal", "normal"]),
        (6, {"game_type": "2v2v2"}, ["normal", "normal", "easy"]),
    ],
)
def test_tock_bots_play_whole_games_legally(
    players: int, options: dict[str, Any], levels: list[str]
) -> None:
    state = _play_out("tock", players, options, levels, seed=players)
    assert tock.outcome(state) is not None


@pytest.mark.parametrize(
    ("players", "options", "levels"),
    [
        (4, {}, ["normal", "easy"]),
        (4, {"ruleset": "braendi"}, ["easy", "normal"]),
        (6, {}, ["normal"]),
    ],
)
def test_dog_bots_play_whole_games_legally(
    players: int, options: dict[str, Any], levels: list[str]
) -> None:
    state = _play_out("dog", players, options, levels, seed=players + 1)
    assert dog.outcome(state) is not None


@pytest.mark.parametrize(
    ("players", "options", "levels"),
    [
        (2, {}, ["hard", "normal"]),
        (3, {"farms": "first", "small_cities": True}, ["easy", "normal", "normal"]),
        (2, {"river": True, "inns_cathedrals": "full"}, ["normal", "easy"]),
        (4, {"traders_builders": "full", "farms": "second"}, ["normal", "easy", "easy", "easy"]),
        (2, {"farms": "off"}, ["easy", "normal"]),
    ],
)
def test_carcassonne_bots_play_whole_games_legally(
    players: int, options: dict[str, Any], levels: list[str]
) -> None:
    state = _play_out("carcassonne", players, options, levels, seed=players)
    assert carc.outcome(state) is not None


def _race_views_along_a_game(game: Any, players: int, options: dict[str, Any], step: int) -> list:
    """Views of the seat to act every ``step`` actions of a game of ``easy`` bots."""
    state = game.new_game(players, options, 11)
    views = []
    ply = 0
    while game.outcome(state) is None and len(views) < 12:
        seat = min(game.seats_to_act(state))
        view = game.view(state, seat)
        if ply % step == 0:
            views.append(view)
        state = game.apply(state, choose_move(game.NAME, view, "easy", seed=ply), seat)
        ply += 1
    return views


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [(tock, 4, {"game_type": "2v2"}), (dog, 4, {}), (tock, 4, {})],
)
def test_hard_race_moves_are_legal_along_a_game(
    game: Any, players: int, options: dict[str, Any]
) -> None:
    for view in _race_views_along_a_game(game, players, options, step=9):
        state = game.sample_state(view, 0)
        move = choose_move(game.NAME, view, "hard", seed=3, iterations=3, time_budget=30.0)
        assert move in {m.text for m in game.legal_moves(state, view["viewer"])}


def test_hard_carcassonne_turns_are_legal_along_a_game() -> None:
    state = carc.new_game(2, {"inns_cathedrals": "full"}, 4)
    checked = 0
    while carc.outcome(state) is None:
        view = carc.view(state, state.to_act)
        if len(state.tiles) % 12 == 1:
            move = choose_move("carcassonne", view, "hard", seed=5, iterations=1, time_budget=30)
            carc.apply(state, move)  # raises IllegalMove if it is not legal
            checked += 1
        state = carc.apply(state, choose_move("carcassonne", view, "easy", seed=len(state.tiles)))
    assert checked >= 6


# -- acting on the view only ----------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("game", "options"), [(tock, {"game_type": "2v2"}), (dog, {})])
def test_race_bot_ignores_hidden_cards(game: Any, options: dict[str, Any], level: str) -> None:
    real = game.new_game(4, options, 5)
    # Get past the exchange so that the bot has a card play to choose.
    for seat in sorted(game.seats_to_act(real)):
        real = game.apply(real, game.legal_moves(real, seat)[0], seat)
    seat = real.turn
    view = game.view(real, seat)
    # Two full states that differ only in what the seat cannot see.
    one, two = game.sample_state(view, 1), game.sample_state(view, 2)
    others = [s for s in one.cfg.seats if s != seat]
    assert [one.hands[s] for s in others] != [two.hands[s] for s in others]
    assert one.draw != two.draw
    assert game.view(one, seat) == game.view(two, seat)
    moves = {_choose(game.NAME, game.view(s, seat), level, seed=9) for s in (one, two)}
    assert len(moves) == 1


@pytest.mark.parametrize("level", LEVELS)
def test_carcassonne_bot_ignores_the_pile_order(level: str) -> None:
    real = carc.new_game(2, {}, 3)
    for _ in range(6):
        real = carc.apply(
            real, choose_move("carcassonne", carc.view(real, real.to_act), "normal", seed=1)
        )
    seat = real.to_act
    view = carc.view(real, seat)
    one, two = carc.sample_state(view, 1), carc.sample_state(view, 2)
    assert one.pile[one.pile_pos :] != two.pile[two.pile_pos :]
    assert carc.view(one, seat) == carc.view(two, seat)
    moves = {_choose("carcassonne", carc.view(s, seat), level, seed=4) for s in (one, two)}
    assert len(moves) == 1


# -- determinism and bad input ------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("name", ["tock", "dog", "carcassonne"])
def test_same_seed_same_move(name: str, level: str) -> None:
    game = get_game(name)
    options: dict[str, Any] = {"game_type": "2v2"} if name == "tock" else {}
    players = 2 if name == "carcassonne" else 4
    state = game.new_game(players, options, 21)
    seat = min(game.seats_to_act(state))
    view = game.view(state, seat)
    first = choose_move(name, view, level, seed=77, iterations=3, time_budget=30.0)
    again = choose_move(name, view, level, seed=77, iterations=3, time_budget=30.0)
    assert first == again


def test_easy_depends_on_the_seed() -> None:
    state = carc.new_game(2, {}, 1)
    view = carc.view(state, 0)
    assert len({choose_move("carcassonne", view, "easy", seed=s) for s in range(12)}) > 1


@pytest.mark.parametrize("level", ["", "Hard", "expert", "medium"])
def test_unknown_level_is_refused(level: str) -> None:
    state = tock.new_game(2, {}, 1)
    with pytest.raises(ValueError, match="level"):
        choose_move("tock", tock.view(state, state.turn), level, seed=0)


def test_a_seat_that_owes_no_decision_is_refused() -> None:
    state = carc.new_game(2, {}, 1)
    waiting = 1 - state.to_act
    with pytest.raises(ValueError, match="owes no decision"):
        choose_move("carcassonne", carc.view(state, waiting), "normal", seed=0)


def test_unknown_game_is_refused() -> None:
    state = tock.new_game(2, {}, 1)
    with pytest.raises(ValueError, match="game"):
        choose_move("chess", tock.view(state, state.turn), "easy", seed=0)


# -- the phases of a turn -------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_a_pending_seven_is_continued_with_a_legal_segment(level: str) -> None:
    state = tock.from_position(
        {
            "game": "tock",
            "pawns": {"0": ["r20", "r40"], "1": ["r23"]},
            "hands": {"0": ["2"], "1": ["5"], "2": ["6"], "3": ["9"]},
            "turn": 0,
            "seven": {"card": "7", "colour": 0, "left": 4, "moved": ["r20"]},
        }
    )
    legal = {m.text for m in tock.legal_moves(state)}
    move = _choose("tock", tock.view(state, 0), level, seed=2)
    assert move in legal
    assert ":" not in move  # a bare walk, not a new card play


@pytest.mark.parametrize("level", LEVELS)
def test_carcassonne_figure_phase_gets_a_figure_action(level: str) -> None:
    state = carc.apply(carc.new_game(2, {}, 2), carc.legal_moves(carc.new_game(2, {}, 2))[0])
    assert state.phase == "figure"
    move = _choose("carcassonne", carc.view(state, state.to_act), level, seed=3)
    assert move in {str(a) for a in carc.legal_moves(state)}


@pytest.mark.parametrize("level", LEVELS)
def test_exchange_phase_gets_a_pick(level: str) -> None:
    state = dog.new_game(4, {}, 8)
    assert state.phase == "exchange"
    move = _choose("dog", dog.view(state, 1), level, seed=3)
    assert move.startswith("G:")
    assert move[2:] in state.hands[1]


# -- good sense of the heuristic and the search ------------------------------------------------


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_captures_the_opponent_it_can_hit(level: str) -> None:
    state = tock.from_position(
        {
            "game": "tock",
            "pawns": {"0": ["r10"], "1": ["r15"]},
            "hands": {"0": ["5", "2", "3"], "1": ["6", "8"], "2": ["9", "9"], "3": ["8", "8"]},
            "turn": 0,
        }
    )
    assert _choose("tock", tock.view(state, 0), level, seed=1) == "5:r10-r15"


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_brings_a_pawn_home_as_deep_as_it_can(level: str) -> None:
    state = dog.from_position(
        {
            "game": "dog",
            "pawns": {"0": ["r62", "r30"], "1": ["r40"]},
            "hands": {"0": ["3", "6"], "1": ["2", "8"], "2": ["9", "9"], "3": ["Q", "Q"]},
            "turn": 0,
        }
    )
    # 3:r62-h0.1 also enters, but the 6 reaches the deepest slot and leaves room behind.
    assert _choose("dog", dog.view(state, 0), level, seed=1) == "6:r62-h0.4"


def _partner_in_the_kennel(red_hand: list[str]) -> Any:
    """A Tock 2v2 exchange: red has two pawns on the ring, its partner all four in the kennel."""
    return tock.from_position(
        {
            "game": "tock",
            "teams": [[0, 2], [1, 3]],
            "phase": "exchange",
            "pawns": {"0": ["r30", "r40"], "2": []},
            "hands": {
                "0": red_hand,
                "1": ["2", "3", "5", "6", "8"],
                "2": ["2", "3", "5", "6", "8"],
                "3": ["2", "3", "5", "6", "9"],
            },
            "turn": 1,
            "dealer": 0,
        }
    )


def test_passes_a_spare_start_card_to_a_partner_stuck_in_the_kennel() -> None:
    state = _partner_in_the_kennel(["2", "3", "5", "K", "K"])
    assert choose_move("tock", tock.view(state, 0), "normal", seed=1) == "G:K"


def test_hard_passes_the_only_start_card_to_a_partner_stuck_in_the_kennel() -> None:
    # Red keeps two pawns on the ring to move with its small cards; its partner has all
    # four pawns in the kennel. The one-move pick score sees a tie (the K is worth as much
    # to red, with two pawns of its own waiting; ``normal`` passes the 2), the search
    # plays the partner's turns with each card and sees that only the K lets it move.
    state = _partner_in_the_kennel(["2", "3", "5", "8", "K"])
    view = tock.view(state, 0)
    for seed in (1, 2):
        assert choose_move("tock", view, "hard", seed=seed, iterations=12, time_budget=30) == "G:K"


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_completes_a_city_with_its_follower(level: str) -> None:
    # Red holds E: closing the start tile's city with a knight scores 4 at once.
    state = carc.from_setup({"players": 2, "seed": 0, "start_player": 0, "draws": ["E", "U"]})
    move = _choose("carcassonne", carc.view(state, 0), level, seed=1)
    assert move == "E 0,-1@180 follower:city0"
    assert carc.apply(state, move).scores == (4, 0)


def test_hard_sees_that_no_tile_left_can_close_a_city() -> None:
    from engine.bots.carcassonne_eval import TileOdds

    state = carc.new_game(2, {}, 1)
    root = next(r for r, f in state.feats.items() if f.kind == 0)  # the start tile's city
    feat = state.feats[root]
    assert TileOdds(state).chance(state, root, feat) > 0.3
    # Only straight roads left to come: nothing can ever touch the city's open side.
    roads_only = state.copy()
    roads_only.pile = ("U",) * len(state.pile)
    assert TileOdds(roads_only).chance(roads_only, root, feat) == 0.0


# -- the hard search --------------------------------------------------------------------------


def test_search_drops_a_clearly_worse_candidate_and_takes_a_clearly_better_one() -> None:
    from engine.bots import search
    from engine.bots.common import Budget

    calls = [0, 0, 0]

    def play(world: int, i: int) -> float:
        calls[i] += 1
        luck = (world * 7919) % 13  # the same luck for every candidate in a world
        return luck + (0.0, -30.0 + world % 3, 4.0 + world % 2)[i]

    assert search._search(3, Budget(30.0, 20), play) == 2
    assert calls[0] == calls[2] == 20
    # The clearly worse move stops costing rollouts once the evidence is in.
    assert calls[1] == search.PRUNE_WORLDS


def test_search_keeps_the_normal_choice_without_evidence() -> None:
    from engine.bots import search
    from engine.bots.common import Budget

    def play(world: int, i: int) -> float:
        # Candidate 1 looks better on average only by luck: its edge flips sign.
        return 0.0 if i == 0 else (5.0 if world % 2 else -4.0)

    assert search._search(2, Budget(30.0, 8), play) == 0


def test_hard_endgame_rollout_counts_the_final_score() -> None:
    from engine.bots import search
    from engine.bots.carcassonne_policy import normal_choice

    state = carc.from_setup(
        {"players": 2, "seed": 0, "start_player": 0, "draws": ["E", "U", "V", "U", "B"]}
    )
    after = carc.apply(state, "E 0,-1@180 follower:city0")
    assert after.tiles_left() <= search.CARC_ENDGAME_TILES
    end = after
    while end.phase != "finished":
        end = carc.apply(end, normal_choice(end, end.to_act))
    margin = end.scores[0] - end.scores[1]
    bonus = search.FINAL_WIN if end.winners == (0,) else 0.0
    assert search._carc_rollout(after, 0, to_end=True) == margin + bonus
