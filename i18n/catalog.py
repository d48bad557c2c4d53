"""The message catalogues: gettext ``.po`` files per language, read once with Babel.

Each language is a folder ``i18n/locales/<locale>/`` of domain files (``core.po``, and one per
feature that brings many messages of its own); a key lives in exactly one domain file, and a
language is the union of its files.

Message ids are stable keys (``lobby.join``, ``error.not_your_turn``, ``rules.tock.seven``);
the message strings are ``str.format`` templates with named placeholders. English is complete
by definition: any key or language missing elsewhere falls back to it, and a key missing even
in English comes back as the key itself, so a gap shows up in the chat instead of a crash.
"""

from __future__ import annotations

import logging
import string
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

from i18n.articles import ARTICLE_SPECS, with_article

log = logging.getLogger(__name__)

#: The languages Pöppel speaks, English first (the fallback).
LOCALES: tuple[str, ...] = ("en", "de", "hu")
DEFAULT_LOCALE = "en"
LOCALE_DIR = Path(__file__).with_name("locales")


def normalise_locale(locale: object) -> str:
    """One of :data:`LOCALES` for any locale Discord or a person may give.

    Accepts ``None``, plain codes (``"de"``, ``"hu"``), regional ones (``"en-US"``,
    ``"de_CH"``, ``"HU"``) and :class:`discord.Locale` members (their ``value`` is the code).
    Anything Pöppel does not speak becomes English.
    """
    if locale is None:
        return DEFAULT_LOCALE
    code = str(getattr(locale, "value", locale)).strip().lower().replace("_", "-")
    primary = code.split("-", 1)[0]
    return primary if primary in LOCALES else DEFAULT_LOCALE


@cache
def catalogue(locale: str) -> Mapping[str, str]:
    """The messages of ``locale`` (one of :data:`LOCALES`) as key -> template, cached.

    Empty and fuzzy translations are left out, so that they fall back to English.
    """
    messages: dict[str, str] = {}
    for path in catalogue_files(locale):
        with path.open("rb") as handle:
            po = read_po(handle, locale=locale, ignore_obsolete=True)
        for message in po:
            if not message.id or not isinstance(message.id, str) or message.fuzzy:
                continue
            if isinstance(message.string, str) and message.string:
                messages[message.id] = message.string
    return messages


def catalogue_files(locale: str) -> list[Path]:
    """The domain files of ``locale``, in a fixed order (``core.po`` first)."""
    files = sorted((LOCALE_DIR / locale).glob("*.po"))
    return sorted(files, key=lambda path: (path.stem != "core", path.stem))


def has_key(key: str, locale: object = DEFAULT_LOCALE) -> bool:
    """Whether the catalogue of ``locale`` itself (no fallback) holds ``key``."""
    return key in catalogue(normalise_locale(locale))


def keys(locale: object = DEFAULT_LOCALE) -> frozenset[str]:
    """Every key of the catalogue of ``locale`` (English: every key Pöppel uses)."""
    return frozenset(catalogue(normalise_locale(locale)))


def template(key: str, locale: object) -> str:
    """The unformatted message for ``key``: in ``locale``, else English, else the key."""
    messages = catalogue(normalise_locale(locale))
    found = messages.get(key)
    if found is None:
        found = catalogue(DEFAULT_LOCALE).get(key)
        if found is None:
            log.warning("no message for key %r", key)
            return key
    return found


class _Formatter(string.Formatter):
    """``str.format`` with one addition: the spec ``a``/``A`` puts an article before a value.

    ``{seat:a}`` reads ``az 1`` or ``a 2`` in Hungarian (see :mod:`i18n.articles`); every other
    spec is Python's own.
    """

    def format_field(self, value: Any, format_spec: str) -> Any:
        if format_spec in ARTICLE_SPECS:
            return with_article(value, format_spec)
        return super().format_field(value, format_spec)


_FORMATTER = _Formatter()


def format_message(text: str, params: Mapping[str, Any]) -> str:
    """Fill a catalogue template: named placeholders, unknown ones left visible, article specs."""
    return _FORMATTER.vformat(text, (), _Params(params))


class _Params(dict[str, Any]):
    """Format parameters that leave an unknown placeholder visible instead of raising."""

    def __missing__(self, name: str) -> str:
        return "{" + name + "}"


def t(key: str, locale: object, /, **params: Any) -> str:
    """The message ``key`` in ``locale`` with ``params`` filled in.

    ``t("error.seat_taken", "de", seat=3)`` -> ``"Platz 3 ist besetzt."``. Unknown locales and
    keys missing in that language fall back to English; a missing parameter stays as
    ``{name}`` in the text (a visible slip is better than a failed interaction).
    """
    text = template(key, locale)
    if not params and "{" not in text:
        return text
    try:
        return format_message(text, params)
    except (ValueError, IndexError, AttributeError, KeyError):
        log.warning("message %r in %s does not format with %s", key, locale, sorted(params))
        return text


def tn(key: str, count: int, locale: object, /, **params: Any) -> str:
    """A counted message: ``<key>.one`` when ``count`` is 1, else ``<key>.other``.

    ``count`` is also passed as the ``{count}`` placeholder.
    """
    form = "one" if count == 1 else "other"
    return t(f"{key}.{form}", locale, count=count, **params)


def placeholders(text: str) -> frozenset[str]:
    """The names of the ``{placeholders}`` in a message template."""
    names = set()
    for _literal, field, _spec, _conversion in string.Formatter().parse(text):
        if field is not None:
            names.add(field.split(".", 1)[0].split("[", 1)[0])
    return frozenset(names)
