"""Every button and menu of the play prompts fits Discord's limits by its words, never by a cut.

Discord takes a button label of at most 80 characters (and its guidance asks for 34, the
limit checked here), a select option's label and
description of at most 100 each, a placeholder of at most 150. The prompts choose words that
fit (the detail of a move in its option's description, captures counted, others' pawns named
by colour when names take too much room, a split 7 move by move when whole plays would not
fit); ``components.fitted`` would cut and log a slip. These tests walk many real positions of
seeded games (splits of the 7 over several pawns, Jack swaps, jokers, partners' pawns in Tock
and Dog, Carcassonne placements and figure spots) in English, German and Hungarian, with the
longest names Discord allows, and require that nothing was ever cut.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.discord_ui import race_prompts, tile_prompts, tile_words
from bot.discord_ui.components import (
    OPTION_DESCRIPTION,
    OPTION_LABEL,
    PLACEHOLDER,
)
from bot.discord_ui.prompts import BUTTON_GUIDE, PAGE_SIZE, SELECTS_PER_PAGE, Prompt
from bot.discord_ui.rendering import Renderer
from bot.model.effects import PrivateInfo
from bot.model.table import Phase, Seat, TableRecord
from engine import get_game
from i18n.catalog import LOCALES, use_game_terms
from i18n.events import colour_word
from i18n.moves import move_label
from tests.sentence_lint import problems

DESK = SimpleNamespace(renderer=Renderer())
#: Display names as long as Discord allows (32 characters).
NAMES = [f"{name:.<31}{n}" for n, name in enumerate(("Alexandra", "Bartholomew", "Christina"))]
NAMES += [f"{name:.<31}{n}" for n, name in enumerate(("Dominique", "Evangeline", "Fitzgerald"))]


#: The colours of the seats in each language: names of a kind (German "Orange" is German).
COLOURS = {locale: [colour_word(seat, locale) for seat in range(6)] for locale in LOCALES}


def _texts(prompt: Prompt) -> Iterator[tuple[str, str, int]]:
    """(what, text, limit) for every text of ``prompt``'s components."""
    for item in prompt.items:
        control = item.item
        if isinstance(control, discord.ui.Button):
            # Discord's guidance, not only the API's 80 (#36): 34 characters in every language.
            yield "button", control.label or "", BUTTON_GUIDE
        elif isinstance(control, discord.ui.Select):
            yield "placeholder", control.placeholder or "", PLACEHOLDER
            for option in control.options:
                yield "option", option.label, OPTION_LABEL
                yield "description", option.description or "", OPTION_DESCRIPTION


class Checked:
    """The prompts seen, and the longest text of each kind."""

    def __init__(self) -> None:
        self.prompts = 0
        self.longest: dict[str, str] = {}

    def check(self, prompt: Prompt, locale: str) -> None:
        self.prompts += 1
        for what, text, limit in _texts(prompt):
            assert len(text) <= limit, (what, text)
            assert problems(text, locale, "label", [*NAMES, *COLOURS[locale]]) == [], (what, text)
            if len(text) > len(self.longest.get(what, "")):
                self.longest[what] = text


def _table(game: str, seats: list[int], options: dict[str, Any]) -> TableRecord:
    return TableRecord(
        id=3,
        guild_id=1,
        channel_id=2,
        game=game,
        options=options,
        seed=1,
        host_id=10,
        seats=tuple(Seat(seat, user_id=10 + seat, name=NAMES[i]) for i, seat in enumerate(seats)),
        phase=Phase.PLAYING,
        version=9,
        players=len(seats),
    )


def _info(module: Any, table: TableRecord, state: Any, seat: int) -> PrivateInfo:
    """The seat's private info as the table service gives it (labels with their effects)."""
    view = module.view(state, seat)
    moves = module.legal_moves(state, seat)
    legal = tuple(str(m) for m in moves)
    names = {s.index: s.label for s in table.seats}
    labels = []
    for move in moves:
        try:
            events = [e.to_json() for e in module.apply(state, move, seat).events]
        except Exception:  # as the service: the words can do without the effects
            events = []
        labels.append(move_label(table.game, str(move), view, names, events, legal))
    starts: dict[str, tuple[str, ...]] = {}
    if table.game != "carcassonne" and not view.get("seven"):
        for card in sorted({c for c in view.get("hand") or () if c in ("7", "X")}):
            found = module.seven_starts(state, card)
            if found:
                starts[card] = tuple(str(s) for s in found)
    return PrivateInfo(table, seat, view, legal, True, labels=tuple(labels), seven_starts=starts)


async def _race_prompts(info: PrivateInfo, locale: str) -> list[Prompt]:
    """Every prompt a player can open on this turn: the hand, each card, each joker kind,
    each page of a long list."""
    prompts = [await race_prompts.hand_prompt(DESK, info, locale=locale)]
    view = info.view or {}
    if view.get("phase") != "play" or view.get("seven"):
        return prompts
    keys = [str(c) for c in dict.fromkeys(view.get("hand") or ())]
    keys += ["X=" + kind for kind in race_prompts.joker_kinds(info)]
    for index, token in enumerate(view.get("hand") or ()):
        if race_prompts.choices(info, str(token)) or token == "X":
            try:
                prompts.append(race_prompts.card_prompt(info, index, locale=locale))
            except Exception:  # a card without a move: refused in words, no prompt
                continue
    for key in keys:
        moves = race_prompts.choices(info, key)
        pages = -(-len(moves) // (PAGE_SIZE * SELECTS_PER_PAGE))
        for page in range(max(1, pages) if moves else 0):
            prompts.append(race_prompts.moves_prompt(info, key, page, locale))
    return prompts


def _race_positions(game: str, players: int, options: dict[str, Any], seed: int) -> Iterator[Any]:
    """(module, table, state, seat) along a seeded game, preferring 7s, Jacks and jokers."""
    module: Any = get_game(game)
    state = module.new_game(players, options, seed)
    seats = list(module.view(state, None)["seats"])
    table = _table(game, seats, options)
    rng = random.Random(seed)
    for _ in range(200):
        if module.outcome(state) is not None:
            return
        seat = min(module.seats_to_act(state))
        yield module, table, state, seat
        moves = module.legal_moves(state, seat)
        rich = [m for m in moves if str(m)[:1] in "7JX"]
        state = module.apply(state, rng.choice(rich if rich and rng.random() < 0.7 else moves))


RACE_GAMES = [
    pytest.param("tock", 2, {}, id="tock-2"),
    pytest.param("tock", 4, {"game_type": "2v2"}, id="tock-2v2"),
    pytest.param("tock", 6, {"game_type": "2v2v2", "variant5": True}, id="tock-6-variant5"),
    pytest.param("dog", 4, {}, id="dog-4"),
    pytest.param("dog", 6, {"ruleset": "braendi"}, id="dog-6-braendi"),
]


@pytest.mark.parametrize(("game", "players", "options"), RACE_GAMES)
async def test_race_prompts_fit_discord_without_a_cut(
    game: str, players: int, options: dict[str, Any], caplog: pytest.LogCaptureFixture
) -> None:
    checked = Checked()
    with caplog.at_level(logging.ERROR, logger="bot.discord_ui.components"):
        for seed in (1,):
            for module, table, state, seat in _race_positions(game, players, options, seed):
                info = _info(module, table, state, seat)
                for locale in LOCALES:
                    use_game_terms(game)
                    for prompt in await _race_prompts(info, locale):
                        checked.check(prompt, locale)
    assert checked.prompts > 200
    assert [r.getMessage() for r in caplog.records] == []


def _position(game: str, **fields: Any) -> dict[str, Any]:
    return {"game": game, **fields}


NAMED = {
    # Four pawns and a 7: dozens of splits, offered pawn by pawn.
    "seven-four-pawns": _position(
        "tock",
        players=4,
        pawns={"0": ["r3", "r20", "r41", "r69"], "1": ["r22", "r40"], "2": ["r44"]},
        hands={"0": ["7", "9"], "1": ["2"], "2": ["2"], "3": ["2"]},
        turn=0,
    ),
    # Two pawns, a home almost full: few splits, offered whole, with burns.
    "seven-whole-with-burns": _position(
        "tock",
        players=4,
        pawns={"0": ["r10", "r30", "h0.3", "h0.4"], "1": ["r13", "r33"], "3": ["r8"]},
        hands={"0": ["7"], "1": ["2"], "2": ["2"], "3": ["2"]},
        turn=0,
    ),
    # A Jack among many pawns: a long list of swaps.
    "jack-swaps": _position(
        "tock",
        players=6,
        pawns={
            "0": ["r5", "r30", "r61", "r90"],
            "1": ["r25", "r47"],
            "2": ["r50", "r77"],
            "3": ["r80", "r101"],
            "4": ["r3", "r60"],
            "5": ["r95", "r14"],
        },
        hands={"0": ["J", "5"], "1": ["2"], "2": ["3"], "3": ["6"], "4": ["8"], "5": ["9"]},
        turn=0,
    ),
    # A Dog joker that may be any kind, next to a 7 and a Jack.
    "dog-joker": _position(
        "dog",
        players=6,
        pawns={"0": ["r5", "r40", "r77"], "1": ["r20", "r33"], "3": ["r60"], "4": ["r80"]},
        hands={"0": ["X", "7", "J"], "1": ["2"], "2": ["2"], "3": ["2"], "4": ["2"], "5": ["2"]},
        turn=0,
    ),
}


@pytest.mark.parametrize("name", sorted(NAMED))
async def test_named_positions_fit_discord_without_a_cut(
    name: str, caplog: pytest.LogCaptureFixture
) -> None:
    game = NAMED[name]["game"]
    module: Any = get_game(game)
    state = module.from_position(NAMED[name])
    seats = list(module.view(state, None)["seats"])
    table = _table(game, seats, {})
    info = _info(module, table, state, 0)
    checked = Checked()
    with caplog.at_level(logging.ERROR, logger="bot.discord_ui.components"):
        for locale in LOCALES:
            use_game_terms(game)
            for prompt in await _race_prompts(info, locale):
                checked.check(prompt, locale)
    assert [r.getMessage() for r in caplog.records] == []
    assert checked.prompts >= 3


async def _tile_prompts(info: PrivateInfo, locale: str, rng: random.Random) -> list[Prompt]:
    """The placement menus, the cell and rotation steps, and the figure spots of a few
    placements (of the figure phase, its menu)."""
    view = info.view or {}
    if view.get("phase") == "figure":
        return [await tile_prompts._start_prompt(DESK, info, locale)]  # type: ignore[arg-type]
    placements = tile_words.placements_of(info)
    order = DESK.renderer.order(placements)
    prompts = []
    public = tile_words.placement_controls(
        3,
        9,
        placements,
        order,
        locale,
        effects=tile_words.placement_effects_of(view),
        me=info.seat,
        names={s.index: s.label for s in info.table.seats},
    )
    if public is not None:
        prompts.append(Prompt("", public))
    prompts.append(await tile_prompts.cells_prompt(DESK, info, 0, image=False, locale=locale))  # type: ignore[arg-type]
    for index in rng.sample(range(len(order)), min(3, len(order))):
        prompts.append(tile_prompts.rotations_prompt(DESK, info, index, locale))  # type: ignore[arg-type]
        rot = placements[order[index]][0]
        prompt, _actions = await tile_prompts.figure_prompt(DESK, info, index, rot, locale)  # type: ignore[arg-type]
        prompts.append(prompt)
    return prompts


@pytest.mark.parametrize(
    "options",
    [
        pytest.param({}, id="base"),
        pytest.param(
            {"inns_cathedrals": "full", "traders_builders": "full", "river": True},
            id="expansions",
        ),
    ],
)
async def test_carcassonne_prompts_fit_discord_without_a_cut(
    options: dict[str, Any], caplog: pytest.LogCaptureFixture
) -> None:
    module: Any = get_game("carcassonne")
    checked = Checked()
    with caplog.at_level(logging.ERROR, logger="bot.discord_ui.components"):
        for seed in (1, 2):
            state = module.new_game(3, options, seed)
            table = _table("carcassonne", [0, 1, 2], options)
            rng = random.Random(seed)
            for turn in range(40):
                if module.outcome(state) is not None:
                    break
                seat = min(module.seats_to_act(state))
                if turn % 4 == 0 or module.view(state, seat).get("phase") == "figure":
                    info = _info(module, table, state, seat)
                    for locale in LOCALES:
                        use_game_terms("carcassonne")
                        for prompt in await _tile_prompts(info, locale, rng):
                            checked.check(prompt, locale)
                state = module.apply(state, rng.choice(module.legal_moves(state, seat)))
    assert checked.prompts > 50
    assert [r.getMessage() for r in caplog.records] == []


async def test_a_split_seven_offered_whole_says_the_other_pawn_and_the_burns_below() -> None:
    """Each whole split of two pawns is one option: the first pawn's way on it, the second
    pawn's and what the 7 burns in its description, in every language."""
    module: Any = get_game("tock")
    state = module.from_position(NAMED["seven-whole-with-burns"])
    info = _info(module, _table("tock", [0, 1, 2, 3], {}), state, 0)
    complete = [m for m in info.legal_moves if m.startswith("7:")]
    assert sorted(race_prompts.choices(info, "7")) == sorted(complete), "offered whole"
    for locale, first, then in (
        ("en", "1. your pawns: 10 → 13", "and 30 → 34"),
        ("de", "1. deine Figuren: 10 → 13", "und 30 → 34"),
        ("hu", "1. a bábuid: 10 → 13", "és 30 → 34"),
    ):
        use_game_terms("tock")
        prompt = race_prompts.moves_prompt(info, "7", 0, locale)
        menus = [i.item for i in prompt.items if isinstance(i.item, discord.ui.Select)]
        options = [option for menu in menus for option in menu.options]
        assert len(options) == len(complete)
        assert options[0].label.startswith(first), options[0].label
        assert (options[0].description or "").startswith(then), options[0].description
        assert all(option.description for option in options), "each burns a pawn"
