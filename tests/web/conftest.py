"""Fixtures of the live board's tests: the service fixtures of tests/bot and the fake
Discord's world of tests/bot/discord."""

from tests.bot.conftest import clock, recorder, service, storage  # noqa: F401
from tests.bot.discord.conftest import world  # noqa: F401
