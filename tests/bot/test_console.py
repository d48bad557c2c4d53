"""``poeppel play`` in a subprocess: whole games with bots, hot seat, resume, bad options."""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.console import parse_option_values, typed_move
from engine.protocol import OptionSpec

ROOT = Path(__file__).resolve().parents[2]


def _play(
    args: list[str], stdin: str = "", cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "120", "PYTHONUNBUFFERED": "1"}
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", "play", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd or ROOT,
        env=env,
        check=False,
    )


def _phase(db: Path, table_id: int) -> str:
    with sqlite3.connect(db) as conn:
        return str(conn.execute("SELECT phase FROM tables WHERE id = ?", (table_id,)).fetchone()[0])


def test_bots_play_a_whole_game(tmp_path: Path) -> None:
    db = tmp_path / "play.sqlite3"
    result = _play(
        [
            "carcassonne",
            "--players",
            "2",
            "--bots",
            "2",
            "--seed",
            "4",
            "--bot-time",
            "0.01",
            "--bot-level",
            "easy",
            "--db",
            str(db),
            "--out",
            str(tmp_path / "boards"),
        ]
    )
    assert result.returncode == 0, result.stderr
    assert "Game over." in result.stdout
    assert _phase(db, 1) == "finished"


def test_a_person_plays_by_number_against_a_bot(tmp_path: Path) -> None:
    db = tmp_path / "play.sqlite3"
    result = _play(
        [
            "carcassonne",
            "--players",
            "2",
            "--seed",
            "9",
            "--bot-time",
            "0.01",
            "--bot-level",
            "easy",
            "--db",
            str(db),
            "--no-images",
        ],
        stdin="1\n" * 400,
    )
    assert result.returncode == 0, result.stderr
    assert "Your move (number or notation" in result.stdout
    assert "Game over." in result.stdout
    assert _phase(db, 1) == "finished"


def test_hot_seat_hides_hands_until_enter_and_resume_continues(tmp_path: Path) -> None:
    db = tmp_path / "play.sqlite3"
    first = _play(
        [
            "tock",
            "--players",
            "2",
            "--bots",
            "0",
            "--seed",
            "2",
            "--db",
            str(db),
            "--out",
            str(tmp_path / "boards"),
        ],
        stdin="\n1\n" * 6,
    )
    assert first.returncode == 0, first.stderr
    out = first.stdout
    assert "Continue with: poeppel play --resume 1" in out
    # Whenever the keyboard passes to another seat, that seat is asked to press Enter
    # before its hand is shown.
    turns = re.findall(r"(Player \d \(seat \d\)), (press Enter|your decision)", out)
    deciding = [label for label, what in turns if what == "your decision"]
    assert len(set(deciding)) == 2
    previous = None
    for index, (label, what) in enumerate(turns):
        if what == "your decision" and label != previous:
            assert turns[index - 1] == (label, "press Enter")
        if what == "your decision":
            previous = label
    images = sorted((tmp_path / "boards").glob("table1-v*.png"))
    assert images
    assert images[0].read_bytes().startswith(b"\x89PNG")
    assert str(images[-1]) in out
    assert _phase(db, 1) == "playing"

    resumed = _play(["--resume", "1", "--db", str(db), "--no-images"], stdin="\n1\nq\n")
    assert resumed.returncode == 0, resumed.stderr
    assert "Resuming table 1 (tock)." in resumed.stdout
    assert "Your hand:" in resumed.stdout
    missing = _play(["--resume", "99", "--db", str(db), "--no-images"])
    assert missing.returncode == 1
    assert "There is no table 99." in missing.stdout


def test_bad_options_are_explained(tmp_path: Path) -> None:
    db = tmp_path / "play.sqlite3"
    result = _play(["tock", "game_type=3v3", "--db", str(db), "--no-images"])
    assert result.returncode == 2
    assert "game_type" in result.stdout
    result = _play(["dog", "--players", "5", "--db", str(db), "--no-images"])
    assert result.returncode == 2
    assert "Dog is played by 4, 6 players, not 5" in result.stdout


def test_option_values_are_typed_by_their_spec() -> None:
    specs = (OptionSpec("river", False), OptionSpec("farms", "third"), OptionSpec("n", 3))
    assert parse_option_values(["river=true", "farms=second", "n=5"], specs) == {
        "river": True,
        "farms": "second",
        "n": 5,
    }
    with pytest.raises(ValueError, match="true or false"):
        parse_option_values(["river=maybe"], specs)
    with pytest.raises(ValueError, match="NAME=VALUE"):
        parse_option_values(["river"], specs)


def test_a_jack_swap_typed_the_other_way_round_is_read_as_the_swap_meant() -> None:
    # The engine refuses J:r40<>r30 as written (N-5.2, N-6.6); the console, reading what a
    # person typed, turns it into the legal swap of the same two pawns.
    legal = ["J:r30<>r40", "5:r30-r35"]
    assert typed_move("J:r40<>r30", legal) == "J:r30<>r40"
    assert typed_move("J:r30<>r40", legal) == "J:r30<>r40"
    assert typed_move("J:r40<>r31", legal) == "J:r40<>r31", "no legal swap: left as typed"
    assert typed_move("5:r30-r35", legal) == "5:r30-r35"
