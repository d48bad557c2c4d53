"""The README and docs quote what players read as the product says it today: every quoted
player sentence is (a filled-in form of) an English catalogue entry."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
#: A quoted sentence: double quotes around a capitalised text ending in . ! ? or …
QUOTED = re.compile(r'"([A-Z][^"\n]{8,}[.!?…])"')


def english_texts() -> list[re.Pattern[str]]:
    """Every English catalogue text, its ``{placeholders}`` matching anything."""
    patterns = []
    for path in sorted((ROOT / "i18n" / "locales" / "en").glob("*.po")):
        with path.open("rb") as handle:
            catalog = read_po(handle)
        for message in catalog:
            texts = message.string if isinstance(message.string, tuple) else (message.string,)
            for text in texts:
                parts = re.split(r"\{[^}]*\}", str(text or ""))
                if len("".join(parts).strip()) >= 8:  # not a bare "{text}"
                    patterns.append(re.compile(".*".join(re.escape(p) for p in parts)))
    return patterns


def quoted_sentences() -> list[tuple[str, str]]:
    """(file, sentence) for every quoted player sentence in the README and docs."""
    found = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        for sentence in QUOTED.findall(path.read_text(encoding="utf-8")):
            found.append((path.name, sentence))
    return found


def test_every_quoted_player_text_is_in_the_english_catalogue() -> None:
    quotes = quoted_sentences()
    assert quotes, "the docs quote at least one refusal"
    texts = english_texts()
    missing = [q for q in quotes if not any(p.fullmatch(q[1]) for p in texts)]
    assert not missing, f"quoted texts the product no longer says: {missing}"
