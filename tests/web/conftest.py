"""Fixtures of the live board's tests: the service fixtures of tests/bot."""

from tests.bot.conftest import clock, recorder, service, storage  # noqa: F401
