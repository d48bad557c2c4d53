"""Carcassonne in words and on the board: the placements of the drawn tile, the figure spots
of a placement, and how a turn is said.

These are pure functions of the public view and of a player's legal moves (the figure spots
of a placement not made yet come from the engine on a state sampled from the view, since
Carcassonne hides nothing but the order of the pile). The board message's placement selects
(:func:`placement_controls`, posted by :mod:`bot.discord_ui.publisher`), the private tile
prompts (:mod:`bot.discord_ui.tile_prompts`), hints and ``/move`` all say a turn with them, so
the same placement reads the same wherever it is offered. Nothing here knows the front desk.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.discord_ui.components import button
from bot.discord_ui.custom_ids import control_id
from bot.discord_ui.prompts import BUTTON_GUIDE, PAGE_SIZE, SELECTS_PER_PAGE, option_selects
from bot.model.effects import PrivateInfo
from i18n import t
from i18n.events import feature_words, tile_words
from i18n.message import Message, msg
from i18n.placement_effects import effect_words

log = logging.getLogger(__name__)

KIND_WORDS = {"follower": "follower", "big": "big follower", "builder": "builder", "pig": "pig"}
ROLE_WORDS = {"city": "knight", "road": "thief", "field": "farmer", "monastery": "monk"}


def placements_of(info: PrivateInfo) -> dict[tuple[int, int], list[int]]:
    """The legal placements as cell -> rotations, from the legal list ``x,y@rot``."""
    return _cells(info.legal_moves)


def public_placements(view: Mapping[str, Any]) -> dict[tuple[int, int], list[int]]:
    """The legal placements of the drawn tile as cell -> rotations, from the public view
    (where a tile may go is public: everyone sees the board and the drawn tile)."""
    from engine import get_game

    if view.get("phase") != "place" or not view.get("current_tile"):
        return {}
    module: Any = get_game("carcassonne")
    state = module.sample_state(view, 0)
    return _cells([str(m) for m in module.legal_moves(state)])


def _cells(moves: Sequence[str]) -> dict[tuple[int, int], list[int]]:
    cells: dict[tuple[int, int], list[int]] = {}
    for move in moves:
        cell, at, rot = move.partition("@")
        if not at:
            continue
        x, _, y = cell.partition(",")
        cells.setdefault((int(x), int(y)), []).append(int(rot))
    return cells


#: What placing the tile at a cell, turned so, does: the engine's facts per feature
#: (:func:`engine.carcassonne.effects.placement_effects`).
Effects = Mapping[tuple[int, int, int], Sequence[Mapping[str, Any]]]


def placement_effects_of(
    view: Mapping[str, Any], cell: tuple[int, int] | None = None
) -> dict[tuple[int, int, int], list[Any]]:
    """The effects of every legal placement of the drawn tile (of ``cell`` only, when
    given), from the public view (the board and the tile are public, so anyone may read
    them): ``(x, y, rot)`` -> facts."""
    from engine.carcassonne.effects import effects_of_view

    return effects_of_view(view, cell)


def placement_controls(
    table: int,
    version: int,
    placements: Mapping[tuple[int, int], Sequence[int]],
    order: Sequence[tuple[int, int]],
    locale: str = "en",
    *,
    effects: Effects | None = None,
    me: int | None = None,
    names: Mapping[int, str] | None = None,
) -> list[discord.ui.Item[Any]] | None:
    """The public placement choice: every (cell, rotation) as one option, numbered as the
    cells on the placement image, each cell's rotations in one select; ``None`` when they do
    not fit the selects of one message (the private step-by-step prompt is used then).

    ``effects`` (:func:`placement_effects_of`): each option's description says what the
    placement does, ``me`` being the seat placing and ``names`` the seats' names."""
    options: list[tuple[int, str, str] | tuple[int, str, str, str]] = []
    sizes = []
    for index, cell in enumerate(order):
        rotations = sorted(placements[cell])
        sizes.append(len(rotations))
        for rot in rotations:
            label = placement_words(index + 1, rot).text(locale)
            facts = (effects or {}).get((cell[0], cell[1], rot))
            if facts is not None:
                words = effect_words(facts, me, names or {}, locale)
                options.append((index + 1, label, f"{index}.{rot}", words))
            else:
                options.append((index + 1, label, f"{index}.{rot}"))
    if not options or len(options) > PAGE_SIZE * SELECTS_PER_PAGE:
        return None
    if len(options) == 1:
        # One way to place the tile: a button that says it, not a list of one.
        _, label, value = options[0][:3]
        text = t("clicks.place_only", locale, placement=label)
        if len(text) > BUTTON_GUIDE:
            text = label  # the placement alone: the message says to place the tile
        only = control_id(table, version, "put", 0, value)
        return [button(text, only, style=discord.ButtonStyle.primary)]
    return option_selects(
        options,
        lambda first: control_id(table, version, "put", first),
        t("clicks.place_tile", locale),
        locale,
        groups=sizes,
    )


def turn_words(rot: int) -> Message:
    """How the tile is turned, as the strip of the placement image says it: ``as drawn``,
    ``turned right`` (a quarter clockwise), ``upside down``, ``turned left``."""
    return msg(f"tile.turned.{int(rot) % 360}")


def placement_words(number: int, rot: int) -> Message:
    """A placement as the placement image shows it: ``Cell 3, turned right``."""
    return msg("clicks.placement_option", number=number, turn=turn_words(rot))


def placed_words(tile: str, number: int, rot: int, figure: Any) -> Message:
    """A whole turn: ``a tile with a city on cell 3, turned right — follower in the city``."""
    return msg(
        "tile.placed_label",
        tile=tile_words(tile),
        number=number,
        turn=turn_words(rot),
        figure=figure,
    )


def figure_actions(view: Mapping[str, Any], placement: str) -> list[str]:
    """The figure actions (``none`` first) after ``placement`` of the current tile."""
    from engine import get_game

    module: Any = get_game("carcassonne")
    state = module.sample_state(view, 0)
    state = module.apply(state, placement)
    return [str(m) for m in module.legal_moves(state)]


def segment_sides(view: Mapping[str, Any], placement: str | None) -> dict[str, list[str]]:
    """Which sides of the placed tile each figure spot reaches (``city0`` -> ``["N"]``), from
    the engine's figure events, so a spot is named as a player sees it ("the city to the
    north"). ``placement`` is None when the tile already lies on the board."""
    from engine import get_game

    module: Any = get_game("carcassonne")
    try:
        state = module.sample_state(view, 0)
        if placement is not None:
            state = module.apply(state, placement)
        sides: dict[str, list[str]] = {}
        for move in module.legal_moves(state):
            segment = str(move).partition(":")[2]
            if segment and segment not in sides:
                for event in module.apply(state, move).events:
                    if event.kind == "figure":
                        sides[segment] = list(event.data.get("sides") or ())
        return sides
    except Exception:  # the words can do without the sides ("the city")
        log.exception("could not tell the sides of the figure spots")
        return {}


def segments_of(actions: Sequence[str]) -> list[str]:
    """The distinct segments of ``actions``, in order (they get the letters A, B, C…)."""
    segments: list[str] = []
    for action in actions:
        if ":" in action:
            segment = action.partition(":")[2]
            if segment not in segments:
                segments.append(segment)
    return segments


def action_label(
    action: str,
    segments: Sequence[str],
    locale: str = "en",
    sides: Mapping[str, Sequence[str]] | None = None,
) -> str:
    """``follower:city0`` -> ``A: follower (knight) on the city to the north``."""
    if action == "none":
        return t("tile.no_figure", locale)
    kind, _, segment = action.partition(":")
    letter = chr(ord("A") + segments.index(segment)) if segment in segments else "?"
    base = segment.rstrip("0123456789")
    role = t(f"role.{base}", locale) if base in ROLE_WORDS else ""
    what = t(f"figure.{kind}", locale) if kind in KIND_WORDS else kind
    if kind in ("follower", "big") and role:
        what = t("tile.figure_role", locale, figure=what, role=role)
    where = feature_words(segment, list((sides or {}).get(segment, ()))).text(locale)
    return t("tile.action", locale, letter=letter, what=what, segment=where)


def action_button(
    action: str,
    segments: Sequence[str],
    locale: str = "en",
    sides: Mapping[str, Sequence[str]] | None = None,
) -> str:
    """:func:`action_label` when it fits a button (Discord's guidance of 34 characters),
    else the spot's letter and the figure alone (``A: follower (knight)``): the image
    shows where the letter is."""
    full = action_label(action, segments, locale, sides)
    if len(full) <= BUTTON_GUIDE or action == "none":
        return full
    kind, _, segment = action.partition(":")
    letter = chr(ord("A") + segments.index(segment)) if segment in segments else "?"
    base = segment.rstrip("0123456789")
    what = t(f"figure.{kind}", locale) if kind in KIND_WORDS else kind
    if kind in ("follower", "big") and base in ROLE_WORDS:
        with_role = t("tile.figure_role", locale, figure=what, role=t(f"role.{base}", locale))
        text = t("tile.action_short", locale, letter=letter, what=with_role)
        if len(text) <= BUTTON_GUIDE:
            return text
        what = t(f"role.{base}", locale)
    return t("tile.action_short", locale, letter=letter, what=what)
