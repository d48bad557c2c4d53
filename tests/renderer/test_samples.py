"""``python -m renderer.samples`` writes the fixed sample set, so a person can look at it.

Every sample is rendered (and held to the phone rule and the size budget) by
``test_legibility.py``; ``python -m renderer.samples`` writes them all for a person to look at.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from renderer.samples import DOCS, main, samples
from tests.renderer.pixels import decode


def test_the_sample_script_writes_the_samples_it_is_asked_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["--out", str(tmp_path), "tock-4-play", "carcassonne-4-mid"])
    written = sorted(path.name for path in tmp_path.glob("*.png"))
    assert written == ["carcassonne-4-mid.png", "tock-4-play.png"]
    assert decode((tmp_path / "tock-4-play.png").read_bytes()).width >= 900
    assert str(tmp_path) in capsys.readouterr().out
    assert set(DOCS) <= set(samples())


def test_the_readme_shows_the_committed_screenshots() -> None:
    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text(encoding="utf-8")
    for file in DOCS.values():
        assert f"docs/images/{file}" in readme
        assert (root / "docs" / "images" / file).stat().st_size <= 300 * 1024
