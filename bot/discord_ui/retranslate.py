"""Reading an English sentence of the table service back into its key, to say it in another
language.

The table service (``bot/tables.py``) refuses with English sentences (``TableError``) and
describes public changes in English. Rather than change every ``raise``, the Discord layer can
pass such a sentence to :func:`retranslate`: it finds the English template that produced it,
recovers the parameters and renders the same key in the reader's language. A sentence no
template explains comes back unchanged.
"""

from __future__ import annotations

import re
import string
from functools import cache

from i18n.catalog import DEFAULT_LOCALE, catalogue, normalise_locale, placeholders, t

#: Families of keys whose English text the service produces.
SERVICE_PREFIXES: tuple[str, ...] = ("error.", "table.", "desk.", "cmd.error.")


@cache
def _patterns(prefixes: tuple[str, ...]) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """(key, regex) for each English template under ``prefixes``, most specific first."""
    found = []
    for key, text in catalogue(DEFAULT_LOCALE).items():
        if not key.startswith(prefixes):
            continue
        regex = ""
        for literal, field, _spec, _conversion in _parse(text):
            regex += re.escape(literal)
            if field is not None:
                # A parameter never spans a sentence end: "A joined. B is the host now." is
                # two sentences, not one "{name} is the host now." about "A joined. B".
                regex += f"(?P<{field}>(?:(?!\\. ).)+?)"
        found.append((key, re.compile(regex, re.DOTALL)))
    # Templates with more fixed text first: "A {level} bot took seat {seat}." before "{name}.".
    found.sort(key=lambda item: -len(re.sub(r"\(\?P<\w+>.*?\)\+\?", "", item[1].pattern)))
    return tuple(found)


def _parse(text: str) -> list[tuple[str, str | None, str | None, str | None]]:
    return list(string.Formatter().parse(text))


#: Families of words that appear inside the service's sentences (``A easy bot took seat 2.``,
#: ``The game of Tock begins.``).
_NESTED_FAMILIES = ("bot_level.", "phase.", "game.")


@cache
def _english_values(family: str) -> dict[str, str]:
    """English text -> key for nested words: the sentence's own family, bot levels, phases."""
    families = (family + ".", *_NESTED_FAMILIES)
    return {v: k for k, v in catalogue(DEFAULT_LOCALE).items() if k.startswith(families)}


def match_english(
    text: str, prefixes: tuple[str, ...] = SERVICE_PREFIXES
) -> tuple[str, dict[str, str]] | None:
    """The key and parameters of an English sentence, or None if no template fits."""
    for key, pattern in _patterns(prefixes):
        found = pattern.fullmatch(text)
        if found is not None and set(found.groupdict()) == set(
            placeholders(catalogue(DEFAULT_LOCALE)[key])
        ):
            return key, found.groupdict()
    return None


def retranslate(text: str, locale: object, prefixes: tuple[str, ...] = SERVICE_PREFIXES) -> str:
    """``text`` (an English sentence of the service) in ``locale``; unchanged if unknown.

    A parameter that is itself an English phrase of the same family (``"still in its lobby"``
    in ``error.wrong_phase``) is translated too.
    """
    language = normalise_locale(locale)
    if language == DEFAULT_LOCALE:
        return text
    found = match_english(text, prefixes)
    if found is None:
        return text
    key, params = found
    nested = _english_values(key.split(".", 1)[0])
    params = {
        name: t(nested[value], language) if value in nested else value
        for name, value in params.items()
    }
    return t(key, language, **params)
