"""Rules help for ``/rules <game> [topic]``: short pages per game and topic, in every language.

The pages live in the catalogues as ``rules.<game>.<topic>``; the topic titles (the choices of
the command) as ``rules.topic.<topic>``. Every page fits one Discord message (2000 characters).
"""

from __future__ import annotations

from i18n.catalog import t

#: The topics of each game, in the order the command offers them; the first is the default.
RULES_TOPICS: dict[str, tuple[str, ...]] = {
    "tock": ("overview", "cards", "movement", "seven", "teams", "options"),
    "dog": ("overview", "cards", "movement", "seven", "teams", "joker", "presets"),
    "carcassonne": ("overview", "tiles", "figures", "scoring", "farms", "expansions", "options"),
}
DEFAULT_TOPIC = "overview"
#: Discord's limit for a message's content.
MESSAGE_LIMIT = 2000


def rules_games() -> list[str]:
    """The games that have rules help."""
    return list(RULES_TOPICS)


def rules_topics(game: str) -> list[str]:
    """The topic ids of ``game`` (``[]`` for an unknown game); ``"overview"`` comes first."""
    return list(RULES_TOPICS.get(game, ()))


def topic_title(topic: str, locale: object) -> str:
    """The title of a topic in ``locale`` (``"seven"`` -> ``"Die 7"`` in German)."""
    return t(f"rules.topic.{topic}", locale)


def rules_page(game: str, topic: str | None, locale: object) -> str:
    """The rules page of ``game`` on ``topic`` (default: the overview) in ``locale``.

    The overview ends with the list of the other topics. An unknown game or topic gives a
    short answer naming what exists instead of an error, since it is shown to a person.
    """
    topics = RULES_TOPICS.get(game)
    if topics is None:
        return t("rules.unknown_game", locale)
    topic = topic or DEFAULT_TOPIC
    game_title = t(f"game.{game}", locale)
    others = ", ".join(topic_title(other, locale) for other in topics if other != DEFAULT_TOPIC)
    if topic not in topics:
        return t("rules.unknown_topic", locale, game=game_title, topics=others)
    page = t(f"rules.{game}.{topic}", locale)
    if topic == DEFAULT_TOPIC:
        page += "\n\n" + t("rules.more", locale, game=game, topics=others)
    return page[:MESSAGE_LIMIT]
