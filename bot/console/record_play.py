"""``poeppel play --load FILE``: replay a downloaded game record in this terminal.

Every position of the record is rebuilt (:func:`bot.after_game.records.replay_views`), its moves are
told in words as the thread told them (in notation with ``--notation``), each seat by the name
the table called it, the last board is drawn, and the final position's scores and winners are
checked against the record's result: a record that does not replay to its own result is
refused with exit status 1.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console

from bot.after_game.records import BadRecord, loads, replay_views
from bot.model.effects import PublicUpdate
from i18n import t
from i18n.catalog import game_terms, name_phrase
from i18n.events import action_message, event_messages
from i18n.message import Message, msg, say


def seat_labels(data: dict[str, Any]) -> dict[int, Message | str]:
    """How the record's seats are named, as the table named them: a person's name, a bot by
    its number (``Bot 2`` / ``2. bot``), a seat without either by its number."""
    labels: dict[int, Message | str] = {}
    for s in data["seats"]:
        number = s.get("bot_number")
        if number is not None:
            labels[s["seat"]] = msg("seat.bot", number=int(number))
        elif s.get("name"):
            labels[s["seat"]] = name_phrase(str(s["name"]))
        else:
            labels[s["seat"]] = msg("seat.seat", number=int(s["seat"]) + 1)
    return labels


def _told(
    data: dict[str, Any],
    step: Any,
    view: dict[str, Any],
    labels: dict[int, Message | str],
    locale: str,
    notation: bool,
) -> str:
    """One step in words (the events of the position it led to), or in notation."""
    seat = step.get("seat")
    who = labels.get(seat, "") if seat is not None else ""
    move = step.get("move") or t(f"record.kind.{step['kind']}", locale)
    if notation:
        return f"{say(who, locale)}: {move}"
    game = str(data["game"])
    details = event_messages(
        view.get("events") or (), game=game, names=labels, board=view.get("board")
    )
    with game_terms(game):
        return str(say(action_message(game, who, details), locale))


def final_check(data: dict[str, Any], view: dict[str, Any]) -> list[str]:
    """What differs between the replayed final position and the record's result."""
    result = data["result"]
    problems = []
    if sorted(view.get("winners") or []) != sorted(result["winners"]):
        problems.append(f"winners {view.get('winners')} != {result['winners']}")
    if data["game"] == "carcassonne":
        for seat in result["seats"]:
            if view["scores"][seat["seat"]] != seat["score"]:
                problems.append(f"seat {seat['seat']} scores {view['scores'][seat['seat']]}")
    return problems


def play_record(
    path: str,
    console: Console,
    images: Any,
    quiet: bool,
    locale: str = "en",
    notation: bool = False,
) -> int:
    """Replay the record at ``path``, saying it in ``locale`` (the moves in words, or in
    notation with ``notation``); the exit status."""
    try:
        data = loads(Path(path).read_bytes())
    except (OSError, BadRecord) as error:
        console.print(f"[red]{t('record.cannot_read', locale, path=path, error=error)}[/]")
        return 2
    game = t(f"game.{data['game']}", locale)
    console.print(t("record.title", locale, game=game, table=data.get("table", "?")))
    view: dict[str, Any] = {}
    labels = seat_labels(data)
    for step, position in replay_views(data):
        view = position
        if step is None or quiet:
            continue
        told = _told(data, step, view, labels, locale, notation)
        console.print(f"{step['index'] + 1:>4}. {told}", markup=False, highlight=False)
    update = PublicUpdate(int(data.get("table") or 0), "finished", "", len(data["steps"]), view)
    drawn = images.show(update.table_id, update, locale=locale)
    for seat in sorted(data["result"]["seats"], key=lambda s: (s["place"], s["seat"])):
        console.print(
            t(
                "record.standing",
                locale,
                place=seat["place"],
                name=say(labels.get(seat["seat"], seat["name"]), locale),
                score=seat["score"],
            )
        )
    if drawn is not None:
        console.print(f"[dim]{drawn}[/]")
    problems = final_check(data, view)
    if problems:
        console.print(f"[red]{t('record.mismatch', locale, problems='; '.join(problems))}[/]")
        return 1
    console.print(t("record.replayed", locale, steps=len(data["steps"])))
    return 0
