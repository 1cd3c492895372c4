"""``gammoncam plays`` and ``gammoncam judge``: the rules engine on XGIDs."""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Iterable

import click

from engine import legal_plays
from engine.xgid import XgidError, XgidState, format_xgid, parse_xgid

from .clibase import BadInput, main


def _xgid(text: str) -> XgidState:
    try:
        return parse_xgid(text)
    except XgidError as exc:
        raise BadInput(f"malformed XGID {text.strip()!r}: {exc}") from None


def _inputs(args: Iterable[str]) -> list[str]:
    """The arguments, or one item per non-empty line of stdin when there are none."""
    items = [a for a in args]
    if not items and not sys.stdin.isatty():
        items = [line.strip() for line in sys.stdin if line.strip()]
    if not items:
        raise BadInput("give at least one XGID, as arguments or one per line on stdin")
    return items


@main.command()
@click.argument("xgids", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="one JSON line per XGID (the default)")
def plays(xgids: tuple[str, ...], as_json: bool) -> None:
    """List every legal play of each XGID's roll, with the XGID it leaves."""
    lines = []
    for text in _inputs(xgids):
        state = _xgid(text)
        if state.dice is None:
            raise BadInput(f"XGID {text.strip()!r} has no dice to play (the dice field is "
                           f"'00' or a cube decision)")
        out = []
        for play in legal_plays(state.position, state.turn, state.dice):
            after = dataclasses.replace(state, position=play.after, turn=state.turn.other,
                                        dice=None, decision=None)
            out.append({"play": play.notation, "xgid": format_xgid(after)})
        lines.append(json.dumps(out))
    click.echo("\n".join(lines))


@main.command()
@click.argument("before")
@click.argument("after")
@click.option("--json", "as_json", is_flag=True, help="print the verdict as JSON")
def judge(before: str, after: str, as_json: bool) -> None:
    """Judge the change from BEFORE (with its dice) to AFTER: the play, or why it is illegal."""
    from engine.judge import judge as judge_change

    s0, s1 = _xgid(before), _xgid(after)
    if s0.dice is None:
        raise BadInput("the BEFORE XGID must carry the dice that were rolled")
    verdict = judge_change(s0.position, s0.turn, s0.dice, s1.position)
    result = {
        "legal": verdict.legal,
        "play": verdict.play.notation if verdict.play is not None else None,
        "reasons": [r.text for r in verdict.reasons],
    }
    if as_json:
        click.echo(json.dumps(result))
    elif verdict.legal:
        click.echo(f"legal: {result['play'] or '(no move possible)'}")
    else:
        click.echo("illegal:\n" + "\n".join(f"  - {r}" for r in result["reasons"]))
