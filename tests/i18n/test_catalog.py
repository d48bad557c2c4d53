"""The catalogues and the rules help: every language complete, consistent and within limits."""

from __future__ import annotations

import re
import string

import discord
import pytest

from engine import get_game
from i18n import (
    LOCALES,
    catalog,
    keys,
    normalise_locale,
    placeholders,
    rules_games,
    rules_page,
    rules_topics,
    t,
    tn,
)
from i18n.catalog import (
    LOCALE_DIR,
    catalogue,
    catalogue_files,
    format_message,
    forms,
    game_variants,
    plural_index,
    word_forms,
)
from i18n.rules import MESSAGE_LIMIT

OTHER_LOCALES = [locale for locale in LOCALES if locale != "en"]
ENGLISH = catalogue("en")


@pytest.mark.parametrize("locale", OTHER_LOCALES)
def test_every_english_key_is_translated(locale: str) -> None:
    missing = sorted(keys("en") - keys(locale))
    assert missing == [], f"{locale}.po lacks {missing}"


@pytest.mark.parametrize("locale", OTHER_LOCALES)
def test_no_key_without_an_english_original(locale: str) -> None:
    stale = sorted(keys(locale) - keys("en"))
    assert stale == [], f"{locale}.po has keys English does not: {stale}"


@pytest.mark.parametrize("locale", OTHER_LOCALES)
def test_placeholders_match_english(locale: str) -> None:
    messages = catalogue(locale)
    wrong = {
        key: (sorted(placeholders(messages[key])), sorted(placeholders(text)))
        for key, text in ENGLISH.items()
        if key in messages and placeholders(messages[key]) != placeholders(text)
    }
    assert wrong == {}, f"{locale}: placeholders differ from English (theirs, English): {wrong}"


@pytest.mark.parametrize("locale", LOCALES)
def test_every_message_formats(locale: str) -> None:
    """A template with a stray brace would fail at the moment a player needs it."""
    for key, entry in catalogue(locale).items():
        for text in forms(entry):
            params = dict.fromkeys(placeholders(text), "x")
            formatted = format_message(text, params)
            assert "{" not in formatted or "{" in str(params), key


def test_every_language_has_the_same_domain_files() -> None:
    """A domain added for one language only would leave the others falling back to English."""
    domains = {locale: [path.name for path in catalogue_files(locale)] for locale in LOCALES}
    assert all(names == domains["en"] for names in domains.values()), domains
    assert domains["en"][0] == "core.po"
    assert not list(LOCALE_DIR.glob("*.po")), "catalogues live in locales/<locale>/<domain>.po"


@pytest.mark.parametrize("locale", LOCALES)
def test_po_files_have_no_duplicate_or_fuzzy_entries(locale: str) -> None:
    source = "\n".join(path.read_text(encoding="utf-8") for path in catalogue_files(locale))
    ids = re.findall(r'^(?:msgctxt "(.+)"\n)?msgid "(.+)"$', source, flags=re.MULTILINE)
    assert len(ids) == len(set(ids))
    forms_count = sum(len(found) for found in word_forms(locale).values())
    assert len(ids) == len(catalogue(locale)) + len(game_variants(locale)) + forms_count
    assert "#, fuzzy" not in source


def test_translations_are_translated() -> None:
    """German and Hungarian are not copies of English (names of games and cards may be)."""
    for locale in OTHER_LOCALES:
        messages = catalogue(locale)
        same = [
            k
            for k, text in ENGLISH.items()
            if messages.get(k) == text and any(_wordy(form) for form in forms(text))
        ]
        assert same == [], f"{locale} still reads English: {same}"


def _wordy(text: str) -> bool:
    """Whether a message has real words to translate (not only placeholders and numbers)."""
    words = re.findall(r"[A-Za-z]{3,}", re.sub(r"\{\w+\}", "", text))
    return len(words) >= 2


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        (None, "en"),
        ("de", "de"),
        ("hu", "hu"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("de_CH", "de"),
        ("HU", "hu"),
        ("fr", "en"),
        ("", "en"),
        (discord.Locale.german, "de"),
        (discord.Locale.hungarian, "hu"),
        (discord.Locale.british_english, "en"),
        (discord.Locale.japanese, "en"),
    ],
)
def test_locale_normalisation(given: object, expected: str) -> None:
    assert normalise_locale(given) == expected


def test_messages_by_language() -> None:
    assert t("error.seat_taken", "de", seat=3) == "Platz 3 ist besetzt."
    assert t("error.seat_taken", "en-US", seat=3) == "Seat 3 is taken."
    assert t("lobby.join", discord.Locale.hungarian) == "Csatlakozás"


def test_unknown_locale_falls_back_to_english() -> None:
    assert t("error.not_your_turn", "ja") == t("error.not_your_turn", "en") == "It's not your turn."


def test_missing_translation_falls_back_to_english(monkeypatch: pytest.MonkeyPatch) -> None:
    german = {k: v for k, v in catalogue("de").items() if k != "error.table_full"}

    def fake(locale: str) -> dict[str, str]:
        return german if locale == "de" else dict(ENGLISH)

    monkeypatch.setattr(catalog, "catalogue", fake)
    assert t("error.table_full", "de") == "This table is full."
    assert t("error.seat_taken", "de", seat=2) == "Platz 2 ist besetzt."


def test_unknown_key_and_missing_parameter_stay_visible() -> None:
    assert t("no.such.key", "de") == "no.such.key"
    assert t("error.seat_taken", "de") == "Platz {seat} ist besetzt."


def test_counted_messages() -> None:
    assert tn("img.cards", 1, "en") == "1 card"
    assert tn("img.cards", 3, "en") == "3 cards"
    assert tn("img.cards", 0, "en") == "0 cards"
    assert tn("img.cards", 3, "de") == "3 Karten"
    assert tn("img.cards", 3, "hu") == "3 lap"
    # A count passed to t() picks the form too: no caller decides n == 1.
    assert t("turn.pile", "en", count=1) == " (1 tile left in the pile)"
    assert t("turn.pile", "de", count=2) == " (noch 2 Karten im Stapel)"


@pytest.mark.parametrize("locale", LOCALES)
def test_plural_rule_is_babels_and_agrees_with_the_po_header(locale: str) -> None:
    """The form index comes from Babel's CLDR rule; the header's Plural-Forms must agree."""
    import gettext

    from babel.messages.pofile import read_po

    with catalogue_files(locale)[0].open("rb") as handle:
        po = read_po(handle, locale=locale)
    header = gettext.c2py(po.plural_expr)
    for n in range(1001):
        assert plural_index(n, locale) == header(n), (locale, n)


@pytest.mark.parametrize("locale", LOCALES)
def test_every_plural_entry_has_each_form_of_its_language(locale: str) -> None:
    from babel.messages.pofile import read_po

    with catalogue_files(locale)[0].open("rb") as handle:
        wanted = read_po(handle, locale=locale).num_plurals
    plural = {k: v for k, v in catalogue(locale).items() if not isinstance(v, str)}
    assert plural, "the catalogue has counted messages"
    assert all(len(v) == wanted for v in plural.values()), plural
    # A key is counted in every language or in none.
    assert {k for k, v in ENGLISH.items() if not isinstance(v, str)} == set(plural)


def test_no_counted_message_is_split_into_one_and_other_keys() -> None:
    assert not [k for k in ENGLISH if k.endswith((".one", ".other"))]


def test_hungarian_articles_of_new_sentences_follow_the_next_word() -> None:
    assert (
        t("table.bot_joined", "hu", level="könnyű", seat=1) == "Egy könnyű bot leült az 1. helyre."
    )
    assert t("where.field", "hu", number=12) == "a 12. mező"
    assert "a(z)" not in "".join(str(v) for v in catalogue("hu").values())


def test_placeholders_of_a_template() -> None:
    assert placeholders("{name} on {at} ({x},{y})") == {"name", "at", "x", "y"}
    assert placeholders("no fields") == frozenset()
    assert placeholders("{{literal}}") == frozenset()


# --- rules help ---------------------------------------------------------------------------

PAGES = [
    (game, topic, locale)
    for game in rules_games()
    for topic in rules_topics(game)
    for locale in LOCALES
]


def test_every_game_has_the_topics_players_ask_for() -> None:
    assert rules_games() == ["tock", "dog", "carcassonne"]
    for game in ("tock", "dog"):
        assert {"overview", "cards", "movement", "seven", "teams"} <= set(rules_topics(game))
    assert {"joker", "presets"} <= set(rules_topics("dog"))
    assert {"overview", "tiles", "figures", "scoring", "farms", "expansions"} <= set(
        rules_topics("carcassonne")
    )
    assert rules_topics("chess") == []


@pytest.mark.parametrize(("game", "topic", "locale"), PAGES)
def test_rules_page_fits_a_message(game: str, topic: str, locale: str) -> None:
    page = rules_page(game, topic, locale)
    assert 200 < len(page) <= MESSAGE_LIMIT
    assert page.startswith("**")
    assert "{" not in page
    assert "}" not in page


@pytest.mark.parametrize(("game", "topic"), [(g, tp) for g, tp, loc in PAGES if loc == "en"])
def test_rules_pages_are_written_in_each_language(game: str, topic: str) -> None:
    key = f"rules.{game}.{topic}"
    pages = {locale: catalogue(locale).get(key) for locale in LOCALES}
    assert all(pages.values()), f"{key} is missing in {[k for k, v in pages.items() if not v]}"
    assert len(set(pages.values())) == len(LOCALES)


def test_rules_use_the_games_own_words() -> None:
    """German and Hungarian pages use the terms of the seed rules, not loan translations."""
    german = rules_page("tock", "movement", "de")
    assert "Startbereich" in german
    assert "Startfeld" in german
    assert "Ziel" in german
    hungarian = rules_page("tock", "movement", "hu")
    assert "kezdőmező" in hungarian
    assert "bábu" in hungarian
    assert "otthon" in hungarian
    assert "Gefolgsmann" in rules_page("carcassonne", "figures", "de")
    assert "alattvaló" in rules_page("carcassonne", "figures", "hu")


def test_rules_pages_name_options_as_the_command_shows_them() -> None:
    """A German reader sees `/tock neu` with `sieben:`; the page must use the same words."""
    assert "`sieben`" in rules_page("tock", "options", "de")
    assert "`seven`" not in rules_page("tock", "options", "de")
    assert "`hetes`" in rules_page("tock", "options", "hu")
    assert "`seven`" in rules_page("tock", "options", "en")


def test_rules_default_topic_is_the_overview_with_the_other_topics() -> None:
    page = rules_page("dog", None, "de")
    assert page.startswith("**Dog**")
    assert "Der Joker" in page
    assert "Regelwerke" in page


def test_rules_unknown_topic_or_game_answers_in_words() -> None:
    answer = rules_page("tock", "joker", "en")
    assert "Cards" in answer
    assert "The 7" in answer
    assert rules_page("chess", None, "de") == t("rules.unknown_game", "de")


def test_dog_pages_keep_the_dog_rules_apart_from_tock() -> None:
    """Digest D-5: no 10-ban in Dog, the 4 goes both ways, the A also moves 11."""
    cards = rules_page("dog", "cards", "en")
    assert "bans nobody" in cards
    assert "11" in cards
    assert "backwards" in cards
    assert "banned" in rules_page("tock", "cards", "en")


def test_format_fields_are_plain_names() -> None:
    """Placeholders are plain names: attribute or index access would leak internals."""
    for locale in LOCALES:
        for key, entry in catalogue(locale).items():
            for text in forms(entry):
                for _lit, field, _spec, _conv in string.Formatter().parse(text):
                    assert field is None or re.fullmatch(r"\w+", field), (locale, key, field)


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("game", ["tock", "dog", "carcassonne"])
def test_rules_explain_every_table_option_of_the_engine(game: str, locale: str) -> None:
    """Each option the engine accepts is named in the help, as the command calls it."""
    pages = "\n".join(rules_page(game, topic, locale) for topic in rules_topics(game))
    for option in get_game(game).OPTIONS:
        assert f"`{t(f'cmd.name.{option.name}', locale)}" in pages, option.name


@pytest.mark.parametrize("locale", LOCALES)
def test_every_word_form_belongs_to_a_word_and_formats(locale: str) -> None:
    """A form (``card.acc.5|acc``) is a form of an entry the language has, with no
    placeholder the entry lacks (it is filled with the entry's parameters)."""
    messages = catalogue(locale)
    for key, found in word_forms(locale).items():
        assert key in messages, f"{locale}: forms of {key!r}, which is no entry"
        for form, text in found.items():
            assert placeholders(text) <= placeholders(messages[key]), (key, form)
            format_message(text, dict.fromkeys(placeholders(text), 1))
