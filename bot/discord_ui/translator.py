"""Localising the slash commands: :class:`PoeppelTranslator` for discord.py's command tree.

discord.py wraps every command, option and choice string in a ``locale_str`` (its
``auto_locale_strings``), so the commands need not change: the translator finds the catalogue
key either in ``extras["key"]`` or, by default, from the English text — names through
``cmd.name.*``, descriptions through ``cmd.desc.*``, choices through ``cmd.choice.*`` and
``rules.topic.*``. A string without a key is left to Discord's default (English).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Location

from i18n.catalog import DEFAULT_LOCALE, catalogue, normalise_locale, t

#: Discord's rule for command and option names (after lowercasing).
NAME_PATTERN = re.compile(r"^[-_\w]{1,32}$")

_NAME_LOCATIONS = frozenset({Location.command_name, Location.group_name, Location.parameter_name})
_DESCRIPTION_LOCATIONS = frozenset(
    {Location.command_description, Location.group_description, Location.parameter_description}
)


@cache
def _english_index(prefixes: tuple[str, ...]) -> Mapping[str, str]:
    """English text -> key, for the keys starting with one of ``prefixes``."""
    return {
        text: key for key, text in catalogue(DEFAULT_LOCALE).items() if key.startswith(prefixes)
    }


def _prefixes(location: Location) -> tuple[str, ...]:
    if location in _NAME_LOCATIONS:
        return ("cmd.name.",)
    if location in _DESCRIPTION_LOCATIONS:
        return ("cmd.desc.",)
    if location is Location.choice_name:
        return ("cmd.choice.", "rules.topic.", "game.")
    return ("cmd.",)


def key_for(
    message: str, location: Location, extras: Mapping[str, Any] | None = None
) -> str | None:
    """The catalogue key of a command string, or None when it has none."""
    if extras and isinstance(extras.get("key"), str):
        return str(extras["key"])
    return _english_index(_prefixes(location)).get(message)


def valid_name(name: str) -> bool:
    """Whether ``name`` is a valid Discord command or option name."""
    return name == name.lower() and NAME_PATTERN.fullmatch(name) is not None


def translate_command_string(
    message: str, locale: object, location: Location, extras: Mapping[str, Any] | None = None
) -> str | None:
    """The localised command string, or None to keep the default.

    English (the default locale) and strings without a key return None. Names are lowered
    and checked against Discord's rules (an invalid one would make the whole sync fail, so it
    is dropped); descriptions and choice names are cut to Discord's 100 characters.
    """
    language = normalise_locale(locale)
    if language == DEFAULT_LOCALE:
        return None
    key = key_for(message, location, extras)
    if key is None:
        return None
    text = t(key, language)
    if text == key:
        return None
    if location in _NAME_LOCATIONS:
        text = text.lower()
        return text if valid_name(text) else None
    return text[:100]


class PoeppelTranslator(app_commands.Translator):
    """Gives Discord the German and Hungarian names, descriptions and choices of commands.

    Register in ``setup_hook``: ``await self.tree.set_translator(PoeppelTranslator())``.
    """

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        return translate_command_string(string.message, locale, context.location, string.extras)


def locale_of(interaction: discord.Interaction[Any]) -> str:
    """The language for a private answer: the clicking user's Discord locale."""
    return normalise_locale(getattr(interaction, "locale", None))


def guild_locale_of(source: discord.Interaction[Any] | discord.Guild | None) -> str:
    """The language for a public message: the server's preferred locale (English without)."""
    if source is None:
        return DEFAULT_LOCALE
    if isinstance(source, discord.Guild):
        return normalise_locale(source.preferred_locale)
    return normalise_locale(getattr(source, "guild_locale", None))
