"""Private answers that work whatever state an interaction is in."""

from __future__ import annotations

import logging
from typing import Any

import discord

log = logging.getLogger(__name__)

OUT_OF_DATE = "This board is out of date: use the buttons on the newest board in the thread."
NOT_SEATED = "You are not seated at this table."
INVALID_CONTROL = "That button is not valid (it may come from an old version of the bot)."


async def reply_private(interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
    """Answer ``interaction`` with a message only its user sees.

    Works before and after acknowledging: an unacknowledged interaction gets an ephemeral
    response; an acknowledged one a follow-up, which is private only because every deferral
    in this package that can end in a private answer is itself ephemeral.
    """
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True, **kwargs)
        else:
            await interaction.response.send_message(text, ephemeral=True, **kwargs)
    except discord.HTTPException:
        log.warning("could not answer interaction %s privately", interaction.id, exc_info=True)
