"""What the live board's browser code needs besides the socket: the Carcassonne tile art, the
figure spots on each tile, and the Activity's client id (docs/live-client.md).

The browser cannot draw the tiles itself, so it shows the renderer's own tile bitmaps (one
PNG per tile id, unturned; the page turns them) and stands figures where the renderer does.
Nothing here depends on a table: every answer is the same for every reader and cacheable.
"""

from __future__ import annotations

import asyncio
import io
from functools import lru_cache

from aiohttp import web

from renderer.carcassonne.tiledata import all_tile_ids, tile_facts
from renderer.carcassonne.tiles import segment_spot, tile_image

#: Pixel size of a served tile: twice the largest cell the page draws on a wide screen.
TILE_PX = 192
#: Tiles and spots never change while the bot runs (a new version is a new process).
CACHE = "public, max-age=86400"


@lru_cache(maxsize=256)
def tile_png(tile_id: str) -> bytes:
    """The PNG of ``tile_id`` unturned, :data:`TILE_PX` square."""
    out = io.BytesIO()
    tile_image(tile_id, 0, TILE_PX).save(out, "PNG", optimize=True)
    return out.getvalue()


@lru_cache(maxsize=1)
def figure_spots() -> dict[str, dict[str, list[float]]]:
    """Where a figure stands on each segment of each tile, in tile units, unturned."""
    return {
        tile_id: {
            name: [round(v, 4) for v in segment_spot(tile_id, 0, name)]
            for name in tile_facts(tile_id).segment_names()
        }
        for tile_id in all_tile_ids()
    }


def add_asset_routes(app: web.Application, client_id: str | None) -> None:
    """``GET /live/tiles/<id>.png``, ``GET /live/tiles.json`` and ``GET /live/api/config``
    (``client_id``: the Discord application's id, which the Activity's SDK needs)."""
    known = frozenset(all_tile_ids())

    async def tile(request: web.Request) -> web.Response:
        tile_id = request.match_info["tile"]
        if tile_id not in known:
            raise web.HTTPNotFound()
        # Drawn once per tile (milliseconds) off the event loop, then cached.
        body = await asyncio.to_thread(tile_png, tile_id)
        return web.Response(body=body, content_type="image/png", headers={"Cache-Control": CACHE})

    async def spots(_request: web.Request) -> web.Response:
        # The first call finds every spot (about half a second): off the event loop.
        data = await asyncio.to_thread(figure_spots)
        return web.json_response(data, headers={"Cache-Control": CACHE})

    async def client_config(_request: web.Request) -> web.Response:
        # The application id is public (it is in every Activity's address); no secret here.
        return web.json_response({"client_id": client_id})

    app.router.add_get("/live/tiles/{tile}.png", tile)
    app.router.add_get("/live/tiles.json", spots)
    app.router.add_get("/live/api/config", client_config)
