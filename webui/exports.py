"""Match downloads: .mat (Jellyfish / GNU Backgammon / XG), SGF and JSON.

The writers live in ``engine`` (``engine.matfile.write_mat``, ``engine.sgf``,
``engine.recordjson``); they are looked up when a download is asked for, so a writer that is not
there yet gives a clear 501 instead of breaking the app. Exports are projections of the stored
event log, folded by the referee.

Tournament rule: the files mark illegal plays that were let stand, so while a match is still
active its files are for the operator only (unless the club plays "legal moves only", where
flags are public anyway); finished matches are public.
"""

from __future__ import annotations

import importlib
import json
import re
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request
from flask_babel import gettext as _

from engine.referee import Referee

from . import auth

bp = Blueprint("exports", __name__)

# format -> (module, candidate function names, media type, file extension)
WRITERS: dict[str, tuple[str, tuple[str, ...], str, str]] = {
    "mat": ("engine.matfile", ("write_mat",), "text/plain; charset=utf-8", "mat"),
    "sgf": ("engine.sgf", ("write_sgf", "to_sgf", "dumps"), "application/x-go-sgf", "sgf"),
    "json": ("engine.recordjson", ("write_json", "to_json", "dumps", "record_to_json"),
             "application/json", "json"),
}


class ExportUnavailable(Exception):
    """No writer for this format in this build."""


def _writer(fmt: str) -> Any:
    module_name, names, _media, _ext = WRITERS[fmt]
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        raise ExportUnavailable(fmt) from None
    for name in names:
        fn = getattr(module, name, None)
        if callable(fn):
            return fn
    raise ExportUnavailable(fmt)


def render(referee: Referee, fmt: str, events: list[dict[str, Any]]) -> str:
    """The match as text in ``fmt``. JSON falls back to the event log when the engine has no
    record writer yet."""
    record = referee.record
    if record is None:
        raise ValueError("the match has no record")
    try:
        writer = _writer(fmt)
    except ExportUnavailable:
        if fmt != "json":
            raise
        return json.dumps({"format": "gammoncam-events/1", "settings": (
            referee.settings.to_json() if referee.settings else None), "events": events},
            indent=1)
    out = writer(record)
    return out if isinstance(out, str) else json.dumps(out, indent=1)


def _filename(settings: dict[str, Any] | None, match_id: int, ext: str) -> str:
    names = "match"
    if settings:
        names = f"{settings.get('white', '')}-{settings.get('black', '')}"
    safe = re.sub(r"[^A-Za-z0-9_-]+", "_", names).strip("_") or "match"
    return f"{safe}-{match_id}.{ext}"


@bp.get("/api/matches")
def matches() -> Any:
    service = current_app.extensions["gammoncam_service"]
    out = [{"id": m["id"], "title": m.get("title", ""), "status": m.get("status"),
            "created": m.get("created")} for m in service.store.matches()]
    return jsonify({"matches": out, "current": service.match_id})


@bp.get("/api/matches/<int:match_id>/export")
def export(match_id: int) -> Any:
    service = current_app.extensions["gammoncam_service"]
    fmt = request.args.get("format", "mat")
    if fmt not in WRITERS:
        return jsonify({"error": _("format must be one of: %(f)s", f="mat, sgf, json")}), 400
    known = {m["id"]: m for m in service.store.matches()}
    if match_id not in known:
        return jsonify({"error": _("no such match")}), 404
    referee = service.referee_for(match_id)
    settings = referee.settings.to_json() if referee.settings else None
    if known[match_id].get("status") == "active" and not auth.is_operator() \
            and not (settings or {}).get("legal_moves_only"):
        return jsonify({"error": _("the match is still being played: its files are for the "
                                   "referee until it ends")}), 403
    try:
        text = render(referee, fmt, service.events(match_id))
    except ExportUnavailable:
        return jsonify({"error": _("this build cannot write %(f)s files yet", f=fmt)}), 501
    except ValueError as exc:
        return jsonify({"error": str(exc)}), 409
    _m, _n, media, ext = WRITERS[fmt]
    name = _filename(settings, match_id, ext)
    return Response(text, mimetype=media.split(";")[0], headers={
        "Content-Disposition": f'attachment; filename="{name}"',
        "Content-Type": media})
