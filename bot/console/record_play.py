"""``poeppel play --load FILE``: replay a downloaded game record in this terminal.

Every position of the record is rebuilt (:func:`bot.after_game.records.replay_views`), its moves are
listed in notation, the last board is drawn, and the final position's scores and winners are
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


def _seat_name(data: dict[str, Any], seat: int | None, locale: str) -> str:
    for s in data["seats"]:
        if seat is not None and s["seat"] == seat:
            return str(s["name"] or t("seat.seat", locale, number=seat + 1))
    return ""


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


def play_record(path: str, console: Console, images: Any, quiet: bool, locale: str = "en") -> int:
    """Replay the record at ``path``, saying it in ``locale``; the exit status."""
    try:
        data = loads(Path(path).read_bytes())
    except (OSError, BadRecord) as error:
        console.print(f"[red]{t('record.cannot_read', locale, path=path, error=error)}[/]")
        return 2
    game = t(f"game.{data['game']}", locale)
    console.print(t("record.title", locale, game=game, table=data.get("table", "?")))
    view: dict[str, Any] = {}
    for step, position in replay_views(data):
        view = position
        if step is None or quiet:
            continue
        who = _seat_name(data, step.get("seat"), locale)
        move = step.get("move") or t(f"record.kind.{step['kind']}", locale)
        console.print(f"{step['index'] + 1:>4}. {who}: {move}", markup=False, highlight=False)
    update = PublicUpdate(int(data.get("table") or 0), "finished", "", len(data["steps"]), view)
    drawn = images.show(update.table_id, update, locale=locale)
    for seat in sorted(data["result"]["seats"], key=lambda s: (s["place"], s["seat"])):
        console.print(
            t(
                "record.standing",
                locale,
                place=seat["place"],
                name=seat["name"],
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
