"""A learner's hint in words: the bot's move as the prompts say it, and why, in one line.

The service decides whether a hint may be given and asks the bot (:mod:`bot.service.hints`);
this module only says the answer: the move with the same labels the player's buttons use,
and the bot's reasons (:mod:`engine.bots.hints`) from the ``hint.reason.*`` keys.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.discord_ui.components import button
from bot.discord_ui.custom_ids import control_id
from bot.discord_ui.replies import reply_private
from bot.discord_ui.texts import move_label, seat_name
from bot.discord_ui.tile_words import (
    action_label,
    figure_actions,
    placed_words,
    public_placements,
    segment_sides,
    segments_of,
)
from bot.model.table import TableError, TableRecord
from i18n import t, tn

if TYPE_CHECKING:
    from bot.discord_ui.desk_port import PlayDesk


def hint_buttons(table: TableRecord, to_act: bool, row: int, locale: str) -> list[Any]:
    """The *Hint* button of a player's private prompt: on tables with hints, in turn."""
    if not (table.hints and to_act):
        return []
    custom_id = control_id(table.id, table.version, "hint")
    return [button(t("hint.button", locale), custom_id, row=row)]


async def hint_text(desk: PlayDesk, table_id: int, user_id: int, locale: str) -> str:
    """Ask the service for a hint and say it; refusals raise the service's ``TableError``."""
    found = await desk.service.hint(table_id, user_id)
    table: TableRecord = await desk.service.get(table_id)
    view: Mapping[str, Any] = found.view
    seats = view.get("seats") or [s.index for s in table.seats]
    names = {int(s): seat_name(table, int(s), locale) for s in seats}
    if table.game == "carcassonne":
        move = await asyncio.to_thread(turn_label, view, found.move, locale)
    else:
        move = move_label(found.move, view, names, locale)
    return t("hint.answer", locale, move=move, reason=reasons_text(found.reasons, names, locale))


async def show_hint(
    desk: PlayDesk, interaction: discord.Interaction, table_id: int, locale: str
) -> None:
    """Answer a *Hint* click with a private follow-up (a refusal too): the prompt it was
    clicked on stays as it is."""
    try:
        text = await hint_text(desk, table_id, interaction.user.id, locale)
    except TableError as refusal:
        text = refusal.text(locale)
    await reply_private(interaction, text)


def reasons_text(reasons: Sequence[Any], names: Mapping[int, str], locale: str) -> str:
    """One or two reasons joined: ``sends Bob home and keeps your pawn safe``."""
    parts = [_reason(r.key, r.params, names, locale) for r in reasons[:2]]
    if len(parts) == 2:
        return t("hint.both", locale, first=parts[0], second=parts[1])
    return parts[0] if parts else t("hint.reason.advance", locale)


def _reason(key: str, params: Mapping[str, Any], names: Mapping[int, str], locale: str) -> str:
    name = names.get(int(params.get("seat", -1)), "")
    if key in ("home", "home_partner", "score"):
        return tn(f"hint.reason.{key}", int(params.get("count", 1)), locale, name=name)
    if key == "capture":
        who = ", ".join(names.get(int(s), "?") for s in params.get("seats", ()))
        return t("hint.reason.capture", locale, names=who)
    if key in ("claim", "extend"):
        return t(f"hint.reason.{key}.{params.get('feature', 'city')}", locale)
    return t(f"hint.reason.{key}", locale, name=name)


def turn_label(view: Mapping[str, Any], move: str, locale: str) -> str:
    """A Carcassonne turn ``E 0,-1@180 follower:city0`` as the tile prompts say it."""
    parts = move.split(" ")
    if len(parts) == 1:  # a figure action after a placement made earlier
        return action_label(move, segments_of([move]), locale, segment_sides(view, None))
    tile, placement, action = parts
    cell, _, rot = placement.partition("@")
    x, _, y = cell.partition(",")
    # The cell is named by its number on the placement image, as the board's menu names it.
    order = sorted(public_placements(view), key=lambda c: (c[1], c[0]))  # by y, then x
    number = order.index((int(x), int(y))) + 1 if (int(x), int(y)) in order else 1
    actions = figure_actions(view, placement)
    sides = segment_sides(view, placement)
    figure = action_label(action, segments_of(actions), locale, sides)
    return placed_words(tile, number, int(rot), figure).text(locale)
