"""The JSON API: live state, operator commands, legal plays, health and the video clip hook.

``POST /api/commands`` takes one referee command (see ``engine.referee``), plus the page's
``replace_play`` (undo the last play and record another, checked on a scratch copy first so a
refused replacement changes nothing). A refused or malformed command is a 400 with a plain
message; nothing changes.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Blueprint, current_app, jsonify, request
from flask_babel import gettext as _

from engine.events import EventError
from engine.position import PositionError
from engine.referee import CommandError, Referee
from engine.xgid import XgidError, parse_xgid

from . import auth
from .logview import annotate
from .view import audience_view

bp = Blueprint("api", __name__)
_command_lock = threading.Lock()  # replace_play is two commands: keep them together
MAX_BODY = 64 * 1024


def service() -> Any:
    return current_app.extensions["gammoncam_service"]


def _error(status: int, message: str) -> Any:
    return jsonify({"error": message}), status


@bp.get("/api/state")
def state() -> Any:
    svc = service()
    resp = jsonify(audience_view(annotate(svc.snapshot(), svc), auth.is_operator()))
    resp.headers["Access-Control-Allow-Origin"] = "*"
    resp.headers["Cache-Control"] = "no-store"
    return resp


def _expand(cmd: dict[str, Any]) -> dict[str, Any]:
    """Conveniences of the referee page: a position given as an XGID."""
    if cmd.get("command") == "set_position" and isinstance(cmd.get("xgid"), str):
        try:
            parsed = parse_xgid(cmd.pop("xgid"))
        except XgidError as exc:
            raise CommandError(f"bad XGID: {exc}") from None
        cmd["position"] = parsed.position.to_json()
        cmd.setdefault("turn", parsed.turn.value)
        if parsed.dice and "dice" not in cmd:
            cmd["dice"] = list(parsed.dice)
    return cmd


def _replace_play(svc: Any, cmd: Mapping[str, Any]) -> list[dict[str, Any]]:
    if svc.match_id is None:
        raise CommandError("no match is running: start a new match first")
    scratch = Referee.from_events(svc.events(), svc.rules)
    last = scratch.log[-1] if scratch.log else None
    if last is None or last.type != "Moved":
        raise CommandError("the last thing recorded is not a play: use undo")
    scratch.command({"command": "undo"})
    play = {k: v for k, v in cmd.items() if k != "command"}
    scratch.command({"command": "play", **play})  # raises when the new play is refused
    return svc.command({"command": "undo"}) + svc.command({"command": "play", **play})


def run_command(cmd: dict[str, Any]) -> list[dict[str, Any]]:
    svc = service()
    with _command_lock:
        cmd = _expand(cmd)
        if cmd.get("command") == "replace_play":
            return _replace_play(svc, cmd)
        return svc.command(cmd)


@bp.post("/api/commands")
@auth.operator_api
def commands() -> Any:
    if (request.content_length or 0) > MAX_BODY:
        return _error(413, _("the command is too large"))
    cmd = request.get_json(silent=True)
    if not isinstance(cmd, dict) or not isinstance(cmd.get("command"), str):
        return _error(400, _("send a JSON object with a 'command'"))
    try:
        events = run_command(cmd)
    except CommandError as exc:
        return _error(400, str(exc))
    except (TypeError, ValueError, KeyError, PositionError, EventError) as exc:
        current_app.logger.warning("malformed command %r: %s", cmd.get("command"), exc)
        return _error(400, _("malformed command: %(e)s", e=str(exc) or type(exc).__name__))
    snap = audience_view(annotate(service().snapshot(), service()), True)
    return jsonify({"ok": True, "events": events, "state": snap})


@bp.get("/api/legal")
@auth.operator_api
def legal() -> Any:
    """The legal plays of the roll waiting to be played (the referee's list to choose from)."""
    svc = service()
    if svc.match_id is None:
        return jsonify({"plays": []})
    ref = svc.referee_for(svc.match_id)
    return jsonify({"plays": [{"play": p.notation, "position": p.after.to_json()}
                              for p in ref.legal()]})


@bp.get("/api/matches/<int:match_id>/events")
@auth.operator_api
def match_events(match_id: int) -> Any:
    svc = service()
    if match_id not in {m["id"] for m in svc.store.matches()}:
        return _error(404, _("no such match"))
    return jsonify({"events": svc.events(match_id)})


@bp.post("/api/clip")
@auth.operator_api
def clip() -> Any:
    """Save the last 30 seconds of video for a disputed moment, as a file in ``CLIP_DIR``.

    Needs the camera: a service without ``snapshot_jpeg`` (no camera) or ``save_clip`` gives an
    honest 501."""
    svc = service()
    save = getattr(svc, "save_clip", None)
    folder = current_app.config.get("CLIP_DIR")
    if not callable(save) or not callable(getattr(svc, "snapshot_jpeg", None)):
        return _error(501, _("no camera on this board: there is no video to save"))
    if not folder:
        return _error(501, _("no folder for video clips is configured"))
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = Path(folder) / f"clip-{svc.match_id or 0}-{svc.seq}-{stamp}.avi"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        frames = save(str(path))
    except (ValueError, OSError) as exc:  # nothing recorded yet, or the disk refused
        return _error(409, _("the clip could not be saved: %(e)s", e=str(exc)))
    return jsonify({"ok": True, "clip": path.name, "frames": frames})


@bp.get("/healthz")
def healthz() -> Any:
    svc = service()
    reasons: list[str] = []
    try:
        svc.store.matches()
    except Exception as exc:  # any store failure makes the board unhealthy
        reasons.append(f"store: {exc}")
    status = dict(getattr(svc, "status", {}) or {})
    for key, value in status.items():
        if isinstance(value, Mapping) and value.get("ok") is False:
            reasons.append(f"{key}: {value.get('error', 'failing')}")
    streams = current_app.extensions["gammoncam_streams"]
    body = {"ok": not reasons, "reasons": reasons, "match_id": svc.match_id, "seq": svc.seq,
            "boot_id": svc.boot_id, "streams": streams.open, "max_streams": streams.limit}
    return jsonify(body), (200 if not reasons else 503)
