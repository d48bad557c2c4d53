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
