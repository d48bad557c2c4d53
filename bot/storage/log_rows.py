"""The compact move log: a table's log entries packed :data:`CHUNK` to a row.

One row per entry with its own ``(table_id, idx)`` key cost a finished Tock 2v2 game 76.5 KB,
most of it keys (stored once in the rows and again in the primary-key index) and row headers.
Here the log is stored in ``move_chunks (table_id, chunk, data)``: entry ``i`` is line
``i % CHUNK`` of chunk ``i // CHUNK``, so its index is implied by its place, and the table is
keyed by ``(table_id, chunk)`` only (``WITHOUT ROWID`` in SQLite: the rows are the key's
B-tree, no second copy). A commit appends its lines to the last chunk with one
``INSERT ... ON CONFLICT DO UPDATE SET data = data || new``, in both back ends.

A line is ``<kind><seat>,<offset>,<text>\\n``: ``kind`` one letter (:data:`KIND_CODES`),
``seat`` the seat's digits or nothing, ``offset`` the entry's ``version - index`` or nothing
when it is the previous line's (it changes only when the lobby changed in between, i.e.
never during a game), ``text`` the move text with ``\\`` and newlines escaped.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from bot.model.table import LogEntry, LogKind

#: Entries per row.
CHUNK = 32

KIND_CODES: dict[LogKind, str] = {
    LogKind.MOVE: "m",
    LogKind.AUTO: "a",
    LogKind.LEAVE: "l",
    LogKind.BOT: "b",
}
_KINDS = {code: kind for kind, code in KIND_CODES.items()}

#: Append lines to a chunk (created if it is the first) — ``?`` parameters (table, chunk, data).
APPEND_CHUNK = (
    "INSERT INTO move_chunks (table_id, chunk, data) VALUES (?, ?, ?) "
    "ON CONFLICT (table_id, chunk) DO UPDATE SET data = move_chunks.data || excluded.data"
)
SELECT_CHUNKS = (
    "SELECT chunk, data FROM move_chunks WHERE table_id = ? AND chunk >= ? ORDER BY chunk"
)


def _escape(text: str) -> str:
    if "\\" in text or "\n" in text:
        return text.replace("\\", "\\\\").replace("\n", "\\n")
    return text


def _unescape(text: str) -> str:
    if "\\" not in text:
        return text
    out: list[str] = []
    chars = iter(text)
    for char in chars:
        if char == "\\":
            following = next(chars, "")
            out.append("\n" if following == "n" else following)
        else:
            out.append(char)
    return "".join(out)


def chunk_rows(table_id: int, entries: Sequence[LogEntry]) -> list[list[Any]]:
    """The parameters of :data:`APPEND_CHUNK` that append ``entries`` (consecutive, in
    order) to the table's log: one row per chunk they touch."""
    rows: list[list[Any]] = []
    chunk = -1
    lines: list[str] = []
    offset: int | None = None
    for entry in entries:
        if entry.index // CHUNK != chunk:
            if lines:
                rows.append([table_id, chunk, "".join(lines)])
            chunk, lines, offset = entry.index // CHUNK, [], None
        this = entry.version - entry.index
        said = "" if this == offset else str(this)
        offset = this
        seat = "" if entry.seat is None else str(entry.seat)
        lines.append(f"{KIND_CODES[entry.kind]}{seat},{said},{_escape(entry.text)}\n")
    if lines:
        rows.append([table_id, chunk, "".join(lines)])
    return rows


def entries_from_chunks(rows: Iterable[Sequence[Any]], start: int = 0) -> list[LogEntry]:
    """The log entries from index ``start`` on, from rows of :data:`SELECT_CHUNKS`."""
    entries: list[LogEntry] = []
    for chunk, data in rows:
        offset = 0
        base = int(chunk) * CHUNK
        for position, line in enumerate(str(data).split("\n")[:-1]):
            head, said, text = line.split(",", 2)
            if said:
                offset = int(said)
            index = base + position
            if index < start:
                continue
            seat = int(head[1:]) if len(head) > 1 else None
            entries.append(LogEntry(index, _KINDS[head[0]], seat, _unescape(text), index + offset))
    return entries


def first_chunk(start: int) -> int:
    """The chunk that holds entry ``start``."""
    return start // CHUNK
