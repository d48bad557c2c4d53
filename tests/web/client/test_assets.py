"""The live board's assets (bot/web/assets.py): tile art, figure spots and the client id,
served by the bot's live server (quick: no browser)."""

from __future__ import annotations

import io

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from PIL import Image

from bot.web.assets import add_asset_routes
from renderer.carcassonne.tiledata import all_tile_ids, tile_facts
from renderer.carcassonne.tiles import segment_spot


async def client() -> TestClient:
    app = web.Application()
    add_asset_routes(app, "4242")
    test_client = TestClient(TestServer(app))
    await test_client.start_server()
    return test_client


async def test_every_tile_has_its_art_and_figure_spots() -> None:
    http = await client()
    try:
        answer = await http.get("/live/tiles/D.png")
        assert answer.status == 200
        assert answer.headers["Content-Type"] == "image/png"
        image = Image.open(io.BytesIO(await answer.read()))
        assert image.size == (192, 192)
        assert (await http.get("/live/tiles/nope.png")).status == 404
        spots = await (await http.get("/live/tiles.json")).json()
        assert sorted(spots) == sorted(all_tile_ids())
        for tile_id in ("D", "E", "V"):
            assert sorted(spots[tile_id]) == sorted(tile_facts(tile_id).segment_names())
            for name, (x, y) in spots[tile_id].items():
                # Where the renderer stands a figure on the unturned tile.
                assert (x, y) == tuple(round(v, 4) for v in segment_spot(tile_id, 0, name))
        assert await (await http.get("/live/api/config")).json() == {"client_id": "4242"}
    finally:
        await http.close()
