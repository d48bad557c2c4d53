"""The sentence lint on the examples of issue 18 and on a few seeded games of each family.

The 100-games-per-family run is ``tests/test_sentences_slow.py`` (marked slow, CI runs it).
"""

from __future__ import annotations

import pytest

from tests.sentence_lint import FAMILIES, Collected, play_and_collect, problems

#: What players read before the sentences came from the catalogues (issue 18), each with
#: the locale and kind of text it was: the lint must find something wrong with every one.
ISSUE_EXAMPLES = [
    ("en", "private", "You received a **A** from your partner."),
    ("en", "label", "7: 1 steps left"),
    ("en", "private", "Choose where to place it (1 cells)."),
    ("en", "public", "Green win the game! 1 tiles left"),
    ("en", "label", "Choose a move (page 1 of 1)"),
    ("en", "lobby", "🤖 Bot 2 (easy) (easy)"),
    ("en", "public", "anna: Red plays A:E. Red brings a pawn out onto r0."),
    ("en", "public", "Blue plays J:r59<>r31."),
    ("en", "public", "Blue plays 7:r18-r22,r50-r52,h1.3-h1.4."),
    ("en", "label", "A: follower (farmer) on field0"),
    ("en", "private", "pawns 0:r0*,k0,k0,k0 1:k1,k1,k1,k1"),
    ("en", "public", "Blue places R04 at (0,2), turned 90° Blue places no figure"),
    ("en", "public", "city, 2 tiles ×2 = 4 — Blue Blue's follower on (0,1) returns to supply"),
    ("en", "public", "Winner: Blue Game over: Bot 2 (normal) won."),
    ("de", "public", "Bot 2 (easy): Blau wirft 10 ab."),
    ("hu", "public", "Bot 3 (easy): Green lerakja: X (7,-4), 0°-kal elforgatva"),
    ("de", "public", "anna: Red setzt Gefolgsmann auf road1 bei (-1,-2)"),
    ("en", "turn", "It's <@100>'s turn with tile **G** (3 tiles left in the pile)."),
]


@pytest.mark.parametrize(("locale", "kind", "text"), ISSUE_EXAMPLES)
def test_the_lint_finds_what_issue_18_found(locale: str, kind: str, text: str) -> None:
    assert problems(text, locale, kind, names=["anna"]), text


def test_the_lint_passes_sentences_a_person_would_write() -> None:
    assert problems("anna: Red plays a King. Red brings a pawn out.", "en", names=["anna"]) == []
    assert problems("Bo puts a follower in the city to the north.", "en") == []
    assert problems("1 tile left", "en", "label") == []
    assert problems("Anna legt eine Karte mit einer Stadt.", "de", names=["Anna"]) == []
    assert problems("Anna alattvalót tesz ide: az északi város.", "hu", names=["Anna"]) == []


@pytest.mark.parametrize("family", sorted(FAMILIES))
async def test_a_few_games_of_each_family_read_well(family: str) -> None:
    collected = Collected()
    await play_and_collect(family, 1, collected)  # to the end: scores, winners, the lobby
    for seed in range(2, 5):
        await play_and_collect(family, seed, collected, person_turns=15)
    assert collected.texts, "the games were played"
    assert collected.report() == []
