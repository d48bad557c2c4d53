"""Pytest fixtures for the fake Discord.

Import them in a conftest.py::

    from tests.fakediscord.fixtures import fake_discord  # noqa: F401
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.fakediscord.server import FakeDiscord


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A started FakeDiscord; at teardown, fails the test if the bot hit an unknown route
    (or if the fake itself crashed on a request)."""
    fake = FakeDiscord()
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()
    assert not fake.unknown_routes, (
        f"the bot called routes the fake does not know: {fake.unknown_routes}"
    )
    assert not fake.internal_errors, f"the fake Discord crashed: {fake.internal_errors}"
