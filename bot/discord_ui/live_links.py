"""The live board's buttons on a board message (#33): *Watch live* (a link to the table's
page) and *Open the board* (the Discord Activity, opened with the launch-activity response).

Shown only when the bot serves the live board (``WEB_PORT`` and ``WEB_PUBLIC_URL``; the
Activity also needs ``DISCORD_CLIENT_ID``). The link carries the table's number only: nothing
secret is ever in a URL; the page asks who you are through the Activity's sign-in.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord_ui.components import button
from bot.discord_ui.custom_ids import control_id
from bot.discord_ui.translator import locale_of
from bot.model.table import TableRecord
from i18n import t

log = logging.getLogger(__name__)

#: The custom_id action of the button that opens the Activity (a public control).
LAUNCH_ACTION = "live"


@dataclass(frozen=True, slots=True)
class LiveLinks:
    """Where the live board is served, and whether the Activity may be opened."""

    public_url: str
    activity: bool = False

    def page(self, table_id: int) -> str:
        """The table's live page."""
        return f"{self.public_url.rstrip('/')}/live/table/{table_id}"

    def items(self, table: TableRecord, locale: str) -> list[discord.ui.Item[Any]]:
        """The buttons: the link, and the Activity's when it is configured."""
        items: list[discord.ui.Item[Any]] = [
            discord.ui.Button(
                style=discord.ButtonStyle.link,
                label=t("live.watch_button", locale),
                url=self.page(table.id),
                row=4,
            )
        ]
        if self.activity:
            items.append(
                button(
                    t("live.play_button", locale),
                    control_id(table.id, 0, LAUNCH_ACTION),
                    row=4,
                )
            )
        return items

    def add_to(self, view: discord.ui.View, table: TableRecord, locale: str) -> None:
        """Add the buttons to a board's ``view`` in its last row, when there is room."""
        for item in self.items(table, locale):
            with contextlib.suppress(ValueError):  # a full message keeps its controls
                view.add_item(item)


async def launch(
    interaction: discord.Interaction[Any], links: LiveLinks | None, table_id: int
) -> None:
    """Open the Activity for the clicker (the first answer to the click: Discord wants it
    within 3 seconds). Discord does not say whether an Activity may start in a thread; when it
    refuses, the clicker gets the page's link privately instead."""
    try:
        await interaction.response.launch_activity()
        return
    except discord.HTTPException as error:
        log.info("launching the Activity failed (%s %s)", error.status, error.code)
    if interaction.response.is_done() or links is None:
        return
    text = t("live.launch_failed", locale_of(interaction), url=links.page(table_id))
    await interaction.response.send_message(text, ephemeral=True)
