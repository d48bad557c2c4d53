"""The engine is pure: it imports no I/O, async, Discord, database or imaging library."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[1] / "engine"
FORBIDDEN = {
    "discord",
    "aiosqlite",
    "asyncpg",
    "PIL",
    "asyncio",
    "bot",
    "renderer",
    "socket",
    "sqlite3",
    "subprocess",
    "threading",
    "urllib",
    "http",
    "requests",
    "aiohttp",
}


def _imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_engine_imports_no_io_or_async_libraries() -> None:
    files = sorted(ENGINE.rglob("*.py"))
    assert files, "the engine package has no modules"
    offenders = {
        str(path.relative_to(ENGINE.parent)): sorted(_imported_roots(path) & FORBIDDEN)
        for path in files
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_engine_import_check_catches_a_forbidden_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import asyncio\nfrom PIL import Image\n", encoding="utf-8")
    assert _imported_roots(bad) & FORBIDDEN == {"asyncio", "PIL"}
