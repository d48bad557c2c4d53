"""Scripted players that play whole games through the bot's buttons only.

A player "thinks" with the same private information the bot shows them (their hand and legal
moves, read from the table service), picks a quick-finishing move, and then gets there by
clicking: "Show my hand", the card, the joker's kind, the move (paging a select if needed).
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.discord_ui import race_prompts
from bot.discord_ui.texts import card_of_move, declared_of_move
from tests.bot.discord.conftest import World
from tests.fakediscord.models import Channel, Message, iter_components
from tests.fakediscord.scripting import ScriptedUser


@dataclass
class Stats:
    """What the drivers did, for assertions on coverage of the flows."""

    turns: int = 0
    clicks: int = 0
    selects: int = 0
    pages: int = 0
    seven_segments: int = 0
    jokers: int = 0
    picks: int = 0
    folds: int = 0
    received: int = 0
    discards: int = 0
    labels: list[str] = field(default_factory=list)


# --- a quick-finishing move choice (also used as the bots' brain in these tests) -------------


def move_score(move: str, ring: int) -> int:
    """Bigger is better: into the home, out of the kennel, far forward; discards last."""
    if move.startswith("G:") or "<>" in move or move.endswith(":N"):
        return 1
    if move == "F" or move.endswith(":D"):
        return -1000
    action = move.partition(":")[2] if ":" in move else move
    if action.startswith("E"):
        return 60
    total = 0
    for walk in action.split(","):
        start, _, end = walk.partition("-")
        if end.startswith("h"):
            total += 100 + int(end.split(".")[1])
        elif start.startswith("r") and end.startswith("r"):
            delta = (int(end[1:]) - int(start[1:])) % ring
            total += delta if delta < ring // 2 else delta - ring
    return total


def greedy_chooser(
    game: str, view: Mapping[str, Any], level: str, legal: Sequence[str], seed: int
) -> str:
    """A BotChooser for the tests: greedy race moves, random Carcassonne moves."""
    rng = random.Random(seed)
    if game == "carcassonne":
        return rng.choice(list(legal))
    ring = int((view.get("board") or {}).get("ring") or 72)
    best = max(move_score(m, ring) for m in legal)
    return rng.choice([m for m in legal if move_score(m, ring) == best])


# --- clicking ---------------------------------------------------------------------------------


async def press(
    world: World,
    user: ScriptedUser,
    prompt: Message,
    custom_id: str,
    values: list[str] | None = None,
) -> None:
    """Click a button (or pick ``values`` in a select) of a private prompt and wait until the
    bot has changed the prompt: its answer is deferred, so "settled" alone is too early."""
    before = (prompt.content, repr(prompt.components))
    if values is None:
        await user.click(prompt, custom_id=custom_id, wait=False)
    else:
        await user.select(prompt, custom_id=custom_id, values=values, wait=False)
    await world.wait(
        lambda: (prompt.content, repr(prompt.components)) != before,
        what=f"(prompt unchanged after {custom_id})",
    )


async def open_prompt(world: World, user: ScriptedUser, board: Message, label: str) -> Message:
    """Click a public control and wait for the private prompt it opens for ``user``."""
    result = await user.click(board, label=label, wait=False)

    def ready() -> Message | None:
        for message in result.visible_to(user):
            if message.ephemeral and not message.loading and message.id != board.id:
                return message
        return None

    prompt: Message = await world.wait(ready, what=f"(no prompt after {label})")
    return prompt


def find(message: Message, part: str) -> dict[str, Any]:
    """The enabled component whose custom_id ends with ``part`` (e.g. ``:card:2``)."""
    for component in iter_components(message.components):
        if str(component.get("custom_id", "")).endswith(part) and not component.get("disabled"):
            return component
    raise AssertionError(f"no enabled control {part!r} in {message.text!r}")


def selects(message: Message) -> list[dict[str, Any]]:
    """The select menus of a message."""
    return [c for c in iter_components(message.components) if c["type"] == 3]


async def choose(
    world: World, user: ScriptedUser, prompt: Message, key: str, index: int, stats: Stats
) -> None:
    """Click choice ``index`` of the list ``key``: a button, or an option of a paged select."""
    for _ in range(10):
        menus = selects(prompt)
        if not menus:
            button = find(prompt, f":mv:{key}:{index}")
            stats.labels.append(button["label"])
            await press(world, user, prompt, button["custom_id"])
            return
        menu = menus[0]
        values = [o["value"] for o in menu["options"]]
        if str(index) in values:
            stats.selects += 1
            label = next(o["label"] for o in menu["options"] if o["value"] == str(index))
            stats.labels.append(label)
            await press(world, user, prompt, menu["custom_id"], [str(index)])
            return
        page = int(menu["custom_id"].rsplit(":", 1)[1])
        target = page + 1 if index > int(values[-1]) else page - 1
        stats.pages += 1
        await press(world, user, prompt, find(prompt, f":pg:{key}:{target}")["custom_id"])
    raise AssertionError("paging never reached the choice")


# --- a race-game turn --------------------------------------------------------------------------


def offered(info: Any) -> list[tuple[str, str]]:
    """Every (choice-list key, move) the prompts offer this player now."""
    view = info.view or {}
    if view.get("seven"):
        return [(race_prompts.SEGMENTS, m) for m in race_prompts.choices(info, "S")]
    pairs: list[tuple[str, str]] = []
    for token in dict.fromkeys(str(t) for t in view.get("hand") or []):
        if token == "X":
            kinds = {d for m in info.legal_moves if (d := declared_of_move(m))}
            if info.seven_starts.get("X"):
                kinds.add("7")
            for kind in sorted(kinds):
                pairs += [(f"X={kind}", m) for m in race_prompts.choices(info, f"X={kind}")]
        else:
            pairs += [(token, m) for m in race_prompts.choices(info, token)]
    if "F" in info.legal_moves:
        pairs.append(("F", "F"))
    return pairs


async def play_race_turn(
    world: World,
    table_id: int,
    user: ScriptedUser,
    thread: Channel,
    rng: random.Random,
    stats: Stats,
    *,
    prefer: str | None = None,
    label: str = "Show my hand",
) -> None:
    """``user`` opens their hand from the newest board and plays (or picks) through buttons.

    ``prefer`` makes the player use that card (e.g. ``"7"`` or ``"X"``) when it can move;
    ``label`` is the board's button in the server's language.
    """
    board = world.newest_board(thread)
    prompt = await open_prompt(world, user, board, label)
    stats.clicks += 1
    if "You received a" in prompt.content:
        stats.received += 1
    for _step in range(12):
        if prompt.content.startswith("You played"):
            stats.turns += 1
            return
        info = await world.desk.service.private_info(table_id, user.id)
        view = info.view or {}
        if not info.to_act:
            stats.turns += 1
            return
        if view.get("phase") == "exchange":
            if view.get("my_pick"):
                return
            token = rng.choice([m[2:] for m in info.legal_moves])
            await press(world, user, prompt, find(prompt, f":give:{token}")["custom_id"])
            stats.picks += 1
            stats.turns += 1
            return
        pairs = offered(info)
        assert pairs, f"nothing offered on {prompt.text!r}"
        ring = int((view.get("board") or {}).get("ring") or 72)
        preferred = [p for p in pairs if prefer and card_of_move(p[1]) == prefer]
        if preferred and not view.get("seven"):
            pairs = preferred
        best = max(move_score(m, ring) for _, m in pairs)
        key, move = rng.choice([p for p in pairs if move_score(p[1], ring) == best])
        if key == "F":
            stats.folds += 1
            await press(world, user, prompt, find(prompt, ":fold")["custom_id"])
            continue
        if move.endswith(":D"):
            stats.discards += 1
        if (
            key != race_prompts.SEGMENTS
            and not selects(prompt)
            and ":mv:" not in repr(prompt.components)
        ):
            hand = [str(t) for t in view.get("hand") or []]
            token = "X" if key.startswith("X=") else key
            await press(
                world, user, prompt, find(prompt, f":card:{hand.index(token)}")["custom_id"]
            )
            if key.startswith("X="):
                stats.jokers += 1
                await press(world, user, prompt, find(prompt, f":jok:{key[2:]}")["custom_id"])
        if key == race_prompts.SEGMENTS or move.startswith(("7:", "X=7:")):
            stats.seven_segments += 1
        index = race_prompts.choices(info, key).index(move)
        await choose(world, user, prompt, key, index, stats)
    raise AssertionError("too many steps in one turn")


def to_act(board: Message, users: list[ScriptedUser]) -> list[ScriptedUser]:
    """The users the newest board mentions as owing a decision."""
    return [u for u in users if f"<@{u.id}>" in board.content]


async def _play_to_the_end(
    world: World,
    table_id: int,
    users: list[ScriptedUser],
    stats: Stats,
    max_rounds: int,
    play_turns: Callable[[list[ScriptedUser], Any], Awaitable[None]],
) -> str:
    """Let ``play_turns`` act for the users the newest board names until the game is over."""
    thread = world.thread_of(world.lobby(table_id))
    for _ in range(max_rounds):
        last = world.boards(thread)[-1]
        if "Game over" in last.content:
            return last.content
        acting = to_act(world.newest_board(thread), users)
        assert acting, f"nobody to act on {world.newest_board(thread).content!r}"
        await play_turns(acting, thread)
    raise AssertionError(f"no end after {max_rounds} rounds ({stats.turns} turns)")


async def play_race_to_the_end(
    world: World,
    table_id: int,
    users: list[ScriptedUser],
    rng: random.Random,
    stats: Stats,
    *,
    max_rounds: int = 3000,
) -> str:
    """Play until a board announces the end; return that board's text."""

    async def turns(acting: list[ScriptedUser], thread: Any) -> None:
        for user in acting:  # several seats act at once in an exchange
            await play_race_turn(world, table_id, user, thread, rng, stats)

    return await _play_to_the_end(world, table_id, users, stats, max_rounds, turns)


# --- a Carcassonne turn ------------------------------------------------------------------------


async def play_tile_turn(
    world: World,
    table_id: int,
    user: ScriptedUser,
    thread: Channel,
    rng: random.Random,
    stats: Stats,
    *,
    label: str = "Place tile",
) -> None:
    """``user`` places the drawn tile: cell (paged select), rotation, figure spot or none.

    ``label`` is the board's button in the server's language (the prompt is in ``user``'s).
    """
    from bot.discord_ui import tile_prompts

    board = world.newest_board(thread)
    prompt = await open_prompt(world, user, board, label)
    stats.clicks += 1
    info = await world.desk.service.private_info(table_id, user.id)
    placements = tile_prompts.placements_of(info)
    order = world.desk.renderer.order(placements)
    index = rng.randrange(len(order))
    for _ in range(10):
        menu = selects(prompt)[0]
        values = [o["value"] for o in menu["options"]]
        if str(index) in values:
            stats.selects += 1
            await press(world, user, prompt, menu["custom_id"], [str(index)])
            break
        page = int(menu["custom_id"].rsplit(":", 1)[1])
        target = page + 1 if index > int(values[-1]) else page - 1
        stats.pages += 1
        await press(world, user, prompt, find(prompt, f":cpg:{target}")["custom_id"])
    rot = rng.choice(placements[order[index]])
    await press(world, user, prompt, find(prompt, f":rot:{index}:{rot}")["custom_id"])
    figures = [b for b in prompt.buttons if ":fig:" in b["custom_id"] and not b.get("disabled")]
    assert figures, prompt.buttons
    assert figures[0]["label"] == "No figure"
    choice = rng.choice(figures)
    stats.labels.append(choice["label"])
    await press(world, user, prompt, choice["custom_id"])
    assert prompt.content.startswith("You placed"), prompt.content
    stats.turns += 1


async def play_tiles_to_the_end(
    world: World,
    table_id: int,
    users: list[ScriptedUser],
    rng: random.Random,
    stats: Stats,
    *,
    max_rounds: int = 400,
) -> str:
    """Play Carcassonne until a board announces the end; return that board's text."""

    async def turns(acting: list[ScriptedUser], thread: Any) -> None:
        await play_tile_turn(world, table_id, acting[0], thread, rng, stats)

    return await _play_to_the_end(world, table_id, users, stats, max_rounds, turns)
