"""Shared fixtures of the Carcassonne engine tests.

The virtualenv has no YAML library, so ``shared_tiles`` reads the digest's tile file with a
reader for the small YAML subset that file uses (block lists of tiles, ``key: value`` lines,
flow lists and maps of plain scalars, ``#`` comments). It is test code only: the engine carries
its own copy of the data.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

SHARED_TILES = Path("/work/shared/rules/carcassonne-tiles.yaml")
SECTIONS = ("base", "river", "inns_and_cathedrals", "traders_and_builders")
_TOKEN = re.compile(r"\s*([\[\]{},:]|[^\[\]{},:]+)")


def _scalar(text: str) -> Any:
    text = text.strip()
    if text == "true":
        return True
    if text == "false":
        return False
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    return text


def _flow(text: str) -> Any:
    tokens = [t.strip() for t in _TOKEN.findall(text) if t.strip()]
    pos = 0

    def value() -> Any:
        nonlocal pos
        tok = tokens[pos]
        pos += 1
        if tok == "[":
            items: list[Any] = []
            while tokens[pos] != "]":
                items.append(value())
                if tokens[pos] == ",":
                    pos += 1
            pos += 1
            return items
        if tok == "{":
            mapping: dict[str, Any] = {}
            while tokens[pos] != "}":
                key = tokens[pos]
                assert tokens[pos + 1] == ":", text
                pos += 2
                mapping[key] = value()
                if tokens[pos] == ",":
                    pos += 1
            pos += 1
            return mapping
        return _scalar(tok)

    result = value()
    assert pos == len(tokens), text
    return result


def _strip_comment(line: str) -> str:
    return re.sub(r"(^|\s)#.*$", "", line).rstrip()


def read_tile_yaml(path: Path) -> dict[str, list[dict[str, Any]]]:
    """The four tile lists of ``carcassonne-tiles.yaml``, keyed by section."""
    sections: dict[str, list[dict[str, Any]]] = {}
    section: str | None = None
    tile: dict[str, Any] | None = None
    block_key: str | None = None
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = _strip_comment(raw)
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        body = line.strip()
        if indent == 0:
            key = body.rstrip(":")
            section = key if key in SECTIONS else None
            if section:
                sections[section] = []
            continue
        if section is None:
            continue
        if indent == 2 and body.startswith("- "):
            tile = {}
            sections[section].append(tile)
            body = body[2:]
            indent = 4
        assert tile is not None
        if indent == 4:
            key, _, rest = body.partition(":")
            rest = rest.strip()
            if not rest:
                block_key = key
                tile[key] = []
            elif rest[0] in "[{":
                tile[key] = _flow(rest)
            else:
                tile[key] = _scalar(rest)
        elif body.startswith("- ") and block_key is not None:
            tile[block_key].append(_flow(body[2:]))
    return sections


@pytest.fixture(scope="session")
def shared_tiles() -> dict[str, list[dict[str, Any]]]:
    """The digest's tile data, read from the shared folder."""
    return read_tile_yaml(SHARED_TILES)
