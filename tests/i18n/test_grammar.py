"""Grammar the templates carry (issue 31): Hungarian suffixes after numbers, word forms chosen
by a template (cases of features, cards, figures, goods), the article before a numbered bot."""

from __future__ import annotations

import pytest

from i18n.catalog import Phrase, format_message, name_phrase, t
from i18n.events import card_as, card_word, event_text, feature_words
from i18n.message import msg
from i18n.suffixes import SUFFIXES, suffixed

#: number -> (adjective, accusative, with, times), as a Hungarian says them.
NUMBERS = {
    1: ("1-es", "1-et", "1-gyel", "1-szer"),  # egyes, egyet, eggyel, egyszer
    2: ("2-es", "2-t", "2-vel", "2-szer"),  # kettes, kettőt, kettővel, kétszer
    3: ("3-as", "3-at", "3-mal", "3-szor"),  # hármas, hármat, hárommal, háromszor
    4: ("4-es", "4-et", "4-gyel", "4-szer"),  # négyes, négyet, néggyel
    5: ("5-ös", "5-öt", "5-tel", "5-ször"),  # ötös, ötöt, öttel, ötször
    6: ("6-os", "6-ot", "6-tal", "6-szor"),  # hatos, hatot, hattal, hatszor
    7: ("7-es", "7-et", "7-tel", "7-szer"),  # hetes, hetet, héttel
    8: ("8-as", "8-at", "8-cal", "8-szor"),  # nyolcas, nyolcat, nyolccal
    9: ("9-es", "9-et", "9-cel", "9-szer"),  # kilences
    10: ("10-es", "10-et", "10-zel", "10-szer"),  # tízes, tízet, tízzel
    20: ("20-as", "20-at", "20-szal", "20-szor"),  # húszas, húszat, hússzal
    30: ("30-as", "30-at", "30-cal", "30-szor"),  # harmincas
    40: ("40-es", "40-et", "40-nel", "40-szer"),  # negyvenes
    60: ("60-as", "60-at", "60-nal", "60-szor"),  # hatvanas
    100: ("100-as", "100-at", "100-zal", "100-szor"),  # százas, százat, százzal
    1000: ("1000-es", "1000-et", "1000-rel", "1000-szer"),  # ezres, ezret, ezerrel
    2_000_000: ("2000000-s", "2000000-t", "2000000-val", "2000000-szor"),  # milliós
    23: ("23-as", "23-at", "23-mal", "23-szor"),  # huszonhármas: the last word counts
    105: ("105-ös", "105-öt", "105-tel", "105-ször"),  # százöt
    300: ("300-as", "300-at", "300-zal", "300-szor"),  # háromszáz
}


@pytest.mark.parametrize("number", sorted(NUMBERS))
def test_a_number_takes_its_suffix_by_how_it_is_spoken(number: int) -> None:
    adjective, accusative, with_, times = NUMBERS[number]
    assert suffixed(number, "as") == adjective
    assert suffixed(number, "at") == accusative
    assert suffixed(number, "val") == with_
    assert suffixed(number, "szor") == times


def test_suffixes_of_place_follow_the_harmony_too() -> None:
    assert [suffixed(n, "ra") for n in (3, 5, 10)] == ["3-ra", "5-re", "10-re"]
    assert [suffixed(n, "hoz") for n in (3, 5, 10)] == ["3-hoz", "5-höz", "10-hez"]
    assert [suffixed(n, "on") for n in (2, 3, 5, 10)] == ["2-n", "3-on", "5-ön", "10-en"]
    assert suffixed(5, "asként") == "5-ösként"
    assert suffixed("x", "as") == "x"  # not a number: left as it is
    assert {"as", "at", "val", "szor", "ra"} <= SUFFIXES


def test_a_template_asks_for_a_suffix_with_a_spec() -> None:
    assert format_message("egy {n:-as}", {"n": 6}) == "egy 6-os"
    assert t("card.acc.8", "hu") == "8-as"


@pytest.mark.parametrize("token", ["2", "3", "4", "5", "6", "7", "8", "9", "10"])
def test_hungarian_card_words_agree_with_the_suffix_helper(token: str) -> None:
    number = int(token)
    assert card_word(token, article=True).text("hu") == suffixed(number, "as")
    assert t("event.play", "hu", colour="Kék", card=card_word(token, article=True).text("hu")) == (
        f"Kék kijátszik egy {suffixed(number, 'ast')}."
    )
    assert card_as(token).text("hu").forms["ess"] == suffixed(number, "asként")


@pytest.mark.parametrize(
    ("token", "played", "joker"),
    [("A", "ászt", "ászként"), ("J", "bubit", "bubiként"), ("Q", "dámát", "dámaként")],
)
def test_hungarian_cards_in_the_accusative_and_the_essive(
    token: str, played: str, joker: str
) -> None:
    event = {"kind": "play", "seat": 1, "data": {"card": token, "move": f"{token}:E"}}
    assert event_text(event, "hu", game="tock") == f"Kék kijátszik egy {played}."
    event = {"kind": "play", "seat": 1, "data": {"card": "X", "move": f"X={token}:E"}}
    assert event_text(event, "hu", game="tock") == f"Kék {joker} játssza ki a jokert."


@pytest.mark.parametrize(
    ("kind", "sides", "onto"),
    [
        ("city0", ["N"], "az északi városba"),
        ("city1", [], "a középső városba"),
        ("road0", ["E", "W"], "a keleti és nyugati útra"),
        ("road1", [], "a középső útra"),
        ("field0", ["S"], "a déli mezőre"),
        ("field2", [], "a középső mezőre"),
        ("monastery", [], "a kolostorba"),
    ],
)
def test_each_feature_takes_its_case_where_a_figure_is_put(
    kind: str, sides: list[str], onto: str
) -> None:
    event = {
        "kind": "figure",
        "seat": 1,
        "data": {"kind": "follower", "segment": kind, "sides": sides},
    }
    names = [name_phrase("anna"), msg("seat.bot", number=2)]
    assert event_text(event, "hu", game="carcassonne", names=names) == (
        f"A 2.\u00a0bot alattvalót tesz {onto}."
    )
    assert (
        feature_words(kind, sides).text("hu")
        == onto.rsplit(" ", 1)[0]
        + " "
        + {
            "városba": "város",
            "útra": "út",
            "mezőre": "mező",
            "kolostorba": "kolostor",
        }[onto.rsplit(" ", 1)[1]]
    )


def test_a_numbered_bot_takes_an_article_as_subject_and_object_a_name_none() -> None:
    bot5, anna = msg("seat.bot", number=5), name_phrase("anna")
    assert msg("table.moved", name=bot5).text("hu") == "Az 5.\u00a0bot lépett."
    assert msg("table.moved", name=anna).text("hu") == "anna lépett."
    assert msg("table.new_host", name=msg("seat.bot", number=2)).text("hu") == (
        "Mostantól a 2.\u00a0bot a házigazda."
    )
    both = msg("turn.game_over_winners", names=[anna, bot5], count=2).text("hu")
    assert both == "🏆 Vége a játéknak — anna és az 5.\u00a0bot nyert!"
    assert format_message("{who:A}", {"who": "<@100>"}) == "<@100>"  # a mention: none


def test_figures_and_goods_take_their_forms() -> None:
    returned = {"kind": "figure_returned", "seat": 0, "data": {"kind": "builder"}}
    assert event_text(returned, "hu", game="carcassonne", names=["anna"]) == (
        "anna építőmestere visszakerül a készletbe."
    )
    goods = {"kind": "goods", "seat": 0, "data": {"goods": {"wine": 1, "cloth": 2}}}
    assert event_text(goods, "hu", game="carcassonne", names=["anna"]) == (
        "anna 1 bort és 2 posztót kap a város befejezéséért."
    )


def test_a_phrase_is_a_string_that_keeps_its_forms() -> None:
    phrase = Phrase("bubi", {"acc": "bubit"})
    assert phrase == "bubi"
    assert isinstance(phrase, str)
    assert format_message("{c:acc}, {c}", {"c": phrase}) == "bubit, bubi"
    assert format_message("{c:acc}", {"c": "Jack"}) == "Jack"  # a word without cases


@pytest.mark.parametrize(
    ("locale", "said"),
    [
        ("en", "Blue plays a Jack, which changes nothing."),
        ("de", "Blau spielt einen Buben – ohne Wirkung."),
        ("hu", "Kék kijátszik egy bubit, de semmi sem változik."),
    ],
)
def test_a_jack_that_changes_nothing_says_so(locale: str, said: str) -> None:
    event = {"kind": "play", "seat": 1, "data": {"card": "J", "move": "J:N"}}
    assert event_text(event, locale, game="dog") == said


def test_a_numbered_player_name_takes_the_article_of_its_number() -> None:
    """``poeppel play`` names its players ``1. játékos``: a subject needs *az*."""
    assert msg("table.picked", name=name_phrase("1. játékos")).text("hu") == (
        "Az 1. játékos kiválasztotta az átadandó lapot."
    )
    assert msg("table.picked", name=name_phrase("anna")).text("hu") == (
        "anna kiválasztotta az átadandó lapot."
    )


def test_a_card_opening_a_label_and_inside_a_list() -> None:
    """Hungarian card names are common nouns: lower case in a list, capitalised (a number
    as its noun, 10-es) where one opens a label (issue 31)."""
    from i18n import t
    from i18n.events import card_word
    from i18n.moves import race_label

    hand = ", ".join(card_word(card).text("hu") for card in ("A", "5", "Q", "X"))
    assert t("console.hand", "hu", cards=hand) == "A lapjaid: ász, 5, dáma, joker."
    assert race_label("G:Q", {}, {}).text("hu") == "Dáma átadása a társadnak"
    assert race_label("G:10", {}, {}).text("hu") == "10-es átadása a társadnak"
    assert race_label("G:5", {}, {}).text("hu") == "5-ös átadása a társadnak"
    assert race_label("G:Q", {}, {}).text("de") == "Dame: an deinen Partner geben"


def test_a_placement_names_a_bot_with_its_article_and_says_a_phrase_once() -> None:
    from i18n.placement_effects import effect_words

    extends = [{"kind": "field", "owners": [1], "joined": 1}]
    assert effect_words(extends, 0, {1: "2. bot"}, "hu") == "bővíti a 2. bot mezőjét"
    assert effect_words(extends, 0, {1: "anna"}, "hu") == "bővíti anna mezőjét"
    free = [{"kind": "field", "owners": [], "joined": 1}] * 2
    assert effect_words(free, 0, {}, "hu") == "bővít egy szabad mezőt"
