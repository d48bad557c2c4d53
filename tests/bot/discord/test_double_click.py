"""A double click on a move in the private hand: one move is stored, and the hand's last word
is the success ("You played …"), never the refusal of the second click."""

from __future__ import annotations

import asyncio
import copy
from typing import Any

from bot.discord_ui.race_prompts import single_move
from tests.bot.discord.conftest import World
from tests.bot.discord.driving import find, open_prompt, press, to_act
from tests.bot.discord.test_lobby import start_for_two


class AsShown:
    """A message as the player's client still shows it (the clicks of a double click are
    both made on it, whatever the bot answers to the first)."""

    def __init__(self, message: Any) -> None:
        self.id = message.id
        self._payload = message.payload()

    def payload(self) -> dict[str, Any]:
        return copy.deepcopy(self._payload)


async def test_a_double_click_on_a_move_stores_one_move_and_the_prompt_says_it(
    world: World,
) -> None:
    table_id, thread = await start_for_two(world, "tock", seed=21)
    user = to_act(world.newest_board(thread), [world.alice, world.bob])[0]
    hand = await open_prompt(world, user, world.newest_board(thread), "Show my hand")
    service = world.desk.service
    info = await service.private_info(table_id, user.id)
    cards = [str(card) for card in (info.view or {}).get("hand") or []]
    # A control that plays: a card with a single way to play, else the first move of a card.
    playing = [i for i, card in enumerate(cards) if single_move(info, card) is not None]
    if playing:
        custom_id = find(hand, f":card:{playing[0]}")["custom_id"]
    else:
        movable = next(
            i
            for i, card in enumerate(cards)
            if any(m.startswith(card + ":") for m in info.legal_moves)
        )
        await press(world, user, hand, find(hand, f":card:{movable}")["custom_id"])
        custom_id = next(
            c["custom_id"]
            for c in hand.buttons
            if ":mv:" in c["custom_id"] and not c.get("disabled")
        )
    version = info.table.version
    shown = AsShown(hand)
    first, second = await asyncio.gather(
        user.click(hand, custom_id=custom_id, wait=False),
        user.click(hand, custom_id=custom_id, wait=False),
    )
    await asyncio.gather(first.settled(), second.settled())
    await world.wait(lambda: not world.desk.hands.busy(), "no hand is being edited")
    history = (await service.history(table_id, user.id))[1]
    mine = [e for e in history if e.kind == "move" and e.seat == info.seat]
    assert len(mine) == 1, "one move stored for the two clicks"
    after = await service.private_info(table_id, user.id)
    assert after.table.version > version
    assert "You played" in hand.content, hand.content
    assert "out of date" not in hand.content
    # The second click of the pair, arriving only after the first one was answered (the
    # client still showed the move): refused privately in a message of its own.
    said = hand.content
    late = await user._interact(
        3,
        world.fake.channels[hand.channel_id],
        {"custom_id": custom_id, "component_type": 2},
        message=shown,  # type: ignore[arg-type]
        wait=False,
        timeout=5,
    )
    await late.settled()
    assert hand.content == said, "the refusal did not replace the success"
    assert "out of date" in late.text
    assert all(m.ephemeral and m.id != hand.id for m in late.messages)
    assert len([e for e in (await service.history(table_id, user.id))[1] if e.kind == "move"]) == 1
    assert not world.fake.rejected
