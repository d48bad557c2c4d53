"""The private race prompts built from a player's private info (no Discord needed)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord

from bot.discord_ui.race_prompts import card_prompt, choices, hand_prompt
from bot.discord_ui.rendering import Renderer
from bot.effects import PrivateInfo
from bot.table_model import Phase, Seat, TableRecord

TABLE = TableRecord(
    id=7,
    guild_id=1,
    channel_id=2,
    game="tock",
    options={},
    seed=1,
    host_id=10,
    seats=(Seat(0, user_id=10, name="alice"), Seat(2, user_id=11, name="bob")),
    phase=Phase.PLAYING,
    version=12,
    players=2,
)
DESK = SimpleNamespace(renderer=Renderer())


def info(
    view: dict[str, Any], legal: tuple[str, ...], to_act: bool = True, **kw: Any
) -> PrivateInfo:
    base = {
        "game": "tock",
        "viewer": 0,
        "seats": [0, 2],
        "board": {"ring": 72, "per_seat": 18},
        "pawns": {"0": ["r5", "k0", "k0", "k0"], "2": ["r40", "k2", "k2", "k2"]},
    }
    return PrivateInfo(TABLE, 0, {**base, **view}, legal, to_act, **kw)


def buttons(prompt: Any) -> list[discord.ui.Button]:
    return [i.item for i in prompt.items if isinstance(i.item, discord.ui.Button)]


async def test_banned_hand_offers_only_discards_with_the_reason() -> None:
    prompt = await hand_prompt(
        DESK, info({"hand": ["3", "10"], "banned": True, "phase": "play"}, ("3:D", "10:D"))
    )
    assert "banned" in prompt.content
    assert [b.label for b in buttons(prompt)] == ["1. 3", "2. 10"]
    assert all(not b.disabled for b in buttons(prompt))
    moves = card_prompt(info({"hand": ["3", "10"], "banned": True}, ("3:D", "10:D")), 1)
    assert [b.label for b in buttons(moves)] == ["10: discard", "Back"]


async def test_cards_without_a_move_are_disabled_and_not_your_turn_disables_all() -> None:
    prompt = await hand_prompt(DESK, info({"hand": ["4", "K"], "phase": "play"}, ("K:E",)))
    assert [b.disabled for b in buttons(prompt)] == [True, False]
    waiting = await hand_prompt(DESK, info({"hand": ["4", "K"]}, (), to_act=False))
    assert "not your turn" in waiting.content
    assert all(b.disabled for b in buttons(waiting))


async def test_dog_fold_is_the_only_action_without_a_move() -> None:
    prompt = await hand_prompt(DESK, info({"game": "dog", "hand": ["3", "5"]}, ("F",)))
    assert "fold" in prompt.content
    labels = {b.label: b.disabled for b in buttons(prompt)}
    assert labels == {"1. 3": True, "2. 5": True, "Fold": False}


async def test_exchange_prompt_shows_pick_and_received_card_privately() -> None:
    view = {"hand": ["2", "Q", "Q"], "phase": "exchange", "my_pick": None, "received": "K"}
    prompt = await hand_prompt(DESK, info(view, ("G:2", "G:Q")))
    assert "Your partner passed you **a King**." in prompt.content
    assert [b.label for b in buttons(prompt)] == ["Pass 2", "Pass Q"], "one button per kind"


async def test_split_seven_offers_starts_and_then_segments_with_steps_left() -> None:
    starts = {"7": ("7:r5-r6", "7:r5-r12")}
    seven = info({"hand": ["7"]}, ("7:r5-r12",), seven_starts=starts)
    assert choices(seven, "7") == ["7:r5-r6", "7:r5-r12"]
    pending = info({"hand": [], "seven": {"card": "7", "left": 6}}, ("r6-r7", "r6-r12"))
    prompt = await hand_prompt(DESK, pending)
    assert "6 steps left" in prompt.content
    assert [b.label for b in buttons(prompt)] == [
        "your pawn 6 → 7 fields past your start (1 step)",
        "your pawn 6 → 12 fields past your start (6 steps)",
    ]


async def test_joker_first_asks_what_it_stands_for() -> None:
    legal = ("X=A:E", "X=K:r5-r18", "5:r5-r10")
    joker = info({"game": "dog", "hand": ["5", "X"]}, legal, seven_starts={"X": ("X=7:r5-r6",)})
    prompt = card_prompt(joker, 1)
    assert "joker stand for" in prompt.content
    assert [b.label for b in buttons(prompt)] == [
        "Joker as A",
        "Joker as 7",
        "Joker as K",
        "Back",
    ]
    assert choices(joker, "X=7") == ["X=7:r5-r6"]
    assert choices(joker, "5") == ["5:r5-r10"]
