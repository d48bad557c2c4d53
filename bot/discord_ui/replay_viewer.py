"""``/table replay <table>``: a private viewer that steps through a finished table.

Each position is the spectator view after a log entry (:meth:`TableService.public_history`),
drawn by the renderer exactly like the boards of the thread, so the last position's image is
the table's last board. The buttons carry the position they lead to
(``t:<table>:v:0:rp:<position>:<slot>``): first, back a tenth, back one, forward one, forward a
tenth, last. Nothing is kept between clicks.

The viewer is given the service and the renderer, all it uses; the front desk creates it and
dispatches its clicks, and this module never imports the desk.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.after_game.replay import PublicStep
from bot.discord_ui.components import button, make_view
from bot.discord_ui.custom_ids import ControlId, control_id
from bot.discord_ui.rendering import Renderer
from bot.discord_ui.replies import reply_private
from bot.discord_ui.texts import seat_names
from bot.discord_ui.translator import locale_of
from bot.model.table import TableError, TableNotFound, TableRecord
from i18n import t
from i18n.events import event_text, told_order

if TYPE_CHECKING:
    from bot.service import TableService

#: The custom_id action of the viewer's buttons.
ACTION = "rp"


def targets(position: int, last: int) -> list[tuple[str, int]]:
    """The viewer's buttons: (label key, position it shows), each within 0..last."""
    tenth = max(1, last // 10)
    return [
        ("replay.first", 0),
        ("replay.back_tenth", max(0, position - tenth)),
        ("replay.back", max(0, position - 1)),
        ("replay.forward", min(last, position + 1)),
        ("replay.forward_tenth", min(last, position + tenth)),
        ("replay.last", last),
    ]


def caption(
    table: TableRecord, step: PublicStep | None, position: int, last: int, locale: str
) -> str:
    """What the position shows, in words: the table, where we are, what just happened."""
    game = t(f"game.{table.game}", locale)
    head = t("replay.title", locale, game=game, table=table.id, position=position, last=last)
    if step is None:
        return f"**{head}**\n{t('replay.start', locale)}"
    names = step.view.get("names")
    # A race board's size lets places be said from a pawn's start (Carcassonne has none).
    board = None if table.game == "carcassonne" else step.view.get("board")
    said = (
        event_text(e, locale, game=table.game, names=names, board=board)
        for e in told_order(step.view.get("events") or ())
    )
    told = " ".join(text for text in said if text)
    return f"**{head}**\n{told or t('replay.quiet_step', locale)}"[:2000]


class ReplayViewer:
    """The front desk's replay viewer."""

    def __init__(self, service: TableService, renderer: Renderer) -> None:
        #: The table service (the desk replaces it when it gets its own: see ``FrontDesk``).
        self.service = service
        self.renderer = renderer

    async def open(self, interaction: discord.Interaction, table_id: int) -> None:
        """``/table replay``: the first position, privately."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.send_first(interaction, table_id)

    async def send_first(self, interaction: discord.Interaction, table_id: int) -> None:
        """The first position as a new private message (the interaction is deferred)."""
        locale = locale_of(interaction)
        try:
            content, kwargs = await self._position(interaction, table_id, 0)
        except TableError as error:
            await reply_private(interaction, error.text(locale))
            return
        await interaction.followup.send(content, ephemeral=True, **kwargs)

    async def on_control(self, interaction: discord.Interaction, control: ControlId) -> None:
        """A click on one of the viewer's buttons (already deferred as an update)."""
        content, kwargs = await self._position(interaction, control.table, control.int_arg(0))
        await interaction.edit_original_response(
            content=content, view=kwargs["view"], attachments=kwargs.get("files", [])
        )

    async def _position(
        self, interaction: discord.Interaction, table_id: int, position: int
    ) -> tuple[str, dict[str, Any]]:
        locale = locale_of(interaction)
        # Another server's table does not exist here, finished or not: asked before anything
        # that could tell it apart from a missing one.
        if (await self.service.get(table_id)).guild_id != interaction.guild_id:
            raise TableNotFound(table=table_id)
        record, first, steps = await self.service.public_history(table_id)
        last = len(steps)
        position = max(0, min(position, last))
        step = steps[position - 1] if position else None
        view: Mapping[str, Any] = step.view if step is not None else first
        image = await self.image(record, view, position, locale)
        items = [
            button(
                t(key, locale),
                # The slot keeps custom_ids unique where two buttons lead to one position.
                control_id(table_id, 0, ACTION, target, index),
                disabled=target == position,
                row=0 if index < 3 else 1,
            )
            for index, (key, target) in enumerate(targets(position, last))
        ]
        kwargs: dict[str, Any] = {"view": make_view(items)}
        if image is not None:
            kwargs["files"] = [image]
        return caption(record, step, position, last, locale), kwargs

    async def image(
        self, record: TableRecord, view: Mapping[str, Any], position: int, locale: str
    ) -> discord.File | None:
        """The board of one position, drawn as the thread's boards are."""
        names: Sequence[str] = seat_names(record, view.get("seats") or [], locale)
        return await self.renderer.board(
            view, names, filename=f"replay-{record.id}-{position}.png", locale=locale
        )
