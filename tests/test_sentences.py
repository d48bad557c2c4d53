"""The sentence lint on the examples of issue 18 and on a few seeded games of each family.

The 100-games-per-family run is ``tests/test_sentences_slow.py`` (marked slow, CI runs it).
"""

from __future__ import annotations

import pytest

from i18n.catalog import LOCALES
from tests.sentence_lint import (
    FAMILIES,
    Collected,
    play_and_collect,
    play_console_and_collect,
    problems,
)

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

#: What the images and ``poeppel play`` showed before the lint read them: tile ids in the
#: Carcassonne captions, a console line that ran on into the command to type.
SCREEN_EXAMPLES = [
    ("en", "caption", "Tile R03 to place"),
    ("de", "caption", "Zu legen: Karte D"),
    ("hu", "caption", "V lapka: szabályos forgatások (óramutató irányában)"),
    ("en", "caption", "67 tiles left · discarded: D, V"),
    ("en", "console", "Stopped; table 1 is saved. Continue it with: poeppel play --resume 1"),
    ("en", "console", "1. Player 1 (seat 1, Red): K:E"),
]

#: What the second native review found and the lint now sees (issue 31).
REVIEW_2_EXAMPLES = [
    ("de", "public", "Figur von Grün: 0 → 8 Felder nach ihrem Start."),
    ("hu", "label", "8: a bábud: 0 → 8 mezővel a kezdőmeződ után"),
    ("de", "caption", "2 Karten · Partner G"),
    ("hu", "caption", "2 lap · társ: Y"),
    ("de", "caption", "Stapel 50 · Ablage: Q"),
    ("hu", "caption", "dobott: X"),
    ("de", "private", "Du gibst **D** ab."),
    ("de", "public", "Ein neuer Stapel: alle Karten werden gemischt."),
    ("de", "private", "Du bist am Zug: wähle eine Karte."),
    ("hu", "log", "2. 3. bot (3. hely, Sárga) ezt a lapot adta neked: 7."),
    ("de", "public", "Endstand: anna 25 Punkte, Bot 2 18 Punkte und Bot 3 51 Punkte."),
    ("en", "public", "Farmers supplying a complete city: Bot 3 4."),
    # English seat initials pointing at the race image's seat tags (issue 31).
    ("de", "caption", "Am Zug: anna (G)"),
    ("de", "caption", "Tausch · gewählt: R, Y"),
    ("de", "caption", "Y ist durch eine 10 gesperrt"),
    ("hu", "caption", "Következik: anna (R)"),
    ("hu", "caption", "Csere · választott: P, B"),
    ("hu", "console", "A lapjaid: 3, 4, 5, Dáma."),
]


@pytest.mark.parametrize(
    ("locale", "kind", "text"), ISSUE_EXAMPLES + SCREEN_EXAMPLES + REVIEW_2_EXAMPLES
)
def test_the_lint_finds_what_issue_18_found(locale: str, kind: str, text: str) -> None:
    assert problems(text, locale, kind, names=["anna"]), text


def test_the_lint_passes_sentences_a_person_would_write() -> None:
    assert problems("anna: Red plays a King. Red brings a pawn out.", "en", names=["anna"]) == []
    assert problems("Bo puts a follower in the city to the north.", "en") == []
    assert problems("1 tile left", "en", "label") == []
    assert problems("Anna legt eine Karte mit einer Stadt.", "de", names=["Anna"]) == []
    assert problems("Anna alattvalót tesz az északi városba.", "hu", names=["Anna"]) == []
    assert problems("Endstand: anna: 25 Punkte, Bot 2: 18 Punkte.", "de") == []
    assert problems("Figur von Grün: ihr Startfeld → 8 Felder nach ihrem Start.", "de") == []
    assert problems("Bauern an einer fertigen Stadt: Bot 3 – 4 Punkte.", "de") == []
    assert problems("2 Karten · Partner Grün", "de", "caption") == []
    assert problems("A 3.\u00a0bot (3. ülőhely, Sárga) egy 7-est adott neked.", "hu") == []
    assert problems("Du bist am Zug: Wähle eine Karte.", "de", "private") == []
    assert problems("Die Figur von Orange wird geschlagen.", "de") == []
    assert problems("Mindenki mindenki ellen", "hu", "caption") == []
    assert problems("Stopped; table 1 is saved. Continue it with:", "en", "console") == []
    assert problems("Tile to place", "en", "caption") == []
    assert problems("A lapjaid: ász, 3, 4, 5, dáma.", "hu", "console") == []
    assert problems("Dáma átadása a társadnak", "hu", "label") == []
    assert problems("Am Zug: anna (Gr)", "de", "caption") == []
    assert problems("Következik: anna (Z)", "hu", "caption") == []
    assert problems("Schupfen · gewählt: Blau und Grün", "de", "caption") == []


@pytest.mark.parametrize("family", sorted(FAMILIES))
async def test_a_few_games_of_each_family_read_well(family: str) -> None:
    collected = Collected()
    # To the end: scores, winners, the results, the lobby; the first board and the last. A
    # game at six seats takes several seconds: it is played to the end in the slow test.
    whole = FAMILIES[family][1] <= 4
    await play_and_collect(family, 1, collected, None if whole else 15, draw=1000)
    for seed in range(2, 5):
        # The images of every third decision of one opening (in one language each).
        drawn = 3 if seed == 2 else 0
        await play_and_collect(family, seed, collected, person_turns=15, draw=drawn)
    assert collected.texts, "the games were played"
    assert all(collected.texts.get((locale, "caption")) for locale in LOCALES)
    assert collected.report() == []


@pytest.mark.parametrize("family", sorted(FAMILIES))
async def test_what_poeppel_play_prints_reads_well(family: str) -> None:
    collected = Collected()
    for number, locale in enumerate(LOCALES):
        await play_console_and_collect(family, 20 + number, locale, collected, person_turns=12)
    # Two people at the keyboard, a table saved, stopped and continued.
    await play_console_and_collect(family, 30, "de", collected, 8, people=2, saved=True)
    assert all(collected.texts.get((locale, "console")) for locale in LOCALES)
    assert collected.texts.get(("de", "prompt"))
    report = collected.report()
    assert report == [], "\n".join(report[:40])
