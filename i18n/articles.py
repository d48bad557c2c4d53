"""Articles chosen by the word that follows them, for templates whose words are parameters.

Hungarian says *a* before a consonant and *az* before a vowel, and the choice goes by how the
word is spoken: *az 1. hely* (egy), *a 2. hely*, *az 50. hely* (ötven), *a 100.* (száz),
*az 1000.* (ezer). A template cannot know which, so instead of the hedge "a(z) {seat}." it
writes ``{seat:a}.`` (or ``{seat:A}.`` at the start of a sentence) and :func:`with_article`
puts the right article in front of the value when the message is formatted.
"""

from __future__ import annotations

import re

_VOWELS = frozenset("aáeéiíoóöőuúüűAÁEÉIÍOÓÖŐUÚÜŰ")
#: What may stand before the word an article goes by: markdown, quotes, brackets, a hash.
_LEADING = re.compile(r"^[\s*_`„\"'(\[#<@!&]+")


def takes_az(word: object) -> bool:
    """Whether Hungarian says *az* (not *a*) before ``word`` (a word, a name or a number)."""
    text = _LEADING.sub("", str(word))
    if not text:
        return False
    digits = re.match(r"\d+", text)
    if digits:
        return _number_takes_az(digits.group())
    return text[0] in _VOWELS


def _number_takes_az(digits: str) -> bool:
    """*az* before numbers spoken with a vowel first: egy, öt…, ezer, egymillió, ötven…"""
    digits = digits.lstrip("0") or "0"
    if digits[0] == "5":  # öt, ötven, ötszáz, ötezer …
        return True
    if digits[0] == "1":
        # 1 egy, 1000 ezer, 1 000 000 egymillió: az; 10–19 tíz/tizen-, 100–199 száz: a.
        return len(digits) % 3 == 1
    return False


def with_article(value: object, spec: str) -> str:
    """``value`` with its article in front (spec ``a``: a/az; spec ``A``: A/Az).

    A Discord mention (``<@id>``) names a person and takes none.
    """
    if str(value).startswith("<@"):
        return str(value)
    article = "az" if takes_az(value) else "a"
    if spec == "A":
        article = article.capitalize()
    return f"{article} {value}"


#: The format specs :func:`with_article` understands.
ARTICLE_SPECS = frozenset({"a", "A"})
