"""The machine a benchmark ran on, so that figures from different machines can be compared.

Engine figures are CPU-bound interpreter work: the same code gave 42.5 Tock games/s on one
machine and 25.6 on another. Every engine bench therefore prints this line first: the CPU,
the interpreter and how it was built, and a fixed pure-Python reference loop whose time
scales with the interpreter's speed on this machine.
"""

from __future__ import annotations

import platform
import sys
import sysconfig
import time


def cpu_name() -> str:
    """The CPU model as the kernel names it (or the platform's guess)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def interpreter() -> str:
    """Implementation, version, and whether the build was profile-guided (PGO)."""
    args = str(sysconfig.get_config_var("CONFIG_ARGS") or "")
    pgo = "PGO" if "--enable-optimizations" in args else "no PGO flag"
    return f"{platform.python_implementation()} {platform.python_version()} ({pgo})"


def reference_loop_ms(repeat: int = 9) -> float:
    """CPU ms of a fixed loop of dict, tuple and call work (best of ``repeat``)."""

    def step(table: dict[int, int], i: int) -> tuple[int, int]:
        return table.get(i & 255, 0), i

    table = {i: i * 3 for i in range(256)}
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        total = 0
        for i in range(200_000):
            total += step(table, i)[0]
        best = min(best, time.process_time() - start)
    return best * 1000


def describe() -> str:
    """One line: CPU, interpreter, reference loop time."""
    return (
        f"machine: {cpu_name()}; {interpreter()} on {sys.platform}; "
        f"reference loop {reference_loop_ms():.1f} ms CPU (smaller is faster)"
    )
