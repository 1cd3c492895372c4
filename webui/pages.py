"""The pages: spectator board, referee, tournament overview.

Pages are thin HTML shells; the board and the panels are drawn by plain JavaScript from
``/api/state`` and ``/api/events``, so a page and the API can never disagree.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, render_template

from . import auth

bp = Blueprint("pages", __name__)


@bp.get("/")
def spectator() -> Any:
    return render_template("spectator.html")


@bp.get("/referee")
@auth.operator_page
def referee() -> Any:
    svc = current_app.extensions["gammoncam_service"]
    return render_template("referee.html", csrf=auth.csrf_token(),
                           variant=svc.rules.name.lower(),
                           has_clip=callable(getattr(svc, "save_clip", None)))


@bp.get("/tournament")
def tournament() -> Any:
    return render_template("tournament.html")
