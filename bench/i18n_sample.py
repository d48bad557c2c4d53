"""Print a sample of generated sentences per language, for a native reader to judge.

``python -m bench.i18n_sample [--per-locale 120] [--locales de hu] [--seed 5201] [--draw 4]
[--out docs/i18n-sample-after.md]`` plays one whole seeded game of each family through the
table service (seeds from ``--seed`` on, one per family: 5101–5108 for the first sample,
5201–5208 for the second; no test plays them), collects every text a player can read
(:func:`tests.sentence_lint.play_and_collect`; with ``--draw N`` also the texts drawn on the
images at every N-th decision of the person: boards, hands, choice images), keeps one text
per shape (numbers masked) and draws a sample round-robin over game family and kind of text.
The same seeds and the same drawing give the lists before and after a catalogue change
(issue 31: ``docs/i18n-sample-before.md`` / ``-after.md``).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
from collections import defaultdict

from tests.sentence_lint import FAMILIES, Collected, play_and_collect

SEED = 5201


def shape(text: str) -> str:
    """A text with its numbers masked: texts of one shape differ only in their numbers."""
    return re.sub(r"\d+", "#", text)


async def collect(seed: int = SEED, draw: int = 0) -> dict[str, Collected]:
    """Each family's texts, from one whole game (seeds ``seed``, ``seed + 1`` …)."""
    found = {}
    for n, family in enumerate(FAMILIES):
        collected = Collected()
        await play_and_collect(family, seed + n, collected, draw=draw)
        found[family] = collected
    return found


def sample(found: dict[str, Collected], locale: str, size: int) -> list[tuple[str, str, str]]:
    """``size`` texts of ``locale`` as (family, kind, text), round-robin over family and kind."""
    rng = random.Random(31)
    buckets: dict[tuple[str, str], list[str]] = defaultdict(list)
    for family, collected in found.items():
        for (where, kind), texts in sorted(collected.texts.items()):
            if where != locale:
                continue
            shapes: dict[str, str] = {}
            for text in sorted(texts):
                shapes.setdefault(shape(text), text)
            pool = sorted(shapes.values())
            rng.shuffle(pool)
            buckets[(family, kind)] = pool
    picked: list[tuple[str, str, str]] = []
    order = sorted(buckets)
    while len(picked) < size and any(buckets.values()):
        for family, kind in order:
            if buckets[(family, kind)] and len(picked) < size:
                picked.append((family, kind, buckets[(family, kind)].pop()))
    return picked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--per-locale", type=int, default=120)
    parser.add_argument("--locales", nargs="+", default=["de", "hu"])
    parser.add_argument("--seed", type=int, default=SEED, help="the first family's seed")
    parser.add_argument("--draw", type=int, default=0, help="draw images every N decisions")
    parser.add_argument("--out", help="write the lists to this file (Markdown) too")
    args = parser.parse_args()
    found = asyncio.run(collect(args.seed, args.draw))
    last = args.seed + len(FAMILIES) - 1
    lines = [
        "# i18n sample",
        "",
        f"Printed by `python -m bench.i18n_sample --seed {args.seed} --draw {args.draw}` "
        f"(seeds {args.seed}–{last}, one whole game per family).",
    ]
    for locale in args.locales:
        lines += ["", f"## {locale}", "", "| # | family / kind | text |", "|---|---|---|"]
        for n, (family, kind, text) in enumerate(sample(found, locale, args.per_locale)):
            flat = text.replace("\n", " / ").replace("|", "\\|")
            lines.append(f"| {n} | {family} / {kind} | {flat} |")
    print("\n".join(lines))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
