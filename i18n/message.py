"""Sentences as keys and parameters, said in a reader's language only when delivered.

The table service and the engines' event builders never write finished sentences: they hand
over a :class:`Message` (a catalogue key and its parameters), and each front end says it in
its reader's language with :meth:`Message.text`. A parameter may itself be a message (a bot's
name, a colour, a card, a place on the board), a list of them (said as ``a, b and c``) or a
plain value (a person's name, a number), so one sentence can be said in every language
without anything parsing it back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from i18n.catalog import Phrase, format_message, normalise_locale, t, word_forms


@dataclass(frozen=True, slots=True)
class Message:
    """A catalogue key with its parameters; ``text(locale)`` says it.

    A ``count`` parameter chooses the form of a plural entry (Babel's plural rules).
    ``capital``: the message opens a sentence, so its first letter is upper case whatever
    its template starts with (a lower-case phrase reused at the start).
    """

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)
    capital: bool = False

    def text(self, locale: object) -> str:
        """The message in ``locale``, parameters said in the same language."""
        params = {name: say(v, locale) for name, v in self.params.items()}
        said = t(self.key, locale, **params)
        forms = word_forms(normalise_locale(locale)).get(self.key) or {}
        # A word of the catalogues, with its cases and article forms filled like itself.
        said = Phrase(said, {form: format_message(text, params) for form, text in forms.items()})
        if not self.capital:
            return said
        if isinstance(said, Phrase):
            return said.capitalised()
        return said[:1].upper() + said[1:]

    def capitalised(self) -> Message:
        """The same message opening a sentence (first letter upper case)."""
        return Message(self.key, self.params, capital=True)

    def __str__(self) -> str:
        # For logs and developers; players always get text(locale).
        return self.text("en")


def msg(key: str, /, **params: Any) -> Message:
    """``msg("error.seat_taken", seat=3)``: a :class:`Message` of ``key`` with ``params``."""
    return Message(key, params)


@dataclass(frozen=True, slots=True)
class Joined:
    """Several messages said one after the other, separated by ``sep`` (sentences: a space)."""

    parts: tuple[Any, ...]
    sep: str = " "

    def text(self, locale: object) -> str:
        """Each non-empty part in ``locale``, joined."""
        said = (say(part, locale) for part in self.parts)
        return self.sep.join(part for part in said if part)

    def __str__(self) -> str:
        return self.text("en")


#: What a sentence slot holds: one message or several in a row.
Said = Message | Joined


def joined(parts: Iterable[Any], sep: str = " ") -> Joined:
    """Messages (or text) said in a row: sentences separated by a space, lines by ``\\n``."""
    return Joined(tuple(parts), sep)


def say(value: Any, locale: object) -> Any:
    """A parameter in ``locale``: messages said, lists as ``a, b and c``, numbers kept."""
    if isinstance(value, Message | Joined):
        return value.text(locale)
    if isinstance(value, list | tuple):
        said = (say(item, locale) for item in value)
        return list_words([item if isinstance(item, str) else str(item) for item in said], locale)
    return value


def list_words(items: Sequence[str], locale: object) -> str:
    """``a``, ``a and b``, ``a, b and c`` in ``locale``.

    Items that know their forms (:class:`~i18n.catalog.Phrase`: a bot's name with its
    article, a card in the accusative) make a list that knows them too: ``{names:A}`` reads
    *anna és a 3. bot*, the capital only on the first.
    """
    if len(items) <= 1:
        return items[0] if items else ""
    text = t("list.and", locale, first=", ".join(items[:-1]), last=items[-1])
    names = {form for item in items if isinstance(item, Phrase) for form in item.forms}
    if not names:
        # Words of the catalogues make a phrase of them (it takes an article: {sides:a}).
        return Phrase(text) if all(isinstance(item, Phrase) for item in items) else text
    forms = {}
    for form in names:
        parts = [
            _form(item, "a" if form == "A" and index else form) for index, item in enumerate(items)
        ]
        forms[form] = t("list.and", locale, first=", ".join(parts[:-1]), last=parts[-1])
    return Phrase(text, forms)


def _form(item: str, form: str) -> str:
    """``form`` of one list item, or the item itself when it has no such form."""
    if isinstance(item, Phrase):
        return item.forms.get(form, str(item))
    return item
