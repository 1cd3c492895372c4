"""``gammoncam calibrate``, ``read`` and ``markers``: the camera's eyes from the command line."""

from __future__ import annotations

import json

import click

from .clibase import BadInput, main


def _image(path: str):  # noqa: ANN202 - numpy array
    from calibration.calibrate import load_image

    try:
        return load_image(path)
    except ValueError as exc:
        raise BadInput(str(exc)) from None


@main.command()
@click.argument("image")
@click.option("--position", "position", default=None,
              help="the position the frame shows: XGID, position JSON or a file (default: start)")
@click.option("--variant", "variant", default=None,
              help="the frame shows this variant's start (plakoto, fevga, long nardi, ...)")
@click.option("--markers", "use_markers", is_flag=True, help="take the corners from ArUco markers")
@click.option("--corners", default=None,
              help="four corner taps 'x,y x,y x,y x,y' (TL TR BR BL of the playing area), "
                   "snapped to the board's edges and lines")
@click.option("--exact", is_flag=True,
              help="the --corners are exact: used as given, not snapped")
@click.option("--out", "out", required=True, help="where to write the profile JSON")
def calibrate(image: str, position: str | None, variant: str | None, use_markers: bool,
              corners: str | None, exact: bool, out: str) -> None:
    """Make a board profile from IMAGE of the start (or a known) position."""
    import numpy as np

    from calibration.calibrate import PositionMismatch, parse_position
    from calibration.calibrate import calibrate as make_profile
    from calibration.find import BoardNotFound
    from calibration.markers import MarkersNotFound
    from engine import PositionError

    if position and variant:
        raise BadInput("give --position or --variant, not both")
    frame = _image(image)
    try:
        pos = parse_position(position) if position else None
    except (PositionError, OSError) as exc:
        raise BadInput(f"bad --position: {exc}") from None
    if variant:
        from engine.rules import by_name, game_rules

        try:
            rules = game_rules(by_name(variant), 1)  # Tavli opens with Portes
        except KeyError as exc:
            raise BadInput(f"bad --variant: {exc.args[0]}") from None
        pos = rules.start
    taps = None
    if corners:
        try:
            taps = np.array([[float(v) for v in p.split(",")] for p in corners.split()])
            taps = taps.reshape(4, 2)
        except ValueError:
            raise BadInput("--corners needs four 'x,y' pairs") from None
    method = "taps" if taps is not None else ("markers" if use_markers else "auto")
    try:
        profile = make_profile(frame, pos, method=method, corners=taps, snap_taps=not exact)
    except (BoardNotFound, MarkersNotFound, PositionMismatch) as exc:
        raise BadInput(str(exc)) from None
    if variant:
        profile.meta["pins"] = rules.pins  # the reader then looks for pins under the stacks
        profile.meta["variant"] = variant  # 'gammoncam replay' referees this variant by default
    profile.save(out)
    click.echo(f"profile written to {out} (orientation {profile.meta.get('orientation')})")


@main.command()
@click.argument("image")
@click.option("--profile", "profile_path", default=None, help="a board profile (else one-shot)")
@click.option("--json", "as_json", is_flag=True, help="print the observation JSON")
@click.option("--debug-image", "debug_out", default=None, help="draw what was read into a PNG")
def read(image: str, profile_path: str | None, as_json: bool, debug_out: str | None) -> None:
    """Read the checkers, dice and cube in IMAGE."""
    import cv2

    from calibration.find import BoardNotFound
    from calibration.oneshot import read_oneshot
    from engine.xgid import XgidState, format_xgid
    from vision import BoardProfile, ProfileError
    from vision import read as read_frame
    from vision.debug import debug_image

    frame = _image(image)
    try:
        if profile_path:
            profile = BoardProfile.load(profile_path)
            obs = read_frame(frame, profile)
        else:
            obs, profile = read_oneshot(frame)
    except ProfileError as exc:
        raise BadInput(str(exc)) from None
    except BoardNotFound as exc:
        raise BadInput(str(exc)) from None
    data = obs.to_json()
    pos = obs.most_likely_position()
    xgid = None
    if pos is not None:
        try:
            xgid = format_xgid(XgidState(position=pos))
        except Exception:  # noqa: BLE001 - a read that no XGID can hold
            xgid = None
    data["xgid"] = xgid
    if debug_out:
        cv2.imwrite(debug_out, debug_image(frame, obs, profile))
    click.echo(json.dumps(data) if as_json else json.dumps(data, indent=1))


@main.command()
@click.option("--out", "out", required=True, help="PNG file for the printable marker sheet")
def markers(out: str) -> None:
    """Write the printable sheet of the four ArUco corner markers."""
    import cv2

    from calibration.markers import marker_sheet

    if not cv2.imwrite(out, marker_sheet()):
        raise BadInput(f"cannot write {out}")
    click.echo(f"marker sheet written to {out}")
