"""The pages: spectator board, referee, tournament overview.

Pages are thin HTML shells; the board and the panels are drawn by plain JavaScript from
``/api/state`` and ``/api/events``, so a page and the API can never disagree.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, render_template

from engine.rules import VARIANTS

from . import auth, strings

bp = Blueprint("pages", __name__)


@bp.get("/")
def spectator() -> Any:
    return render_template("spectator.html")


@bp.get("/referee")
@auth.operator_page
def referee() -> Any:
    svc = current_app.extensions["gammoncam_service"]
    names = strings.variant_names()
    variants = [(r.name, names.get(r.name, r.name)) for r in VARIANTS]
    # the running match's variant is the form's first choice, else the board's
    current = str(svc.snapshot().get("match_variant") or svc.rules.name).lower()
    if current not in {name for name, _ in variants}:
        current = svc.rules.name.lower()
    starts = {r.name: r.start.to_json() for r in VARIANTS}  # the position editor's "start"
    return render_template("referee.html", csrf=auth.csrf_token(),
                           variant=current, variants=variants, starts=starts,
                           has_clip=callable(getattr(svc, "save_clip", None)))


@bp.get("/tournament")
def tournament() -> Any:
    return render_template("tournament.html")
