"""Private answers that work whatever state an interaction is in."""

from __future__ import annotations

import logging
from typing import Any

import discord

log = logging.getLogger(__name__)

OUT_OF_DATE = "This board is out of date: use the buttons on the newest board in the thread."
NOT_SEATED = "You are not seated at this table."
INVALID_CONTROL = "That button is not valid (it may come from an old version of the bot)."
#: Discord's error code for a second acknowledgement of one interaction: during a rolling
#: restart two processes get every interaction, and the one that acknowledged second leaves
#: it to the other.
INTERACTION_ACKNOWLEDGED = 40060


def acknowledged_elsewhere(error: BaseException) -> bool:
    """Whether ``error`` (or the error it wraps, as a failed command's does) is Discord
    refusing our acknowledgement because another process acknowledged first."""
    original = getattr(error, "original", error)
    return isinstance(original, discord.HTTPException) and original.code == INTERACTION_ACKNOWLEDGED


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


async def answer_click(
    interaction: discord.Interaction, text: str, *, public: bool, **kwargs: Any
) -> None:
    """Answer privately: a follow-up to a public control, or an edit of a private prompt.

    ``public`` says where the click was: on a public message (deferred ephemerally, so a
    follow-up is private) or in a private prompt (deferred as an update, which is edited).
    """
    if public:
        await reply_private(interaction, text, **kwargs)
        return
    try:
        await interaction.edit_original_response(
            content=text, view=kwargs.get("view"), attachments=kwargs.get("attachments", [])
        )
    except discord.HTTPException:
        await reply_private(interaction, text)
