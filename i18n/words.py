"""Small pieces of text built from table data: durations, table options, card names.

Pure functions of their arguments and a locale, for the lobby message and the command
answers. In English they read exactly as the Discord layer has always written them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from i18n.catalog import has_key, t

#: Options whose values are words with their own keys (``option.<name>.<value>``), and the
#: expansions, which share theirs (``option.expansion.<value>``).
_SHARED_VALUES = {"inns_cathedrals": "expansion", "traders_builders": "expansion"}


def duration_text(seconds: int, locale: object) -> str:
    """``86400`` -> ``1 d``; ``300`` -> ``5 min`` (``5 perc`` in Hungarian)."""
    if seconds % 86400 == 0:
        return t("duration.days", locale, n=seconds // 86400)
    if seconds % 3600 == 0:
        return t("duration.hours", locale, n=seconds // 3600)
    if seconds % 60 == 0:
        return t("duration.minutes", locale, n=seconds // 60)
    return t("duration.seconds", locale, n=seconds)


def option_value_text(name: str, value: Any, locale: object) -> str:
    """The word for one option value (``farms=third`` -> ``dritte Edition``), else the value."""
    family = _SHARED_VALUES.get(name, name)
    key = f"option.{family}.{value}"
    return t(key, locale) if has_key(key) else str(value)


def option_text(name: str, value: Any, locale: object) -> str | None:
    """One option in words, or None for one not in play (a false flag, an expansion ``off``)."""
    if value is False or value == "off":
        return None
    if isinstance(value, bool):
        return t(f"option.{name}", locale) if has_key(f"option.{name}") else name.replace("_", " ")
    if has_key(f"option.{name}"):
        return t(f"option.{name}", locale, value=option_value_text(name, value, locale))
    return f"{name.replace('_', ' ')}: {value}"


def options_line(players: int, options: Mapping[str, Any], turn_time: int, locale: object) -> str:
    """``4 players · game type: 2v2 · seven: split · no clock`` in ``locale``."""
    parts = [t("option.players", locale, count=players)]
    for name, value in sorted(options.items()):
        text = option_text(name, value, locale)
        if text is not None:
            parts.append(text)
    if turn_time:
        parts.append(t("option.turn_time", locale, duration=duration_text(turn_time, locale)))
    else:
        parts.append(t("option.no_clock", locale))
    return " · ".join(parts)


def card_text(token: str, locale: object) -> str:
    """A card token for a button: ``J`` -> ``J`` / ``B`` (Bube, Bubi), ``X`` -> ``Joker``."""
    key = f"card.{token}"
    return t(key, locale) if has_key(key) else token
