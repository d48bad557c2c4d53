"""``/move``: a move typed instead of clicked, with autocomplete over the caller's legal moves.

The autocomplete lists the caller's own legal moves in words (Discord shows autocomplete
answers to the person typing only); each choice's value is ``<version>:<index>`` into the
same list rebuilt from the same state, so a value from an older turn is refused as out of
date. A value typed by hand is matched against the words of the moves, or their notation for
people who know it. Every answer is private; the service decides whether the move is legal.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.discord_ui.prompts import OutOfDate
from bot.discord_ui.replies import reply_private
from bot.discord_ui.texts import move_label, seat_name
from bot.discord_ui.tile_words import (
    action_label,
    figure_actions,
    placement_words,
    placements_of,
    segment_sides,
    segments_of,
)
from bot.discord_ui.translator import locale_of
from bot.model.effects import PrivateInfo
from bot.model.table import NotSeated, NotYourTurn, Phase, TableError
from i18n import t

if TYPE_CHECKING:
    from bot.discord_ui.desk_port import PlayDesk

#: Discord's limits on autocomplete answers.
MAX_CHOICES = 25
MAX_NAME = 100
_VALUE = re.compile(r"(?P<version>\d{1,9}):(?P<index>\d{1,6})")


def _race_options(info: PrivateInfo, locale: str) -> list[tuple[str, str]]:
    view: Mapping[str, Any] = info.view or {}
    seats = view.get("seats") or [s.index for s in info.table.seats]
    names = {int(seat): seat_name(info.table, int(seat), locale) for seat in seats}
    known = dict(zip(info.legal_moves, info.labels, strict=False))  # with the moves' effects
    return [
        (known[m].text(locale) if m in known else move_label(m, view, names, locale), m)
        for m in info.legal_moves
    ]


def _tile_options(desk: PlayDesk, info: PrivateInfo, locale: str) -> list[tuple[str, str]]:
    view: Mapping[str, Any] = info.view or {}
    if view.get("phase") == "figure":
        segments = segments_of(info.legal_moves)
        sides = segment_sides(view, None)
        return [(action_label(m, segments, locale, sides), m) for m in info.legal_moves]
    placements = placements_of(info)
    tile = view.get("current_tile")
    options = []
    for index, (x, y) in enumerate(desk.renderer.order(placements)):
        for rot in sorted(placements[(x, y)]):
            actions = figure_actions(view, f"{x},{y}@{rot}")
            segments = segments_of(actions)
            sides = segment_sides(view, f"{x},{y}@{rot}")
            where = placement_words(index + 1, rot).text(locale)
            for action in actions:
                figure = action_label(action, segments, locale, sides)
                label = t("clicks.typed_placement", locale, placement=where, figure=figure)
                options.append((label, f"{tile} {x},{y}@{rot} {action}"))
    return options


async def move_options(desk: PlayDesk, info: PrivateInfo, locale: str) -> list[tuple[str, str]]:
    """(words, move) for every legal move of the caller, in a stable order."""
    if info.seat is None or not info.legal_moves:
        return []
    key = (info.table.id, info.table.version, int(info.seat), locale)
    cached = desk.move_lists.get(key)
    if cached is not None:
        return cached
    if info.table.game == "carcassonne":
        options = await asyncio.to_thread(_tile_options, desk, info, locale)
    else:
        options = _race_options(info, locale)
    desk.move_lists.put(key, options)
    return options


def _matches(label: str, typed: str) -> bool:
    words = typed.casefold().split()
    text = label.casefold()
    return all(word in text for word in words)


async def autocomplete(
    desk: PlayDesk, interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The caller's legal moves whose words contain what they typed (at most 25)."""
    try:
        table_id = await desk.resolve_table(interaction, _table_option(interaction))
        info: PrivateInfo = await desk.service.private_info(table_id, interaction.user.id)
    except TableError:
        return []
    locale = locale_of(interaction)
    choices = []
    for index, (label, _move) in enumerate(await move_options(desk, info, locale)):
        if _matches(label, current):
            value = f"{info.table.version}:{index}"
            choices.append(app_commands.Choice(name=label[:MAX_NAME], value=value))
            if len(choices) == MAX_CHOICES:
                break
    return choices


def _table_option(interaction: discord.Interaction) -> int | None:
    value = getattr(interaction.namespace, "table", None)
    return value if isinstance(value, int) else None


async def play_typed(
    desk: PlayDesk, interaction: discord.Interaction, value: str, table: int | None
) -> None:
    """``/move``: play the chosen (or typed) move, answering privately."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    locale = locale_of(interaction)
    try:
        table_id = await desk.resolve_table(interaction, table)
        info: PrivateInfo = await desk.service.private_info(table_id, interaction.user.id)
        label, move, version = await _chosen(desk, info, value, locale)
        effects = await desk.service.act(table_id, interaction.user.id, move, version)
    except OutOfDate:
        await reply_private(interaction, t("error.out_of_date", locale))
        return
    except TableError as error:
        await reply_private(interaction, error.text(locale))
        return
    desk.deliver_soon(effects, via=interaction)  # in the background: the answer goes first
    if info.table.game == "carcassonne":
        await reply_private(interaction, t("tile.placed", locale, label=label))
    else:
        await reply_private(interaction, t("race.played", locale, move=label))


async def _chosen(
    desk: PlayDesk, info: PrivateInfo, value: str, locale: str
) -> tuple[str, str, int]:
    """(words, move, version) that ``value`` names: an autocomplete value (the move listed
    at its version; the service judges whether that version is still good), the words of a
    legal move now, or its notation. Refusals are :class:`TableError` or :class:`OutOfDate`."""
    if info.seat is None:
        raise NotSeated("error.not_seated")
    if info.table.phase is not Phase.PLAYING:
        raise TableError("clicks.move_not_playing")
    match = _VALUE.fullmatch(value.strip())
    if match is not None:
        version, index = int(match["version"]), int(match["index"])
        listed = desk.move_lists.get((info.table.id, version, int(info.seat), locale))
        if listed is None or index >= len(listed):
            raise OutOfDate()
        label, move = listed[index]
        return label, move, version
    options = await move_options(desk, info, locale)
    if not options:
        raise NotYourTurn("error.not_your_turn")
    typed = value.strip().casefold()
    for label, move in options:
        if typed in (label.casefold(), move.casefold()):
            return label, move, info.table.version
    raise TableError("clicks.move_unknown")
