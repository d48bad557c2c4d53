"""The renderer functions the front end uses, called off the event loop.

Pillow work takes milliseconds of CPU per image. With a :class:`RenderPool` (the running bot)
every image is drawn in a worker process, so the process answering Discord never holds the
GIL for Pillow; without one (tests, tools) in a worker thread. When the renderer package lacks
a function (it is written concurrently), messages simply go out without that image.
"""

from __future__ import annotations

import asyncio
import importlib
import io
import logging
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord_ui.render_pool import RenderPool, Stale

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Renderer:
    """The renderer's entry points (each may be ``None`` if not available)."""

    render_board: Callable[..., bytes] | None = None
    render_hand: Callable[..., bytes] | None = None
    render_placements: Callable[..., bytes] | None = None
    placement_order: Callable[..., list[tuple[int, int]]] | None = None
    render_figure_spots: Callable[..., bytes] | None = None
    render_results: Callable[..., bytes] | None = None
    render_animation: Callable[..., bytes] | None = None
    render_race_choices: Callable[..., bytes] | None = None
    #: Where the images are drawn: worker processes, or (None) a thread of this process.
    pool: RenderPool | None = None
    #: Where the long images (the animated summary) are drawn, apart from the boards
    #: (:func:`bot.discord_ui.render_pool.slow_lane`); None: in ``pool``.
    slow_pool: RenderPool | None = None

    @classmethod
    def load(cls, pool: RenderPool | None = None, slow_pool: RenderPool | None = None) -> Renderer:
        """The functions of the :mod:`renderer` package that exist, drawn in ``pool`` (the
        long ones in ``slow_pool`` when given)."""
        try:
            module = importlib.import_module("renderer")
        except ImportError:  # pragma: no cover - the package is part of the project
            return cls(pool=pool, slow_pool=slow_pool)
        pools = ("pool", "slow_pool")
        found = {
            name: getattr(module, name, None)
            for name in cls.__dataclass_fields__
            if name not in pools
        }
        try:  # the choice image lives in a module of its own (issue #36)
            choices = importlib.import_module("renderer.race_choices")
            found["render_race_choices"] = choices.render_race_choices
        except (ImportError, AttributeError):  # pragma: no cover
            pass
        return cls(**found, pool=pool, slow_pool=slow_pool)

    async def _to_file(
        self,
        filename: str,
        function: Callable[..., bytes],
        *args: Any,
        answer: bool = False,
        slow: bool = False,
        **kwargs: Any,
    ) -> discord.File | None:
        """``function``'s image as ``filename``, drawn in the pool (or a thread). ``answer``:
        the image of a private answer, which a person who clicked waits for: the pool draws
        it before the boards that only spectators wait for. ``slow``: a long image, drawn in
        the slow lane when there is one (the boards do not wait behind it)."""
        pool = self.slow_pool if slow and self.slow_pool is not None else self.pool
        if pool is None:
            return await _to_file(filename, function, *args, **kwargs)
        # Views are plain JSON-like data: as dicts they pickle cheaply to a worker.
        plain = tuple(dict(a) if isinstance(a, Mapping) else a for a in args)
        key = _board_key(filename)
        try:
            urgent = answer and key is None
            data = await pool.run(function, *plain, key=key, urgent=urgent, **kwargs)
        except Stale:
            # A newer board of the same table was asked for before this one was drawn: it
            # goes out in words only, and the newer one carries the picture.
            return None
        except Exception:
            log.exception("rendering %s failed", filename)
            return None
        return discord.File(io.BytesIO(data), filename=filename)

    async def board(
        self,
        view: Mapping[str, Any],
        names: Sequence[str],
        filename: str = "board.png",
        locale: str = "en",
        *,
        whole: bool = False,
    ) -> discord.File | None:
        """The board image of ``view`` as an attachment, or None.

        ``whole``: the whole Carcassonne map (``/table board``) instead of the window around
        the latest tile that a move's board shows.
        """
        if self.render_board is None:
            return None
        extra: dict[str, Any] = {"whole": True} if whole else {}
        return await self._to_file(
            filename, self.render_board, view, names=list(names), **_locale(locale), **extra
        )

    async def hand(
        self,
        game: str,
        cards: Sequence[str],
        playable: Sequence[bool] | None,
        locale: str = "en",
    ) -> discord.File | None:
        """The hand image, or None."""
        if self.render_hand is None or not cards:
            return None
        return await self._to_file(
            "hand.png",
            self.render_hand,
            game,
            list(cards),
            answer=True,
            playable=None if playable is None else list(playable),
            **_locale(locale),
        )

    async def race_choices(
        self,
        view: Mapping[str, Any],
        moves: Sequence[str],
        names: Sequence[str],
        locale: str = "en",
    ) -> discord.File | None:
        """The board from the player's seat with each of ``moves`` marked by its number
        (:mod:`renderer.race_choices`), or None."""
        if self.render_race_choices is None or not moves:
            return None
        return await self._to_file(
            "choices.png",
            self.render_race_choices,
            view,
            list(moves),
            answer=True,
            names=list(names),
            **_locale(locale),
        )

    async def placements(
        self,
        view: Mapping[str, Any],
        placements: Mapping[tuple[int, int], Sequence[int]],
        locale: str = "en",
        *,
        names: Sequence[str] | None = None,
        filename: str = "placements.png",
    ) -> discord.File | None:
        """The board with the legal cells numbered, or None."""
        if self.render_placements is None:
            return None
        extra: dict[str, Any] = {} if names is None else {"names": list(names)}
        # A prompt's placements answer a click; the digest's (a board file) are a board.
        return await self._to_file(
            filename,
            self.render_placements,
            view,
            placements,
            answer=True,
            **extra,
            **_locale(locale),
        )

    async def figure_spots(
        self,
        view: Mapping[str, Any],
        x: int,
        y: int,
        rot: int,
        tile: str,
        spots: Sequence[str],
        locale: str = "en",
    ) -> discord.File | None:
        """The close-up of a placed tile with its figure spots lettered, or None."""
        if self.render_figure_spots is None:
            return None
        return await self._to_file(
            "spots.png",
            self.render_figure_spots,
            view,
            x,
            y,
            rot,
            tile,
            list(spots),
            answer=True,
            **_locale(locale),
        )

    async def results(
        self,
        summary: Mapping[str, Any],
        names: Sequence[str],
        filename: str = "results.png",
        locale: str = "en",
    ) -> discord.File | None:
        """The results image of a finished table, or None."""
        if self.render_results is None:
            return None
        return await self._to_file(
            filename, self.render_results, summary, names=list(names), **_locale(locale)
        )

    async def animation(
        self,
        views: Sequence[Mapping[str, Any]],
        names: Sequence[str],
        filename: str = "summary.gif",
        locale: str = "en",
    ) -> discord.File | None:
        """The animated summary of a game, or None."""
        if self.render_animation is None or not views:
            return None
        return await self._to_file(
            filename,
            self.render_animation,
            list(views),
            names=list(names),
            slow=True,
            **_locale(locale),
        )

    def order(self, placements: Mapping[tuple[int, int], Sequence[int]]) -> list[tuple[int, int]]:
        """The cells in the order the placement image numbers them."""
        if self.placement_order is not None:
            return list(self.placement_order(placements))
        return sorted(placements, key=lambda cell: (cell[1], cell[0]))


#: The publisher names each board ``board-<table>-<version>.png``: a table's boards share a
#: key, so that only its newest waiting board is drawn.
_BOARD_FILE = re.compile(r"board-(\d+)-\d+\.png")


def _board_key(filename: str) -> tuple[str, int] | None:
    match = _BOARD_FILE.fullmatch(filename)
    return ("board", int(match.group(1))) if match else None


def _locale(locale: str) -> dict[str, Any]:
    """The ``locale`` keyword for the renderer, left out for English: the renderer's default,
    and stand-in renderers (tests, older versions) may not take it."""
    return {} if locale == "en" else {"locale": locale}


async def _to_file(
    filename: str, function: Callable[..., bytes], *args: Any, **kwargs: Any
) -> discord.File | None:
    try:
        data = await asyncio.to_thread(function, *args, **kwargs)
    except Exception:
        # A drawing bug must not stop the game: the message goes out in words only.
        log.exception("rendering %s failed", filename)
        return None
    return discord.File(io.BytesIO(data), filename=filename)
