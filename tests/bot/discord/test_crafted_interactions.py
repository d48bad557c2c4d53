"""Crafted interactions that went unanswered or were misread (issue 17, §2), or logged as errors."""

from __future__ import annotations

import logging

import pytest

from tests.bot.discord.conftest import World, private_text
from tests.bot.discord.driving import selects
from tests.bot.discord.test_lobby import open_table
from tests.bot.discord.test_refusals import start_tock_against_a_bot


async def test_a_select_type_click_carrying_a_buttons_custom_id_is_answered(world: World) -> None:
    table_id, thread = await start_tock_against_a_bot(world)
    board = world.newest_board(thread)
    hand = board.buttons[0]["custom_id"]
    before = await world.desk.service.get(table_id)
    data = {"custom_id": hand, "component_type": 3, "values": ["0"]}
    result = await world.alice._interact(3, thread, data, message=board, wait=True, timeout=5)
    assert "not valid" in private_text(result, world.alice)
    assert (await world.desk.service.get(table_id)).version == before.version


async def test_a_table_id_beyond_the_databases_range_is_refused(world: World) -> None:
    _table_id, thread = await start_tock_against_a_bot(world)
    board = world.newest_board(thread)
    for table in ("9999999999999999999", str(2**63)):
        crafted = f"t:{table}:v:1:hand"
        payload = board.payload()
        payload["components"] = [
            {"type": 1, "components": [{"type": 2, "style": 1, "label": "x", "custom_id": crafted}]}
        ]
        message = _Crafted(board.id, payload)
        data = {"custom_id": crafted, "component_type": 2}
        result = await world.alice._interact(3, thread, data, message=message, wait=True, timeout=5)
        assert "not valid" in private_text(result, world.alice), table
    # And through the slash command's integer option, which Discord lets reach 2**53.
    big = await world.alice.slash(world.channel, "table status", table=2**53)
    assert "no table" in private_text(big, world.alice).lower()


async def test_a_placement_select_with_no_value_is_refused_not_read_as_a_placement(
    world: World,
) -> None:
    world.seeds.append(3)
    table_id, lobby = await open_table(world, "carcassonne", players=2)
    await world.alice.click(lobby, label="Add bot")
    await world.alice.click(world.lobby(table_id), label="Start")
    thread = world.thread_of(world.lobby(table_id))
    board = await world.wait(lambda: world.newest_board(thread))
    menu = selects(board)[0]
    for values in ([], [menu["options"][0]["value"]] * 2):
        data = {"custom_id": menu["custom_id"], "component_type": 3, "values": values}
        result = await world.alice._interact(3, thread, data, message=board, wait=True, timeout=5)
        assert "not on offer" in private_text(result, world.alice), values
        assert not any(":fig:" in b["custom_id"] for m in result.messages for b in m.buttons)
    assert await world.desk.service.storage.load_log(table_id) == []


async def test_a_forged_history_page_is_refused_without_an_error_in_the_log(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    forged = "t:0:v:0:hist:x:all:0"  # the member's id is no number
    # A private /history answer of alice's, as a modified client would have it.
    page = world.fake.new_message(
        world.channel,
        world.fake.bot_user,
        content="History",
        components=[
            {"type": 1, "components": [{"type": 2, "style": 1, "label": "x", "custom_id": forged}]}
        ],
        flags=64,
        visible_to=frozenset({world.alice.id}),
    )
    with caplog.at_level(logging.INFO):
        result = await world.alice.click(page, custom_id=forged)
    assert result.interaction.acknowledged
    assert not result.interaction.errors
    assert "not valid" in page.content, page.content  # the page itself says so
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert "refused the malformed control" in caplog.text


class _Crafted:
    """A message payload carrying a component the bot never posted."""

    def __init__(self, message_id: int, payload: dict[str, object]) -> None:
        self.id = message_id
        self._payload = payload

    def payload(self) -> dict[str, object]:
        return self._payload
