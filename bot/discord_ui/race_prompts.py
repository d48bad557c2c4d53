"""Tock and Dog in private: the hand, a card's moves, the split 7, the joker, the exchange.

The hand stays open (:mod:`bot.discord_ui.open_hands`): after a move the same message shows
the hand again, and :func:`refresh_hands` brings it up to date when the turn comes back. A
move is card → move; a card with a single way to play says it on its button and plays on one
click; a split 7 is offered whole when its plays are few, else segment by segment.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Mapping
from typing import TYPE_CHECKING, Any

import discord

from bot.discord_ui.components import button
from bot.discord_ui.custom_ids import BadCustomId, ControlId, control_id
from bot.discord_ui.hints import hint_buttons, show_hint
from bot.discord_ui.prompts import (
    BUTTON_GUIDE,
    PAGE_SIZE,
    SELECTS_PER_PAGE,
    Choice,
    InvalidChoice,
    OutOfDate,
    Prompt,
    choice_controls,
    chosen_index,
    edit_prompt,
    first_option,
    load_info,
    require_turn,
    send_prompt,
)
from bot.discord_ui.replies import reply_private
from bot.discord_ui.texts import card_label, card_of_move, declared_of_move, move_label, seat_name
from bot.discord_ui.translator import locale_of
from bot.model.effects import Effects, PrivateInfo
from bot.model.table import Phase, TableError
from i18n import t
from i18n.catalog import LOCALES, game_terms
from i18n.events import card_as, card_name, card_short, card_word, colour, stuck_words
from i18n.message import Message, Said, msg, say
from i18n.moves import counted_effects, label_parts, race_label, race_option
from renderer.cards import card_words as card_face

if TYPE_CHECKING:
    from bot.discord_ui.desk_port import PlayDesk

#: Up to this many complete plays of a split 7 are offered whole (one select at most).
WHOLE_SPLITS = 25
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
    """The move texts offered for ``key``: a hand token (``7``), a declared joker (``X=7``),
    the joker's plays as every kind (``X``) or :data:`SEGMENTS`. The same info always gives
    the same list (indexes in custom_ids).

    A split 7 is offered whole when its complete plays are few (one click for the play) and
    each fits a menu's words in every language; otherwise segment by segment, only segments
    the engine can still complete, those with the biggest effect (reaching home, landing on a
    pawn) first.
    """
    legal = list(info.legal_moves)
    view: Mapping[str, Any] = info.view or {}
    if key == SEGMENTS:
        return by_effect(legal, view)
    if key == "X":
        # Every play of the joker, kind by kind: one list when it fits the selects.
        plays = [m for kind in joker_kinds(info) for m in choices(info, "X=" + kind)]
        return plays + [m for m in legal if m == "X:D"]
    if key.startswith("X="):
        declared = key[2:]
        complete = [m for m in legal if declared_of_move(m) == declared]
        starts = list(info.seven_starts.get("X", ())) if declared == "7" else []
        starts = [s for s in starts if s.startswith("X=7:")] or starts
    else:
        complete = [m for m in legal if _plays_card(m, key) and declared_of_move(m) is None]
        starts = list(info.seven_starts.get(key, ())) if key == "7" else []
    if starts and not (
        0 < len(complete) <= WHOLE_SPLITS and all(_fits(info, m, "X") for m in complete)
    ):
        # The split 7 is played one segment at a time: offer the first segments the engine
        # accepts (each completable), plus any complete play made of a single walk. So too
        # when a complete play moves so many pawns that its words would not fit a menu.
        single = [m for m in complete if "," not in m.partition(":")[2]]
        return by_effect(list(dict.fromkeys(starts + single)), view)
    if starts:
        return by_effect(complete, view)
    return complete


def by_effect(moves: list[str], view: Mapping[str, Any]) -> list[str]:
    """``moves`` (walks of a 7) with the biggest effect first: pawns reaching home, then
    pawns landing on another pawn; otherwise in the engine's order."""
    occupied = {str(loc).rstrip("*") for locs in (view.get("pawns") or {}).values() for loc in locs}

    def effect(move: str) -> tuple[int, int]:
        walks = move.split(":", 1)[1] if ":" in move else move
        ends = [walk.partition("-")[2] for walk in walks.split(",")]
        home = sum(1 for end in ends if end.startswith("h"))
        hits = sum(1 for end in ends if end in occupied)
        return -home, -hits

    return sorted(moves, key=effect)


def joker_kinds(info: PrivateInfo) -> list[str]:
    """The kinds the joker in hand may stand for now (``7`` also for a split 7)."""
    kinds = {d for m in info.legal_moves if (d := declared_of_move(m)) is not None}
    if info.seven_starts.get("X"):
        kinds.add("7")
    return sorted(kinds, key=CARD_ORDER.index)


def single_move(info: PrivateInfo, token: str) -> str | None:
    """The only way to play the hand card ``token`` now, if it has exactly one (a 7
    included): its button then plays it on one click, and says it when the words fit."""
    if not info.to_act or (info.view or {}).get("seven"):
        return None
    moves = choices(info, token)
    if len(moves) != 1:
        return None
    return moves[0]


def _card_button(info: PrivateInfo, token: str, only: str | None, locale: str) -> str:
    """The hand's button of ``token``: the card as its face shows it, and, when it has a
    single way to play and the words fit the button, that way."""
    face = card_face(token, locale)
    if only is None:
        return face
    view: Mapping[str, Any] = info.view or {}
    with game_terms(info.table.game):
        ways = (
            label_parts(race_label(only, view, _names(info))).action,
            race_option(only, view, _colours(info))[0],
        )
        for way in ways:
            text = t("race.card_plays", locale, card=face, move=str(say(way, locale)))
            if len(text) <= BUTTON_GUIDE:
                return text
    return face


def _colours(info: PrivateInfo) -> dict[int, Message]:
    """Each seat by its colour, as the board shows it (short, where names take too much room)."""
    return {seat: colour(seat, info.table.game) for seat in _names(info)}


def _known_label(info: PrivateInfo, move: str) -> Said:
    """The service's label of ``move`` (with its effects), or its words without them."""
    known = dict(zip(info.legal_moves, info.labels, strict=False))
    if move in known:
        return known[move]
    return race_label(move, info.view or {}, _names(info))


def _choice(info: PrivateInfo, move: str, key: str, locale: str, short: bool = False) -> Choice:
    """``move`` in words for the choices of ``key``.

    A button says the whole label. A menu option says what the move does (in the joker's
    list of every kind, with the kind), its effects in the description, counted when the
    names take too much room. ``short``: in fewer words (see :func:`i18n.moves.race_option`:
    others' pawns by colour, a swap's own pawn and a split's other pawns in the description).
    """
    label = _known_label(info, move)
    parts = label_parts(label)
    declared = declared_of_move(move)
    card = card_short(declared) if key == "X" and declared is not None else None

    def said(action: Any) -> str:
        if card is None:
            return str(say(action, locale))
        return msg("move.card_action", card=card, action=action).text(locale)

    detail: Any = None
    action = parts.action
    if short:
        action, detail = race_option(move, info.view or {}, _colours(info))
    text, words = label.text(locale), said(action)
    choice = Choice(text, words)
    for effects in (list(parts.effects), counted_effects(parts.effects)):
        if detail is not None and effects:
            below: Any = msg("move.with_effects", move=detail, effects=effects)
        else:
            below = detail if detail is not None else effects
        choice = Choice(text, words, str(say(below, locale)) if below else "")
        if choice.fits_option():
            break
    return choice


def _fits(info: PrivateInfo, move: str, key: str) -> bool:
    """Whether ``move`` fits a menu option, shortened as far as it goes, in every language
    (so what is offered does not depend on who looks)."""
    with game_terms(info.table.game):
        return all(_choice(info, move, key, loc, short=True).fits_option() for loc in LOCALES)


def _labels(info: PrivateInfo, moves: list[str], key: str, locale: str = "en") -> list[Choice]:
    """Each move of ``key`` in words that fit Discord's buttons and menus: the service's
    label (with the move's effects); all in fewer words when one would not fit otherwise."""
    said = [_choice(info, m, key, locale) for m in moves]
    if all(c.fits_option() for c in said):
        return said
    return [_choice(info, m, key, locale, short=True) for m in moves]


#: How long the answer to a click waits for its hand image: past that it goes out in words and
#: buttons, and the image follows in an edit once drawn (the render workers are busy), so that
#: no answer comes much later than the move was stored (issue 29).
ANSWER_IMAGE_WAIT = 0.5
#: The edits that bring a late image (kept so that they are not collected while they wait).
_late_edits: set[asyncio.Task[None]] = set()


async def hand_prompt(
    desk: PlayDesk,
    info: PrivateInfo,
    note: str = "",
    locale: str = "en",
    *,
    image_wait: float | None = None,
) -> Prompt:
    """The player's hand: image, one button per card (disabled without a legal move).

    ``image_wait``: at most this long for the hand image; past it the prompt comes without it
    and with the drawing under way as its ``late_file``.
    """
    view: Mapping[str, Any] = info.view or {}
    table, version = info.table.id, info.table.version
    hand = _hand(info)
    legal = list(info.legal_moves)
    lines = [note] if note else []
    received = view.get("received")
    # Said while the card is still in the hand: once played it is news no more (the view
    # keeps it until the next deal).
    if received and str(received) in (view.get("hand") or ()):
        card = card_word(str(received), article=True).text(locale)
        lines.append(t("race.received", locale, card=card))
    items: list[discord.ui.Item[Any]] = []
    segments: tuple[str, ...] = ()
    phase = view.get("phase")
    if info.to_act and view.get("seven"):
        left = view["seven"].get("left", "?")
        lines.append(t("race.finish_seven", locale, count=left))
        moves = choices(info, SEGMENTS)
        labels = _labels(info, moves, SEGMENTS, locale)
        items = choice_controls(
            table, version, SEGMENTS, labels, back=None, locale=locale, numbered=True
        )
        playable = [False] * len(hand)
        segments = tuple(moves)
    elif phase == "exchange":
        pick = view.get("my_pick")
        if info.to_act:
            lines.append(t("race.choose_pass", locale))
        picks = {m[2:] for m in legal if m.startswith("G:")}
        if pick:
            change = t("race.pick_change", locale) if picks else ""
            lines.append(
                t("race.your_pick", locale, card=card_name(str(pick), locale), change=change)
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
                lines.append(_stuck_text(info, fold=False, locale=locale))
        elif legal == ["F"]:
            lines.append(_stuck_text(info, fold=True, locale=locale))
        else:
            lines.append(t("race.your_turn", locale))
        for index, token in enumerate(hand):
            only = single_move(info, token) if playable[index] else None
            # A card with one way to be played plays it on one click (and says it if it fits).
            items.append(
                button(
                    _card_button(info, token, only, locale),
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
    items += hint_buttons(info.table, info.to_act, 4, locale)
    if not hand:
        lines.append(t("race.no_cards", locale))
    if segments:
        # The rest of a 7: where each step lands shows better than the cards left.
        prompt = Prompt("\n".join(lines), items, moves=segments)
        return await with_choices_image(desk, info, prompt, locale, image_wait=image_wait)
    prompt = Prompt("\n".join(lines), items)
    drawing = desk.renderer.hand(info.table.game, hand, playable, locale=locale)
    return await _with_image(prompt, drawing, image_wait)


async def _with_image(
    prompt: Prompt, drawing: Awaitable[discord.File | None], image_wait: float | None
) -> Prompt:
    """``prompt`` with the image ``drawing`` draws; with ``image_wait``, waiting at most that
    long for it, else with the drawing under way as its ``late_file``."""
    if image_wait is None:
        prompt.file = await drawing
        return prompt
    task = asyncio.ensure_future(drawing)
    done, _ = await asyncio.wait({task}, timeout=image_wait)
    if done:
        prompt.file = task.result()
    else:
        prompt.late_file = task
    return prompt


async def with_choices_image(
    desk: PlayDesk,
    info: PrivateInfo,
    prompt: Prompt,
    locale: str,
    *,
    image_wait: float | None = None,
) -> Prompt:
    """``prompt`` with the image of where each of its moves lands (numbered like its
    controls), when it offers moves (``image_wait`` as for :func:`hand_prompt`)."""
    if prompt.moves and info.view is not None:
        names = _names(info)
        seats = [int(s) for s in info.view.get("seats") or sorted(names)]
        drawing = desk.renderer.race_choices(
            info.view, prompt.moves, [names.get(s, "") for s in seats], locale
        )
        return await _with_image(prompt, drawing, image_wait)
    return prompt


def _stuck_text(info: PrivateInfo, *, fold: bool, locale: str) -> str:
    """Why the player must discard or fold: no card moves a pawn, and, when a pawn blocks
    the way, which one."""
    seat = int(info.seat) if info.seat is not None else 0
    return stuck_words(info.stuck, seat, info.table.game, fold=fold, own=True).text(locale)


def card_prompt(info: PrivateInfo, index: int, page: int = 0, locale: str = "en") -> Prompt:
    """The moves of the hand card at ``index`` (or, for a joker, the kinds it may stand for)."""
    hand = _hand(info)
    if not 0 <= index < len(hand):
        raise OutOfDate()
    token = hand[index]
    table, version = info.table.id, info.table.version
    legal = list(info.legal_moves)
    if token == "X":
        kinds = joker_kinds(info)
        discards = [m for m in legal if m == "X:D"]
        if not kinds and not discards:
            raise TableError("error.joker_no_move")
        if len(kinds) == 1 and not discards:
            return moves_prompt(info, "X=" + kinds[0], page, locale)
        if len(choices(info, "X")) <= PAGE_SIZE * SELECTS_PER_PAGE:
            return moves_prompt(info, "X", page, locale)  # no "which kind" step
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
        title = t("race.joker_title", locale, card=card_as(key[2:]).text(locale))
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
        if (key.endswith("7") or key == "X") and info.seven_starts.get(key[0]):
            text += t("race.split_hint", locale)
    labels = _labels(info, moves, key, locale)
    items = choice_controls(
        info.table.id,
        info.table.version,
        key,
        labels,
        page=page,
        back=back,
        locale=locale,
        numbered=True,
    )
    return Prompt(text, items, moves=tuple(moves))


async def handle(
    desk: PlayDesk, interaction: discord.Interaction, control: ControlId, values: list[str]
) -> None:
    """A click on a race-game control; the hand it was made on stays open afterwards."""
    action = control.action
    locale = locale_of(interaction)
    if action == "hint":
        await show_hint(desk, interaction, control.table, locale)  # the hand stays as it is
        return
    if action == "hand":
        # Any version: the hand is shown as it is now, whichever board it was opened from
        # (during an exchange every pick posts a new board, and the thread's newest board
        # may still be on its way while the game has moved on).
        info = await load_info(desk, interaction, control, strict=False, any_version=True)
        await send_prompt(interaction, await hand_prompt(desk, info, locale=locale))
        shown: int | None = info.table.version
    else:
        # One click of a player at a time: the second click of a double click is judged once
        # the first one's answer is in the prompt, and never replaces it (below).
        async with desk.hands.click_lock(control.table, interaction.user.id):
            shown = await _on_hand_or_refuse(desk, interaction, control, values, locale)
        if shown is None:
            return
    desk.hands.remember(control.table, interaction.user.id, interaction, locale, shown)


async def _on_hand_or_refuse(
    desk: PlayDesk,
    interaction: discord.Interaction,
    control: ControlId,
    values: list[str],
    locale: str,
) -> int | None:
    """Answer a click on the hand, or its refusal; the version the hand shows afterwards, or
    None when the prompt was left as it was."""
    try:
        return await _on_hand(desk, interaction, control, values, locale)
    except (TableError, OutOfDate, InvalidChoice) as refusal:
        if isinstance(refusal, OutOfDate):
            note = t("error.out_of_date", locale)
        elif isinstance(refusal, InvalidChoice):
            note = t("robust.invalid_choice", locale)
        else:
            note = str(refusal)
        message = interaction.message.id if interaction.message is not None else None
        if desk.hands.shows_newer(control.table, interaction.user.id, message, control.version):
            # A click made before the player saw the answer to their previous one (a double
            # click on a move): the prompt already shows that answer ("You played …") and
            # the hand as it is now. The refusal goes in a message of its own, so that it
            # never overwrites the last word of the prompt with a wrong one.
            await reply_private(interaction, note)
            return None
        # A refused click on the hand (an old turn, a card without a move, a choice not on
        # offer) must not close the hand: it is shown again, up to date, with the reason.
        shown = await _show_hand_again(desk, interaction, control, note, locale)
        if shown is None:
            raise
        return shown


async def _on_hand(
    desk: PlayDesk,
    interaction: discord.Interaction,
    control: ControlId,
    values: list[str],
    locale: str,
) -> int:
    """Answer a click on the hand; the table version the hand shows afterwards."""
    action = control.action
    info = await load_info(desk, interaction, control, strict=False)
    shown = info.table.version
    try:
        if action == "hand2":
            await edit_prompt(interaction, await hand_prompt(desk, info, locale=locale))
        elif action == "card":
            require_turn(info)
            hand = _hand(info)
            index = control.int_arg(0)
            if not 0 <= index < len(hand):
                raise OutOfDate()
            only = single_move(info, hand[index])
            if only is not None:
                return await play(desk, interaction, control, info, only)
            prompt = card_prompt(info, index, locale=locale)
            await edit_prompt(interaction, await with_choices_image(desk, info, prompt, locale))
        elif action == "jok":
            require_turn(info)
            key = "X=" + control.arg(0)
            moves = choices(info, key)
            if len(moves) == 1:
                return await play(desk, interaction, control, info, moves[0])
            prompt = moves_prompt(info, key, locale=locale)
            await edit_prompt(interaction, await with_choices_image(desk, info, prompt, locale))
        elif action == "pg":
            require_turn(info)
            prompt = moves_prompt(info, control.arg(0), control.int_arg(1), locale)
            await edit_prompt(interaction, await with_choices_image(desk, info, prompt, locale))
        elif action in ("mv", "ms"):
            require_turn(info)
            moves = choices(info, control.arg(0))
            number = control.int_arg(1)  # a button's choice, or the page of a select
            index = chosen_index(values, first=first_option(control)) if action == "ms" else number
            if not 0 <= index < len(moves):
                raise InvalidChoice()
            return await play(desk, interaction, control, info, moves[index])
        elif action == "fold":
            require_turn(info)
            return await play(desk, interaction, control, info, "F")
        elif action == "give":
            return await pick(desk, interaction, control, control.arg(0))
        else:
            raise BadCustomId(action)
    except (BadCustomId, ValueError):
        raise InvalidChoice() from None
    return shown


async def _show_hand_again(
    desk: PlayDesk,
    interaction: discord.Interaction,
    control: ControlId,
    note: str,
    locale: str,
) -> int | None:
    """Show the current hand with ``note`` in the clicked prompt (the version shown), or
    None when there is no hand to show."""
    info: PrivateInfo = await desk.service.private_info(control.table, interaction.user.id)
    if info.seat is None or info.view is None or info.table.phase is not Phase.PLAYING:
        return None
    await edit_prompt(interaction, await hand_prompt(desk, info, note=note, locale=locale))
    return info.table.version


async def play(
    desk: PlayDesk,
    interaction: discord.Interaction,
    control: ControlId,
    info: PrivateInfo,
    move: str,
) -> int:
    """Send ``move`` to the service; show the hand again privately (the version it shows is
    returned) while the boards go out publicly in the background.

    A step with a single option that follows (the last part of a split 7 that can only go one
    way) is played too, and said in the confirmation.
    """
    locale = locale_of(interaction)
    label = move_label(move, info.view or {}, _names(info), locale)
    effects = await desk.service.act(control.table, interaction.user.id, move, control.version)
    notes = [t("race.played", locale, move=label)]
    after: PrivateInfo = await desk.service.private_info(control.table, interaction.user.id)
    while after.to_act and (after.view or {}).get("seven") and len(after.legal_moves) == 1:
        only = after.legal_moves[0]
        more = await desk.service.act(control.table, interaction.user.id, only, after.table.version)
        effects.extend(more)
        notes.append(
            t(
                "clicks.only_way",
                locale,
                move=move_label(only, after.view or {}, _names(after), locale),
            )
        )
        after = await desk.service.private_info(control.table, interaction.user.id)
    # Answers first: the move is stored, so the player hears it now; the boards are drawn
    # and posted (and the others' hands refreshed) in the background, in the table's order.
    desk.deliver_soon(effects, skip=interaction.user.id, via=interaction)
    return await _answer_with_hand(desk, interaction, control.table, notes, label)


async def _answer_with_hand(
    desk: PlayDesk, interaction: discord.Interaction, table_id: int, notes: list[str], label: str
) -> int:
    """Show the player's hand, as it is now, under ``notes`` in the prompt they clicked; the
    version shown. Under the hand's lock: a refresh for a later turn (bots, the clock) that
    came first is not undone by this answer."""
    locale = locale_of(interaction)
    user = interaction.user.id
    async with desk.hands.lock(table_id, user):
        after: PrivateInfo = await desk.service.private_info(table_id, user)
        if (after.view or {}).get("seven") and after.to_act:
            notes = [t("race.played_note", locale, move=label), *notes[1:]]
        prompt = await hand_prompt(
            desk, after, note="\n".join(notes), locale=locale, image_wait=ANSWER_IMAGE_WAIT
        )
        # A late image: the old one (the hand before the move) must not stay meanwhile.
        await edit_prompt(interaction, prompt, keep_image=prompt.late_file is None)
        desk.hands.remember(table_id, user, interaction, locale, after.table.version)
        _follow_with_image(desk, interaction, table_id, prompt, after.table.version)
        return after.table.version


def _follow_with_image(
    desk: PlayDesk, interaction: discord.Interaction, table_id: int, prompt: Prompt, version: int
) -> None:
    """When ``prompt`` went out without its image (still being drawn), put it in later."""
    if prompt.late_file is not None:
        task = asyncio.create_task(_late_image(desk, interaction, table_id, prompt, version))
        _late_edits.add(task)
        task.add_done_callback(_late_edits.discard)


async def _late_image(
    desk: PlayDesk, interaction: discord.Interaction, table_id: int, prompt: Prompt, version: int
) -> None:
    """Put the image that was not drawn in time into the answer, unless the hand has moved
    on meanwhile (a later click or refresh shows its own)."""
    assert prompt.late_file is not None
    file = await prompt.late_file
    if file is None:
        return
    user = interaction.user.id
    async with desk.hands.lock(table_id, user):
        hand = desk.hands.live(table_id, user)
        if hand is None or hand.interaction is not interaction or hand.version != version:
            return
        prompt.file, prompt.late_file = file, None
        with contextlib.suppress(discord.HTTPException):
            await edit_prompt(interaction, prompt)


async def pick(
    desk: PlayDesk, interaction: discord.Interaction, control: ControlId, token: str
) -> int:
    """Choose (or change) the card passed to the partner in the exchange; the version the
    hand shows afterwards."""
    effects = await desk.service.exchange_pick(
        control.table, interaction.user.id, token, control.version
    )
    desk.deliver_soon(effects, skip=interaction.user.id, via=interaction)  # answer first
    after: PrivateInfo = await desk.service.private_info(control.table, interaction.user.id)
    locale = locale_of(interaction)
    card = card_label(token, locale)
    said = card_word(token, article=True).text(locale)  # a noun phrase: "eine Dame", not "D"
    if (after.view or {}).get("phase") == "exchange":
        note = t("race.passing", locale, card=said)
    else:
        note = t("race.passed", locale, card=said)
    return await _answer_with_hand(desk, interaction, control.table, [note], card)


async def refresh_hands(desk: PlayDesk, effects: Effects, *, skip: int | None = None) -> None:
    """Edit the open hands of the people ``effects`` concern (their turn, a new deal, the
    exchange, a card received) to their current state; ``skip`` is the player whose own
    prompt answers them. When the game is over, every open hand at the table is closed."""
    table = effects.table
    if table.game == "carcassonne":
        return
    if table.phase is not Phase.PLAYING:
        for user in desk.hands.users(table.id):
            await _close_hand(desk, table.id, user)
        return
    users = dict.fromkeys(update.user_id for update in effects.private)
    last = effects.public[-1] if effects.public else None
    for seat in last.to_act if last is not None else ():
        users.update({s.user_id: None for s in table.seats if s.index == seat and s.user_id})
    for user in users:
        if user != skip:
            await _refresh_hand(desk, table.id, user)


async def _refresh_hand(desk: PlayDesk, table_id: int, user_id: int) -> None:
    async with desk.hands.lock(table_id, user_id):
        hand = desk.hands.live(table_id, user_id)
        if hand is None:
            return
        info: PrivateInfo = await desk.service.private_info(table_id, user_id)
        if info.seat is None or info.view is None:
            desk.hands.forget(table_id, user_id)
            return
        if info.table.version <= hand.version:
            return  # the hand shows this already (or the player has moved on from it)
        # Not waiting long for the image: a click of this player waits for this lock.
        prompt = await hand_prompt(desk, info, locale=hand.locale, image_wait=ANSWER_IMAGE_WAIT)
        try:
            await edit_prompt(hand.interaction, prompt, keep_image=prompt.late_file is None)
        except discord.HTTPException:
            # Dismissed by the player, or Discord no longer takes the token: stop trying.
            desk.hands.forget(table_id, user_id)
            return
        hand.version = info.table.version
        _follow_with_image(desk, hand.interaction, table_id, prompt, hand.version)


async def _close_hand(desk: PlayDesk, table_id: int, user_id: int) -> None:
    async with desk.hands.lock(table_id, user_id):
        hand = desk.hands.live(table_id, user_id)
        desk.hands.forget(table_id, user_id)
        if hand is None:
            return
        with contextlib.suppress(discord.HTTPException):
            closed = Prompt(t("clicks.hand_closed", hand.locale))
            await edit_prompt(hand.interaction, closed, keep_image=False)
