"""The compact move log (issue #37): entries come back exactly as they were appended, however
the commits cut them, and a finished game takes little room on disk."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from bot.model.table import LogEntry, LogKind
from bot.storage import open_storage
from bot.storage.log_rows import CHUNK, chunk_rows, entries_from_chunks

OLD = Path(__file__).parent / "data" / "old_log.sqlite3"

texts = st.text(alphabet=st.sampled_from("ab:,\\\n7@ -é"), max_size=12)
logs = st.lists(
    st.tuples(
        st.sampled_from(list(LogKind)), st.none() | st.integers(0, 12), texts, st.integers(0, 3)
    ),
    max_size=80,
)


@given(logs, st.lists(st.integers(1, 40), max_size=10))
def test_entries_come_back_as_appended(raw: list, cuts: list[int]) -> None:
    entries, version = [], 5
    for index, (kind, seat, text, lobby) in enumerate(raw):
        version += 1 + lobby  # lobby changes in between move the version on
        entries.append(LogEntry(index, kind, seat, text, version))
    stored: dict[int, str] = {}
    start = 0
    for cut in [*cuts, len(entries)]:  # one commit per cut, each appending to the chunks
        for _table, chunk, data in chunk_rows(1, entries[start : start + cut]):
            stored[chunk] = stored.get(chunk, "") + data
        start += cut
    rows = sorted(stored.items())
    assert entries_from_chunks(rows) == entries
    assert entries_from_chunks(rows, 33) == entries[33:]
    assert all(data.count("\n") <= CHUNK for data in stored.values())


def _bytes_of(path: Path, table_id: int | None) -> int:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("DELETE FROM tables WHERE id IS NOT ?", (table_id,))
    conn.commit()
    conn.execute("VACUUM")
    size = (
        conn.execute("PRAGMA page_count").fetchone()[0]
        * conn.execute("PRAGMA page_size").fetchone()[0]
    )
    conn.close()
    return int(size)


async def test_finished_games_are_small_on_disk(tmp_path: Path) -> None:
    migrated = tmp_path / "new.sqlite3"
    shutil.copy(OLD, migrated)
    storage = await open_storage(f"sqlite:///{migrated}")
    await storage.close()
    sizes = {}
    for name, table_id in (("empty", None), ("tock 2v2", 1), ("carcassonne", 4)):
        copy = tmp_path / f"{table_id}.sqlite3"
        shutil.copy(migrated, copy)
        sizes[name] = _bytes_of(copy, table_id)
    # Table 1 is a Tock 2v2 game of 1,211 log entries (76.5 KB before, for 1,692).
    assert sizes["tock 2v2"] - sizes["empty"] <= 25 * 1024 * 1211 / 1692
    assert sizes["carcassonne"] - sizes["empty"] <= 5 * 1024
