"""Durations, table options and card names in words."""

from __future__ import annotations

from i18n.words import card_text, duration_text, options_line

TOCK = {"game_type": "2v2", "seven": "split", "quick_start": True, "variant5": False}
CARCASSONNE = {"farms": "third", "river": True, "inns_cathedrals": "full", "small_cities": False}


def test_english_reads_as_the_lobby_always_did() -> None:
    assert options_line(4, TOCK, 300, "en") == (
        "4 players · game type: 2v2 · quick start · seven: split · turn time: 5 min"
    )
    assert options_line(2, CARCASSONNE, 0, "en-US") == (
        "2 players · farms: third edition · Inns & Cathedrals: full · river · no clock"
    )


def test_options_in_german_and_hungarian() -> None:
    assert options_line(4, TOCK, 300, "de") == (
        "4 Spieler · Spielart: 2 gegen 2 · Schnellstart · Sieben: aufteilen · Zugzeit: 5 Min."
    )
    assert options_line(2, CARCASSONNE, 86400, "hu") == (
        "2 játékos · mezők: harmadik kiadás · Fogadók és katedrálisok: teljes · folyó"
        " · lépésidő: 1 nap"
    )


def test_options_not_in_play_are_left_out() -> None:
    assert options_line(2, {"traders_builders": "off", "river": False}, 0, "de") == (
        "2 Spieler · ohne Uhr"
    )


def test_an_option_without_words_still_shows() -> None:
    assert options_line(2, {"house_rule": 3}, 0, "de") == "2 Spieler · house rule: 3 · ohne Uhr"


def test_durations() -> None:
    assert [duration_text(s, "en") for s in (45, 120, 7200, 172800)] == [
        "45 s",
        "2 min",
        "2 h",
        "2 d",
    ]
    assert duration_text(3600, "hu") == "1 óra"


def test_cards() -> None:
    assert [card_text(c, "de") for c in ("A", "J", "Q", "K", "X", "7")] == [
        "A",
        "B",
        "D",
        "K",
        "Joker",
        "7",
    ]
    assert card_text("J", "en") == "J"
