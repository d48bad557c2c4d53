"""Private prompts: a player's hand, the moves of a card, the tile to place.

Every prompt is an ephemeral message whose controls carry the table and version; a click
re-reads the player's private info from the service, rebuilds the same list of choices and
hands the chosen move text to :meth:`TableService.act`, which decides whether it is legal.

This module holds what both games' prompts share (choice lists, selects, sending and editing
a prompt, the refusals :class:`OutOfDate` and :class:`InvalidChoice`); which game's prompts a
click goes to is the front desk's decision, so nothing here imports them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.discord_ui.components import (
    OPTION_DESCRIPTION,
    OPTION_LABEL,
    button,
    make_view,
    select,
)
from bot.discord_ui.custom_ids import ControlId, control_id
from bot.model.effects import PrivateInfo
from bot.model.table import NotSeated, NotYourTurn, Phase, WrongPhase
from i18n import t

if TYPE_CHECKING:
    from bot.discord_ui.desk_port import PlayDesk

#: Discord's design guidance for a button label (with an emoji; the API takes 80): longer
#: words go into a select option, whose description says what the choice does.
BUTTON_GUIDE = 34
#: Up to this many choices are buttons; more go into selects of 25.
MAX_BUTTON_CHOICES = 10
PAGE_SIZE = 25
#: Selects on one prompt (rows 0-3; row 4 holds Previous / Next / Back): 100 choices are
#: one click each, and only a longer list needs pages.
SELECTS_PER_PAGE = 4


class OutOfDate(Exception):
    """The control was drawn for a turn that is over."""


class InvalidChoice(Exception):
    """The click names no choice on offer (a crafted custom_id or select value)."""


def chosen_index(values: Sequence[str], *, first: int) -> int:
    """The option a single-choice select sent: exactly one value, a number among the
    select's options ``first`` to ``first + PAGE_SIZE - 1``; :class:`InvalidChoice` otherwise."""
    if len(values) != 1:
        raise InvalidChoice()
    value = values[0]
    if not (value.isascii() and value.isdigit()) or len(value) > 4:
        raise InvalidChoice()
    index = int(value)
    if not first <= index < first + PAGE_SIZE:
        raise InvalidChoice()
    return index


def first_option(control: ControlId) -> int:
    """The index of the first option of a ``ms:<key>:<page>[:<first>]`` select (a select
    drawn before selects came four to a page names only its page of 25)."""
    if len(control.args) > 2:
        return control.int_arg(2)
    return control.int_arg(1) * PAGE_SIZE


#: Room an option's number takes before its label (``"100. "``).
NUMBER_ROOM = 5


@dataclass(frozen=True, slots=True)
class Choice:
    """One choice in words that fit Discord: ``text`` on a button; on a select option the
    shorter ``label`` (``text`` when empty), with ``detail`` as the option's description."""

    text: str
    label: str = ""
    detail: str = ""

    def option_label(self) -> str:
        """The words on a select option (before its number)."""
        return self.label or self.text

    def fits_button(self) -> bool:
        """Whether ``text`` fits a button (Discord's guidance, :data:`BUTTON_GUIDE`)."""
        return len(self.text) <= BUTTON_GUIDE

    def fits_option(self) -> bool:
        """Whether the option's label (with its number) and description fit a select."""
        return (
            len(self.option_label()) <= OPTION_LABEL - NUMBER_ROOM
            and len(self.detail) <= OPTION_DESCRIPTION
        )


@dataclass(slots=True)
class Prompt:
    """A private message to show: text, controls, and an image."""

    content: str
    items: list[discord.ui.Item[Any]] = field(default_factory=list)
    file: discord.File | None = None
    #: The moves the controls offer, in their numbering, for a choice image to mark.
    moves: tuple[str, ...] = ()
    #: The image still being drawn when the prompt had to go out (it follows in an edit).
    late_file: asyncio.Future[discord.File | None] | None = None


async def load_info(
    desk: PlayDesk,
    interaction: discord.Interaction,
    control: ControlId,
    *,
    strict: bool,
    any_version: bool = False,
) -> PrivateInfo:
    """The clicking user's private info, checked: seated, game running, version current.

    ``strict`` refuses any other version; otherwise (a simultaneous exchange, where other
    seats' picks move the version on) the service's own version rule decides at ``act``.
    ``any_version``: the click acts on nothing (it opens the hand as it is now), so the
    version of the controls clicked does not matter.
    """
    info: PrivateInfo = await desk.service.private_info(control.table, interaction.user.id)
    if info.seat is None:
        raise NotSeated("error.not_seated")
    if info.table.phase is not Phase.PLAYING or info.view is None:
        raise WrongPhase(
            "error.game_over" if info.table.phase != Phase.LOBBY else "error.not_started"
        )
    if control.version != info.table.version and not any_version:
        exchange = (info.view or {}).get("phase") == "exchange"
        if strict or not exchange:
            raise OutOfDate()
    return info


def choice_controls(
    table: int,
    version: int,
    key: str,
    labels: Sequence[str | Choice],
    *,
    page: int = 0,
    back: str | None = "hand2",
    placeholder: str | None = None,
    locale: str = "en",
    numbered: bool = False,
) -> list[discord.ui.Item[Any]]:
    """Buttons for a few choices, or up to four selects of 25 (pages only beyond 100).

    ``numbered``: the buttons carry the choices' numbers (1, 2, …) like the options of a
    select, the numbers a choice image shows.

    Buttons only when every choice's words fit a button; otherwise selects, whose options
    take a choice's shorter label and its detail as the description (see :class:`Choice`).

    The custom_ids are ``mv:<key>:<index>`` (button) and ``ms:<key>:<page>:<first>`` (a
    select whose values are indexes), so a click finds the choice in the list rebuilt from the
    same state.
    """
    items: list[discord.ui.Item[Any]] = []
    if placeholder is None:
        placeholder = t("prompt.choose_move", locale)
    choices = [c if isinstance(c, Choice) else Choice(c) for c in labels]
    if numbered:
        on_buttons = [
            Choice(t("prompt.option", locale, number=i + 1, label=c.text), c.label, c.detail)
            for i, c in enumerate(choices)
        ]
    else:
        on_buttons = choices
    if len(choices) <= MAX_BUTTON_CHOICES and all(c.fits_button() for c in on_buttons):
        for index, choice in enumerate(on_buttons):
            items.append(
                button(
                    choice.text,
                    control_id(table, version, "mv", key, index),
                    style=discord.ButtonStyle.primary,
                    row=index // 5,
                )
            )
        row = (len(choices) + 4) // 5
    else:
        per_page = PAGE_SIZE * SELECTS_PER_PAGE
        pages = (len(choices) + per_page - 1) // per_page
        page = max(0, min(page, pages - 1))
        items += option_selects(
            [
                (
                    i + 1,
                    t("prompt.option", locale, number=i + 1, label=choices[i].option_label()),
                    str(i),
                    choices[i].detail,
                )
                for i in range(page * per_page, min(len(choices), (page + 1) * per_page))
            ],
            lambda first: control_id(table, version, "ms", key, page, first),
            placeholder,
            locale,
            page=(page, pages),
        )
        row = len(items)
        if page > 0:
            previous = control_id(table, version, "pg", key, page - 1)
            items.append(button(t("prompt.previous", locale), previous, row=row))
        if page < pages - 1:
            following = control_id(table, version, "pg", key, page + 1)
            items.append(button(t("prompt.next", locale), following, row=row))
    if back is not None:
        back_id = control_id(table, version, back)
        items.append(button(t("prompt.back", locale), back_id, row=min(row, 4)))
    return items


def option_selects(
    options: Sequence[tuple[int, str, str] | tuple[int, str, str, str]],
    custom_id: Callable[[int], str],
    placeholder: str,
    locale: str,
    *,
    page: tuple[int, int] = (0, 1),
    groups: Sequence[int] | None = None,
) -> list[discord.ui.Item[Any]]:
    """``(number, label, value)`` options (or ``(number, label, value, description)``) in
    selects of at most 25, one per row from row 0.

    ``custom_id(first)`` names the select whose first option is ``options[first]``. Once there
    are several selects, each placeholder says which numbers it holds.
    ``groups`` (sizes that add up to ``len(options)``) keeps each group in one select when
    the groups fit :data:`SELECTS_PER_PAGE` selects; otherwise the options are cut every 25.
    """
    chunks = _chunks(len(options), groups)
    items: list[discord.ui.Item[Any]] = []
    number, pages = page
    for row, (first, last) in enumerate(chunks):
        text = placeholder
        if len(chunks) > 1:
            low, high = options[first][0], options[last - 1][0]
            text = t("clicks.select_range", locale, placeholder=text, first=low, last=high)
        if pages > 1:
            text = t("prompt.page", locale, placeholder=text, page=number + 1, pages=pages)
        shown = [(option[1], option[2], *option[3:]) for option in options[first:last]]
        items.append(select(custom_id(first), shown, placeholder=text, row=row))
    return items


def _chunks(count: int, groups: Sequence[int] | None) -> list[tuple[int, int]]:
    """(first, end) ranges of at most :data:`PAGE_SIZE` options each."""
    if groups:
        packed: list[tuple[int, int]] = []
        first = end = 0
        for size in groups:
            if size > PAGE_SIZE:
                break
            if end + size - first > PAGE_SIZE:
                packed.append((first, end))
                first = end
            end += size
        else:
            if end > first:
                packed.append((first, end))
            if len(packed) <= SELECTS_PER_PAGE:
                return packed
    return [(first, min(count, first + PAGE_SIZE)) for first in range(0, count, PAGE_SIZE)]


async def send_prompt(interaction: discord.Interaction, prompt: Prompt) -> None:
    """A new ephemeral message (after the ephemeral deferral of a public control)."""
    kwargs: dict[str, Any] = {"ephemeral": True}
    if prompt.items:
        kwargs["view"] = make_view(prompt.items)
    if prompt.file is not None:
        kwargs["file"] = prompt.file
    await interaction.followup.send(prompt.content[:2000], **kwargs)


async def edit_prompt(
    interaction: discord.Interaction, prompt: Prompt, *, keep_image: bool = True
) -> None:
    """Replace the clicked private prompt (after a deferred update)."""
    kwargs: dict[str, Any] = {
        "content": prompt.content[:2000],
        "view": make_view(prompt.items) if prompt.items else None,
    }
    if prompt.file is not None:
        kwargs["attachments"] = [prompt.file]
    elif not keep_image:
        kwargs["attachments"] = []
    await interaction.edit_original_response(**kwargs)


def require_turn(info: PrivateInfo) -> None:
    """Raise :class:`NotYourTurn` unless the player owes a decision."""
    if not info.to_act:
        raise NotYourTurn("error.not_your_turn")
