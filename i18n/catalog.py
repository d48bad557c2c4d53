"""The message catalogues: gettext ``.po`` files per language, read once with Babel.

Each language is a folder ``i18n/locales/<locale>/`` of domain files (``core.po``, and one per
feature that brings many messages of its own); a key lives in exactly one domain file, and a
language is the union of its files.

Message ids are stable keys (``lobby.join``, ``error.not_your_turn``, ``rules.tock.seven``);
the message strings are ``str.format`` templates with named placeholders. A message that says a
number is a gettext plural entry (``msgid_plural "<key>.plural"`` and one ``msgstr[i]`` per
form of the language): :func:`t` picks its form from the ``count`` parameter with Babel's
plural rule of the language, so no code ever decides ``n == 1`` itself. English is complete
by definition: any key or language missing elsewhere falls back to it, and a key missing even
in English comes back as the key itself, so a gap shows up in the chat instead of a crash.

Games that share messages but not words: Tock and Dog share the race messages, yet German Dog
players say *Pöppel* and *Starthaus* where Tock players say *Figur* and *Startbereich*. A
language gives such a message a gettext context (``msgctxt "dog"``) variant, and a front end
says a table's messages inside :func:`game_terms` (or after :func:`use_game_terms`) for that
table's game: the variant is taken where there is one, the shared message everywhere else.
"""

from __future__ import annotations

import logging
import re
import string
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

from babel.core import Locale
from babel.messages.pofile import read_po

from i18n.articles import ARTICLE_SPECS, with_article
from i18n.suffixes import suffixed

log = logging.getLogger(__name__)

#: The languages Pöppel speaks, English first (the fallback).
LOCALES: tuple[str, ...] = ("en", "de", "hu")
DEFAULT_LOCALE = "en"
LOCALE_DIR = Path(__file__).with_name("locales")

#: One catalogue entry: a template, or the plural forms of a counted message (gettext order).
Entry = str | tuple[str, ...]

#: The order of CLDR plural categories in gettext's ``msgstr[i]`` (Babel's own order when it
#: writes a ``Plural-Forms`` expression from a locale's rule).
_PLURAL_TAGS = ("zero", "one", "two", "few", "many", "other")


def normalise_locale(locale: object) -> str:
    """One of :data:`LOCALES` for any locale Discord or a person may give.

    Accepts ``None``, plain codes (``"de"``, ``"hu"``), regional ones (``"en-US"``,
    ``"de_CH"``, ``"HU"``) and :class:`discord.Locale` members (their ``value`` is the code).
    Anything Pöppel does not speak becomes English.
    """
    if type(locale) is str:  # the common case, asked thousands of times per game
        return _normalise_text(locale)
    return _normalise(locale)


@cache
def _normalise_text(locale: str) -> str:
    return _normalise(locale)


def _normalise(locale: object) -> str:
    if locale is None:
        return DEFAULT_LOCALE
    code = str(getattr(locale, "value", locale)).strip().lower().replace("_", "-")
    primary = code.split("-", 1)[0]
    return primary if primary in LOCALES else DEFAULT_LOCALE


@cache
def catalogue(locale: str) -> Mapping[str, Entry]:
    """The messages of ``locale`` (one of :data:`LOCALES`) as key -> entry, cached.

    A plural entry is the tuple of its forms. Empty and fuzzy translations are left out (a
    plural entry with any empty form too), so that they fall back to English. Game variants
    (entries with a ``msgctxt``) are not in it: see :func:`game_variants`.
    """
    return _read(locale)[0]


@cache
def game_variants(locale: str) -> Mapping[tuple[str, str], Entry]:
    """The game-specific variants of ``locale``: (game, key) -> entry (``msgctxt`` entries)."""
    return _read(locale)[1]


@cache
def word_forms(locale: str) -> Mapping[str, Mapping[str, str]]:
    """The grammatical forms of ``locale``'s words: key -> form name -> template.

    A catalogue entry ``feature.road|sub`` or ``card.acc.5|acc`` is a form of the entry
    before the bar (a case, the word with its article); a template chooses one with the spec
    ``{x:sub}`` the way ``{seat:a}`` chooses *a*/*az* (see :class:`Phrase`). Forms belong to
    one language (Hungarian cases have no English original), so they are not keys.
    """
    return _read(locale)[2]


class Phrase(str):
    """A said word or phrase that knows its grammatical forms (``forms``: name -> text).

    It is a ``str`` (everything that shows or stores text takes it as it is); a template
    spec names a form (``{card:acc}``, ``{name:A}``) and :func:`format_message` takes it,
    or the phrase itself when it has no such form.
    """

    forms: Mapping[str, str]

    def __new__(cls, text: str, forms: Mapping[str, str] | None = None) -> Phrase:
        phrase = super().__new__(cls, text)
        phrase.forms = dict(forms or {})
        return phrase

    def capitalised(self) -> Phrase:
        """The phrase and each form with an upper-case first letter."""
        return Phrase(_upper_first(self), {k: _upper_first(v) for k, v in self.forms.items()})


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


def name_phrase(name: str) -> Phrase:
    """A person's name as a phrase: no article before it, whatever a template asks
    (``{name:A}`` reads *A 2. bot* for a bot, *anna* for anna). A name that starts with a
    number is a numbered seat (``1. játékos``, as ``poeppel play`` names its players): it
    takes the article a number takes (*az 1. játékos*)."""
    if isinstance(name, Phrase):
        return name
    if _NUMBER.match(name):
        return Phrase(name, {spec: with_article(name, spec) for spec in ARTICLE_SPECS})
    return Phrase(name, {"a": name, "A": name})


@cache
def _read(
    locale: str,
) -> tuple[dict[str, Entry], dict[tuple[str, str], Entry], dict[str, dict[str, str]]]:
    messages: dict[str, Entry] = {}
    variants: dict[tuple[str, str], Entry] = {}
    word_forms: dict[str, dict[str, str]] = {}
    for path in catalogue_files(locale):
        with path.open("rb") as handle:
            po = read_po(handle, locale=locale, ignore_obsolete=True)
        for message in po:
            if not message.id or message.fuzzy:
                continue
            key = message.id if isinstance(message.id, str) else message.id[0]
            entry: Entry | None = None
            if isinstance(message.string, str):
                entry = message.string or None
            elif message.string and all(message.string):
                entry = tuple(message.string)
            if entry is None:
                continue
            if "|" in key and isinstance(entry, str):
                base, _, form = key.partition("|")
                word_forms.setdefault(base, {})[form] = entry
                continue
            if message.context:
                variants[(message.context, key)] = entry
            else:
                messages[key] = entry
    return messages, variants, word_forms


#: The game whose words messages are said in (``None``: the shared words).
_GAME_TERMS: ContextVar[str | None] = ContextVar("poeppel_game_terms", default=None)


@contextmanager
def game_terms(game: str | None) -> Iterator[None]:
    """Say messages in ``game``'s own words inside the block (see the module docstring)."""
    token = _GAME_TERMS.set(game)
    try:
        yield
    finally:
        _GAME_TERMS.reset(token)


def use_game_terms(game: str | None) -> None:
    """Say messages in ``game``'s own words for the rest of the current task (an interaction
    handler runs in a task of its own, so this ends with it)."""
    _GAME_TERMS.set(game)


@cache
def _plural_rule(locale: str) -> tuple[Any, tuple[str, ...]]:
    """Babel's plural rule of ``locale`` and its categories in gettext's order of forms."""
    rule = Locale.parse(locale).plural_form
    return rule, tuple(tag for tag in _PLURAL_TAGS if tag in rule.tags or tag == "other")


def plural_index(count: int, locale: object) -> int:
    """Which ``msgstr[i]`` says ``count`` in ``locale``: Babel's (CLDR) plural rule of the
    language, in gettext's order of forms."""
    rule, categories = _plural_rule(normalise_locale(locale))
    return categories.index(rule(abs(count)))


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


def template(key: str, locale: object, count: int | None = None) -> str:
    """The unformatted message for ``key``: in ``locale``, else English, else the key.

    For a plural entry, the form that says ``count`` (the last form when no count is given:
    a slip that still reads).
    """
    language = normalise_locale(locale)
    game = _GAME_TERMS.get()
    found = None if game is None else game_variants(language).get((game, key))
    if found is None:
        found = catalogue(language).get(key)
    if found is None:
        language = DEFAULT_LOCALE
        found = catalogue(DEFAULT_LOCALE).get(key)
        if found is None:
            log.warning("no message for key %r", key)
            return key
    if isinstance(found, str):
        return found
    if count is None:
        log.warning("plural message %r used without a count", key)
        return found[-1]
    index = plural_index(count, language)
    return found[min(index, len(found) - 1)]


class _Formatter(string.Formatter):
    """``str.format`` with grammar specs.

    * a form name (``{card:acc}``, ``{feature:sub}``, ``{name:A}``) on a :class:`Phrase`
      takes that form of it (a word without it stays as it is);
    * ``a``/``A`` otherwise puts an article before a number or a word of the catalogues:
      ``{seat:a}`` reads ``az 1`` or ``a 2`` in Hungarian (see :mod:`i18n.articles`); a plain
      string from outside the catalogues is a name (a person's, a mention) and takes none;
    * ``cap`` puts the word's first letter in upper case (it opens a sentence or a label);
    * ``-<suffix>`` on a number adds a Hungarian suffix by how the number is spoken:
      ``{count:-as}`` reads ``5-ös``, ``6-os`` (see :mod:`i18n.suffixes`);
    * every other spec is Python's own.
    """

    def format_field(self, value: Any, format_spec: str) -> Any:
        if not format_spec:
            return super().format_field(value, format_spec)
        if isinstance(value, Phrase) and format_spec in value.forms:
            return value.forms[format_spec]
        if format_spec == "cap":
            # The word opens a sentence or label: "Dáma átadása …" (a card is "dáma" mid-list).
            return _upper_first(str(value))
        if format_spec.startswith("-") and format_spec[1:2].isalpha():
            return suffixed(value, format_spec[1:])
        if format_spec in ARTICLE_SPECS:
            if isinstance(value, Phrase | int) or _NUMBER.match(str(value)):
                return with_article(value, format_spec)
            return str(value)  # a name from outside the catalogues (a person's) takes none
        if format_spec.isalpha() and len(format_spec) > 1:
            return str(value)  # a form this word does not have: the word itself
        return super().format_field(value, format_spec)


#: A value that starts with a number (an article goes by how the number is spoken).
_NUMBER = re.compile(r"^[\s*_`„\"'(\[#]*\d")


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
    ``{name}`` in the text (a visible slip is better than a failed interaction). A plural
    entry takes its form from the ``count`` parameter.

    The text is a :class:`Phrase`: a word of the catalogues, which takes an article where a
    template asks for one (``{game:a}``); a plain string is a name from outside them.
    """
    count = params.get("count")
    text = template(key, locale, count if isinstance(count, int) else None)
    if not params and "{" not in text:
        return Phrase(text)
    try:
        return Phrase(format_message(text, params))
    except (ValueError, IndexError, AttributeError, KeyError):
        log.warning("message %r in %s does not format with %s", key, locale, sorted(params))
        return Phrase(text)


def tn(key: str, count: int, locale: object, /, **params: Any) -> str:
    """The plural entry ``key`` in the form that says ``count`` (gettext's ``ngettext``).

    ``count`` is also passed as the ``{count}`` placeholder.
    """
    return t(key, locale, count=count, **params)


def forms(entry: Entry) -> tuple[str, ...]:
    """Every template of a catalogue entry (one, or each plural form)."""
    return (entry,) if isinstance(entry, str) else entry


def placeholders(text: Entry) -> frozenset[str]:
    """The names of the ``{placeholders}`` in a message template (of all its plural forms)."""
    names = set()
    for form in forms(text):
        for _literal, field, _spec, _conversion in string.Formatter().parse(form):
            if field is not None:
                names.add(field.split(".", 1)[0].split("[", 1)[0])
    return frozenset(names)
