"""A table's history in words: a pick names its card only when the service gave it."""

from __future__ import annotations

import pytest

from bot.model.history import HistoryEntry, HistoryKind
from i18n import LOCALES
from i18n.events import event_text
from i18n.history import history_line


@pytest.mark.parametrize("locale", LOCALES)
def test_a_hidden_pick_says_a_card_was_chosen_and_never_which(locale: str) -> None:
    hidden = history_line(HistoryEntry(3, HistoryKind.PICK, 1), "anna", locale)
    changed = history_line(HistoryEntry(4, HistoryKind.PICK, 1, changed=True), "anna", locale)
    # Hungarian numbers the line in brackets: "3. 2. bot" would be two ordinals in a row.
    assert hidden.startswith("[3] " if locale == "hu" else "3. ")
    assert "anna" in hidden
    assert "anna" in changed
    assert hidden != changed
    for text in (hidden, changed):
        assert "G:" not in text
        assert "{" not in text


@pytest.mark.parametrize(
    ("locale", "own", "received"),
    [
        ("en", "1. You chose a Jack to pass to your partner.", "2. anna passed you a Jack."),
        (
            "de",
            "1. Du hast einen Buben für deinen Partner gewählt.",
            "2. anna hat dir einen Buben gegeben.",
        ),
        ("hu", "[1] Egy bubit választottál a társadnak.", "[2] anna egy bubit adott neked."),
    ],
)
def test_a_known_pick_names_its_card_in_the_readers_words(
    locale: str, own: str, received: str
) -> None:
    mine = HistoryEntry(1, HistoryKind.PICK, 0, card="J")
    passed = HistoryEntry(2, HistoryKind.PICK, 1, card="J", received=True)
    assert history_line(mine, "bob", locale) == own
    assert history_line(passed, "anna", locale) == received


def test_moves_and_the_rules_acting_for_a_seat() -> None:
    move = HistoryEntry(5, HistoryKind.MOVE, 2, move="K:E")
    assert history_line(move, "cleo", "en", notation=True) == "5. cleo: K:E"
    assert history_line(move, "cleo", "en") == "5. cleo made a move."  # no events: no notation
    assert history_line(HistoryEntry(6, HistoryKind.AUTO, 2), "cleo", "de").startswith("6. ")
    for kind in (HistoryKind.AUTO, HistoryKind.LEAVE, HistoryKind.BOT):
        for locale in LOCALES:
            text = history_line(HistoryEntry(7, kind, 2), "cleo", locale)
            assert "cleo" in text
            assert "history." not in text  # a catalogue key, not a missing message


PLAY_KING = (
    {"kind": "play", "seat": 2, "data": {"card": "K", "move": "K:E"}, "public": True},
    {"kind": "bring_out", "seat": 2, "data": {"colour": 2}, "public": True},
)


@pytest.mark.parametrize("locale", LOCALES)
def test_a_move_is_said_in_the_words_the_thread_was_told(locale: str) -> None:
    move = HistoryEntry(5, HistoryKind.MOVE, 2, move="K:E", events=PLAY_KING)
    told = " ".join(event_text(e, locale, game="tock") for e in PLAY_KING)
    number = "[5]" if locale == "hu" else "5."
    assert history_line(move, "cleo", locale, game="tock") == f"{number} cleo: {told}"
    assert "K:E" not in told
    assert history_line(move, "cleo", locale, game="tock", notation=True) == f"{number} cleo: K:E"


def test_the_rules_acting_for_a_seat_say_what_they_did_in_words_only() -> None:
    discard = {"kind": "discard", "seat": 2, "data": {"card": "5", "auto": True}, "public": True}
    auto = HistoryEntry(6, HistoryKind.AUTO, 2, events=(discard,))
    words = history_line(auto, "cleo", "en", game="tock")
    assert words.startswith("6. The game moved for cleo. ")
    assert "5" in words.removeprefix("6. ")
    assert history_line(auto, "cleo", "en", game="tock", notation=True) == (
        "6. The game moved for cleo."
    )
