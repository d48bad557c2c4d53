"""Scripted players that play whole games through the bot's buttons only.

A player "thinks" with the same private information the bot shows them (their hand and legal
moves, read from the table service), picks a quick-finishing move, and then gets there by
clicking: the card in their open hand ("Show my hand" only the first time), the joker's kind,
the move; in Carcassonne the placement on the board, then the figure.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.discord_ui import race_prompts
from bot.discord_ui.texts import card_of_move, declared_of_move
from tests.bot.discord.clicks import ClickLog, Decision, clicks_of
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
    log: ClickLog = field(default_factory=ClickLog)
    #: Each player's open hand message (the bot keeps it up to date).
    hands: dict[int, Message] = field(default_factory=dict)


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
    # The answer comes first, the boards after it: the player looks at the thread once
    # they are out.
    for posts_out in world.fake.after_settle:
        await posts_out()


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
    """Click choice ``index`` of the list ``key``: a button, or an option of one of the
    selects (turning pages only when the choice is on another one)."""
    for _ in range(10):
        menus = [m for m in selects(prompt) if f":ms:{key}:" in m["custom_id"]]
        if not menus:
            button = find(prompt, f":mv:{key}:{index}")
            stats.labels.append(button["label"])
            await press(world, user, prompt, button["custom_id"])
            return
        for menu in menus:
            values = [o["value"] for o in menu["options"]]
            if str(index) in values:
                stats.selects += 1
                label = next(o["label"] for o in menu["options"] if o["value"] == str(index))
                stats.labels.append(label)
                await press(world, user, prompt, menu["custom_id"], [str(index)])
                return
        page = int(menus[0]["custom_id"].split(":")[-2])
        first = int(menus[0]["options"][0]["value"])
        target = page + 1 if index > first else page - 1
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


def current(prompt: Message, version: int) -> bool:
    """Whether ``prompt`` shows the table at ``version`` (its controls carry it)."""
    return f":v:{version}:" in repr(prompt.components)


async def hand_of(
    world: World,
    table_id: int,
    user: ScriptedUser,
    thread: Channel,
    stats: Stats,
    *,
    label: str = "Show my hand",
) -> Message:
    """The player's open hand, brought up to date by the bot; opened from the newest board
    (one more click, on ``label``) the first time, or when Discord no longer lets the bot
    edit it."""
    hand = stats.hands.get(user.id)
    if hand is not None and not hand.deleted:
        info = await world.desk.service.private_info(table_id, user.id)
        try:
            await world.wait(lambda: current(hand, info.table.version), limit=2)
            return hand
        except TimeoutError:
            pass
    board = world.newest_board(thread)
    hand = await open_prompt(world, user, board, label)
    stats.clicks += 1
    stats.hands[user.id] = hand
    return hand


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
    """``user`` plays (or picks) through the buttons of their open hand.

    ``prefer`` makes the player use that card (e.g. ``"7"`` or ``"X"``) when it can move;
    ``label`` is the board's button in the server's language.
    """
    before = clicks_of(world.fake, user)
    segments = 0

    def decided(kind: str) -> None:
        stats.turns += 1
        kind = "seven" if segments else kind
        stats.log.add(Decision(kind, clicks_of(world.fake, user) - before, segments))

    prompt = await hand_of(world, table_id, user, thread, stats, label=label)
    if "Your partner passed you" in prompt.content:
        stats.received += 1
    played = False
    for _step in range(12):
        info = await world.desk.service.private_info(table_id, user.id)
        view = info.view or {}
        if played and not (info.to_act and view.get("seven")):
            decided("move")
            return
        if not info.to_act:
            return
        if view.get("phase") == "exchange":
            if view.get("my_pick"):
                return
            token = rng.choice([m[2:] for m in info.legal_moves])
            await press(world, user, prompt, find(prompt, f":give:{token}")["custom_id"])
            stats.picks += 1
            decided("pick")
            return
        pairs = offered(info)
        assert pairs, f"nothing offered on {prompt.text!r}"
        ring = int((view.get("board") or {}).get("ring") or 72)
        preferred = [p for p in pairs if prefer and card_of_move(p[1]) == prefer]
        if preferred and not view.get("seven"):
            pairs = preferred
        best = max(move_score(m, ring) for _, m in pairs)
        key, move = rng.choice([p for p in pairs if move_score(p[1], ring) == best])
        played = True
        if key == race_prompts.SEGMENTS or move.startswith(("7:", "X=7:")):
            stats.seven_segments += 1
            segments += move.count(",") + 1
        if key == "F":
            stats.folds += 1
            await press(world, user, prompt, find(prompt, ":fold")["custom_id"])
            continue
        if move.endswith(":D"):
            stats.discards += 1
        if key == race_prompts.SEGMENTS:
            await choose(
                world, user, prompt, key, race_prompts.choices(info, key).index(move), stats
            )
            continue
        hand = [str(t) for t in view.get("hand") or []]
        token = "X" if key.startswith("X=") else key
        await press(world, user, prompt, find(prompt, f":card:{hand.index(token)}")["custom_id"])
        # What the prompt shows next says whether the click played (the card's only move).
        if key.startswith("X="):
            stats.jokers += 1
        if key.startswith("X=") and ":jok:" in repr(prompt.components):
            await press(world, user, prompt, find(prompt, f":jok:{key[2:]}")["custom_id"])
        for listed in (key, "X"):  # a joker's moves may come as one list of every kind
            if f":mv:{listed}:" in repr(prompt.components) or f":ms:{listed}:" in repr(
                prompt.components
            ):
                index = race_prompts.choices(info, listed).index(move)
                await choose(world, user, prompt, listed, index, stats)
                break
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
        # The final board says "Game over"; the results post may already follow it.
        over = [m.content for m in world.boards(thread)[-3:] if "Game over" in m.content]
        if over:
            return over[-1]
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
    """``user`` places the drawn tile: a placement from the board's selects, then a figure
    spot or none (skipped when no figure can go on the tile).

    ``label`` is the board's button in the server's language when the placements do not fit
    the board (the private step-by-step prompt: cell, rotation, figure).
    """
    from bot.discord_ui import tile_words

    before = clicks_of(world.fake, user)
    board = world.newest_board(thread)
    info = await world.desk.service.private_info(table_id, user.id)
    placements = tile_words.placements_of(info)
    order = world.desk.renderer.order(placements)
    index = rng.randrange(len(order))
    rot = rng.choice(placements[order[index]])
    menus = [m for m in selects(board) if ":put:" in m["custom_id"]]
    only = [b for b in board.buttons if ":put:" in b["custom_id"]]
    if menus or only:
        value = f"{index}.{rot}"
        if only:  # a single placement: its button
            result = await user.click(board, custom_id=only[0]["custom_id"], wait=False)
        else:
            menu = next(m for m in menus if value in [o["value"] for o in m["options"]])
            stats.selects += 1
            result = await user.select(
                board, custom_id=menu["custom_id"], values=[value], wait=False
            )

        def ready() -> Message | None:
            for message in result.visible_to(user):
                if message.ephemeral and not message.loading and message.id != board.id:
                    return message
            return None

        prompt: Message = await world.wait(ready, what="(no answer to the placement)")
        for posts_out in world.fake.after_settle:  # the boards follow the answer
            await posts_out()
    else:
        prompt = await _private_placement(world, user, board, label, index, rot, stats)
    figures = [b for b in prompt.buttons if ":fig:" in b["custom_id"] and not b.get("disabled")]
    if figures:
        assert figures[0]["label"] == "No figure", "no figure is the first choice"
        choice = rng.choice(figures)
        stats.labels.append(choice["label"])
        await press(world, user, prompt, choice["custom_id"])
    assert prompt.content.startswith("You placed"), prompt.content
    if not figures:
        assert "no figure can go on it" in prompt.content, "the skipped step is said"
    stats.turns += 1
    clicks = clicks_of(world.fake, user) - before
    stats.log.add(Decision("tile", clicks, figure_possible=bool(figures)))


async def _private_placement(
    world: World,
    user: ScriptedUser,
    board: Message,
    label: str,
    index: int,
    rot: int,
    stats: Stats,
) -> Message:
    """The private step-by-step placement: cell (paged select), rotation."""
    prompt = await open_prompt(world, user, board, label)
    stats.clicks += 1
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
    rotation = [b for b in prompt.buttons if f":rot:{index}:{rot}" in b["custom_id"]]
    if rotation:
        await press(world, user, prompt, rotation[0]["custom_id"])
    return prompt


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
