"""The private race prompts built from a player's private info (no Discord needed)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord

from bot.discord_ui.race_prompts import (
    card_prompt,
    choices,
    hand_prompt,
    moves_prompt,
    single_move,
)
from bot.discord_ui.rendering import Renderer
from bot.model.effects import PrivateInfo
from bot.model.table import Phase, Seat, TableRecord

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
    # One way to play each card: the button names the card as its face shows it, says the
    # way, and plays it on one click.
    assert [b.label for b in buttons(prompt)] == ["3 ♥: discard", "10 ♣: discard"]
    assert all(not b.disabled for b in buttons(prompt))


async def test_a_card_with_one_move_says_the_move_and_others_their_card() -> None:
    legal = ("K:E", "Q:r5-r17", "Q:r40-r52")
    prompt = await hand_prompt(DESK, info({"hand": ["4", "Q", "K"], "phase": "play"}, legal))
    assert [b.label for b in buttons(prompt)] == ["4 ♠", "Q ♠", "K ♦: bring a pawn out"]
    assert single_move(info({"hand": ["Q", "K"]}, legal), "K") == "K:E"
    assert single_move(info({"hand": ["Q", "K"]}, legal), "Q") is None
    waiting = info({"hand": ["Q", "K"]}, legal, to_act=False)
    assert single_move(waiting, "K") is None, "nothing plays when it is not your turn"


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
    assert labels == {"3 ♥": True, "5 ♦": True, "Fold": False}


async def test_a_forced_discard_says_which_pawn_blocks_the_way() -> None:
    """T-5.3: a guarded pawn on its start field in the way; the engine's facts say whose."""
    from engine import tock

    state = tock.from_position(
        {
            "game": "tock",
            "players": 2,
            "pawns": {"0": ["r31"], "2": ["r36*"]},
            "hands": {"0": ["6", "9"], "2": ["2"]},
            "turn": 0,
        }
    )
    legal = tuple(str(m) for m in tock.legal_moves(state))
    assert legal == ("6:D", "9:D")
    stuck = tock.stuck_reason(state)
    view = {"hand": ["6", "9"], "phase": "play"}
    prompt = await hand_prompt(DESK, info(view, legal, stuck=stuck), locale="en")
    assert prompt.content == (
        "None of your cards can move a pawn: the way is blocked by Yellow's pawn on its "
        "start field. Discard one card."
    )
    nothing_out = info(view, legal, stuck={"reason": "kennel", "colour": 0})
    german = await hand_prompt(DESK, nothing_out, locale="de")
    assert german.content == (
        "Alle deine Figuren sind im Startbereich und keine deiner Karten bringt eine heraus: "
        "Wirf eine Karte ab."
    )


async def test_exchange_prompt_shows_pick_and_received_card_privately() -> None:
    view = {"hand": ["2", "K", "Q", "Q"], "phase": "exchange", "my_pick": None, "received": "K"}
    prompt = await hand_prompt(DESK, info(view, ("G:2", "G:K", "G:Q")))
    assert "Your partner passed you **a King**." in prompt.content
    assert [b.label for b in buttons(prompt)] == ["Pass 2", "Pass K", "Pass Q"]


async def test_the_received_card_is_not_repeated_once_it_is_played() -> None:
    view = {"hand": ["2", "Q"], "phase": "play", "received": "K"}
    prompt = await hand_prompt(DESK, info(view, ("2:r5-r7", "Q:r5-r17")))
    assert "passed you" not in prompt.content


async def test_split_seven_offers_starts_and_then_segments_with_steps_left() -> None:
    starts = {"7": ("7:r5-r6", "7:r5-r12")}
    seven = info({"hand": ["7"]}, ("7:r5-r12",), seven_starts=starts)
    assert choices(seven, "7") == ["7:r5-r12"], "few complete plays are offered whole"
    pending = info({"hand": [], "seven": {"card": "7", "left": 6}}, ("r6-r7", "r6-r12"))
    prompt = await hand_prompt(DESK, pending)
    assert "6 steps left" in prompt.content
    # Too long for buttons of Discord's 34 characters: a menu, numbered like the image.
    menus = [i.item for i in prompt.items if isinstance(i.item, discord.ui.Select)]
    assert [o.label for o in menus[0].options] == [
        "1. your pawn 6 → 7 fields past your start (1 step)",
        "2. your pawn 6 → 12 fields past your start (6 steps)",
    ]
    assert prompt.moves == ("r6-r7", "r6-r12"), "the image marks the same moves"


def test_many_split_sevens_go_segment_by_segment_biggest_effect_first() -> None:
    # 36 ways to share 7 steps between pawns on 5, 20 and 69: too many to list whole.
    legal = tuple(
        f"7:r5-r{5 + a},r20-r{20 + b},r69-h0.{c}" if c else f"7:r5-r{5 + a},r20-r{20 + b}"
        for a in range(8)
        for b in range(8 - a)
        for c in [7 - a - b]
    )
    assert len(legal) == 36
    starts = {"7": ("7:r5-r6", "7:r20-r21", "7:r69-h0.1", "7:r5-r40")}
    view = {"hand": ["7"], "pawns": {"0": ["r5", "r20", "r69"], "2": ["r40"]}}
    offered = choices(info(view, legal, seven_starts=starts), "7")
    assert offered[:2] == ["7:r69-h0.1", "7:r5-r40"], "home first, then a capture"
    assert set(offered) == set(starts["7"])


def test_the_moves_of_a_joker_say_the_kind_in_the_case_of_the_title() -> None:
    legal = ("X=J:r5<>r40", "X=J:r40<>r5")
    joker = info({"game": "dog", "hand": ["X"]}, legal)
    assert moves_prompt(joker, "X=J", locale="de").content == "Züge mit dem Joker als Buben:"
    assert moves_prompt(joker, "X=J", locale="en").content == "Moves with the joker as a Jack:"
    assert moves_prompt(joker, "X=J", locale="hu").content == (
        "Lehetséges lépések – joker bubiként:"
    )


async def test_the_joker_offers_every_kind_in_one_list() -> None:
    legal = ("X=A:E", "X=K:r5-r18", "5:r5-r10")
    joker = info({"game": "dog", "hand": ["5", "X"]}, legal, seven_starts={"X": ("X=7:r5-r6",)})
    prompt = card_prompt(joker, 1)
    assert "Joker" in prompt.content
    menus = [i.item for i in prompt.items if isinstance(i.item, discord.ui.Select)]
    assert [o.label for o in menus[0].options] == [
        "1. A: bring a pawn out",
        "2. 7: your pawn 5 → 6 fields past your start (1 step)",
        "3. K: your pawn 5 → 18 fields past your start",
    ]
    assert [b.label for b in buttons(prompt)] == ["Back"]
    assert choices(joker, "X") == ["X=A:E", "X=7:r5-r6", "X=K:r5-r18"]
    assert choices(joker, "X=7") == ["X=7:r5-r6"]
    assert choices(joker, "5") == ["5:r5-r10"]


async def test_a_joker_with_more_plays_than_the_selects_hold_asks_its_kind_first() -> None:
    legal = tuple(f"X=K:r{n}-r{n + 13}" for n in range(60)) + tuple(
        f"X=Q:r{n}-r{n + 12}" for n in range(60)
    )
    pawns = {"0": [f"r{n}" for n in range(60)]}
    joker = info({"game": "dog", "hand": ["X"], "pawns": pawns}, legal)
    prompt = card_prompt(joker, 0)
    assert "joker stand for" in prompt.content
    assert [b.label for b in buttons(prompt)] == ["Joker as Q", "Joker as K", "Back"]


async def test_a_seven_with_one_way_plays_on_one_click_and_reads_as_its_card() -> None:
    starts = {"7": tuple(f"7:r5-r{5 + n}" for n in range(1, 8))}
    seven = info(
        {"hand": ["7", "Q"], "phase": "play"},
        ("7:r5-r12", "Q:r5-r17", "Q:r40-r52"),
        seven_starts=starts,
    )
    assert single_move(seven, "7") == "7:r5-r12", "one whole play: one click"
    labels = [b.label for b in buttons(await hand_prompt(DESK, seven))]
    assert labels[0].startswith("7 ♥"), "the button reads as the card"
    assert labels[1] == "Q ♠", "a card with two ways opens them"
    for locale in ("en", "de", "hu"):
        prompt = await hand_prompt(DESK, seven, locale=locale)
        assert all(len(b.label or "") <= 34 for b in buttons(prompt))
