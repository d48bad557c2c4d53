"""Pöppel's languages: English, German and Hungarian messages, and the rules help.

It sits beside ``engine`` and ``renderer`` (not inside ``bot``) because both the renderer and the
bot speak to players, and the renderer must not reach up into the application.

``t(key, locale, **params)`` is the one function most code needs; the catalogues are gettext
``.po`` files in ``i18n/locales/<locale>/<domain>.po`` (English is the reference). To add a
message, add the key to the same domain file of all three languages with the same
``{placeholders}``: ``tests/i18n/test_catalog.py`` fails when
a language lacks a key English has or its placeholders differ. Rules pages are the
``rules.<game>.<topic>`` keys (at most 2000 characters each).

Words: each game is said in its players' words, from the seed documents (German Tock: Figur,
Startbereich, Runde; German Dog: Pöppel, Starthaus, schupfen; Hungarian: bábu); where two games
share a message but not its words, ``terms.po`` holds the game's variant (``msgctxt``), and
:func:`~i18n.catalog.game_terms` says a table's messages in its game's words. Hungarian picks
*a*/*az* by the next word: write ``{seat:a}`` (see :mod:`~i18n.articles`), never "a(z)".
A language may give a word its forms (cases, the word with its article) as entries
``key|form`` (``card.acc.5|acc``, ``seat.bot|A``, ``figure.pig|nom``); a template picks one
with ``{card:acc}`` (see :class:`~i18n.catalog.Phrase`). A Hungarian suffix after a number
goes by how the number is spoken: ``{count:-as}`` reads ``5-ös``, ``6-os`` (see
:mod:`~i18n.suffixes`).
``tests/i18n/test_terms.py`` holds the terms.

Modules: :mod:`~i18n.catalog` (loading, ``t``), :mod:`~i18n.rules` (``/rules``),
:mod:`~i18n.events` (engine events in words), :mod:`~i18n.moves` (legal moves in words),
:mod:`~i18n.message` (sentences as keys and parameters, said per reader) and
:mod:`~bot.discord_ui.translator` (slash commands; the only module that imports discord.py).
"""

from __future__ import annotations

from i18n.catalog import (
    DEFAULT_LOCALE,
    LOCALES,
    has_key,
    keys,
    normalise_locale,
    placeholders,
    t,
    tn,
)
from i18n.rules import rules_games, rules_page, rules_topics, topic_title

__all__ = [
    "DEFAULT_LOCALE",
    "LOCALES",
    "has_key",
    "keys",
    "normalise_locale",
    "placeholders",
    "rules_games",
    "rules_page",
    "rules_topics",
    "t",
    "tn",
    "topic_title",
]
