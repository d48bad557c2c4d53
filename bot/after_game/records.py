"""Game records: a finished table as a file anyone may download and replay.

A record holds what the table's thread showed and nothing else: the options, the seats (names
and bot levels, no account ids), every log entry with its public move notation (``None`` for
a secret exchange pick or an automatic action), the spectator view after each entry, and the
result. The views are stored as changes against the previous one, so a long Tock game stays
small. No seed, no hand, no pick and no draw pile is in it: the cards a deal gave and the
order of the tile bag stay as secret as they were during the game.

:func:`replay_views` rebuilds every position from a record; ``poeppel play --load FILE``
steps through them and shows the last position and the scores.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from bot.after_game.game_result import GameResult
from bot.after_game.replay import PublicStep
from bot.model.table import TableRecord
from i18n.message import msg

FORMAT = "poeppel-record"
VERSION = 1


class BadRecord(ValueError):
    """A file that is not a Pöppel game record (or of a newer version); readable message."""


def _delta(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, Any]:
    changed = {k: v for k, v in after.items() if before.get(k, object()) != v}
    gone = sorted(k for k in before if k not in after)
    return {"set": changed, "unset": gone} if gone else {"set": changed}


def _apply(view: Mapping[str, Any], delta: Mapping[str, Any]) -> dict[str, Any]:
    result = {k: v for k, v in view.items() if k not in set(delta.get("unset") or ())}
    result.update(delta.get("set") or {})
    return result


def make_record(
    record: TableRecord,
    first: Mapping[str, Any],
    steps: Iterable[PublicStep],
    result: GameResult,
) -> dict[str, Any]:
    """The record of the finished table ``record`` from its public history."""
    entries = []
    previous: Mapping[str, Any] = first
    for step in steps:
        entries.append(
            {
                "index": step.index,
                "kind": str(step.kind),
                "seat": step.seat,
                "move": step.text,
                "view": _delta(previous, step.view),
            }
        )
        previous = step.view
    summary = result.to_json()
    for private in ("guild_id", "channel_id"):
        summary.pop(private, None)
    for seat in summary["seats"]:
        seat.pop("user_id", None)
        seat.pop("player", None)
    return {
        "format": FORMAT,
        "version": VERSION,
        "table": record.id,
        "game": record.game,
        "players": record.players,
        "options": dict(record.options),
        "seats": [
            {
                "seat": s.index,
                # A bot is stored with the name the table called it (``Bot 2``), and its
                # number, so that a reader's language can say it (``2. bot``).
                "name": s.name or (str(msg("seat.bot", number=_bot_number(s))) if s.is_bot else ""),
                "bot_level": s.bot_level,
                **({"bot_number": _bot_number(s)} if s.is_bot and not s.name else {}),
            }
            for s in sorted(record.seats, key=lambda s: s.index)
        ],
        "start": dict(first),
        "steps": entries,
        "result": summary,
    }


def _bot_number(seat: Any) -> int:
    """The number the table called a bot by (``Bot 2``)."""
    return int(seat.bot_number or seat.index + 1)


def dumps(data: Mapping[str, Any]) -> bytes:
    """The record as the bytes of a ``.json`` file."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()


def loads(raw: bytes | str) -> dict[str, Any]:
    """Read a record; :class:`BadRecord` if it is not one this version understands."""
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as error:
        raise BadRecord(f"not a game record (not JSON: {error})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadRecord("not a Pöppel game record")
    if not isinstance(data.get("version"), int) or data["version"] > VERSION:
        raise BadRecord(f"a record of version {data.get('version')}; this Pöppel reads {VERSION}")
    for key in ("game", "start", "steps", "result", "seats"):
        if key not in data:
            raise BadRecord(f"the record has no {key!r}")
    return data


def replay_views(
    data: Mapping[str, Any],
) -> Iterator[tuple[Mapping[str, Any] | None, dict[str, Any]]]:
    """Every position of a record: ``(None, start view)``, then ``(step, view after it)``."""
    view = dict(data["start"])
    yield None, view
    for step in data["steps"]:
        view = _apply(view, step["view"])
        yield step, view
