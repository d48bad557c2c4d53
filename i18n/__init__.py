"""Pöppel's languages: English, German and Hungarian messages, and the rules help.

``t(key, locale, **params)`` is the one function most code needs; the catalogues are gettext
``.po`` files in ``bot/i18n/locales`` (``en.po`` is the reference). To add a message, add the
key to all three files with the same ``{placeholders}``: ``tests/bot/test_i18n.py`` fails when
a language lacks a key English has or its placeholders differ. Rules pages are the
``rules.<game>.<topic>`` keys (at most 2000 characters each).

Modules: :mod:`~bot.i18n.catalog` (loading, ``t``), :mod:`~bot.i18n.rules` (``/rules``),
:mod:`~bot.i18n.events` (engine events in words), :mod:`~bot.i18n.reverse` (the service's
English sentences in another language) and :mod:`~bot.i18n.translator` (slash commands; the
only module that imports discord.py).
"""

from __future__ import annotations

from bot.i18n.catalog import (
    DEFAULT_LOCALE,
    LOCALES,
    has_key,
    keys,
    normalise_locale,
    placeholders,
    t,
    tn,
)
from bot.i18n.rules import rules_games, rules_page, rules_topics, topic_title

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
