"""The text form of every Pöppel component's ``custom_id``.

A custom_id carries everything a click needs, so buttons keep working after a restart and no
state lives in a view object: ``t:<table>:v:<version>:<action>[:<arg>...]``. ``version`` is the
table's turn version when the message was sent; a click whose version is no longer current is
answered "this board is out of date". Lobby buttons carry version 0 and ignore it (they stay
valid for as long as the table is in its lobby).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.model.table import MAX_ID

#: Discord refuses custom_ids longer than this.
MAX_CUSTOM_ID = 100

#: What the DynamicItem template matches: anything with our prefix, so that a malformed or
#: crafted id still reaches our callback and gets a private answer instead of a silent failure.
TEMPLATE = r"t:(?P<rest>.*)"

_STRICT = re.compile(
    r"(?P<table>\d{1,19}):v:(?P<version>\d{1,9}):(?P<action>[a-z0-9]{1,12})(?P<args>(?::[^:\s]{0,40}){0,4})",
    re.ASCII,  # digits are 0-9 only: int() would also read other scripts' digits
)


class BadCustomId(ValueError):
    """A custom_id that does not parse (crafted, or from an incompatible old version)."""


@dataclass(frozen=True, slots=True)
class ControlId:
    """A parsed custom_id: which table, at which turn version, what to do, with what."""

    table: int
    version: int
    action: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        text = f"t:{self.table}:v:{self.version}:{self.action}"
        if self.args:
            text += ":" + ":".join(self.args)
        return text

    def arg(self, index: int) -> str:
        """The ``index``-th argument; raise :class:`BadCustomId` when it is missing."""
        if index >= len(self.args):
            raise BadCustomId(f"missing argument {index} in {self}")
        return self.args[index]

    def int_arg(self, index: int) -> int:
        """The ``index``-th argument as a non-negative int; raise :class:`BadCustomId`."""
        value = self.arg(index)
        if not value.isdigit() or len(value) > 9:
            raise BadCustomId(f"argument {index} of {self} is not a number")
        return int(value)


def control_id(table: int, version: int, action: str, *args: object) -> str:
    """Build the custom_id text for a control (:class:`ValueError` past Discord's limit)."""
    text = str(ControlId(int(table), int(version), action, tuple(str(a) for a in args)))
    if len(text) > MAX_CUSTOM_ID:
        raise ValueError(f"custom_id too long: {text!r}")
    return text


def parse_control_id(rest: str) -> ControlId:
    """Parse what follows ``t:`` in a custom_id; raise :class:`BadCustomId` if malformed."""
    match = _STRICT.fullmatch(rest)
    if match is None:
        raise BadCustomId(f"malformed custom_id t:{rest!r}")
    table = int(match["table"])
    # 0 is no table: the controls about none (``/history``'s pages) carry it.
    if not 0 <= table <= MAX_ID:
        raise BadCustomId(f"no table could have the id in t:{rest!r}")
    args = tuple(a for a in match["args"].split(":")[1:])
    return ControlId(table, int(match["version"]), match["action"], args)
