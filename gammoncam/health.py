"""``/healthz``: is this board's referee working? ``(ok, reasons)`` from the service's status.

The rule lives here, as a pure function, so the service, the web app and the tests all judge
health the same way. The web app does not import ``gammoncam`` (DESIGN.md: the arrows only point
down). Its ``/healthz`` answers 503 when an entry of the service's ``status`` mapping is a
mapping with ``"ok": False`` (its ``"error"`` becomes a reason), so the service publishes the
verdict there: every few seconds, ``service.status["board"] = entry(*check(status, state_dir))``.
:func:`payload` is the same verdict as a complete ``/healthz`` body for anything else.

The status mapping (every key optional; a missing key counts as the worst case):

- ``"last_frame_at"``: ``time.monotonic()`` of the newest camera frame, or None before the first
  one. Monotonic, not wall time: a Pi has no clock battery and steps its clock when NTP syncs.
- ``"camera"``: ``"ok"`` or ``"lost"`` (the capture failed and is being reopened);
  ``"camera_error"``: the last error text, shown with "camera lost".
- ``"profile"``: the board profile's path, or None when the board is not calibrated.
- ``"drift"``: True when the board or the camera moved since calibration.

Each reason is one line that starts with a fixed code followed by ``": "`` — ``frames stale``,
``camera lost``, ``no calibration``, ``drift``, ``disk low`` — so a page can translate by code
(:func:`code`).
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Mapping
from typing import Any

STALE_AFTER = 10.0  # seconds without a frame before frames count as stale
MIN_FREE_BYTES = 200 * 1024 * 1024

CODES = ("frames stale", "camera lost", "no calibration", "drift", "disk low")


def evaluate(
    status: Mapping[str, Any],
    *,
    now: float,
    disk_free: int | None,
    stale_after: float = STALE_AFTER,
    min_free: int = MIN_FREE_BYTES,
) -> tuple[bool, list[str]]:
    """``(ok, reasons)``: ok exactly when ``reasons`` is empty.

    ``now`` is ``time.monotonic()`` (the clock of ``last_frame_at``); ``disk_free`` the bytes free
    for the state directory (None when it could not be measured, itself a reason).
    """
    reasons: list[str] = []
    camera = status.get("camera")
    # a camera still starting has not failed: "no frame received yet" below says enough
    if camera not in ("ok", "starting"):
        error = status.get("camera_error")
        what = "reconnecting" if camera == "lost" else f"camera state {camera!r}"
        reasons.append(f"camera lost: {what}" + (f" ({error})" if error else ""))
    last = status.get("last_frame_at")
    if last is None:
        reasons.append("frames stale: no frame received yet")
    else:
        age = now - float(last)
        if age < 0:
            reasons.append(f"frames stale: last frame is {-age:.0f} s in the future "
                           f"(not a time.monotonic() value?)")
        elif age >= stale_after:
            reasons.append(f"frames stale: no frame for {age:.0f} s")
    if not status.get("profile"):
        reasons.append("no calibration: no board profile (calibrate this board)")
    if status.get("drift", False):
        reasons.append("drift: the board or the camera moved since calibration (recalibrate)")
    if disk_free is None:
        reasons.append("disk low: free space of the state directory unknown")
    elif disk_free < min_free:
        reasons.append(f"disk low: {disk_free // (1024 * 1024)} MiB free, "
                       f"{min_free // (1024 * 1024)} MiB needed")
    return not reasons, reasons


def disk_free(path: str | os.PathLike[str]) -> int | None:
    """Bytes free for an unprivileged writer under ``path``, or None if it cannot be measured."""
    try:
        return shutil.disk_usage(path).free
    except OSError:
        return None


def check(
    status: Mapping[str, Any],
    state_dir: str | os.PathLike[str],
    *,
    stale_after: float = STALE_AFTER,
    min_free: int = MIN_FREE_BYTES,
) -> tuple[bool, list[str]]:
    """:func:`evaluate` with now's monotonic time and the state directory's free space."""
    return evaluate(status, now=time.monotonic(), disk_free=disk_free(state_dir),
                    stale_after=stale_after, min_free=min_free)


def payload(ok: bool, reasons: list[str]) -> tuple[dict[str, Any], int]:
    """The ``/healthz`` JSON body and HTTP status (200 or 503)."""
    return {"ok": ok, "reasons": list(reasons), "codes": [code(r) for r in reasons]}, (
        200 if ok else 503)


def entry(ok: bool, reasons: list[str]) -> dict[str, Any]:
    """The verdict as one entry of the service's ``status`` (the web app's ``/healthz`` reads
    ``ok`` and ``error``; the reasons and codes are kept for pages that want them)."""
    return {"ok": ok, "error": "; ".join(reasons), "reasons": list(reasons),
            "codes": [code(r) for r in reasons]}


def code(reason: str) -> str:
    """The fixed code a reason starts with (``"disk low: 12 MiB free"`` -> ``"disk low"``)."""
    return reason.split(":", 1)[0]
