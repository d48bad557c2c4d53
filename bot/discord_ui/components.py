"""The one persistent component class: every Pöppel button and select is a :class:`TableControl`.

All state is in the custom_id (see :mod:`bot.discord_ui.custom_ids`), so a click works after a
restart; the callback hands the parsed id to the bot's front desk.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.discord_ui.custom_ids import TEMPLATE, BadCustomId, ControlId, control_id, parse_control_id
from bot.discord_ui.replies import reply_private
from bot.discord_ui.translator import locale_of
from i18n import t

_TEMPLATE = re.compile(TEMPLATE)


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
            label=label[:80], custom_id=custom_id, style=style, disabled=disabled, row=row
        )
    )


def select(
    custom_id: str,
    options: Sequence[tuple[str, str]],
    *,
    placeholder: str,
    row: int | None = None,
) -> TableControl:
    """A persistent single-choice select from ``(label, value)`` pairs (at most 25)."""
    return TableControl(
        discord.ui.Select(
            custom_id=custom_id,
            placeholder=placeholder[:150],
            options=[
                discord.SelectOption(label=label[:100], value=value) for label, value in options
            ],
            row=row,
        )
    )


def make_view(items: Sequence[discord.ui.Item[Any]]) -> discord.ui.View:
    """A view with no timeout holding ``items`` (persistent: they never "die")."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def _component_ids(message: discord.Message | None) -> set[str]:
    ids: set[str] = set()
    if message is None:
        return ids
    stack: list[Any] = list(message.components)
    while stack:
        component = stack.pop()
        custom = getattr(component, "custom_id", None)
        if custom:
            ids.add(custom)
        stack.extend(getattr(component, "children", []) or [])
    return ids


async def answer_unknown_component(interaction: discord.Interaction) -> None:
    """Answer privately a component click that no :class:`TableControl` will handle.

    discord.py silently drops a click whose custom_id matches no template, or whose id is not
    on the message it claims to come from; the user would see "This interaction failed".
    """
    if interaction.type is not discord.InteractionType.component:
        return
    data: Any = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    handled = _TEMPLATE.fullmatch(custom_id) is not None and custom_id in _component_ids(
        interaction.message
    )
    if not handled and not interaction.response.is_done():
        await reply_private(interaction, t("error.invalid_control", locale_of(interaction)))


__all__ = [
    "TableControl",
    "answer_unknown_component",
    "button",
    "control_id",
    "make_view",
    "select",
]
