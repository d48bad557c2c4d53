"""Engine events told in German and Hungarian, rebuilt from their facts."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import get_game
from i18n.events import event_text, list_words


def _events(game: str, players: int, options: dict[str, Any], seed: int, steps: int) -> list:
    module: Any = get_game(game)
    state = module.new_game(players, options, seed)
    rng = random.Random(seed)
    events = [e.to_json() for e in state.events]
    for _ in range(steps):
        if module.outcome(state) is not None:
            break
        seat = min(module.seats_to_act(state))
        state = module.apply(state, rng.choice(module.legal_moves(state, seat)))
        events += [e.to_json() for e in state.events]
    return events


GAMES = {
    "tock": _events("tock", 4, {"game_type": "2v2"}, seed=1, steps=700),
    "dog": _events("dog", 4, {}, seed=1, steps=700),
    "carcassonne": _events(
        "carcassonne",
        3,
        {"inns_cathedrals": "full", "traders_builders": "full"},
        seed=1,
        steps=400,
    ),
}


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("locale", ["de", "hu"])
def test_events_of_a_played_game_read_in_the_language(game: str, locale: str) -> None:
    kinds = set()
    for event in GAMES[game]:
        text = event_text(event, locale, game=game)
        kinds.add(event["kind"])
        assert "{" not in text, text
        assert text != event["text"], f"{event['kind']} stayed English: {text}"
    expected = {"play", "move", "deal"} if game != "carcassonne" else {"place", "score"}
    assert expected <= kinds  # the play-out really met the common events


@pytest.mark.parametrize("game", sorted(GAMES))
def test_english_is_the_engines_own_sentence(game: str) -> None:
    for event in GAMES[game]:
        assert event_text(event, "en-GB", game=game) == event["text"]


def test_race_events_name_seats_by_colour() -> None:
    capture = {
        "kind": "capture",
        "seat": 1,
        "data": {"at": "r12", "by": 0, "to": "k1"},
        "text": "Blue's pawn on r12 goes back to its kennel.",
    }
    assert event_text(capture, "de", game="tock") == (
        "Die Figur von Blau auf r12 wird geschlagen und kehrt in den Zwinger zurück."
    )
    over = {"kind": "game_over", "seat": None, "data": {"winners": [0, 2]}, "text": "x"}
    assert event_text(over, "hu", game="dog") == "Nyertes: Piros és Sárga!"


def test_carcassonne_events_use_the_players_names() -> None:
    place = {
        "kind": "place",
        "seat": 1,
        "data": {"tile": "E", "x": 0, "y": -1, "rot": 90},
        "text": "Bo places E at (0,-1), turned 90°",
    }
    assert event_text(place, "de", game="carcassonne", names=["Ann", "Bo"]) == (
        "Bo legt E auf (0,-1), gedreht um 90°"
    )
    score = {
        "kind": "score",
        "seat": None,
        "data": {
            "feature": "city",
            "tiles": 3,
            "shields": 1,
            "multiplier": 2,
            "cathedral": False,
            "final": False,
            "points": 8,
            "owners": [0, 1],
        },
        "text": "city of 3 tiles ×2 + 1 shield ×2 = 8 — Ann and Bo tie",
    }
    assert event_text(score, "de", game="carcassonne", names={0: "Ann", 1: "Bo"}) == (
        "Stadt aus 3 Karten ×2 + 1 Wappen ×2 = 8 — Gleichstand Ann und Bo"
    )


def test_unknown_or_incomplete_events_keep_the_engines_sentence() -> None:
    new_kind = {"kind": "comet", "seat": 0, "data": {}, "text": "A comet passes."}
    assert event_text(new_kind, "de", game="tock") == "A comet passes."
    broken = {"kind": "capture", "seat": 1, "data": {}, "text": "Blue's pawn is captured."}
    assert event_text(broken, "hu", game="tock") == "Blue's pawn is captured."


def test_lists_in_words() -> None:
    assert list_words(["Rot"], "de") == "Rot"
    assert list_words(["Rot", "Blau", "Gelb"], "de") == "Rot, Blau und Gelb"
    assert list_words(["a", "b"], "en") == "a and b"


def test_placing_no_figure_reads_in_german_and_hungarian() -> None:
    import engine.carcassonne as carc

    state = carc.new_game(2, {}, seed=5)
    state = carc.apply(state, carc.legal_moves(state)[0])
    state = carc.apply(state, "none")
    (event,) = [e.to_json() for e in state.events if e.kind == "no_figure"]
    assert "keine Figur" in event_text(event, "de", game="carcassonne")
    assert "nem tesz le figurát" in event_text(event, "hu", game="carcassonne")
