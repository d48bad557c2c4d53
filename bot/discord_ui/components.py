"""The one persistent component class: every Pöppel button and select is a :class:`TableControl`.

All state is in the custom_id (see :mod:`bot.discord_ui.custom_ids`), so a click works after a
restart; the callback hands the parsed id to the bot's front desk.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.discord_ui.custom_ids import TEMPLATE, BadCustomId, ControlId, control_id, parse_control_id
from bot.discord_ui.replies import reply_private
from bot.discord_ui.translator import locale_of
from i18n import t

log = logging.getLogger(__name__)
_TEMPLATE = re.compile(TEMPLATE)
#: The controls of a board in the thread (a click on an older board points at the newest).
BOARD_ACTIONS = frozenset({"hand", "tile", "put"})


class TableControl(discord.ui.DynamicItem[discord.ui.Item[Any]], template=TEMPLATE):
    """A button or select of a table; it wraps whichever item Discord says was clicked."""

    def __init__(self, item: discord.ui.Item[Any], control: ControlId | None = None) -> None:
        super().__init__(item)
        self.control = control

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> TableControl:
        # Never raise here: discord.py would log and drop the click, leaving the user with
        # "This interaction failed". A malformed id becomes control=None and gets an answer.
        try:
            control: ControlId | None = parse_control_id(match["rest"])
        except BadCustomId:
            control = None
        return cls(item, control)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if self.control is None:
            await reply_private(interaction, t("error.invalid_control", locale_of(interaction)))
            return
        values: list[str] = list(getattr(self.item, "values", []) or [])
        await interaction.client.desk.on_control(interaction, self.control, values)


#: Discord's limits, in characters: a button's label, a select option's label and
#: description, a select's placeholder. The prompts choose words that fit (short labels, the
#: detail in the option's description); :func:`fitted` only guards against a slip.
BUTTON_LABEL = 80
OPTION_LABEL = 100
OPTION_DESCRIPTION = 100
PLACEHOLDER = 150


def fitted(text: str, limit: int, what: str) -> str:
    """``text`` as it is when it fits ``limit``; otherwise cut, and logged as the slip it is
    (Discord refuses the whole message for one text too long, which would be worse)."""
    if len(text) <= limit:
        return text
    log.error("%s of %d characters cut to %d: %r", what, len(text), limit, text)
    return text[: limit - 1] + "…"


def button(
    label: str,
    custom_id: str,
    *,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    disabled: bool = False,
    row: int | None = None,
) -> TableControl:
    """A persistent button."""
    return TableControl(
        discord.ui.Button(
            label=fitted(label, BUTTON_LABEL, "button label"),
            custom_id=custom_id,
            style=style,
            disabled=disabled,
            row=row,
        )
    )


def select(
    custom_id: str,
    options: Sequence[tuple[str, str] | tuple[str, str, str]],
    *,
    placeholder: str,
    row: int | None = None,
) -> TableControl:
    """A persistent single-choice select from ``(label, value)`` or ``(label, value,
    description)`` options (at most 25)."""
    return TableControl(
        discord.ui.Select(
            custom_id=custom_id,
            placeholder=fitted(placeholder, PLACEHOLDER, "select placeholder"),
            options=[_option(*option) for option in options],
            row=row,
        )
    )


def _option(label: str, value: str, description: str = "") -> discord.SelectOption:
    return discord.SelectOption(
        label=fitted(label, OPTION_LABEL, "option label"),
        value=value,
        description=fitted(description, OPTION_DESCRIPTION, "option description") or None,
    )


def make_view(items: Sequence[discord.ui.Item[Any]]) -> discord.ui.View:
    """A view with no timeout holding ``items`` (persistent: they never "die").

    When every item is a :class:`TableControl` (dispatched by its template, which the client
    registered once) nothing needs the view after it is sent, so it is stopped before: then
    discord.py neither stores it nor, for an ephemeral message, gives it the 15-minute
    timeout task that would keep it and its items alive long after the turn (issue #37).
    """
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    if view.children and all(_needs_no_view(item) for item in view.children):
        view.stop()
    return view


def _needs_no_view(item: discord.ui.Item[Any]) -> bool:
    """A control dispatched by its template, or a link button (Discord opens it itself)."""
    if isinstance(item, TableControl):
        return True
    return isinstance(item, discord.ui.Button) and item.style is discord.ButtonStyle.link


def _component_keys(message: discord.Message | None) -> set[tuple[int, str]]:
    """The (component type, custom_id) of every component of ``message``."""
    keys: set[tuple[int, str]] = set()
    if message is None:
        return keys
    stack: list[Any] = list(message.components)
    while stack:
        component = stack.pop()
        custom = getattr(component, "custom_id", None)
        if custom:
            keys.add((int(component.type.value), custom))
        stack.extend(getattr(component, "children", []) or [])
    return keys


def dispatched(interaction: discord.Interaction[Any]) -> bool:
    """Whether discord.py hands this component interaction to a :class:`TableControl`.

    It does only for a custom_id of our template that the message carries *with the same
    component type* (a select-type interaction naming a button's id is dropped silently).
    """
    data: Any = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    try:
        component_type = int(data.get("component_type", 0))
    except (TypeError, ValueError):
        return False
    return _TEMPLATE.fullmatch(custom_id) is not None and (
        component_type,
        custom_id,
    ) in _component_keys(interaction.message)


async def answer_unknown_component(interaction: discord.Interaction[Any]) -> None:
    """Answer privately a component click or modal that no :class:`TableControl` will handle.

    discord.py silently drops a click whose custom_id matches no template, or that its
    message does not carry (with that component type); and Pöppel opens no modals. The user
    would see "This interaction failed". A board control taken off an old board (a newer
    board came) is answered with a link to the newest board.
    """
    if interaction.type is discord.InteractionType.modal_submit:
        if not interaction.response.is_done():
            await reply_private(interaction, t("error.invalid_control", locale_of(interaction)))
        return
    if interaction.type is not discord.InteractionType.component or dispatched(interaction):
        return
    if interaction.response.is_done():
        return
    data: Any = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    match = _TEMPLATE.fullmatch(custom_id)
    control: ControlId | None = None
    if match is not None:
        with contextlib.suppress(BadCustomId):
            control = parse_control_id(match["rest"])
    on_message = {custom for _type, custom in _component_keys(interaction.message)}
    if control is not None and control.action in BOARD_ACTIONS and custom_id not in on_message:
        # Its board lost the control when a newer board came (a client still showing it).
        await interaction.client.desk.on_old_board(interaction, control)
        return
    await reply_private(interaction, t("error.invalid_control", locale_of(interaction)))


__all__ = [
    "TableControl",
    "answer_unknown_component",
    "button",
    "control_id",
    "make_view",
    "select",
]
