"""Engine benchmarks: ``python -m bench.engine tock|dog|carcassonne``.

Dispatches to ``bench.engine_<game>.main()``, which prints its figures.
"""

from __future__ import annotations

import importlib
import sys

from bench.machine import describe

GAMES = ("tock", "dog", "carcassonne")


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark of the game named on the command line."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] not in GAMES:
        print(f"usage: python -m bench.engine {'|'.join(GAMES)}", file=sys.stderr)
        return 2
    module = importlib.import_module(f"bench.engine_{args[0]}")
    print(describe())
    module.main()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
