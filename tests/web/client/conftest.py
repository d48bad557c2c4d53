"""Fixtures of the browser tests: Debian's Chromium driven by Playwright, and the stub server.

Chromium is the system's (/usr/bin/chromium, `apt-get install chromium`; .ci/run installs it
when missing): Playwright never downloads a browser here.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.bot.discord.conftest import world  # noqa: F401  (the fake Discord with the bot)
from tests.web.client.stub import Stub, running

CHROMIUM = os.environ.get("POEPPEL_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
DOCS_IMAGES = Path(__file__).resolve().parents[3] / "docs" / "images"


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where the screenshots go: a temporary folder, or docs/images with
    ``LIVE_SCREENSHOTS=docs`` (to refresh the pictures of docs/live-client.md)."""
    return DOCS_IMAGES if os.environ.get("LIVE_SCREENSHOTS") == "docs" else tmp_path


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for the tests of a module (closed, with its processes, after)."""
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).exists(), f"no Chromium at {CHROMIUM}: apt-get install -y chromium"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def stub() -> Iterator[tuple[Stub, str]]:
    """A fresh stub server (no tables yet) and its base URL."""
    server = Stub()
    with running(server) as base:
        yield server, base


@pytest.fixture
def page_errors() -> list[str]:
    """Errors the page threw (collected by :func:`open_page`); a test ends with none."""
    return []


def open_page(
    browser: Any, url: str, errors: list[str], width: int = 1200, height: int = 900
) -> Any:
    """A new page of ``width`` CSS px at ``url``, its uncaught errors appended to ``errors``."""
    context = browser.new_context(
        viewport={"width": width, "height": height}, device_scale_factor=1
    )
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    return page


# The figure spots lit on the Carcassonne board as the page lays them out: each ring's box in
# CSS px, and whether the board is zoomed to the new tile. Run with ``evaluate_all`` on the
# ``FIGURE_SPOTS`` locator (sync or async Playwright alike).
FIGURE_SPOTS = ".carcassonne-board .target[data-target^='figure:']"
SPOT_BOXES = """nodes => nodes.map(n => {
  const r = n.getBoundingClientRect();
  return {id: n.dataset.target, left: r.left, top: r.top, right: r.right, bottom: r.bottom,
          zoomed: n.ownerSVGElement.classList.contains('zoomed')};
})"""


def overlapping_spots(boxes: list[dict[str, Any]], finger: float = 40) -> list[str]:
    """What makes the figure spots hard to tap: two rings whose boxes overlap, or a ring
    smaller than ``finger`` CSS px. Empty when every spot is a clear, separate target."""
    faults = [
        f"{b['id']} is {b['right'] - b['left']:.0f} px wide"
        for b in boxes
        if b["right"] - b["left"] < finger or b["bottom"] - b["top"] < finger
    ]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            apart = (
                a["right"] <= b["left"]
                or b["right"] <= a["left"]
                or a["bottom"] <= b["top"]
                or b["bottom"] <= a["top"]
            )
            if not apart:
                faults.append(f"{a['id']} overlaps {b['id']}")
    return faults
