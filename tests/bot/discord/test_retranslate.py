"""The table service's English sentences said again in the reader's language."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.discord_ui.retranslate import match_english, retranslate

BOT = Path(__file__).resolve().parents[3] / "bot"
#: The table service's modules (it raises its refusals as ``TableError`` sentences).
SERVICE = sorted(
    [BOT / "tables.py", BOT / "turn_clock.py", BOT / "bot_turns.py", *BOT.glob("table_*.py")]
)


def _refusals() -> list[str]:
    """Every message the service raises, with its ``{placeholders}`` filled with ``7``."""
    found = []
    for path in SERVICE:
        if path.exists():
            found += _raised(path)
    return found


def _raised(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
            continue
        for arg in node.exc.args:
            parts = arg.values if isinstance(arg, ast.JoinedStr) else [arg]
            if not all(isinstance(p, ast.Constant | ast.FormattedValue) for p in parts):
                continue  # a conditional message: checked by the sentences below
            text = "".join(str(p.value) if isinstance(p, ast.Constant) else "7" for p in parts)
            if any(c.isalpha() for c in text):
                found.append(text)
    return found


@pytest.mark.parametrize("sentence", _refusals())
def test_every_refusal_of_the_service_reads_in_german_and_hungarian(sentence: str) -> None:
    assert match_english(sentence) is not None, f"no catalogue key for {sentence!r}"
    assert retranslate(sentence, "de") != sentence
    assert retranslate(sentence, "hu") != sentence


@pytest.mark.parametrize(
    ("english", "german"),
    [
        ("Seat 3 is taken.", "Platz 3 ist besetzt."),
        (
            "You cannot join now: this table is still in its lobby.",
            "Du kannst jetzt nicht beitreten: dieser Tisch ist noch in der Lobby.",
        ),
        ("A easy bot took seat 2.", "Ein Bot (leicht) hat Platz 2 genommen."),
        ("Ann joined (seat 2).", "Ann ist beigetreten (Platz 2)."),
        (
            "That person has no seat at this table.",
            "Diese Person hat keinen Platz an diesem Tisch.",
        ),
        ("The game of Carcassonne begins.", "Die Partie Carcassonne beginnt."),
        (
            "Ann opened a Dog table for 4 players.",
            "Ann hat einen Dog-Tisch für 4 Spieler eröffnet.",
        ),
    ],
)
def test_sentences_with_their_parameters(english: str, german: str) -> None:
    assert retranslate(english, "de") == german


def test_unknown_sentences_and_english_readers_are_left_alone() -> None:
    assert retranslate("Something nobody wrote a key for.", "de") == (
        "Something nobody wrote a key for."
    )
    assert retranslate("Seat 3 is taken.", "en-US") == "Seat 3 is taken."
