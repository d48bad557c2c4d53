"""After the game the live page becomes the replay: every position, as a spectator saw it."""

from __future__ import annotations

from bot.bots.choosers import random_chooser
from bot.service import TableService
from bot.storage.base import Storage
from tests.bot.conftest import load_game
from tests.web.live import PUBLIC, live_server
from tests.web.socket_reader import check_spectator_state


async def test_a_finished_table_replays_move_by_move(storage: Storage) -> None:
    service = TableService(
        storage, choose_bot_move=random_chooser, load_game=load_game, require_person=False
    )
    opened = await service.create(
        7, 8, "carcassonne", 100, "Ann", players=2, seed=3, seat_host=False, live_watch=True
    )
    table = opened.table.id
    for _ in range(2):
        await service.add_bot(table, 100)
    await service.start_game(table, 100)
    record = await service.get(table)
    assert record.phase == "finished"
    _, history = await service.history(table, None, words=False)
    async with live_server(service) as live, live.page() as page:
        await page.hello(table)
        final = await page.next("state")
        assert final["finished"]
        await page.socket.send_json({"type": "replay"})
        frames = (await page.next("replay"))["frames"]
        assert len(frames) == len(history) + 1
        assert frames[0]["since"] == []
        assert frames[-1]["public"]["finished"]
        for number, frame in enumerate(frames):
            check_spectator_state(frame)
            assert frame["version"] == number
        assert frames[3]["since"][0]["text"].startswith("3. Bot")
        # The same frames by the route, for a table the host lets anyone watch.
        async with live.http.get(live.url(f"/live/api/replay/{table}")) as answer:
            assert answer.status == 200
            assert len((await answer.json())["frames"]) == len(frames)
        assert PUBLIC


async def test_no_replay_while_the_game_is_played(service: TableService) -> None:
    opened = await service.create(7, 8, "tock", 100, "Ann", players=2, seed=3, live_watch=True)
    table = opened.table.id
    await service.add_bot(table, 100)
    await service.start_game(table, 100)
    async with live_server(service) as live, live.page() as page:
        await page.hello(table)
        await page.next("state")
        await page.socket.send_json({"type": "replay"})
        assert (await page.next("refused"))["text"] == "The replay opens when the game is over."
