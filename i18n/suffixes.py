"""Hungarian suffixes after a number written in digits, by how the number is spoken.

A Hungarian suffix follows the vowel harmony of the word it is attached to, and a number
written in digits is attached as it is *said*: ``3-as`` (hármas), ``5-ös`` (ötös), ``6-os``
(hatos), ``8-as`` (nyolcas), ``10-es`` (tízes), ``100-as`` (százas), ``1000-es`` (ezres),
``3-szor``/``5-ször``/``10-szer``, ``3-mal``/``5-tel``/``10-zel``. What is spoken is the last
word of the numeral: ``23`` ends in *három*, ``20`` in *húsz*, ``300`` in *száz*, ``3000`` in
*ezer*, ``2 000 000`` in *millió*.

:func:`suffixed` is the one helper: templates call it with the format spec ``{count:-as}``
(any spec starting with ``-``; see :mod:`i18n.catalog`), and the card words of the catalogue
are tested against it. The suffix is named by its back-vowel form after a consonant, as a
dictionary lists it: ``as`` (the adjective: a *hármas*, an *ötös*), ``ast`` (its accusative),
``asként`` (its essive: *ötösként*), ``at`` (accusative of the number: *hármat*), ``szor``
(times), ``val`` (with), ``ra``, ``ba``, ``ban``, ``nak``, ``hoz``, ``tól``, ``on``, ``ig``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class _Word:
    """How a numeral's last word takes suffixes."""

    #: ``back`` (a, o, u), ``front`` (e, i) or ``round`` (ö, ü): which suffix vowel it takes.
    harmony: str
    #: The linking vowel before ``-s`` and ``-t`` (hárm-a-s, hat-o-s, öt-ö-s, tíz-e-s); ""
    #: after a word ending in a vowel (millió-s, kettő-t).
    link: str
    #: The consonant ``-val``/``-vel`` doubles (hárommal: m, öttel: t); "" after a vowel.
    last: str


_UNITS = {
    1: _Word("front", "e", "gy"),  # egy
    2: _Word("round", "", ""),  # kettő (kettes: see _ADJECTIVE_TWO)
    3: _Word("back", "a", "m"),  # három
    4: _Word("front", "e", "gy"),  # négy
    5: _Word("round", "ö", "t"),  # öt
    6: _Word("back", "o", "t"),  # hat
    7: _Word("front", "e", "t"),  # hét
    8: _Word("back", "a", "c"),  # nyolc
    9: _Word("front", "e", "c"),  # kilenc
}
_TENS = {
    1: _Word("front", "e", "z"),  # tíz
    2: _Word("back", "a", "sz"),  # húsz
    3: _Word("back", "a", "c"),  # harminc
    4: _Word("front", "e", "n"),  # negyven
    5: _Word("front", "e", "n"),  # ötven
    6: _Word("back", "a", "n"),  # hatvan
    7: _Word("front", "e", "n"),  # hetven
    8: _Word("back", "a", "n"),  # nyolcvan
    9: _Word("front", "e", "n"),  # kilencven
}
_HUNDRED = _Word("back", "a", "z")  # száz
_THOUSAND = _Word("front", "e", "r")  # ezer (ezres, ezret, ezerrel)
_MILLION = _Word("back", "", "")  # millió
_BILLION = _Word("back", "o", "d")  # milliárd

#: Suffixes whose vowel follows the harmony: (back, front, round) forms.
_HARMONIC = {
    "ra": ("ra", "re", "re"),
    "ba": ("ba", "be", "be"),
    "ban": ("ban", "ben", "ben"),
    "nak": ("nak", "nek", "nek"),
    "hoz": ("hoz", "hez", "höz"),
    "tól": ("tól", "től", "től"),
    "ról": ("ról", "ről", "ről"),
    "szor": ("szor", "szer", "ször"),
    "ig": ("ig", "ig", "ig"),
    "ként": ("ként", "ként", "ként"),
}


def spoken_word(number: int) -> _Word:
    """The last word of ``number`` said aloud, which its suffixes go by."""
    number = abs(number)
    if number == 0:
        return _Word("round", "", "")  # nulla is said "nullá-": a zero takes -s/-t after a
    if number % 10:
        return _UNITS[number % 10]
    if number % 100:
        return _TENS[number % 100 // 10]
    if number % 1000:
        return _HUNDRED
    if number % 1_000_000:
        return _THOUSAND
    if number % 1_000_000_000:
        return _MILLION
    return _BILLION


def ending(number: int, suffix: str) -> str:
    """The form of ``suffix`` (named by its back form, see the module docstring) that
    ``number`` takes: ``ending(5, "as")`` -> ``"ös"``, ``ending(3, "val")`` -> ``"mal"``."""
    word = spoken_word(number)
    vowel = {"back": 0, "front": 1, "round": 2}[word.harmony]
    if number == 0:
        word, vowel = _Word("back", "", ""), 0  # nulla: nullás, nullát, nullával, nullára
    if suffix in ("as", "ast", "asként"):
        link = "e" if abs(number) % 10 == 2 else word.link  # kettes (kettő -> kett-es)
        tail = suffix[2:]
        return link + "s" + tail
    if suffix == "at":
        return word.link + "t"
    if suffix == "on":
        if not word.link:
            return "n"
        return {"back": "on", "front": "en", "round": "ön"}[word.harmony]
    if suffix == "val":
        end = ("val", "vel", "vel")[vowel]
        if not word.last:
            return end
        return word.last + end[1:]  # the v becomes the last consonant: hárommal -> 3-mal
    if suffix == "szor" and abs(number) % 10 == 2:
        return "szer"  # twice is kétszer, not kettőször
    forms = _HARMONIC.get(suffix)
    if forms is None:
        raise ValueError(f"unknown Hungarian suffix {suffix!r}")
    return forms[vowel]


def suffixed(number: int | str, suffix: str) -> str:
    """``number`` written in digits with ``suffix`` after a hyphen: ``suffixed(5, "as")`` ->
    ``"5-ös"``, ``suffixed(100, "at")`` -> ``"100-at"``. A value that is not a whole number
    comes back unchanged (a slip that still reads)."""
    text = str(number).strip()
    digits = text.replace(" ", "").replace("\u00a0", "")
    if not digits.lstrip("-").isdigit():
        return text
    return f"{text}-{ending(int(digits), suffix)}"


#: Every suffix name :func:`ending` knows.
SUFFIXES = frozenset({"as", "ast", "asként", "at", "on", "val", *_HARMONIC})
