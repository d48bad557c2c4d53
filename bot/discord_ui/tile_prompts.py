"""Carcassonne in two clicks: a placement, then a figure spot (or none).

Where the drawn tile may go is public, so the board message itself offers every placement
(cell and rotation together, numbered as the cells of its image) in selects
(:func:`bot.discord_ui.tile_words.placement_controls`); choosing one opens the private figure
step, or places the tile at once when no figure can go on it. Only when the placements do not
fit the board's selects does "Place tile" open the private step-by-step prompt (cell,
rotation, figure), which skips a step with a single option.

The whole turn goes to the service at once (``<tile> x,y@rot <action>``), so the thread gets
one board per turn. This module owns the private prompts and their clicks; how placements and
figure spots are said is :mod:`bot.discord_ui.tile_words` (shared with the board, hints and
``/move``), and the desk is reached only through :class:`bot.discord_ui.desk_port.PlayDesk`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord

from bot.discord_ui.components import button, select
from bot.discord_ui.custom_ids import BadCustomId, ControlId, control_id
from bot.discord_ui.hints import hint_buttons, show_hint
from bot.discord_ui.prompts import (
    PAGE_SIZE,
    Choice,
    InvalidChoice,
    OutOfDate,
    Prompt,
    choice_controls,
    chosen_index,
    edit_prompt,
    first_option,
    load_info,
    require_turn,
    send_prompt,
)
from bot.discord_ui.replies import reply_private
from bot.discord_ui.texts import seat_name
from bot.discord_ui.tile_words import (
    action_button,
    action_label,
    figure_actions,
    placed_words,
    placement_effects_of,
    placements_of,
    segment_sides,
    segments_of,
    turn_words,
)
from bot.discord_ui.translator import locale_of
from bot.model.effects import PrivateInfo
from bot.model.table import TableError
from i18n import t
from i18n.events import tile_words
from i18n.placement_effects import effect_words
from renderer.carcassonne.choices import TURN_ARROWS

if TYPE_CHECKING:
    from bot.discord_ui.desk_port import PlayDesk

log = logging.getLogger(__name__)


async def cells_prompt(
    desk: PlayDesk, info: PrivateInfo, page: int, *, image: bool, locale: str = "en"
) -> Prompt:
    """The board with numbered legal cells and a select of cells (pages of 25)."""
    view: Mapping[str, Any] = info.view or {}
    placements = placements_of(info)
    order = desk.renderer.order(placements)
    table, version = info.table.id, info.table.version
    pages = max(1, (len(order) + PAGE_SIZE - 1) // PAGE_SIZE)
    page = max(0, min(page, pages - 1))
    first = page * PAGE_SIZE
    # Each cell's option says the turns legal on it, with the arrows of its image (#36).
    options = [
        (
            t("tile.cell_option", locale, number=first + i + 1),
            str(first + i),
            " · ".join(
                f"{TURN_ARROWS[rot % 360]} {turn_words(rot).text(locale)}"
                for rot in sorted(placements[order[first + i]])
            ),
        )
        for i in range(len(order[first : first + PAGE_SIZE]))
    ]
    items: list[discord.ui.Item[Any]] = [
        select(
            control_id(table, version, "cell", page),
            options,
            placeholder=(
                t(
                    "prompt.page",
                    locale,
                    placeholder=t("tile.choose_cell", locale),
                    page=page + 1,
                    pages=pages,
                )
                if pages > 1  # "page 1 of 1" says nothing
                else t("tile.choose_cell", locale)
            ),
            row=0,
        )
    ]
    if page > 0:
        previous = control_id(table, version, "cpg", page - 1)
        items.append(button(t("prompt.previous", locale), previous, row=1))
    if page < pages - 1:
        following = control_id(table, version, "cpg", page + 1)
        items.append(button(t("prompt.next", locale), following, row=1))
    items += hint_buttons(info.table, info.to_act, 2, locale)
    tile = tile_words(str(view.get("current_tile"))).text(locale)
    text = t("tile.where", locale, tile=tile, count=len(order))
    file = await desk.renderer.placements(view, placements, locale=locale) if image else None
    return Prompt(text, items, file)


def rotations_prompt(
    desk: PlayDesk, info: PrivateInfo, cell_index: int, locale: str = "en"
) -> Prompt:
    """The legal rotations of the tile on the chosen cell."""
    placements = placements_of(info)
    order = desk.renderer.order(placements)
    if not 0 <= cell_index < len(order):
        raise OutOfDate()
    x, y = order[cell_index]
    table, version = info.table.id, info.table.version
    rotations = sorted(placements[(x, y)])
    items: list[discord.ui.Item[Any]] = [
        button(
            f"{TURN_ARROWS[rot % 360]} {turn_words(rot).capitalised().text(locale)}",
            control_id(table, version, "rot", cell_index, rot),
            style=discord.ButtonStyle.primary,
        )
        for rot in rotations
    ]
    back = control_id(table, version, "cpg", cell_index // PAGE_SIZE)
    items.append(button(t("prompt.back", locale), back, row=1))
    view: Mapping[str, Any] = info.view or {}
    tile = tile_words(str(view.get("current_tile"))).text(locale)
    lines = [t("tile.rotation", locale, number=cell_index + 1, tile=tile)]
    # What each turn does here, as the board's menu says it (the buttons name the turn).
    try:
        effects = placement_effects_of(view, (x, y))
    except Exception:  # the words can do without
        log.exception("no placement effects")
        effects = {}
    names = {s.index: seat_name(info.table, s.index, locale) for s in info.table.seats}
    for rot in rotations:
        facts = effects.get((x, y, rot % 360))
        said = effect_words(facts, info.seat, names, locale) if facts else ""
        if said:
            turn = f"{TURN_ARROWS[rot % 360]} {turn_words(rot).text(locale)}"
            lines.append(t("tile.turn_effect", locale, turn=turn, effect=said))
    return Prompt("\n".join(lines), items)


async def figure_prompt(
    desk: PlayDesk,
    info: PrivateInfo,
    cell_index: int,
    rot: int,
    locale: str = "en",
    *,
    back: bool = True,
) -> tuple[Prompt, list[str]]:
    """The close-up with lettered figure spots, a button per legal figure action."""
    view: Mapping[str, Any] = info.view or {}
    placements = placements_of(info)
    order = desk.renderer.order(placements)
    if not 0 <= cell_index < len(order) or rot not in placements.get(order[cell_index], []):
        raise OutOfDate()
    x, y = order[cell_index]
    actions = await asyncio.to_thread(figure_actions, view, f"{x},{y}@{rot}")
    segments = segments_of(actions)
    sides = await asyncio.to_thread(segment_sides, view, f"{x},{y}@{rot}")
    table, version = info.table.id, info.table.version
    items: list[discord.ui.Item[Any]] = [
        button(
            action_button(action, segments, locale, sides),
            control_id(table, version, "fig", cell_index, rot, index),
            style=discord.ButtonStyle.secondary
            if action == "none"
            else discord.ButtonStyle.primary,
            row=min(index // 5, 3),
        )
        for index, action in enumerate(actions[:20])
    ]
    if back:
        back_id = control_id(table, version, "cell2", cell_index)
        items.append(button(t("prompt.back", locale), back_id, row=4))
    # Nothing is stored before the figure is chosen: the player may still put the tile
    # anywhere else (the placement step again, with its image).
    elsewhere = control_id(table, version, "again")
    items.append(button(t("tile.place_elsewhere", locale), elsewhere, row=4))
    tile = str(view.get("current_tile"))
    file = await desk.renderer.figure_spots(view, x, y, rot, tile, segments, locale=locale)
    turn = turn_words(rot).text(locale)
    text = t(
        "tile.figure", locale, tile=tile_words(tile).text(locale), number=cell_index + 1, turn=turn
    )
    return Prompt(text, items, file), actions


async def handle(
    desk: PlayDesk, interaction: discord.Interaction, control: ControlId, values: list[str]
) -> None:
    """A click on a Carcassonne control."""
    action = control.action
    locale = locale_of(interaction)
    if action == "hint":
        await show_hint(desk, interaction, control.table, locale)
        return
    if action == "tile":
        info = await load_info(desk, interaction, control, strict=True)
        require_turn(info)
        await send_prompt(interaction, await _start_prompt(desk, info, locale))
        return
    if action == "put":
        # The placement chosen on the public board: the figure step opens privately.
        info = await load_info(desk, interaction, control, strict=True)
        require_turn(info)
        try:
            if len(values) > 1:
                raise InvalidChoice()
            value = values[0] if values else control.arg(1)  # a select, or the only button
            cell_text, _, rot_text = value.partition(".")
            if not (cell_text.isascii() and cell_text.isdigit() and rot_text.isdigit()):
                raise InvalidChoice()
            cell, rot = int(cell_text), int(rot_text)
        except (ValueError, BadCustomId):
            raise InvalidChoice() from None
        await _figure_step(desk, interaction, control, info, cell, rot, public=True)
        return
    if action in _PLACING:
        try:
            await _on_prompt(desk, interaction, control, values, locale)
        except (TableError, OutOfDate) as refusal:
            if not await desk.service.moved_next(
                control.table, interaction.user.id, control.version
            ):
                raise
            # The player's own placement moved the table on from this prompt: the other click
            # of a double click stored it (here, or in another process during a rolling
            # restart), and that click's answer ("You placed …") is the prompt's last word.
            # The refusal goes in a message of its own, never over it.
            if isinstance(refusal, OutOfDate):
                await reply_private(interaction, t("error.out_of_date", locale))
            else:
                await reply_private(interaction, refusal.text(locale))
        return
    await _on_prompt(desk, interaction, control, values, locale)


#: The prompt's controls that can place the tile (a figure, or a placement with no figure).
_PLACING = frozenset({"fig", "cell", "rot", "mv", "ms"})


async def _on_prompt(
    desk: PlayDesk,
    interaction: discord.Interaction,
    control: ControlId,
    values: list[str],
    locale: str,
) -> None:
    """A click in the private step-by-step prompt (or the figure step)."""
    action = control.action
    info = await load_info(desk, interaction, control, strict=False)
    require_turn(info)
    try:
        if action == "cpg":
            prompt = await cells_prompt(desk, info, control.int_arg(0), image=False, locale=locale)
            await edit_prompt(interaction, prompt)
        elif action in ("cell", "cell2"):
            # ``cell`` is the select of a page of cells; ``cell2`` the Back button of a cell.
            index = control.int_arg(0)
            if action == "cell":
                index = chosen_index(values, first=index * PAGE_SIZE)
            order = desk.renderer.order(placements_of(info))
            rotations = placements_of(info).get(order[index], []) if 0 <= index < len(order) else []
            if action == "cell" and len(rotations) == 1:
                # One way to turn the tile there: no rotation step.
                await _figure_step(desk, interaction, control, info, index, rotations[0])
            elif len(rotations) == 1:
                # Back from the figure step of a cell with one rotation: back to the cells.
                page = index // PAGE_SIZE
                prompt = await cells_prompt(desk, info, page, image=False, locale=locale)
                await edit_prompt(interaction, prompt)
            else:
                await edit_prompt(interaction, rotations_prompt(desk, info, index, locale))
        elif action == "rot":
            cell, rot = control.int_arg(0), control.int_arg(1)
            await _figure_step(desk, interaction, control, info, cell, rot)
        elif action == "fig":
            await _place(desk, interaction, control, info)
        elif action == "again":
            # "Place elsewhere": back to the placement, nothing stored.
            prompt = await cells_prompt(desk, info, 0, image=True, locale=locale)
            await edit_prompt(interaction, prompt)
        elif action in ("mv", "ms"):
            # The figure phase of a placement made earlier (e.g. by an older bot version).
            moves = list(info.legal_moves)
            number = control.int_arg(1)  # a button's choice, or the page of a select
            index = chosen_index(values, first=first_option(control)) if action == "ms" else number
            if not 0 <= index < len(moves):
                raise InvalidChoice()
            await _act(desk, interaction, control, moves[index], moves[index])
        else:
            raise BadCustomId(action)
    except (BadCustomId, ValueError):
        raise InvalidChoice() from None


async def _figure_step(
    desk: PlayDesk,
    interaction: discord.Interaction,
    control: ControlId,
    info: PrivateInfo,
    cell: int,
    rot: int,
    *,
    public: bool = False,
) -> None:
    """After the placement: the figure prompt, or, when no figure can go on the tile, the
    placement itself (one click less, and said in the confirmation).

    ``public``: the placement came from the board's select, so the figure prompt is a new
    private message (with no Back: the board's select is where to choose again).
    """
    locale = locale_of(interaction)
    try:
        prompt, actions = await figure_prompt(desk, info, cell, rot, locale, back=not public)
    except (OutOfDate, BadCustomId):
        raise
    except Exception:
        # The engine could not preview the figure spots: place the tile first (its
        # own board follows) and ask for the figure in the engine's figure phase.
        log.exception("figure preview failed; placing in two steps")
        await _place_first(desk, interaction, control, info, cell, rot)
        return
    if actions == ["none"]:
        x, y = desk.renderer.order(placements_of(info))[cell]
        tile = (info.view or {}).get("current_tile")
        figure = t("clicks.no_figure_possible", locale)
        label = placed_words(str(tile), cell + 1, rot, figure).text(locale)
        await _act(desk, interaction, control, f"{tile} {x},{y}@{rot} none", label)
        return
    if public:
        await send_prompt(interaction, prompt)
    else:
        await edit_prompt(interaction, prompt)


async def _place_first(
    desk: PlayDesk,
    interaction: discord.Interaction,
    control: ControlId,
    info: PrivateInfo,
    cell_index: int,
    rot: int,
) -> None:
    order = desk.renderer.order(placements_of(info))
    if not 0 <= cell_index < len(order):
        raise OutOfDate()
    x, y = order[cell_index]
    effects = await desk.service.act(
        control.table, interaction.user.id, f"{x},{y}@{rot}", control.version
    )
    # The boards are drawn and posted in the background; the answer does not wait for them.
    desk.deliver_soon(effects, via=interaction)
    after: PrivateInfo = await desk.service.private_info(control.table, interaction.user.id)
    prompt = await _start_prompt(desk, after, locale_of(interaction))
    await edit_prompt(interaction, prompt, keep_image=False)


async def _start_prompt(desk: PlayDesk, info: PrivateInfo, locale: str = "en") -> Prompt:
    view = info.view or {}
    if view.get("phase") == "figure":
        moves = list(info.legal_moves)
        segments = segments_of(moves)
        sides = await asyncio.to_thread(segment_sides, view, None)
        items = choice_controls(
            info.table.id,
            info.table.version,
            "F",
            [
                Choice(
                    action_button(m, segments, locale, sides),
                    action_label(m, segments, locale, sides),
                )
                for m in moves
            ],
            back=None,
            placeholder=t("tile.choose_spot", locale),
            locale=locale,
        )
        return Prompt(t("tile.figure_phase", locale), items)
    if len(placements_of(info)) == 1:
        return rotations_prompt(desk, info, 0, locale)  # one cell: no cell step
    return await cells_prompt(desk, info, 0, image=True, locale=locale)


async def _place(
    desk: PlayDesk, interaction: discord.Interaction, control: ControlId, info: PrivateInfo
) -> None:
    cell_index, rot, index = control.int_arg(0), control.int_arg(1), control.int_arg(2)
    placements = placements_of(info)
    order = desk.renderer.order(placements)
    if not 0 <= cell_index < len(order):
        raise OutOfDate()
    x, y = order[cell_index]
    view = info.view or {}
    actions = await asyncio.to_thread(figure_actions, view, f"{x},{y}@{rot}")
    if not 0 <= index < len(actions):
        raise OutOfDate()
    tile = str(view.get("current_tile"))
    move = f"{tile} {x},{y}@{rot} {actions[index]}"
    locale = locale_of(interaction)
    sides = await asyncio.to_thread(segment_sides, view, f"{x},{y}@{rot}")
    chosen = action_label(actions[index], segments_of(actions), locale, sides)
    label = placed_words(tile, cell_index + 1, rot, chosen).text(locale)
    await _act(desk, interaction, control, move, label)


async def _act(
    desk: PlayDesk, interaction: discord.Interaction, control: ControlId, move: str, label: str
) -> None:
    effects = await desk.service.act(control.table, interaction.user.id, move, control.version)
    desk.deliver_soon(effects, via=interaction)  # in the background: the answer goes first
    placed = Prompt(t("tile.placed", locale_of(interaction), label=label))
    await edit_prompt(interaction, placed, keep_image=False)
