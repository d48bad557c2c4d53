"""Engine events said from their facts, in English, German and Hungarian alike."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import get_game
from i18n.catalog import game_terms
from i18n.events import (
    event_message,
    event_messages,
    event_text,
    feature_words,
    place_words,
    stuck_words,
)
from i18n.message import list_words
from tests.sentence_lint import problems

BOARD = {"ring": 64, "per_seat": 16}


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
@pytest.mark.parametrize("locale", ["en", "de", "hu"])
def test_events_of_a_played_game_are_sentences_in_the_language(game: str, locale: str) -> None:
    kinds = set()
    for event in GAMES[game]:
        message = event_message(event, game=game, board=BOARD)
        kinds.add(event["kind"])
        if message is None:
            continue
        assert message.key != "event.unknown", event
        text = message.text(locale)
        assert "{" not in text, text
        assert "}" not in text, text
        assert text.endswith((".", "!")), text
        if locale != "en":
            assert text != message.text("en"), f"{event['kind']} stayed English: {text}"
    expected = {"play", "move", "deal"} if game != "carcassonne" else {"place", "score"}
    assert expected <= kinds  # the play-out really met the common events


def test_race_places_are_counted_from_the_pawns_own_start() -> None:
    assert place_words("r19", 1, BOARD).text("en") == "3 fields past its start"
    assert place_words("r13", 1, BOARD).text("en") == "3 fields before its start"
    assert place_words("r16", 1, BOARD, own=True).text("en") == "your start field"
    assert place_words("r17", 1, BOARD).text("de") == "1 Feld nach ihrem Start"
    assert place_words("h1.2", 1, BOARD, own=True).text("en") == "home 2"  # "your pawn … → home 2"


def test_race_events_name_seats_by_colour_and_never_notation() -> None:
    capture = {"kind": "capture", "seat": 1, "data": {"at": "r12", "by": 0, "to": "k1"}}
    assert event_text(capture, "de", game="tock") == (
        "Die Figur von Blau wird geschlagen und muss zurück in den Startbereich."
    )
    assert event_text(capture, "de", game="dog") == (
        "Der Pöppel von Blau wird geschlagen und muss zurück ins Starthaus."
    )
    play = {"kind": "play", "seat": 0, "data": {"card": "J", "move": "J:r59<>r31"}}
    assert event_text(play, "en", game="tock") == "Red plays a Jack."
    joker = {"kind": "play", "seat": 2, "data": {"card": "X", "move": "X=7:r1-r8"}}
    assert event_text(joker, "de", game="dog") == "Gelb spielt den Joker als 7."


def test_a_discard_says_why() -> None:
    import engine.tock as tock

    state = tock.new_game(4, {}, 3)
    rng = random.Random(3)
    reasons = set()
    for _ in range(400):
        seat = min(tock.seats_to_act(state))
        state = tock.apply(state, rng.choice(tock.legal_moves(state, seat)))
        for event in state.events:
            if event.kind == "discard":
                key = event_message(event.to_json(), game="tock")
                reasons.add(getattr(key, "key", None))
    assert {"event.discard_banned", "event.discard_stuck"} <= reasons, reasons
    stuck = {"kind": "discard", "seat": 3, "data": {"card": "5", "auto": False}}
    banned = {"kind": "discard", "seat": 3, "data": {"card": "5", "auto": False, "banned": True}}
    assert event_text(stuck, "en", game="tock") == "Green cannot move any pawn and discards a 5."
    assert event_text(banned, "en", game="tock") == "Green discards a 5."


def test_the_kind_a_joker_is_played_as_takes_the_case_of_the_sentence() -> None:
    """German *Bube* is a weak noun: "den Joker als Buben"; Hungarian says it before
    *helyett* in lower case; English with its article."""
    jack = {"kind": "play", "seat": 1, "data": {"card": "X", "move": "X=J:r16<>r40"}}
    assert event_text(jack, "de", game="dog") == "Blau spielt den Joker als Buben."
    assert event_text(jack, "hu", game="dog") == "Kék bubiként játssza ki a jokert."
    assert event_text(jack, "en", game="dog") == "Blue plays the Joker as a Jack."
    ace = {"kind": "play", "seat": 1, "data": {"card": "X", "move": "X=A:E"}}
    assert event_text(ace, "de", game="dog") == "Blau spielt den Joker als As."
    assert event_text(ace, "en", game="dog") == "Blue plays the Joker as an Ace."
    king = {"kind": "play", "seat": 1, "data": {"card": "X", "move": "X=K:E"}}
    assert event_text(king, "de", game="dog") == "Blau spielt den Joker als König."
    assert event_text(king, "hu", game="dog") == "Kék királyként játssza ki a jokert."
    eight = {"kind": "play", "seat": 1, "data": {"card": "X", "move": "X=8:r16-r24"}}
    assert event_text(eight, "hu", game="dog") == "Kék 8-asként játssza ki a jokert."


def test_a_forced_discard_or_fold_says_why_and_names_the_pawn_in_the_way() -> None:
    """T-5.3, D-6.2: the table hears why (the table service adds the engine's facts)."""
    blocked = {"reason": "blocked", "colour": 3, "by": [1]}
    discard = {"kind": "discard", "seat": 3, "data": {"card": "5", "stuck": blocked}}
    said = {locale: event_text(discard, locale, game="tock") for locale in ("en", "de", "hu")}
    assert said["en"] == (
        "Green cannot move any pawn and discards a 5: "
        "the way is blocked by Blue's pawn on its start field."
    )
    assert said["de"] == (
        "Grün kann keine Figur ziehen und wirft eine 5 ab: "
        "Den Weg versperrt die Figur von Blau auf ihrem Startfeld."
    )
    assert "Kék bábuja a kezdőmezőjén" in said["hu"]
    two = {"reason": "blocked", "colour": 0, "by": [1, 2]}
    fold = {"kind": "fold", "seat": 0, "data": {"auto": False, "stuck": two}}
    assert event_text(fold, "de", game="dog") == (
        "Rot kann keinen Pöppel ziehen und setzt aus: Den Weg versperren der Pöppel von Blau "
        "auf seinem Startfeld und der Pöppel von Gelb auf seinem Startfeld."
    )
    kennel = {"kind": "fold", "seat": 2, "data": {"stuck": {"reason": "kennel", "colour": 2}}}
    assert event_text(kennel, "en", game="dog") == (
        "Yellow cannot bring a pawn out of the kennel and folds."
    )
    for locale in ("en", "de", "hu"):
        for event, game in ((discard, "tock"), (fold, "dog"), (kennel, "dog")):
            text = event_text(event, locale, game=game)
            assert problems(text, locale) == [], text


def test_the_prompt_says_why_the_player_must_discard_or_fold() -> None:
    blocked = {"reason": "blocked", "colour": 0, "by": [0]}
    assert stuck_words(blocked, 0, "tock", own=True).text("en") == (
        "None of your cards can move a pawn: the way is blocked by your own pawn on your "
        "start field. Discard one card."
    )
    kennel = {"reason": "kennel", "colour": 0}
    with game_terms("dog"):
        assert stuck_words(kennel, 0, "dog", fold=True, own=True).text("de") == (
            "Alle deine Pöppel sind im Starthaus und keine deiner Karten bringt einen heraus: "
            "Du musst diese Runde **aussetzen**."
        )
    # A finished player moving the partner's pawns: not "all your pawns".
    partner = {"reason": "kennel", "colour": 2}
    assert stuck_words(partner, 0, "tock", own=True).text("en") == (
        "None of your cards can move a pawn: discard one card."
    )
    for locale in ("en", "de", "hu"):
        for facts in (blocked, kennel, None):
            for fold in (False, True):
                text = stuck_words(facts, 0, "dog", fold=fold, own=True).text(locale)
                assert problems(text, locale, "private") == [], text


def test_the_end_and_a_pick_are_left_to_the_tables_own_sentence() -> None:
    over = {"kind": "game_over", "seat": None, "data": {"winners": [0, 2]}}
    assert event_message(over, game="dog") is None
    assert event_message({"kind": "pick", "seat": 0, "data": {}}, game="tock") is None


def test_carcassonne_events_use_the_players_names_and_words_for_the_tile() -> None:
    place = {"kind": "place", "seat": 1, "data": {"tile": "E", "x": 0, "y": -1, "rot": 90}}
    assert event_text(place, "en", game="carcassonne", names=["Ann", "Bo"]) == (
        "Bo places a tile with a city."
    )
    figure = {
        "kind": "figure",
        "seat": 0,
        "data": {"kind": "follower", "segment": "city0", "x": 0, "y": 0, "sides": ["N"]},
    }
    assert event_text(figure, "en", game="carcassonne", names=["Ann", "Bo"]) == (
        "Ann puts a follower in the city to the north."
    )
    assert event_text(figure, "hu", game="carcassonne", names=["Ann", "Bo"]) == (
        "Ann alattvalót tesz az északi városba."
    )
    # German puts a figure *in* a city and a monastery, *auf* a road or a field (accusative).
    assert event_text(figure, "de", game="carcassonne", names=["Ann", "Bo"]) == (
        "Ann setzt einen Gefolgsmann in die Stadt im Norden."
    )
    monk = {"kind": "figure", "seat": 1, "data": {"kind": "follower", "segment": "monastery"}}
    assert event_text(monk, "de", game="carcassonne", names=["Ann", "Bo"]) == (
        "Bo setzt einen Gefolgsmann ins Kloster."
    )


def test_features_as_a_player_sees_them() -> None:
    assert feature_words("field1", ["S", "W"]).text("en") == "the field to the south and west"
    assert feature_words("monastery", []).text("de") == "das Kloster"
    assert feature_words("road0", ["E", "W"]).text("hu") == "a keleti és nyugati út"


def test_unknown_events_are_not_said_and_broken_ones_say_so_in_the_language() -> None:
    assert event_message({"kind": "comet", "seat": 0, "data": {}}, game="tock") is None
    broken = {"kind": "move", "seat": 1, "data": {}}
    assert event_text(broken, "hu", game="tock") == "Valami történt a táblán."


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


def test_a_pawn_sent_home_is_told_after_the_move_that_lands_on_it() -> None:
    played = {"kind": "play", "seat": 3, "data": {"card": "K", "move": "K:E"}}
    out = {"kind": "bring_out", "seat": 3, "data": {"colour": 3}}
    knocked = {"kind": "capture", "seat": 0, "data": {}}
    said = " ".join(
        m.text("en") for m in event_messages([played, knocked, out], game="tock", board=BOARD)
    )
    assert said == (
        "Green plays a King. Green brings a pawn out onto its start field. "
        "Red's pawn is sent back to its kennel."
    )


def test_a_pawn_leaving_its_own_start_backwards_is_not_your_pawn_your_start() -> None:
    from i18n.moves import race_label

    view = {"viewer": 0, "board": BOARD, "pawns": {"0": ["r0"]}}
    label = race_label("4:r0-r60", view, {})
    assert label.text("en") == "4: your pawn from your start field → 4 fields before your start"
    assert label.text("de") == "4: deine Figur vom Startfeld → 4 Felder vor deinem Start"
