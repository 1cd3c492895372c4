"""The dice benches read the same frames and take the same options for them: ``bench_dice``'s
:func:`~bench.bench_dice.frame_arguments` adds ``--setups --frames --base --cache`` to both
(``bench_dice_ground`` no longer repeats the lines)."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from bench.bench_dice import BASE_SEED, frame_arguments

ROOT = Path(__file__).resolve().parents[1]
COMMON = ("--setups SETUPS", "--frames FRAMES", "--base BASE", "--cache CACHE")


def test_frame_arguments_defaults_and_values() -> None:
    ap = frame_arguments(argparse.ArgumentParser())
    args = ap.parse_args([])
    assert (args.setups, args.frames, args.base, args.cache) == (32, 5, BASE_SEED, None)
    args = ap.parse_args(["--setups", "4", "--frames", "2", "--base", "700000",
                          "--cache", "/tmp/x"])
    assert (args.setups, args.frames, args.base, args.cache) == (4, 2, 700000, Path("/tmp/x"))


def _options(module: str) -> dict[str, str]:
    out = subprocess.run([sys.executable, "-m", module, "--help"], cwd=ROOT, check=True,
                         capture_output=True, text=True, env={"COLUMNS": "200", "PATH": ""}).stdout
    lines = out.split("options:", 1)[1].splitlines()
    return {o: " ".join(next(ln for ln in lines if ln.strip().startswith(o)).split())
            for o in COMMON}


def test_both_dice_benches_take_the_same_frame_options() -> None:
    ground = _options("bench.bench_dice_ground")
    assert ground == _options("bench.bench_dice")
    assert all(len(line) > len(o) + 5 for o, line in ground.items())  # each says what it does
