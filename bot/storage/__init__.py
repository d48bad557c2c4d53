"""Durable storage of tables and move logs: SQLite (default) or PostgreSQL.

Use :func:`open_storage` with the ``DATABASE_URL`` setting: ``sqlite:///path/file.sqlite3``,
``sqlite:///:memory:`` (or just ``:memory:``) for tests, or ``postgresql://...``.
"""

from __future__ import annotations

from bot.storage.base import Storage

__all__ = ["Storage", "make_storage", "open_storage"]


def make_storage(database_url: str) -> Storage:
    """The back end for ``database_url``, not yet opened."""
    if database_url.startswith(("postgresql://", "postgres://")):
        from bot.storage.postgres import PostgresStorage

        return PostgresStorage(database_url)
    if database_url == ":memory:":
        path = ":memory:"
    elif database_url.startswith("sqlite:///"):
        path = database_url.removeprefix("sqlite:///")
    elif database_url.startswith("sqlite://"):
        path = database_url.removeprefix("sqlite://") or ":memory:"
    else:
        raise ValueError(
            f"unsupported DATABASE_URL {database_url!r}; use sqlite:///path or postgresql://..."
        )
    from bot.storage.sqlite import SqliteStorage

    return SqliteStorage(path)


async def open_storage(database_url: str) -> Storage:
    """Open (connect and migrate) the back end for ``database_url``."""
    storage = make_storage(database_url)
    await storage.open()
    return storage
