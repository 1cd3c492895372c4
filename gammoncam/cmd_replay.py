"""``gammoncam replay``: recorded footage through the pipeline into a match file."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .clibase import BadInput, main

if TYPE_CHECKING:
    from .pipeline import Replay


@main.command()
@click.argument("footage")
@click.option("--profile", "profile_path", required=True, help="the board profile (JSON)")
@click.option("--out", "out", required=True, help="the match file to write (.mat)")
@click.option("--events", "events_path", default=None, help="also write the events (JSON lines)")
@click.option("--length", default=7, show_default=True, help="match length (0 = money)")
@click.option("--opening", type=click.Choice(["one_die_each", "both_dice", "reroll"]),
              default=None, help="the opening roll [default: one_die_each; a variant's own]")
@click.option("--variant", default=None,
              help="the variant played (plakoto, fevga, long nardi, ...) [default: the one the "
                   "profile was calibrated for, else backgammon]")
@click.option("--fps", type=float, default=None, help="frame rate of an image folder")
@click.option("--end-double", type=click.Choice(["drop", "leave"]), default="drop",
              show_default=True, help="a double unanswered when the footage ends")
def replay(footage: str, profile_path: str, out: str, events_path: str | None, length: int,
           opening: str | None, variant: str | None, fps: float | None, end_double: str) -> None:
    """Turn recorded FOOTAGE (a video file or a folder of images) into a match file.

    Backgammon, Portes and Tavla are written as a .mat; the other variants (no match file holds
    them) as a readable transcript in the .mat style (give --out FILE.txt) and the event log."""
    from engine.settings import MatchSettings, SettingsError
    from gammoncam.pipeline import replay as run_replay
    from vision.profile import BoardProfile, ProfileError
    from vision.settle import Settler
    from vision.sources import SourceError, make_source

    try:
        profile = BoardProfile.load(profile_path)
    except (OSError, ProfileError, ValueError) as exc:
        raise BadInput(f"cannot use the profile {profile_path}: {exc}") from None
    settings: dict[str, object] = {"length": length}
    variant = variant or profile.meta.get("variant")
    if variant:
        settings["variant"] = variant
    if opening:
        settings["opening"] = opening
    try:
        MatchSettings(**settings)  # type: ignore[arg-type]
    except SettingsError as exc:
        raise BadInput(f"bad match settings: {exc}") from None
    if out.lower().endswith(".mat") and variant and not _mat_holds(variant):
        raise BadInput(f"a {variant} match cannot be written as a .mat (GNU Backgammon and XG "
                       "play only backgammon): give --out FILE.txt for its transcript")
    try:
        source = make_source(footage, fps=fps)
        source.open()
    except SourceError as exc:
        raise BadInput(str(exc)) from None
    if source.live:
        source.close()
        raise BadInput(f"{footage} is a camera, not recorded footage: use 'gammoncam serve'")
    total = int(getattr(source, "frame_count", 0)) or None
    # a recording's frames are far apart: one still frame pair counts as settled
    gate = Settler(frames=1)
    with click.progressbar(length=total, label="replaying", file=sys.stderr) as bar:
        result = run_replay(
            source, profile, settings=settings,
            end_double=end_double, on_frame=lambda frame, settled: bar.update(1),
            settle=lambda frame: gate.update(
                frame.grey if frame.grey is not None else frame.image))
    log = "".join(json.dumps(e) + "\n" for e in result.events)
    try:
        if events_path:  # first: the record itself is never lost to a match file's limits
            Path(events_path).write_text(log)
        text, problem = _match_text(result, out, variant)
        if problem:
            kept = events_path or out + ".events.jsonl"
            if not events_path:
                Path(kept).write_text(log)
            raise BadInput(f"{problem}; the replay's events are in {kept}")
        Path(out).write_text(text)
    except OSError as exc:
        raise BadInput(f"cannot write {exc.filename}: {exc.strerror}") from None
    st = result.stats
    moves = sum(1 for e in result.events if e["type"] == "Moved")
    flags = sum(1 for e in result.events if e["type"] == "IllegalMoveFlagged")
    med, p95 = st.latency_ms()
    click.echo(f"{st.frames} frames ({st.fps:.1f} fps), {st.settled} settled, {moves} plays, "
               f"{flags} flagged; latency median {med:.0f} ms, p95 {p95:.0f} ms -> {out}")
    for note in result.notes:
        click.echo(f"note: {note}")


def _mat_holds(variant: str) -> bool:
    """Whether a .mat can hold this variant's games (backgammon's movement and start)."""
    from engine.rules import by_name
    from engine.transcript import mat_holds

    return mat_holds(by_name(variant))


def _match_text(result: Replay, out: str, variant: str | None) -> tuple[str, str | None]:
    """The match file's text (a .mat, or the transcript for any other name), or why none."""
    from engine.corrections import with_corrections
    from engine.matfile import MatWriteError, write_mat
    from engine.transcript import export_mat, transcript

    if not out.lower().endswith(".mat"):
        return transcript(result.events), None
    try:
        if variant and variant.lower() not in ("backgammon", "standard"):
            return export_mat(result.events), None  # Portes, Tavla: tagged with the variant
        # a position set mid-game (a camera correction) is a Set Pos line with its reason
        return write_mat(with_corrections(result.record, result.events)), None
    except MatWriteError as exc:
        return "", f"the record cannot be written as a .mat ({exc})"
