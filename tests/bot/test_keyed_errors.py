"""Every refusal a player reads is a catalogue key: no English sentence is raised as one.

A ``TableError`` raised with a sentence instead of a key would reach German and Hungarian
players in English (the catalogue lookup falls back to the text itself), so the raise sites
are read from the source: each names a key the English catalogue has.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import bot
from bot.model.table import TableError
from i18n import keys

ROOT = Path(bot.__file__).parent


def _subclasses(cls: type) -> set[type]:
    found = set(cls.__subclasses__())
    for sub in list(found):
        found |= _subclasses(sub)
    return found


def _refusal_names() -> dict[str, type]:
    for module in pkgutil.walk_packages([str(ROOT)], prefix="bot."):
        importlib.import_module(module.name)
    return {cls.__name__: cls for cls in _subclasses(TableError) | {TableError}}


def _refusal_sites() -> list[tuple[str, int, str, ast.Call]]:
    names = _refusal_names()
    sites = []
    for path in sorted(ROOT.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for call in ast.walk(tree):
            if (
                isinstance(call, ast.Call)
                and isinstance(call.func, ast.Name)
                and call.func.id in names
            ):
                sites.append((str(path.relative_to(ROOT)), call.lineno, call.func.id, call))
    return sites


def test_every_refusal_is_made_with_a_catalogue_key() -> None:
    english = keys("en")
    sites = _refusal_sites()
    assert len(sites) > 20  # the walk found the service's and the front end's refusals
    wrong = []
    for path, line, name, call in sites:
        if not call.args:
            continue  # the subclass's default key, checked below
        first = call.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            if first.value not in english:
                wrong.append(f"{path}:{line} {name}({first.value!r}): no such key")
        elif isinstance(first, ast.JoinedStr):
            key = "".join(part.value for part in first.values if isinstance(part, ast.Constant))
            if " " in key or not any(k.startswith(key) for k in english):
                wrong.append(f"{path}:{line} {name}(f-string): not a key")
    assert wrong == []


def test_every_refusal_class_has_a_default_key_in_the_catalogue() -> None:
    english = keys("en")
    missing = {
        name: cls.default_key
        for name, cls in _refusal_names().items()
        if cls.default_key not in english
    }
    assert missing == {}
