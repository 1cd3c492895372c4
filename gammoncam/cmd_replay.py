"""``gammoncam replay``: recorded footage through the pipeline into a match file."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from .clibase import BadInput, main


@main.command()
@click.argument("footage")
@click.option("--profile", "profile_path", required=True, help="the board profile (JSON)")
@click.option("--out", "out", required=True, help="the match file to write (.mat)")
@click.option("--events", "events_path", default=None, help="also write the events (JSON lines)")
@click.option("--length", default=7, show_default=True, help="match length (0 = money)")
@click.option("--opening", type=click.Choice(["one_die_each", "both_dice"]),
              default="one_die_each", show_default=True)
@click.option("--fps", type=float, default=None, help="frame rate of an image folder")
@click.option("--end-double", type=click.Choice(["drop", "leave"]), default="drop",
              show_default=True, help="a double unanswered when the footage ends")
def replay(footage: str, profile_path: str, out: str, events_path: str | None, length: int,
           opening: str, fps: float | None, end_double: str) -> None:
    """Turn recorded FOOTAGE (a video file or a folder of images) into a match file."""
    from engine.matfile import write_mat
    from gammoncam.pipeline import replay as run_replay
    from vision.profile import BoardProfile, ProfileError
    from vision.settle import Settler
    from vision.sources import SourceError, make_source

    try:
        profile = BoardProfile.load(profile_path)
    except (OSError, ProfileError, ValueError) as exc:
        raise BadInput(f"cannot use the profile {profile_path}: {exc}") from None
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
            source, profile, settings={"length": length, "opening": opening},
            end_double=end_double, on_frame=lambda frame, settled: bar.update(1),
            settle=lambda frame: gate.update(
                frame.grey if frame.grey is not None else frame.image))
    try:
        Path(out).write_text(write_mat(result.record))
        if events_path:
            Path(events_path).write_text("".join(json.dumps(e) + "\n" for e in result.events))
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
