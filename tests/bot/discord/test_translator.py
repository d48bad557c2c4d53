"""The slash commands in German and Hungarian, as Discord receives them at sync."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Location

from bot.discord_ui.commands import register_commands
from bot.discord_ui.translator import (
    PoeppelTranslator,
    guild_locale_of,
    locale_of,
    translate_command_string,
    valid_name,
)

LOCALES = {"de": discord.Locale.german, "hu": discord.Locale.hungarian}


async def _payloads() -> list[dict[str, Any]]:
    """Every command of the bot as the JSON payload the tree syncs, translated."""
    client = discord.Client(intents=discord.Intents.none())
    tree: app_commands.CommandTree[Any] = app_commands.CommandTree(client)
    register_commands(tree)
    translator = PoeppelTranslator()
    await tree.set_translator(translator)
    return [
        await command.get_translated_payload(tree, translator) for command in tree.get_commands()
    ]


def _walk(payload: dict[str, Any]) -> list[dict[str, Any]]:
    """The command, its subcommands and their options, depth first."""
    found = [payload]
    for option in payload.get("options", []):
        found.extend(_walk(option))
    return found


async def test_every_command_string_is_localised() -> None:
    """Each name, description and choice has a German and a Hungarian form, within limits."""
    missing = []
    for payload in await _payloads():
        for item in _walk(payload):
            names = item.get("name_localizations") or {}
            descriptions = item.get("description_localizations") or {}
            for code, locale in LOCALES.items():
                if item["name"] not in ("tock", "dog", "carcassonne") and locale.value not in names:
                    missing.append((code, "name", item["name"]))
                if "description" in item and locale.value not in descriptions:
                    missing.append((code, "description", item["description"]))
                for description in descriptions.values():
                    assert 1 <= len(description) <= 100
            for choice in item.get("choices", []):
                localised = choice.get("name_localizations") or {}
                if not choice["name"].isdigit() and choice["name"] not in ("bsw", "braendi"):
                    for code, locale in LOCALES.items():
                        if locale.value not in localised and choice["name"] not in (
                            "Tock",
                            "Dog",
                            "Carcassonne",
                        ):
                            missing.append((code, "choice", choice["name"]))
                for name in localised.values():
                    assert 1 <= len(name) <= 100
    assert missing == []


async def test_localised_names_follow_discords_rules() -> None:
    for payload in await _payloads():
        for item in _walk(payload):
            for name in (item.get("name_localizations") or {}).values():
                assert valid_name(name), name
            siblings = item.get("options", [])
            for locale in LOCALES.values():
                local = [
                    o.get("name_localizations", {}).get(locale.value, o["name"]) for o in siblings
                ]
                assert len(local) == len(set(local)), f"{item['name']}: {local}"
                choices = [
                    c.get("name_localizations", {}).get(locale.value, c["name"])
                    for c in item.get("choices", [])
                ]
                assert len(choices) == len(set(choices)), f"{item['name']}: {choices}"


async def test_commands_read_in_german_and_hungarian() -> None:
    payloads = {p["name"]: p for p in await _payloads()}
    tock_new = payloads["tock"]["options"][0]
    assert tock_new["name_localizations"]["de"] == "neu"
    assert tock_new["name_localizations"]["hu"] == "új"
    players = next(o for o in tock_new["options"] if o["name"] == "players")
    assert players["name_localizations"] == {"de": "spieler", "hu": "játékosok"}
    assert payloads["rules"]["description_localizations"]["de"].startswith("Eine kurze")


def test_english_and_unknown_strings_keep_discords_default() -> None:
    assert translate_command_string("players", "en-US", Location.parameter_name) is None
    assert translate_command_string("no such text", "de", Location.command_description) is None
    assert translate_command_string("players", "ja", Location.parameter_name) is None


def test_an_explicit_key_wins_over_the_english_text() -> None:
    text = translate_command_string(
        "anything", "de", Location.command_description, {"key": "cmd.desc.rules"}
    )
    assert text == "Eine kurze Zusammenfassung der Spielregeln"


def test_a_name_that_breaks_discords_rules_is_not_sent() -> None:
    # A description key used as a name would contain spaces: Discord would refuse the sync.
    assert (
        translate_command_string("x", "de", Location.command_name, {"key": "cmd.desc.rules"})
        is None
    )
    assert not valid_name("zwei worte")
    assert not valid_name("Gross")
    assert not valid_name("x" * 33)
    assert valid_name("kleine_städte")


class _Interaction:
    def __init__(self, locale: object, guild_locale: object) -> None:
        self.locale = locale
        self.guild_locale = guild_locale


@pytest.mark.parametrize(
    ("user", "guild", "private", "public"),
    [
        (discord.Locale.german, discord.Locale.hungarian, "de", "hu"),
        (discord.Locale.american_english, None, "en", "en"),
        (discord.Locale.french, discord.Locale.german, "en", "de"),
    ],
)
def test_private_answers_follow_the_user_public_ones_the_server(
    user: object, guild: object, private: str, public: str
) -> None:
    interaction: Any = _Interaction(user, guild)
    assert locale_of(interaction) == private
    assert guild_locale_of(interaction) == public
    assert guild_locale_of(None) == "en"
