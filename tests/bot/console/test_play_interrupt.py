"""Ctrl-C at ``poeppel play``'s move prompt stops at once, saved, with the resume command."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PLAY = [sys.executable, "-m", "bot.cli", "play", "tock", "--players", "2", "--bots", "1"]


def test_ctrl_c_at_the_move_prompt_stops_at_once_and_says_how_to_resume(tmp_path: Path) -> None:
    db = tmp_path / "play.sqlite3"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LANG": "en_US.UTF-8", "COLUMNS": "200"}
    # A terminal, as a player has: input() reads it through readline.
    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        [*PLAY, "--db", str(db), "--seed", "3"],
        stdin=terminal,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
        cwd=tmp_path,
    )
    output = b""
    try:
        # Wait for the move prompt: the process then blocks reading a line nobody types.
        assert process.stdout is not None
        os.set_blocking(process.stdout.fileno(), False)
        deadline = time.monotonic() + 60
        while b"Your move" not in output:
            assert process.poll() is None, output.decode(errors="replace")
            assert time.monotonic() < deadline, output.decode(errors="replace")
            select.select([process.stdout], [], [], 0.2)
            output += process.stdout.read() or b""
        os.set_blocking(process.stdout.fileno(), True)
        process.send_signal(signal.SIGINT)
        rest, _ = process.communicate(timeout=10)  # at once: no line was typed
        output += rest or b""
    finally:
        if process.poll() is None:
            process.kill()
        os.close(controller)
        os.close(terminal)
    text = output.decode(errors="replace")
    assert process.returncode == 130, text
    assert "play --resume" in text, text
