"""Each Carcassonne placement says what it does, from the engine's facts, in every language.

The words are checked against what the engine really does when the turn is played: a
placement said to close the player's city for N points scores N points for that city.
"""

from __future__ import annotations

import random
from typing import Any

from bot.discord_ui.tile_words import placement_effects_of
from engine import get_game
from i18n.catalog import LOCALES
from i18n.placement_effects import effect_words


def _positions(seed: int, turns: int) -> Any:
    module: Any = get_game("carcassonne")
    state = module.new_game(2, {}, seed)
    rng = random.Random(seed)
    for _ in range(turns):
        if module.outcome(state) is not None:
            return
        yield module, state
        seat = min(module.seats_to_act(state))
        moves = module.legal_moves(state, seat)
        # Followers on cities and roads now and then, so features have owners.
        rich = [m for m in moves if "follower:city" in str(m) or "follower:road" in str(m)]
        state = module.apply(state, rng.choice(rich if rich and rng.random() < 0.5 else moves))


def test_a_placement_said_to_close_your_city_scores_what_it_says() -> None:
    seen = {"closes": 0, "joins": 0, "extends": 0, "monastery": 0}
    names = {0: "Anna", 1: "Bot 2"}
    for seed in (1, 2, 3):
        for module, state in _positions(seed, 60):
            view = module.view(state, None)
            if view["phase"] != "place":
                continue
            me = int(view["to_act"][0])
            for (x, y, rot), facts in placement_effects_of(view).items():
                words = effect_words(facts, me, names, "en")
                assert words, "every placement says something"
                assert len(words) <= 100
                for locale in LOCALES:
                    assert effect_words(facts, me, names, locale)
                if words.startswith("closes your city: "):
                    seen["closes"] += 1
                    points = int(words.split(": ")[1].split()[0])
                    tile = view["current_tile"]
                    after = module.apply(state, f"{tile} {x},{y}@{rot} none")
                    scored = [
                        e.data
                        for e in after.events
                        if e.kind == "score" and e.data.get("feature") == "city"
                    ]
                    assert any(d["points"] == points and me in d["owners"] for d in scored), (
                        words,
                        scored,
                    )
                if "joins 2 fields" in words:
                    seen["joins"] += 1
                if "extends Bot 2's" in words or "extends Anna's" in words:
                    seen["extends"] += 1
                if "starts a monastery" in words:
                    seen["monastery"] += 1
    assert all(seen.values()), seen


def test_the_words_of_facts_in_three_languages() -> None:
    facts = [
        {"kind": "city", "joined": 1, "owners": [0], "closed": True, "points": 8},
        {"kind": "field", "joined": 2, "owners": [], "closed": False, "points": None},
    ]
    names = {0: "Anna", 1: "Bot 2"}
    assert effect_words(facts, 0, names, "en") == "closes your city: 8 points; joins 2 fields"
    assert effect_words(facts, 1, names, "de") == (
        "schließt die Stadt von Anna: 8 Punkte; verbindet 2 Wiesen"
    )
    assert effect_words(facts, 0, names, "hu") == "lezárja a városodat: 8 pont; összeköt 2 mezőt"
    road = [{"kind": "road", "joined": 1, "owners": [1], "closed": False, "points": None}]
    assert effect_words(road, 0, names, "en") == "extends Bot 2's road"
    monastery = [{"kind": "monastery", "joined": 0, "owners": [], "closed": False}]
    assert effect_words(monastery, 0, names, "en") == "starts a monastery"


async def test_the_private_placement_steps_say_turns_and_what_each_does() -> None:
    from types import SimpleNamespace

    import discord

    from bot.discord_ui import tile_prompts
    from bot.discord_ui.rendering import Renderer
    from bot.model.effects import PrivateInfo
    from bot.model.table import Phase, Seat, TableRecord

    module: Any = get_game("carcassonne")
    state = module.new_game(2, {}, 1)
    rng = random.Random(1)
    # A turn whose tile may go on some cell in more than one way.
    while True:
        state = module.apply(state, rng.choice(module.legal_moves(state)))
        if module.view(state, None)["phase"] != "place":
            continue
        if any(len(r) > 1 for r in module.legal_placements(state).values()):
            break
    seat = min(module.seats_to_act(state))
    table = TableRecord(
        id=3, guild_id=1, channel_id=2, game="carcassonne", options={}, seed=1, host_id=10,
        seats=(Seat(0, user_id=10, name="Anna"), Seat(1, user_id=11, name="Bea")),
        phase=Phase.PLAYING, version=9, players=2,
    )  # fmt: skip
    legal = tuple(str(m) for m in module.legal_moves(state, seat))
    info = PrivateInfo(table, seat, module.view(state, seat), legal, True)
    desk = SimpleNamespace(renderer=Renderer())
    cells = await tile_prompts.cells_prompt(desk, info, 0, image=False)  # type: ignore[arg-type]
    menu = next(i.item for i in cells.items if isinstance(i.item, discord.ui.Select))
    assert all(option.description for option in menu.options), "each cell says its turns"
    several = next(i for i, option in enumerate(menu.options) if "·" in (option.description or ""))
    prompt = tile_prompts.rotations_prompt(desk, info, several)  # type: ignore[arg-type]
    turns = [i.item.label for i in prompt.items if i.item.label != "Back"]
    assert len(turns) >= 2
    assert all(label[0] in "↑→↓←" for label in turns), turns
    lines = prompt.content.splitlines()[1:]
    assert len(lines) == len(turns), prompt.content
    assert all(
        any(word in line for word in ("closes", "joins", "extends", "starts")) for line in lines
    )
