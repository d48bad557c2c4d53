"""Edit catalogue entries by key (a maintenance tool for translators; not imported by Pöppel).

``set_entry("hu", "event.play", "{colour} kijátszik {card:acc}.")`` replaces the message of an
existing key in whichever domain file holds it (a list sets each plural form);
``add_entries("hu", "core", {...}, comment)`` appends new entries in a block of their own.
"""

from __future__ import annotations

import re
from pathlib import Path

LOCALES = Path(__file__).resolve().parent.parent / "i18n" / "locales"


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def set_entry(locale: str, key: str, value: str | list[str], context: str | None = None) -> None:
    """Replace the msgstr(s) of ``key`` (with ``context``: its msgctxt variant)."""
    for path in sorted((LOCALES / locale).glob("*.po")):
        text = path.read_text(encoding="utf-8")
        ctx = re.escape(f'msgctxt "{context}"\n') if context else ""
        pattern = re.compile(
            r"(^" + ctx + r'msgid "' + re.escape(key) + r'"\n(?:msgid_plural "[^"]*"\n)?)'
            r'((?:msgstr(?:\[\d\])? (?:"(?:[^"\\]|\\.)*"\n?)+)+)',
            re.MULTILINE,
        )
        for match in pattern.finditer(text):
            before = text[: match.start()]
            if context is None and before.rstrip("\n").rsplit("\n", 1)[-1].startswith("msgctxt"):
                continue
            if isinstance(value, list):
                new = "".join(f"msgstr[{i}] {_quote(v)}\n" for i, v in enumerate(value))
            else:
                new = f"msgstr {_quote(value)}\n"
            text = text[: match.start(2)] + new + text[match.end(2) :]
            path.write_text(text, encoding="utf-8")
            return
    raise KeyError(f"{locale}: no entry {key!r} (context {context!r})")


def add_entries(
    locale: str,
    domain: str,
    entries: dict[str, str | list[str]],
    comment: str,
    context: str | None = None,
) -> None:
    """Append ``entries`` (key -> message, or plural forms) to ``domain``.po under ``comment``."""
    path = LOCALES / locale / f"{domain}.po"
    text = path.read_text(encoding="utf-8").rstrip("\n") + "\n\n"
    marker = f"# {comment}\n"
    if marker not in text:
        text += marker
    for key, value in entries.items():
        text += f'\nmsgctxt "{context}"\n' if context else "\n"
        text += f"msgid {_quote(key)}\n"
        if isinstance(value, list):
            text += f"msgid_plural {_quote(key + '.plural')}\n"
            text += "".join(f"msgstr[{i}] {_quote(v)}\n" for i, v in enumerate(value))
        else:
            text += f"msgstr {_quote(value)}\n"
    path.write_text(text, encoding="utf-8")


def make_plural(locale: str, key: str, values: list[str], context: str | None = None) -> None:
    """Turn the single entry ``key`` into a plural entry with ``values`` as its forms."""
    for path in sorted((LOCALES / locale).glob("*.po")):
        text = path.read_text(encoding="utf-8")
        ctx = f'msgctxt "{context}"\n' if context else ""
        head = f'{ctx}msgid "{key}"\nmsgstr '
        start = text.find("\n" + head)
        while start >= 0 and not context and text[:start].rsplit("\n", 1)[-1].startswith("msgctxt"):
            start = text.find("\n" + head, start + 1)
        if start < 0:
            continue
        start += 1
        end = text.find("\n\n", start)
        end = len(text) if end < 0 else end + 1
        new = f'{ctx}msgid "{key}"\nmsgid_plural "{key}.plural"\n' + "".join(
            f"msgstr[{i}] {_quote(v)}\n" for i, v in enumerate(values)
        )
        text = text[:start] + new + text[end:]
        path.write_text(text, encoding="utf-8")
        return
    raise KeyError(f"{locale}: no entry {key!r}")
