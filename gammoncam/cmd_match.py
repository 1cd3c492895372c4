"""``gammoncam export`` and ``gammoncam check``: match files from the log, and checking them.

``export MATCH`` takes a match number in the event store (``--db``, or $GAMMONCAM_DB) or an
event log file (a JSON export, or JSON Lines as ``replay --events`` writes); ``check`` validates
a hand-typed .mat and exits 0 when clean, 1 when it found problems, 2 when it cannot read it.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import click

from engine.check import check_mat
from engine.events import EventError
from engine.export import FORMATS, ExportError, events_from_json, export_match
from engine.matfile import MatFileError
from engine.referee import Referee

from .clibase import BadInput, main

DEFAULT_DB = "/var/lib/gammoncam/gammoncam.db"


def _read_text(path: str) -> str:
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise BadInput(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")  # older hand-typed files


def _events_from_file(path: str) -> list[dict[str, Any]]:
    text = _read_text(path)
    try:
        try:
            data: Any = json.loads(text)
        except json.JSONDecodeError:  # JSON Lines: one event per line
            data = [json.loads(line) for line in text.splitlines() if line.strip()]
        return events_from_json(data)
    except (json.JSONDecodeError, ExportError) as exc:
        raise BadInput(f"{path} is not a gammoncam event log: {exc}") from None


def _events_from_store(db: str, match_id: int) -> list[dict[str, Any]]:
    from .store import EventStore, StoreError

    if not Path(db).exists():
        raise BadInput(f"no event store at {db} (give --db, or an event log file)")
    try:
        with EventStore(db) as store:
            return store.events(match_id)
    except StoreError as exc:
        raise BadInput(str(exc)) from None


@main.command()
@click.argument("match")
@click.option("--format", "fmt", type=click.Choice(list(FORMATS)), default="mat",
              show_default=True)
@click.option("--db", default=None, help=f"the event store (default $GAMMONCAM_DB or {DEFAULT_DB})")
@click.option("--out", "out", default=None, help="write here instead of standard output")
def export(match: str, fmt: str, db: str | None, out: str | None) -> None:
    """Export MATCH (a match number in the store, or an event log file) as .mat, SGF or JSON."""
    if match.isdigit() and not Path(match).exists():
        events = _events_from_store(db or os.environ.get("GAMMONCAM_DB", DEFAULT_DB), int(match))
    else:
        events = _events_from_file(match)
    if not events:
        raise BadInput(f"match {match} has no events")
    try:
        referee = Referee.from_events(events)
    except (EventError, KeyError, ValueError, TypeError) as exc:
        raise BadInput(f"the event log of {match} cannot be replayed: {exc}") from None
    settings = referee.settings.to_json() if referee.settings else None
    try:
        text = export_match(fmt, referee.record, events, settings)
    except ExportError as exc:
        raise BadInput(str(exc)) from None
    if out is None:
        sys.stdout.write(text)
        return
    try:
        Path(out).write_text(text)
    except OSError as exc:
        raise BadInput(f"cannot write {out}: {exc.strerror}") from None


@main.command()
@click.argument("path")
@click.option("--json", "as_json", is_flag=True, help="print the problems as JSON")
def check(path: str, as_json: bool) -> None:
    """Check a (hand-typed) .mat: every roll, play, cube action, score line and result."""
    text = _read_text(path)
    try:
        problems = check_mat(text)
    except MatFileError as exc:
        raise BadInput(f"cannot read {path}: {exc}") from None
    if as_json:
        click.echo(json.dumps([{"game": p.game, "move": p.move,
                                "side": p.side.value if p.side else None,
                                "line": p.line, "message": p.message} for p in problems]))
    else:
        for p in problems:
            click.echo(str(p))
        click.echo(f"{path}: {len(problems)} problem(s)" if problems else f"{path}: clean",
                   err=bool(problems))
    if problems:
        sys.exit(1)
