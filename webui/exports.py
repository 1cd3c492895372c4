"""Match downloads: .mat (Jellyfish / GNU Backgammon / XG), SGF and JSON (the event log).

The bytes come from ``engine.export`` (the same as ``gammoncam export``); exports are
projections of the stored event log, folded by the referee.

Tournament rule: the files mark illegal plays that were let stand, so while a match is still
active its files are for the operator only (unless the club plays "legal moves only", where
flags are public anyway); finished matches are public.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request
from flask_babel import gettext as _

from engine.export import FORMATS, ExportError, export_match

from . import auth

bp = Blueprint("exports", __name__)


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
    if fmt not in FORMATS:
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
        text = export_match(fmt, referee.record, service.events(match_id), settings)
    except ExportError as exc:
        return jsonify({"error": str(exc)}), 409
    media, ext = FORMATS[fmt]
    name = _filename(settings, match_id, ext)
    return Response(text, mimetype=media.split(";")[0], headers={
        "Content-Disposition": f'attachment; filename="{name}"',
        "Content-Type": media})
