"""``poeppel play`` in a subprocess: whole games with bots, hot seat, resume, bad options."""

from __future__ import annotations

import io
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.console.play import normalise_move, parse_option_values
from engine.protocol import OptionSpec

ROOT = Path(__file__).resolve().parents[3]


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
    # A placement is said as the placement image shows it: the cell's number, the turn in words.
    assert re.search(r"cell \d+, (as drawn|turned right|upside down|turned left)", result.stdout)
    assert "°" not in result.stdout
    assert "Game over." in result.stdout
    assert _phase(db, 1) == "finished"


def _log_answers(out: str) -> list[list[str]]:
    """The numbered lines of each ``log`` answer in ``out`` (each ends at an empty line)."""
    answers = []
    for part in out.split("Moves of table #1:")[1:]:
        lines = part.split("\n\n", 1)[0].strip().splitlines()
        answers.append([line for line in lines if re.match(r"\d+\. ", line)])
    return answers


def test_log_says_the_moves_in_words_and_log_notation_in_notation(tmp_path: Path) -> None:
    result = _play(
        [
            "tock",
            "--players",
            "2",
            "--seed",
            "3",
            "--bot-time",
            "0.01",
            "--bot-level",
            "easy",
            "--db",
            str(tmp_path / "play.sqlite3"),
            "--no-images",
        ],
        stdin="1\n1\n1\nlog\nlog notation\nq\n",
    )
    assert result.returncode == 0, result.stderr
    assert "log or log notation" in result.stdout  # the prompt offers both
    words, notation = _log_answers(result.stdout)
    assert len(words) == len(notation) >= 6  # three moves of the person, the bot's between
    for said, written in zip(words, notation, strict=True):
        number, _, who_and_move = written.partition(" ")
        assert said.startswith(number)
        move = who_and_move.rpartition(": ")[2]
        assert re.fullmatch(r"\S+:\S+", move), written  # a card and where: notation
        assert move not in said, said
        assert said.endswith("."), said
    assert any("plays a King" in line for line in words), words


def test_the_card_the_partner_passed_is_said_after_the_own_pick(tmp_path: Path) -> None:
    result = _play(
        ["tock", "game_type=2v2", "--seed", "3", "--db", str(tmp_path / "p.db"), "--no-images"],
        stdin="5\nq\n",  # pass the King (the fifth card), then stop
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    own, passed = out.find("You chose a King to pass."), out.find("Your partner passed you a")
    assert 0 <= own < passed, out  # both said, in the order they happened


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
    flat = " ".join(out.split())  # rich wraps long lines
    assert "Stopped; table 1 is saved. Continue it with: " in flat
    assert f"play --resume 1 --db {db}" in flat
    # Whenever the keyboard passes to another seat, that seat is asked to press Enter
    # before its hand is shown.
    found = re.findall(
        r"(Player \d \(seat \d, \w+\))(: your turn at the keyboard|, your decision)", out
    )
    turns = [
        (label, "press Enter" if "keyboard" in what else "your decision") for label, what in found
    ]
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
    assert "Table 1 (Tock) continues." in resumed.stdout
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
    assert "Dog is played by 4 and 6 players, not 5." in result.stdout


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


def test_the_resume_command_works_from_where_the_user_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.console import play as console

    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "poeppel").write_text("#!/bin/sh\n")
    monkeypatch.setattr(console.shutil, "which", lambda name: None)
    monkeypatch.setattr(console.sys, "executable", str(bin_dir / "python"))
    monkeypatch.chdir(tmp_path)
    assert console.poeppel_command() == ".venv/bin/poeppel"
    monkeypatch.setattr(console.shutil, "which", lambda name: "/usr/bin/poeppel")
    assert console.poeppel_command() == "poeppel"


def test_a_memory_table_offers_no_resume(tmp_path: Path) -> None:
    result = _play(["--resume", "1", "--db", ":memory:", "--no-images"])
    assert result.returncode == 2
    assert "--db :memory: keeps nothing" in result.stdout
    played = _play(["tock", "--players", "2", "--db", ":memory:", "--no-images"], stdin="q\n")
    assert "--resume" not in played.stdout
    assert "cannot be continued" in played.stdout


def test_help_lists_every_games_options() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bot.cli", "play", "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert result.returncode == 0
    for game in ("tock", "dog", "carcassonne"):
        from engine import get_game

        assert f"  {game}:" in result.stdout
        for spec in get_game(game).OPTIONS:
            assert f"{spec.name}=" in result.stdout


@pytest.mark.parametrize(
    ("typed", "legal", "expected"),
    [
        ("8 r27 r35", ["8:r27-r35"], "8:r27-r35"),
        ("j:R42<>r66", ["J:r66<>r42"], "J:r66<>r42"),
        ("  k : e ", ["K:E"], "K:E"),
        ("q r1 h0.2", ["Q:r1-h0.2"], "Q:r1-h0.2"),
        ("e 0,-1@180 follower:city0", ["E 0,-1@180 follower:city0"], "E 0,-1@180 follower:city0"),
        ("nonsense", ["K:E"], "nonsense"),
    ],
)
def test_typed_moves_are_forgiven_before_the_engine_reads_them(
    typed: str, legal: list[str], expected: str
) -> None:
    from bot.console.play import normalise_move

    game = "carcassonne" if "@" in expected else "tock"
    assert normalise_move(game, typed, legal) == expected


def test_a_jack_swap_typed_the_other_way_round_is_read_as_the_swap_meant() -> None:
    # The engine refuses J:r40<>r30 as written (N-5.2, N-6.6); the console, reading what a
    # person typed, turns it into the legal swap of the same two pawns.
    legal = ["J:r30<>r40", "5:r30-r35"]
    assert normalise_move("tock", "J:r40<>r30", legal) == "J:r30<>r40"
    assert normalise_move("tock", "J:r30<>r40", legal) == "J:r30<>r40"
    assert normalise_move("tock", "J:r40<>r31", legal) == "J:r40<>r31", (
        "no legal swap: left as typed"
    )
    assert normalise_move("tock", "5:r30-r35", legal) == "5:r30-r35"


def test_the_boards_it_writes_speak_the_players_language_and_name_the_players(
    tmp_path: Path,
) -> None:
    import asyncio

    from rich.console import Console

    import renderer
    from bot.console import play as console_module
    from bot.service import TableService
    from bot.storage import open_storage
    from tests.renderer.pixels import recorded_texts

    async def first_board() -> list[str]:
        storage = await open_storage(":memory:")
        service = TableService(storage, require_person=False)
        created = await service.create(1, 1, "carcassonne", 7, "Anna", players=2, seed=3)
        await service.add_bot(created.table.id, 7, "easy")
        effects = await service.start_game(created.table.id, 7)
        images = console_module._Images(str(tmp_path), False, Console(file=io.StringIO()))
        renderer.clear_caches()
        with recorded_texts() as drawn:
            console_module._show(Console(file=io.StringIO()), images, effects, False, "hu")
        await storage.close()
        return [text for text, _size in drawn]

    drawn = asyncio.run(first_board())
    assert "Anna" in drawn, drawn  # the players, as the thread names them
    assert "2.\u00a0bot" in drawn, drawn  # a non-breaking space: never wrapped apart
    assert "Lerakandó lapka" in drawn, drawn  # Hungarian, not "Tile to place"


def test_figure_spots_are_listed_with_the_letters_of_their_image(tmp_path: Path) -> None:
    db, boards = str(tmp_path / "p.db"), str(tmp_path / "boards")
    result = _play(
        ["carcassonne", "--players", "2", "--seed", "5", "--db", db, "--out", boards],
        stdin="1\nq\n",  # place the tile the first way; the figure step follows
    )
    assert result.returncode == 0, result.stderr
    figure_step = result.stdout.rpartition("spots.png")[2]
    letters = re.findall(r"\b([A-Z]) — follower", figure_step)
    assert letters == ["A", "B", "C"][: len(letters)], figure_step
    assert len(letters) >= 2, figure_step  # a road and a field at least


def test_the_choice_image_is_written_beside_the_board(tmp_path: Path) -> None:
    boards = tmp_path / "boards"
    result = _play(
        [
            "tock",
            "--players",
            "2",
            "--bots",
            "0",
            "--seed",
            "2",
            "--db",
            ":memory:",
            "--out",
            str(boards),
        ],
        stdin="\n" + "q\n",
    )
    assert result.returncode == 0, result.stderr
    choices = boards / "table1-choices.png"
    assert choices.read_bytes().startswith(b"\x89PNG")
    assert str(choices) in " ".join(result.stdout.split()) or "choices.png" in result.stdout


def test_the_choice_image_speaks_the_players_language(tmp_path: Path) -> None:
    from rich.console import Console

    import renderer
    from bot.console import play as console_module
    from engine import tock
    from tests.renderer.pixels import recorded_texts

    state = tock.from_position(
        {"game": "tock", "players": 2, "pawns": {"0": ["r3"]}, "hands": {"0": ["5", "K"]}}
    )
    view = tock.view(state, 0)
    legal = [str(m) for m in tock.legal_moves(state, 0)]
    images = console_module._Images(str(tmp_path), False, Console(file=io.StringIO()))
    renderer.clear_caches()
    with recorded_texts() as drawn:
        paths = images.choices(1, view, legal, "de", ["Anna", "Bot 2"])
    assert paths == [tmp_path / "table1-choices.png"]
    texts = " ".join(text for text, _ in drawn)
    assert "Jede Zahl ist die Schaltfläche" in texts
    numbers = [text for text, _ in drawn if text.isdigit()]
    for number in range(1, len(legal) + 1):
        assert numbers.count(str(number)) == 1, (number, legal)


def test_each_placement_in_the_terminal_says_what_it_does(tmp_path: Path) -> None:
    result = _play(
        ["carcassonne", "--players", "2", "--seed", "5", "--db", ":memory:", "--no-images"],
        stdin="q\n",
    )
    assert result.returncode == 0, result.stderr
    rows = [line for line in result.stdout.splitlines() if re.search(r"(?i)cell \d+, ", line)]
    assert rows, result.stdout
    said = ("closes", "joins", "extends", "starts")
    assert all(any(word in row for word in said) for row in rows), rows


def test_the_terminal_tells_what_happened_since_the_last_turn_with_one_board(
    tmp_path: Path,
) -> None:
    boards = tmp_path / "boards"
    result = _play(
        [
            "tock",
            "--players",
            "4",
            "--bots",
            "3",
            "--seed",
            "3",
            "--bot-time",
            "0.01",
            "--bot-level",
            "easy",
            "--db",
            str(tmp_path / "p.db"),
            "--out",
            str(boards),
        ],
        stdin="1\n" * 5 + "q\n",
    )
    assert result.returncode == 0, result.stderr
    digests = result.stdout.count("Since your last turn:")
    assert digests >= 4
    # One board per act (the person's move and the bots' after it), not one per move.
    assert len(list(boards.glob("*.png"))) <= digests + 1
