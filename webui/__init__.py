"""The web app: live board for spectators, referee page, calibration, tournament overview.

``create_app(service)`` builds the Flask app around a match service that is handed in (the web
app never imports the service's package). The service needs ``snapshot()``, ``command(cmd)``,
``events(match_id)``, ``referee_for(match_id)``, ``store.matches()``, ``publisher`` (with
``subscribe()`` / ``unsubscribe(sub)``), ``rules``, ``match_id``, ``seq`` and ``boot_id``;
camera hooks (``snapshot_jpeg``, ``calibrate``, ``save_profile``, ``save_clip``) are optional.

One blueprint per concern: ``auth`` (login, first-run setup, CSRF), ``api`` (state, commands,
health), ``sse`` (live events), ``exports`` (downloads), ``camera`` (calibration, live view),
``pages`` and ``i18n`` (language switch).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask, Response, jsonify, request
from flask_babel import get_locale
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException

from . import api, auth, camera, exports, i18n, pages, sse, strings

DEFAULTS: dict[str, Any] = {
    "SSE_KEEPALIVE_S": 10.0,  # a ping this often; pages reconnect after 2.5 pings of silence
    "SSE_RETRY_MS": 2000,
    "MAX_STREAMS": 200,  # keep below the server's thread pool (see gammoncam.web)
    "MJPEG_FPS": 2.0,
    "BOARD_NAME": "",
}
log = logging.getLogger(__name__)


def create_app(service: Any, *, auth_path: str | Path | None = None,
               setup_code: str | None = None, config: Mapping[str, Any] | None = None) -> Flask:
    """The Flask app for one board's ``service``.

    ``auth_path``: where the operator password hash and session key are kept (in memory when
    None). ``setup_code``: the one-time code that allows setting the first password (random when
    None; in ``app.config["SETUP_CODE"]`` for the launcher to print).
    """
    app = Flask(__name__)
    app.config.update(DEFAULTS)
    app.config.update(config or {})
    store = auth.AuthStore(auth_path)
    app.config.update(
        SECRET_KEY=store.secret_key,
        SETUP_CODE=setup_code or secrets.token_hex(4),
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_NAME="gammoncam_session",
        PERMANENT_SESSION_LIFETIME=timedelta(hours=12),
        MAX_CONTENT_LENGTH=256 * 1024,
    )
    app.extensions["gammoncam_service"] = service
    app.extensions["gammoncam_auth"] = store
    app.extensions["gammoncam_streams"] = sse.Streams(int(app.config["MAX_STREAMS"]))
    i18n.init(app)
    for blueprint in (auth.bp, api.bp, sse.bp, exports.bp, camera.bp, pages.bp, i18n.bp):
        app.register_blueprint(blueprint)
    _template_context(app)
    _errors(app)
    _headers(app)
    return app


def _template_context(app: Flask) -> None:
    app.jinja_env.globals.update(js_strings=strings.js_strings, csrf_token=auth.csrf_token)

    @app.context_processor
    def context() -> dict[str, Any]:
        return {"operator": auth.is_operator(), "locale": str(get_locale() or "en"),
                "board_name": app.config["BOARD_NAME"],
                "csrf": auth.csrf_token() if auth.is_operator() else ""}


def _errors(app: Flask) -> None:
    def wants_json() -> bool:
        return request.path.startswith("/api/") or request.path == "/healthz"

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Any:
        if wants_json():
            return jsonify({"error": exc.description or exc.name}), exc.code
        return exc

    @app.errorhandler(Exception)
    def crash(exc: Exception) -> Any:
        log.exception("unexpected error on %s %s", request.method, request.path)
        return jsonify({"error": _("internal error: the referee's log has the details")}), 500


def _headers(app: Flask) -> None:
    @app.after_request
    def security_headers(resp: Response) -> Response:
        resp.headers.setdefault("X-Content-Type-Options", "nosniff")
        resp.headers.setdefault("Referrer-Policy", "same-origin")
        if resp.mimetype == "text/html":
            resp.headers.setdefault("X-Frame-Options", "DENY")
            resp.headers.setdefault(
                "Content-Security-Policy",
                "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; "
                "script-src 'self'; connect-src *; frame-ancestors 'none'")
        return resp

    @app.route("/api/state", methods=["OPTIONS"])
    @app.route("/api/events", methods=["OPTIONS"])
    def preflight() -> Response:
        resp = Response(status=204)
        resp.headers["Access-Control-Allow-Origin"] = "*"
        resp.headers["Access-Control-Allow-Methods"] = "GET"
        resp.headers["Access-Control-Allow-Headers"] = "Last-Event-ID, Cache-Control"
        resp.headers["Access-Control-Max-Age"] = "86400"
        return resp


__all__ = ["create_app"]
