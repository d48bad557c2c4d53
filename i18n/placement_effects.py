"""What a Carcassonne placement does, in words: the engine's facts of a placement
(:func:`engine.carcassonne.effects.placement_effects`) said in a few words for a menu
option's description, the terminal's list and the placement prompts (issue #36).

Words only: the facts come from the engine, never from parsing a sentence.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from i18n.catalog import t, tn

#: The longest description Discord shows under a menu option.
DESCRIPTION = 100


def effect_words(
    facts: Sequence[Mapping[str, Any]],
    me: int | None,
    names: Mapping[int, str],
    locale: str = "en",
) -> str:
    """What a placement does, in at most two phrases, the weightiest first: closing a road
    or city (with its points), joining features, extending someone's, starting a monastery
    or a new road or city. ``me``: the seat placing (its features are "yours")."""
    closes, joins, extends, starts, free, fields = [], [], [], [], [], []
    for fact in facts:
        kind = str(fact.get("kind"))
        owners = [int(o) for o in fact.get("owners") or ()]
        points = fact.get("points")
        joined = int(fact.get("joined") or 0)
        if kind == "monastery":
            if fact.get("closed") and points is not None:
                closes.append(tn("tile.effect.closes_monastery", int(points), locale))
            else:
                starts.append(t("tile.effect.starts_monastery", locale))
            continue
        if fact.get("closed") and points is not None:
            if me is not None and me in owners:
                closes.append(tn(f"tile.effect.closes_yours.{kind}", int(points), locale))
            elif owners:
                name = names.get(owners[0], "?")
                closes.append(tn(f"tile.effect.closes_of.{kind}", int(points), locale, name=name))
            else:
                closes.append(tn(f"tile.effect.closes.{kind}", int(points), locale))
        elif joined >= 2:
            joins.append(tn(f"tile.effect.joins.{kind}", joined, locale))
        elif joined == 1 and owners:
            if me is not None and me in owners:
                extends.append(t(f"tile.effect.extends_yours.{kind}", locale))
            else:
                name = names.get(owners[0], "?")
                extends.append(t(f"tile.effect.extends_of.{kind}", locale, name=name))
        elif joined == 1:
            # A free field said last: a road or city the tile extends says more.
            (fields if kind == "field" else free).append(t(f"tile.effect.extends.{kind}", locale))
        elif joined == 0 and kind in ("city", "road"):
            starts.append(t(f"tile.effect.starts.{kind}", locale))
    # Two free fields (or roads) extended say the same words: once is enough.
    phrases = list(dict.fromkeys([*closes, *joins, *extends, *starts, *free] or fields))
    if not phrases:
        return ""
    if len(phrases) == 1:
        return phrases[0]
    both = t("tile.effect.and", locale, first=phrases[0], second=phrases[1])
    return both if len(both) <= DESCRIPTION else phrases[0][:DESCRIPTION]
