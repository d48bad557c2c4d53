"""Each game speaks its players' words, from the seed documents (shared/seeds), in every text.

German Tock follows Board Game Arena (Figur, Startbereich, Runde), German Dog BrettspielWelt
(Pöppel, Starthaus, schupfen), German Carcassonne the rules booklet (Kärtchen words,
Gefolgsmann, Wegelagerer, Tuch, Kleinstädte). Hungarian players of this family of games say
*bábu* for a pawn (the seed's *gyalog* is the chess pawn, a machine translation) and never
hedge an article as "a(z)": the template lets :mod:`i18n.articles` choose.
"""

from __future__ import annotations

import re

import pytest

from i18n import rules_page, t
from i18n.catalog import (
    Phrase,
    catalogue,
    format_message,
    forms,
    game_terms,
    game_variants,
    placeholders,
)
from tests.sentence_lint import Collected, play_and_collect

#: Words no German text may use, with the reason.
GERMAN_REJECTED = {
    "Zwinger": "Startbereich (Tock) / Starthaus (Dog)",
    "Stoff": "Tuch",
    "kleine Städte": "Kleinstädte",
    "kleine_städte": "kleinstädte",
    "Spielerin": "one generic gender: Spieler",
    "Partnerin": "one generic gender: Partner",
}
#: Words no Hungarian text may use.
HUNGARIAN_REJECTED = {"gyalog": "bábu", "a(z)": "an article chosen by the word", "Narancs ": ""}


def _entries(locale: str) -> dict[str, str]:
    """Every template of ``locale``, game variants included, as one text per entry."""
    texts = {key: " | ".join(forms(entry)) for key, entry in catalogue(locale).items()}
    for (game, key), entry in game_variants(locale).items():
        texts[f"{game}:{key}"] = " | ".join(forms(entry))
    return texts


@pytest.mark.parametrize(("word", "instead"), GERMAN_REJECTED.items())
def test_german_catalogue_never_says(word: str, instead: str) -> None:
    found = [key for key, text in _entries("de").items() if word in text]
    assert found == [], f"{word!r} (say {instead!r}) in {found}"


@pytest.mark.parametrize(("word", "instead"), HUNGARIAN_REJECTED.items())
def test_hungarian_catalogue_never_says(word: str, instead: str) -> None:
    found = [key for key, text in _entries("hu").items() if word.lower() in text.lower()]
    assert found == [], f"{word!r} (say {instead!r}) in {found}"


def test_every_game_variant_is_a_shared_message_with_its_placeholders() -> None:
    """A variant only changes words: its key is a message English has, with the same
    placeholders, so a game that has no variant still reads the shared message."""
    english = catalogue("en")
    for locale in ("en", "de", "hu"):
        for (game, key), entry in game_variants(locale).items():
            assert game in ("tock", "dog", "carcassonne"), (locale, game, key)
            assert key in english, (locale, game, key)
            assert placeholders(entry) == placeholders(english[key]), (locale, game, key)


def test_german_dog_messages_say_poeppel_where_tock_says_figur() -> None:
    with game_terms("dog"):
        dog = t("event.capture", "de", colour="Blau")
        label = t("move.walk", "de", way="17 → 29")
    assert dog == "Der Pöppel von Blau wird geschlagen und muss zurück ins Starthaus."
    assert label == "dein Pöppel 17 → 29"
    with game_terms("dog"):
        place = t("where.its.past_start", "de", count=3)
    assert place == "3 Felder nach seinem Start"  # der Pöppel: seinem, die Figur: ihrem
    assert t("where.its.past_start", "de", count=3) == "3 Felder nach ihrem Start"
    with game_terms("tock"):
        tock = t("event.capture", "de", colour="Blau")
    assert tock == "Die Figur von Blau wird geschlagen und muss zurück in den Startbereich."
    with game_terms("dog"):
        assert "schupf" in t("race.pass_button", "de", card="den König")


@pytest.fixture(scope="module")
def generated() -> dict[str, Collected]:
    """What players read in seeded games of each family (one person, bots), every language."""
    import asyncio

    found = {}
    for family in ("tock-2v2", "dog", "carcassonne-expansions"):
        collected = Collected()
        for seed in (1, 2):
            asyncio.run(play_and_collect(family, seed, collected, person_turns=40))
        found[family] = collected
    return found


def _read(collected: Collected, locale: str) -> str:
    return "\n".join(
        text for (lang, _kind), texts in collected.texts.items() if lang == locale for text in texts
    )


def test_generated_german_uses_each_games_words(generated: dict[str, Collected]) -> None:
    tock, dog = _read(generated["tock-2v2"], "de"), _read(generated["dog"], "de")
    carcassonne = _read(generated["carcassonne-expansions"], "de")
    assert "Figur" in tock
    assert "Pöppel" not in tock
    assert "Pöppel" in dog
    assert "Figur" not in dog
    assert "ihrem Start" not in dog
    assert "Gefolgsm" in carcassonne
    for text in (tock, dog, carcassonne):
        for word in GERMAN_REJECTED:
            assert word not in text, word


def test_generated_hungarian_says_babu_and_no_hedged_article(
    generated: dict[str, Collected],
) -> None:
    for family, collected in generated.items():
        text = _read(collected, "hu")
        assert "gyalog" not in text, family
        assert "a(z)" not in text.lower(), family
        if family != "carcassonne-expansions":
            assert "bábu" in text, family


def test_german_tock_rules_say_startbereich_and_runde() -> None:
    pages = " ".join(rules_page("tock", topic, "de") for topic in ("overview", "cards", "movement"))
    assert "Startbereich" in pages
    assert "Runde" in pages
    assert not re.search(r"\bHand\b", pages)


def test_german_dog_rules_say_poeppel_starthaus_and_schupfen() -> None:
    pages = " ".join(rules_page("dog", topic, "de") for topic in ("overview", "movement", "teams"))
    assert "Pöppel" in pages
    assert "Starthaus" in pages
    assert "schupf" in pages
    assert "Figur" not in pages


def test_german_carcassonne_rules_say_the_booklets_words() -> None:
    pages = " ".join(
        rules_page("carcassonne", topic, "de")
        for topic in ("overview", "tiles", "figures", "expansions", "options")
    )
    for word in ("Gefolgsm", "Wegelagerer", "Ritter", "Mönch", "Bauer", "Tuch", "kleinstädte"):
        assert word in pages, word
    assert "abgelegt" not in pages  # in the seed *ablegen* means placing a tile


def test_hungarian_rules_say_babu() -> None:
    page = rules_page("tock", "overview", "hu") + rules_page("dog", "overview", "hu")
    assert "bábu" in page


@pytest.mark.parametrize(
    ("seat", "expected"),
    [
        (1, "Az 1. hely foglalt."),
        (2, "A 2. hely foglalt."),
        (5, "Az 5. hely foglalt."),
        (10, "A 10. hely foglalt."),
    ],
)
def test_hungarian_article_follows_the_number(seat: int, expected: str) -> None:
    assert t("error.seat_taken", "hu", seat=seat) == expected


def test_hungarian_compounds_take_a_hyphen() -> None:
    assert t("team.letter", "hu", letter=1) == "1. csapat"  # numbered as /table join team:
    assert "Tock-asztalt" in t("table.opened", "hu", host="Anna", game="Tock", players=4)


def test_article_spec_is_only_an_article() -> None:
    assert format_message("{n:a} {w:A}", {"n": 50, "w": Phrase("óra")}) == "az 50 Az óra"
