"""Tock and Dog in private: the hand, a card's moves, the split 7, the joker, the exchange."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord

from bot.discord_ui.components import button
from bot.discord_ui.custom_ids import BadCustomId, ControlId, control_id
from bot.discord_ui.prompts import (
    OutOfDate,
    Prompt,
    choice_controls,
    edit_prompt,
    load_info,
    require_turn,
    send_prompt,
)
from bot.discord_ui.texts import card_label, card_of_move, declared_of_move, move_label, seat_name
from bot.discord_ui.translator import locale_of
from bot.effects import PrivateInfo
from bot.table_model import TableError
from i18n import t
from i18n.events import card_word

if TYPE_CHECKING:
    from bot.discord_ui.frontdesk import FrontDesk

CARD_ORDER = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "X")
#: The choice-list key of the segments of a pending 7.
SEGMENTS = "S"


def _names(info: PrivateInfo) -> dict[int, str]:
    seats = (info.view or {}).get("seats") or [s.index for s in info.table.seats]
    return {int(seat): seat_name(info.table, int(seat)) for seat in seats}


def _hand(info: PrivateInfo) -> list[str]:
    return [str(card) for card in (info.view or {}).get("hand") or []]


def _plays_card(move: str, token: str) -> bool:
    return card_of_move(move) == token and not move.startswith("G:")


def choices(info: PrivateInfo, key: str) -> list[str]:
    """The move texts offered for ``key``: a hand token (``7``), a declared joker (``X=7``)
    or :data:`SEGMENTS`. The same info always gives the same list (indexes in custom_ids)."""
    legal = list(info.legal_moves)
    if key == SEGMENTS:
        return legal
    if key.startswith("X="):
        declared = key[2:]
        complete = [m for m in legal if declared_of_move(m) == declared]
        starts = list(info.seven_starts.get("X", ())) if declared == "7" else []
        starts = [s for s in starts if s.startswith("X=7:")] or starts
    else:
        complete = [m for m in legal if _plays_card(m, key) and declared_of_move(m) is None]
        starts = list(info.seven_starts.get(key, ())) if key == "7" else []
    if starts:
        # The split 7 is played one segment at a time: offer the first segments the engine
        # accepts (each completable), plus any complete play made of a single walk.
        single = [m for m in complete if "," not in m.partition(":")[2]]
        return list(dict.fromkeys(starts + single))
    return complete


def _labels(info: PrivateInfo, moves: list[str], locale: str = "en") -> list[str]:
    """Each move in words: the service's label (with the move's effects) when it has one."""
    names = _names(info)
    view: Mapping[str, Any] = info.view or {}
    known = dict(zip(info.legal_moves, info.labels, strict=False))
    return [
        known[m].text(locale) if m in known else move_label(m, view, names, locale) for m in moves
    ]


async def hand_prompt(
    desk: FrontDesk, info: PrivateInfo, note: str = "", locale: str = "en"
) -> Prompt:
    """The player's hand: image, one button per card (disabled without a legal move)."""
    view: Mapping[str, Any] = info.view or {}
    table, version = info.table.id, info.table.version
    hand = _hand(info)
    legal = list(info.legal_moves)
    lines = [note] if note else []
    received = view.get("received")
    if received:
        card = card_word(str(received), article=True).text(locale)
        lines.append(t("race.received", locale, card=card))
    items: list[discord.ui.Item[Any]] = []
    phase = view.get("phase")
    if info.to_act and view.get("seven"):
        left = view["seven"].get("left", "?")
        lines.append(t("race.finish_seven", locale, count=left))
        moves = choices(info, SEGMENTS)
        labels = _labels(info, moves, locale)
        items = choice_controls(table, version, SEGMENTS, labels, back=None, locale=locale)
        playable = [False] * len(hand)
    elif phase == "exchange":
        pick = view.get("my_pick")
        if info.to_act:
            lines.append(t("race.choose_pass", locale))
        picks = {m[2:] for m in legal if m.startswith("G:")}
        if pick:
            change = t("race.pick_change", locale) if picks else ""
            lines.append(
                t("race.your_pick", locale, card=card_label(str(pick), locale), change=change)
            )
        playable = [token in picks for token in hand]
        seen: set[str] = set()
        for index, token in enumerate(hand):
            if token in seen:
                continue
            seen.add(token)
            items.append(
                button(
                    t("race.pass_button", locale, card=card_label(token, locale)),
                    control_id(table, version, "give", token),
                    style=discord.ButtonStyle.success
                    if token == pick
                    else discord.ButtonStyle.primary,
                    disabled=token not in picks,
                    row=min(index // 5, 4),
                )
            )
    else:
        playable = [info.to_act and any(_plays_card(m, token) for m in legal) for token in hand]
        if not info.to_act:
            lines.append(t("race.hand_not_your_turn", locale))
        elif legal and all(m.endswith(":D") for m in legal):
            if view.get("banned"):
                lines.append(t("race.banned", locale))
            else:
                lines.append(t("race.must_discard", locale))
        elif legal == ["F"]:
            lines.append(t("race.must_fold", locale))
        else:
            lines.append(t("race.your_turn", locale))
        for index, token in enumerate(hand):
            items.append(
                button(
                    t("race.card_button", locale, number=index + 1, card=card_label(token, locale)),
                    control_id(table, version, "card", index),
                    style=discord.ButtonStyle.primary,
                    disabled=not playable[index],
                    row=min(index // 5, 3),
                )
            )
        if info.to_act and "F" in legal:
            items.append(
                button(
                    t("race.fold_button", locale),
                    control_id(table, version, "fold"),
                    style=discord.ButtonStyle.danger,
                    row=4,
                )
            )
    if not hand:
        lines.append(t("race.no_cards", locale))
    image = await desk.renderer.hand(info.table.game, hand, playable, locale=locale)
    return Prompt("\n".join(lines), items, image)


def card_prompt(info: PrivateInfo, index: int, page: int = 0, locale: str = "en") -> Prompt:
    """The moves of the hand card at ``index`` (or, for a joker, the kinds it may stand for)."""
    hand = _hand(info)
    if not 0 <= index < len(hand):
        raise OutOfDate()
    token = hand[index]
    table, version = info.table.id, info.table.version
    legal = list(info.legal_moves)
    if token == "X":
        kinds = sorted(
            {d for m in legal if (d := declared_of_move(m)) is not None}
            | ({"7"} if info.seven_starts.get("X") else set()),
            key=CARD_ORDER.index,
        )
        discards = [m for m in legal if m == "X:D"]
        if not kinds and not discards:
            raise TableError("error.joker_no_move")
        items: list[discord.ui.Item[Any]] = [
            button(
                t("race.joker_as_button", locale, card=card_label(kind, locale)),
                control_id(table, version, "jok", kind),
                style=discord.ButtonStyle.primary,
                row=i // 5,
            )
            for i, kind in enumerate(kinds)
        ]
        back = button(t("prompt.back", locale), control_id(table, version, "hand2"), row=3)
        items.append(back)
        return Prompt(t("race.joker_which", locale), items)
    return moves_prompt(info, token, page, locale)


def moves_prompt(info: PrivateInfo, key: str, page: int = 0, locale: str = "en") -> Prompt:
    """The moves for ``key`` as buttons, or a paged select."""
    moves = choices(info, key)
    if not moves:
        raise TableError("error.card_no_move", card=card_word("X" if key.startswith("X") else key))
    if key.startswith("X="):
        title = t("race.joker_title", locale, card=card_label(key[2:], locale))
    else:
        title = card_label(key, locale)
    if key == SEGMENTS:
        view = info.view or {}
        left = (view.get("seven") or {}).get("left", "?")
        text = t("race.finish_seven", locale, count=left)
        back: str | None = None
    else:
        text = t("race.moves_with", locale, card=title)
        back = "hand2"
        if key.endswith("7") and info.seven_starts:
            text += t("race.split_hint", locale)
    labels = _labels(info, moves, locale)
    items = choice_controls(
        info.table.id, info.table.version, key, labels, page=page, back=back, locale=locale
    )
    return Prompt(text, items)


async def handle(
    desk: FrontDesk, interaction: discord.Interaction, control: ControlId, values: list[str]
) -> None:
    """A click on a race-game control."""
    action = control.action
    locale = locale_of(interaction)
    if action == "hand":
        # Not strict: during an exchange every pick posts a new board, and the hand shown
        # from the previous one is still the same hand.
        info = await load_info(desk, interaction, control, strict=False)
        await send_prompt(interaction, await hand_prompt(desk, info, locale=locale))
        return
    info = await load_info(desk, interaction, control, strict=False)
    try:
        if action == "hand2":
            await edit_prompt(interaction, await hand_prompt(desk, info, locale=locale))
        elif action == "card":
            require_turn(info)
            prompt = card_prompt(info, control.int_arg(0), locale=locale)
            await edit_prompt(interaction, prompt)
        elif action == "jok":
            require_turn(info)
            prompt = moves_prompt(info, "X=" + control.arg(0), locale=locale)
            await edit_prompt(interaction, prompt)
        elif action == "pg":
            require_turn(info)
            prompt = moves_prompt(info, control.arg(0), control.int_arg(1), locale)
            await edit_prompt(interaction, prompt)
        elif action in ("mv", "ms"):
            require_turn(info)
            moves = choices(info, control.arg(0))
            index = int(values[0]) if action == "ms" and values else control.int_arg(1)
            if action == "ms" and not values:
                raise BadCustomId("a select without a value")
            if not 0 <= index < len(moves):
                raise OutOfDate()
            await play(desk, interaction, control, info, moves[index])
        elif action == "fold":
            require_turn(info)
            await play(desk, interaction, control, info, "F")
        elif action == "give":
            await pick(desk, interaction, control, control.arg(0))
        else:
            raise BadCustomId(action)
    except (BadCustomId, ValueError):
        raise OutOfDate() from None


async def play(
    desk: FrontDesk,
    interaction: discord.Interaction,
    control: ControlId,
    info: PrivateInfo,
    move: str,
) -> None:
    """Send ``move`` to the service; show what follows privately and the boards publicly."""
    locale = locale_of(interaction)
    label = move_label(move, info.view or {}, _names(info), locale)
    effects = await desk.service.act(control.table, interaction.user.id, move, control.version)
    # The boards go out before the prompt changes, so that "You played" means the thread is
    # up to date (the deferral already answered Discord in time).
    await desk.deliver(effects)
    last = effects.public[-1] if effects.public else None
    pending = last is not None and (last.view or {}).get("seven") and info.seat in last.to_act
    after: PrivateInfo | None = None
    if pending:
        after = await desk.service.private_info(control.table, interaction.user.id)
    if after is not None and after.to_act and (after.view or {}).get("seven"):
        note = t("race.played_note", locale, move=label)
        prompt = await hand_prompt(desk, after, note=note, locale=locale)
        await edit_prompt(interaction, prompt)
    else:
        played = Prompt(t("race.played", locale, move=label))
        await edit_prompt(interaction, played, keep_image=False)


async def pick(
    desk: FrontDesk, interaction: discord.Interaction, control: ControlId, token: str
) -> None:
    """Choose (or change) the card passed to the partner in the exchange."""
    effects = await desk.service.exchange_pick(
        control.table, interaction.user.id, token, control.version
    )
    await desk.deliver(effects)
    after: PrivateInfo = await desk.service.private_info(control.table, interaction.user.id)
    locale = locale_of(interaction)
    card = card_label(token, locale)
    if (after.view or {}).get("phase") == "exchange":
        note = t("race.passing", locale, card=card)
    else:
        note = t("race.passed", locale, card=card)
    prompt = await hand_prompt(desk, after, note=note, locale=locale)
    await edit_prompt(interaction, prompt)
