"""Game records: public information only, and they replay to the same final position."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from bot.after_game.records import BadRecord, dumps, loads, replay_views
from bot.service import TableService
from bot.storage.base import Storage
from tests.bot.service.test_tables_games import play_whole_game

GAMES = [
    pytest.param("tock", 4, {"game_type": "2v2"}, 2, id="tock-2v2"),
    pytest.param("dog", 4, {}, 2, id="dog"),
    pytest.param("carcassonne", 3, {"traders_builders": "full"}, 1, id="carcassonne"),
]


def _secret_free(text: str) -> None:
    """Nothing a spectator could not see: no pick, no hand, no deck order, no seed."""
    data = json.loads(text)
    assert '"G:' not in text
    assert '"seed"' not in text
    for _step, view in replay_views(data):
        assert view["viewer"] is None
        for hidden in ("hands", "exchange", "seed", "hand", "my_pick", "received"):
            assert view.get(hidden) is None, hidden
        assert not isinstance(view.get("draw"), list)
        assert all(event["public"] for event in view.get("events") or ())
    assert all("user_id" not in seat for seat in data["result"]["seats"])


@pytest.mark.parametrize(("game", "players", "options", "people"), GAMES)
async def test_a_record_holds_only_public_facts_and_replays_to_the_last_board(
    service: TableService,
    storage: Storage,
    game: str,
    players: int,
    options: dict[str, Any],
    people: int,
) -> None:
    table_id, effects, _ = await play_whole_game(service, game, players, options, people, 12)
    record = await service.game_record(table_id)
    raw = dumps(record)
    table = await service.get(table_id)
    _secret_free(raw.decode())
    views = [view for _step, view in replay_views(loads(raw))]
    assert len(views) == table.log_length + 1
    assert views[-1] == effects[-1].public[-1].view  # the last board, exactly
    assert views[-1]["winners"] == list(table.winners)
    result = await storage.load_result(table_id)
    assert result is not None
    assert record["result"]["winners"] == list(result.winners)


async def test_poeppel_play_load_replays_a_record(
    service: TableService, tmp_path: Path, capsys: Any
) -> None:
    from bot.cli import main

    table_id, _effects, _ = await play_whole_game(service, "carcassonne", 2, {}, 1, 5)
    path = tmp_path / "record.json"
    path.write_bytes(dumps(await service.game_record(table_id)))
    out = tmp_path / "boards"
    args = ["play", "--load", str(path), "--out", str(out)]
    assert await asyncio.to_thread(main, args) == 0
    printed = capsys.readouterr().out
    assert "Replayed" in printed
    assert "1. " in printed
    assert list(out.glob("*.png")), "the last board is drawn"
    # Issue 31: the moves in words, each seat by the name the table gave it.
    assert "Bot 2 places a tile" in printed
    assert ". : " not in printed
    record = json.loads(path.read_bytes())
    assert record["seats"][1]["name"] == "Bot 2"
    args = ["play", "--load", str(path), "--no-images", "--lang", "hu", "--notation"]
    assert await asyncio.to_thread(main, args) == 0
    printed = capsys.readouterr().out
    assert "2.\u00a0bot: " in printed  # notation on request, the name in the reader's words
    assert "@" in printed
    # A record whose moves do not lead to its result is refused.
    data = json.loads(path.read_bytes())
    data["result"]["seats"][0]["score"] += 1
    path.write_text(json.dumps(data))
    assert await asyncio.to_thread(main, ["play", "--load", str(path), "--no-images"]) == 1
    assert "does not replay" in capsys.readouterr().out


def test_a_file_that_is_no_record_is_refused() -> None:
    for raw in (b"not json", b"[]", b'{"format": "poeppel-record", "version": 99}'):
        with pytest.raises(BadRecord):
            loads(raw)
