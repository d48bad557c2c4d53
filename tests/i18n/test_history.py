"""A table's history in words: a pick names its card only when the service gave it."""

from __future__ import annotations

import pytest

from bot.table_history import HistoryEntry, HistoryKind
from i18n import LOCALES
from i18n.history import history_line


@pytest.mark.parametrize("locale", LOCALES)
def test_a_hidden_pick_says_a_card_was_chosen_and_never_which(locale: str) -> None:
    hidden = history_line(HistoryEntry(3, HistoryKind.PICK, 1), "anna", locale)
    changed = history_line(HistoryEntry(4, HistoryKind.PICK, 1, changed=True), "anna", locale)
    assert hidden.startswith("3. ")
    assert "anna" in hidden
    assert "anna" in changed
    assert hidden != changed
    for text in (hidden, changed):
        assert "G:" not in text
        assert "{" not in text


@pytest.mark.parametrize(
    ("locale", "own", "received"),
    [
        ("en", "1. You chose J to pass to your partner.", "2. anna passed you J."),
        ("de", "1. Du hast B für deinen Partner gewählt.", "2. anna hat dir B gegeben."),
        ("hu", "1. Ezt a lapot választottad a társadnak: B.", "2. anna ezt a lapot adta neked: B."),
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
    assert history_line(move, "cleo", "en") == "5. cleo: K:E"
    assert history_line(HistoryEntry(6, HistoryKind.AUTO, 2), "cleo", "de").startswith("6. ")
    for kind in (HistoryKind.AUTO, HistoryKind.LEAVE, HistoryKind.BOT):
        for locale in LOCALES:
            text = history_line(HistoryEntry(7, kind, 2), "cleo", locale)
            assert "cleo" in text
            assert "history." not in text  # a catalogue key, not a missing message
