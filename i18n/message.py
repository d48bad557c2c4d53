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

from i18n.catalog import t


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
        said = t(self.key, locale, **{name: say(v, locale) for name, v in self.params.items()})
        return said[:1].upper() + said[1:] if self.capital else said

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
        return list_words([str(say(item, locale)) for item in value], locale)
    return value


def list_words(items: Sequence[str], locale: object) -> str:
    """``a``, ``a and b``, ``a, b and c`` in ``locale``."""
    if len(items) <= 1:
        return "".join(items)
    return t("list.and", locale, first=", ".join(items[:-1]), last=items[-1])
