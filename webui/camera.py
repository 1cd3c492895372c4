"""Camera pages: calibration (snapshot, detected board, four corners, save) and the live view.

They need the camera service, which hands the web app these methods (any may be absent; then
the pages say there is no camera on this board and the API answers 501):

- ``snapshot_jpeg() -> bytes``: the current frame as JPEG, with the detections drawn on it;
- ``calibrate(corners | None) -> dict``: find the board (``None``) or use the four corners given
  as ``[[x, y], ...]`` in snapshot pixels (clockwise from top-left); the result is JSON-able,
  e.g. ``{"corners": [[x, y] x4], "position": <position JSON or null>, "start_ok": bool,
  "problems": [str]}``;
- ``save_profile() -> dict | str``: keep the profile for the next start.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request
from flask_babel import gettext as _

from . import auth
from .sse import Streams

bp = Blueprint("camera", __name__)
BOUNDARY = "gammoncamframe"


def _service() -> Any:
    return current_app.extensions["gammoncam_service"]


def _hook(name: str) -> Any:
    fn = getattr(_service(), name, None)
    return fn if callable(fn) else None


def has_camera() -> bool:
    return _hook("snapshot_jpeg") is not None


def _no_camera() -> Any:
    return jsonify({"error": _("no camera on this board")}), 501


@bp.get("/calibration")
@auth.operator_page
def calibration_page() -> Any:
    return render_template("calibration.html", has_camera=has_camera(),
                           can_calibrate=_hook("calibrate") is not None,
                           can_save=_hook("save_profile") is not None)


@bp.get("/camera")
@auth.operator_page
def camera_page() -> Any:
    return render_template("camera.html", has_camera=has_camera())


@bp.get("/api/camera/snapshot.jpg")
@auth.operator_api
def snapshot() -> Any:
    snap = _hook("snapshot_jpeg")
    if snap is None:
        return _no_camera()
    try:
        data = snap()
    except Exception as exc:  # the camera's own failure, reported plainly
        return jsonify({"error": _("the camera gave no frame: %(e)s", e=str(exc))}), 503
    return Response(data, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/camera.mjpg")
@auth.operator_api
def mjpeg() -> Any:
    snap = _hook("snapshot_jpeg")
    if snap is None:
        return _no_camera()
    streams: Streams = current_app.extensions["gammoncam_streams"]
    if not streams.acquire():
        return jsonify({"error": "too many live streams"}), 503
    period = 1.0 / float(current_app.config["MJPEG_FPS"])
    released = []

    def cleanup() -> None:
        if not released:
            released.append(True)
            streams.release()

    def body() -> Iterator[bytes]:
        try:
            while True:
                started = time.monotonic()
                try:
                    data = snap()
                except Exception:  # a dropped frame: try again at the next tick
                    data = None
                if data:
                    yield (f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\n"
                           f"Content-Length: {len(data)}\r\n\r\n").encode() + data + b"\r\n"
                time.sleep(max(0.0, period - (time.monotonic() - started)))
        finally:
            cleanup()

    resp = Response(body(), mimetype=f"multipart/x-mixed-replace; boundary={BOUNDARY}")
    resp.headers["Cache-Control"] = "no-store"
    resp.call_on_close(cleanup)
    return resp


def _corners(value: Any) -> list[list[float]] | None:
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 4 or not all(
            isinstance(c, list) and len(c) == 2 and all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v < 100000
                for v in c) for c in value):
        raise ValueError(_("corners are four [x, y] pairs in snapshot pixels"))
    return [[float(x), float(y)] for x, y in value]


@bp.post("/api/calibration")
@auth.operator_api
def calibrate() -> Any:
    fn = _hook("calibrate")
    if fn is None:
        return _no_camera()
    body = request.get_json(silent=True)
    try:
        corners = _corners((body or {}).get("corners") if isinstance(body, dict) else None)
    except ValueError as exc:
        return jsonify({"error": str(exc)}), 400
    try:
        result = fn(corners)
    except Exception as exc:  # the calibration's refusal, told to the operator
        return jsonify({"error": str(exc)}), 422
    return jsonify({"ok": True, "result": result})


@bp.post("/api/calibration/save")
@auth.operator_api
def save_profile() -> Any:
    fn = _hook("save_profile")
    if fn is None:
        return _no_camera()
    try:
        saved = fn()
    except Exception as exc:  # e.g. nothing calibrated yet
        return jsonify({"error": str(exc)}), 409
    return jsonify({"ok": True, "saved": saved if isinstance(saved, (dict, str)) else None})
