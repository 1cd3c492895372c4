"""Run every benchmark (``python -m bench``) or the named ones (``python -m bench moves web``).

Each benchmark is also its own command: ``python -m bench.bench_NAME --help``.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path


def available() -> list[str]:
    here = Path(__file__).parent
    return sorted(m.name[len("bench_"):] for m in pkgutil.iter_modules([str(here)])
                  if m.name.startswith("bench_"))


def main(argv: list[str]) -> int:
    names = argv or available()
    unknown = [n for n in names if n not in available()]
    if unknown:
        print(f"unknown benchmark {unknown[0]!r}; available: {', '.join(available())}",
              file=sys.stderr)
        return 2
    for name in names:
        print(f"\n== bench_{name} ==", flush=True)
        module = importlib.import_module(f"bench.bench_{name}")
        saved = sys.argv
        sys.argv = [f"bench.bench_{name}"]
        try:
            module.main()
        finally:
            sys.argv = saved
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
