"""Pöppel's renderer: public game views in, PNG bytes out (Pillow).

Every function is pure and deterministic: it reads only its arguments (a public view as
made by ``view(state, seat)`` of :mod:`engine.protocol`, never hidden information), does no
I/O, and gives byte-identical PNGs for equal inputs. Seat colours come from the
colour-blind-safe Okabe–Ito palette and every pawn and figure also carries its seat's letter
(:data:`renderer.style.SEAT_LETTERS`, :data:`renderer.style.CARCASSONNE_LETTERS`).

Images are drawn for a phone, where Discord shows them about 400 px wide: every text, pawn
letter and figure letter is at least :data:`renderer.style.MIN_PHONE_TEXT` px tall at that
width (sizes go through :func:`renderer.style.legible`; ``tests/renderer/test_legibility.py``
checks every text drawn for the samples of :mod:`renderer.samples`).

Public API
----------
Every function that draws words takes ``locale`` (``"en"``, ``"de"``, ``"hu"``, a regional
code or a ``discord.Locale``; default English): the labels come from :func:`i18n.t`, the
last-move sentence from :func:`i18n.events.event_text`. Public messages use the server's
locale.

``render_board(view, *, names=None, highlight=None, whole=False, locale=None) -> bytes``
    The board of any game, chosen by ``view["game"]``. A large Carcassonne map is shown as a
    window around the latest placement at full detail with an overview of the whole map;
    ``whole`` (``/table board``) and a finished game show the whole map instead. Race
    boards put the viewer's seat at the bottom (a spectator view: the first seat in use) and
    the last action in words under the board, beside the card played. ``names``: display
    names (bots named as bots), one per seat in use (in ``view["seats"]`` order) or
    indexed by seat number; without them the colour names (race) or the view's ``names``
    (Carcassonne) are used. ``highlight``: race
    locations (``"r12"``, ``"h0.2"``) or Carcassonne cells (``(x, y)``) to ring in magenta.
``render_hand(game, cards, *, playable=None, locale=None) -> bytes``
    The player's cards left to right, numbered 1…n like the bot's buttons; cards whose
    ``playable`` entry is false are greyed.
``render_placements(view, placements, *, names=None, locale=None) -> bytes``
    Carcassonne, phase ``place``: the board with each legal cell numbered 1…n in
    :func:`placement_order`, plus the drawn tile in every legal rotation.
``placement_order(placements) -> list[tuple[int, int]]``
    The numbering of :func:`render_placements`: cells sorted by y, then x.
``render_figure_spots(view, x, y, rot, tile, spots, *, locale=None) -> bytes``
    Carcassonne, phase ``figure``: a close-up of ``tile`` at ``(x, y)`` turned ``rot``, its
    neighbours around it, and the spots lettered A, B, C… in the order of ``spots``. A spot
    is a segment name (``"city0"``) or an action (``"follower:city0"``); ``"none"`` gets a
    letter in the legend only.
``render_results(summary, *, names=None, locale=None) -> bytes``
    The results image of a finished table from its result summary (the JSON of
    ``bot.results.GameResult``): places, colours, names, teams; Carcassonne points by
    category and the score chart, Tock and Dog the pawns home in order (:mod:`renderer.results`).
``render_animation(views, *, names=None, locale=None) -> bytes``
    An animated GIF, 400 px wide, of evenly spaced positions of a game (public views), for
    the results post; the last frame is the final board.
``clear_caches() -> None``
    Forget every cached layer, face and tile bitmap (tests that watch the drawing use it).
``warm_up(*, tiles=True) -> None``
    Optional: prepare fonts, every Carcassonne tile's drawing and figure spots (about two
    seconds), so that the first Carcassonne image of a running bot is as fast as the others
    (the render pool's workers call it when they start).
``race_field_center(view, location) -> (x, y)``
    Pixel centre of a race location in the board image (for tests and image maps).
``carcassonne_cell_center(view, cell, *, extra=(), whole=False, locale="en") -> (x, y) | None``
    Pixel centre of a cell in ``render_board`` (``extra`` = its highlight) or in
    ``render_placements`` (``extra`` = the legal cells); ``None`` when cropped away.

The functions may be called from worker threads (``asyncio.to_thread``): a lock makes
them take turns, since the drawing is CPU-bound anyway and the caches are shared.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from i18n import normalise_locale
from renderer.carcassonne.board import (
    carcassonne_cell_center,
    clear_figure_sprites,
    clear_tile_layers,
    draw_carcassonne_board,
)
from renderer.carcassonne.choices import draw_figure_spots, draw_placements, placement_order
from renderer.carcassonne.indexed import carcassonne_palette, encode_indexed
from renderer.carcassonne.indexed import clear as clear_indexed
from renderer.carcassonne.tiledata import all_tile_ids
from renderer.carcassonne.tiles import segment_spot, tile_image, warm_tiles
from renderer.cards import card_face, draw_hand, hand_palette
from renderer.race_board import clear_race_layers, draw_race_board, race_palette
from renderer.race_layout import race_field_center
from renderer.results import draw_animation, draw_results, pick_frames
from renderer.style import clear_text_stamps, encode_png

__all__ = [
    "carcassonne_cell_center",
    "clear_caches",
    "placement_order",
    "race_field_center",
    "render_animation",
    "render_board",
    "render_figure_spots",
    "render_hand",
    "render_placements",
    "render_results",
    "warm_up",
]

_LOCK = threading.Lock()

Highlight = Iterable[str] | Iterable[tuple[int, int]] | None


def render_board(
    view: Mapping[str, Any],
    *,
    names: Sequence[str] | None = None,
    highlight: Highlight = None,
    whole: bool = False,
    locale: object = None,
) -> bytes:
    """PNG of the board of ``view`` (Tock, Dog or Carcassonne, by ``view["game"]``).

    ``whole``: the whole Carcassonne map, however large (race boards are always whole).
    """
    game = view.get("game")
    if game not in ("tock", "dog", "carcassonne"):
        raise ValueError(f"unknown game {game!r}")
    with _LOCK:
        return _render_board(view, game, names, highlight, whole, normalise_locale(locale))


def _render_board(
    view: Mapping[str, Any],
    game: str,
    names: Sequence[str] | None,
    highlight: Highlight,
    whole: bool,
    locale: str,
) -> bytes:
    if game in ("tock", "dog"):
        locations = [str(loc) for loc in highlight or ()]
        return encode_png(draw_race_board(view, names, locations, locale), race_palette())
    cells = [(int(c[0]), int(c[1])) for c in highlight or ()]  # type: ignore[index]
    return encode_indexed(draw_carcassonne_board(view, names, cells, locale, whole=whole))


def render_hand(
    game: str,
    cards: Sequence[str],
    *,
    playable: Sequence[bool] | None = None,
    locale: object = None,
) -> bytes:
    """PNG of a Tock or Dog hand, numbered 1…n; unplayable cards greyed."""
    if game not in ("tock", "dog"):
        raise ValueError(f"no hands in {game!r}")
    with _LOCK:
        image = draw_hand(game, list(cards), playable, normalise_locale(locale))
        return encode_png(image, hand_palette())


def render_placements(
    view: Mapping[str, Any],
    placements: Mapping[tuple[int, int], Sequence[int]],
    *,
    names: Sequence[str] | None = None,
    locale: object = None,
) -> bytes:
    """PNG of the Carcassonne board with the legal cells numbered, and the tile's rotations."""
    with _LOCK:
        return encode_indexed(draw_placements(view, placements, names, normalise_locale(locale)))


def render_figure_spots(
    view: Mapping[str, Any],
    x: int,
    y: int,
    rot: int,
    tile: str,
    spots: Sequence[str],
    *,
    locale: object = None,
) -> bytes:
    """PNG close-up of the placed tile with its legal figure spots lettered A, B, C…"""
    with _LOCK:
        image = draw_figure_spots(view, x, y, rot, tile, spots, normalise_locale(locale))
        return encode_png(image, carcassonne_palette())


def render_results(
    summary: Mapping[str, Any], *, names: Sequence[str] | None = None, locale: object = None
) -> bytes:
    """PNG of a finished table's results (see :mod:`renderer.results`)."""
    with _LOCK:
        return encode_png(draw_results(summary, names, normalise_locale(locale)))


def render_animation(
    views: Sequence[Mapping[str, Any]],
    *,
    names: Sequence[str] | None = None,
    locale: object = None,
) -> bytes:
    """An animated GIF (400 px wide) of a game: evenly spaced positions of ``views`` (public
    views, oldest first), each drawn as :func:`render_board` draws it, the last one longest."""
    if not views:
        raise ValueError("no positions to animate")
    chosen = [views[i] for i in pick_frames(len(views))]
    with _LOCK:
        code = normalise_locale(locale)
        boards = []
        for view in chosen:
            game = view.get("game")
            if game in ("tock", "dog"):
                boards.append(draw_race_board(view, names, [], code))
            else:
                boards.append(draw_carcassonne_board(view, names, [], code).convert("RGB"))
        return draw_animation(boards)


def clear_caches() -> None:
    """Forget every cached drawing, so that the next image is drawn from scratch."""
    with _LOCK:
        clear_race_layers()
        clear_text_stamps()
        clear_figure_sprites()
        clear_indexed()
        clear_tile_layers()
        card_face.cache_clear()
        tile_image.cache_clear()


def warm_up(*, tiles: bool = True) -> None:
    """Fill the caches that the first image of each game would otherwise fill.

    ``tiles=False`` leaves out the Carcassonne tile masters (~11 MB, a quarter of a second):
    each is then drawn when an image first needs it, to the same pixels.
    """
    with _LOCK:
        if tiles:
            warm_tiles(all_tile_ids())
            for tile_id in all_tile_ids():
                segment_spot(tile_id, 0, "city0")
        race_palette()
        hand_palette()
        carcassonne_palette()
