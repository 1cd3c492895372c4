"""Operator authentication: a password set at first run, sessions, CSRF tokens.

There is no default password. Until one is set, operator pages lead to ``/setup``, which asks for
the one-time setup code the server printed on its console (so a stranger on the network cannot
claim the board first). The password is stored hashed (werkzeug's scrypt) in a small JSON file,
with the session signing key, readable by the owner only. Sessions are cookies signed by Flask,
HttpOnly and SameSite=Strict. Every state-changing request carries the session's CSRF token, in
the ``X-CSRF-Token`` header (JSON API) or the ``csrf_token`` form field.
"""

from __future__ import annotations

import hmac
import json
import os
import secrets
import threading
import time
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    Response,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _
from werkzeug.security import check_password_hash, generate_password_hash

MIN_PASSWORD = 8
MAX_FAILURES = 5  # per client address within FAILURE_WINDOW_S, then login is refused for a while
FAILURE_WINDOW_S = 60.0
F = TypeVar("F", bound=Callable[..., Any])

bp = Blueprint("auth", __name__)


class AuthStore:
    """The operator password hash and the session key, kept in a JSON file (or in memory)."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self._lock = threading.Lock()
        self._data: dict[str, str] = {}
        if self.path is not None and self.path.exists():
            self._data = json.loads(self.path.read_text(encoding="utf-8"))
        if "secret_key" not in self._data:
            self._data["secret_key"] = secrets.token_hex(32)
            self._save()

    @property
    def secret_key(self) -> str:
        return self._data["secret_key"]

    @property
    def password_set(self) -> bool:
        return bool(self._data.get("password"))

    def set_password(self, password: str) -> None:
        if len(password) < MIN_PASSWORD:
            raise ValueError(f"the password needs at least {MIN_PASSWORD} characters")
        with self._lock:
            self._data["password"] = generate_password_hash(password)
            self._save()

    def check(self, password: str) -> bool:
        stored = self._data.get("password")
        return bool(stored) and check_password_hash(stored, password)

    def _save(self) -> None:
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(self.path.suffix + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(self._data, f)
        os.replace(tmp, self.path)


class _Failures:
    """Failed logins per client address, to slow down password guessing."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seen: dict[str, list[float]] = {}

    def blocked(self, addr: str) -> bool:
        now = time.monotonic()
        with self._lock:
            recent = [t for t in self._seen.get(addr, []) if now - t < FAILURE_WINDOW_S]
            self._seen[addr] = recent
            return len(recent) >= MAX_FAILURES

    def add(self, addr: str) -> None:
        with self._lock:
            self._seen.setdefault(addr, []).append(time.monotonic())


def store() -> AuthStore:
    return current_app.extensions["gammoncam_auth"]


def failures() -> _Failures:
    return current_app.extensions.setdefault("gammoncam_login_failures", _Failures())


def is_operator() -> bool:
    return bool(session.get("operator"))


def csrf_token() -> str:
    token = session.get("csrf")
    if not token:
        token = session["csrf"] = secrets.token_urlsafe(32)
    return token


def _csrf_ok() -> bool:
    sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token") or ""
    token = session.get("csrf") or ""
    return bool(token) and hmac.compare_digest(sent.encode(), token.encode())


def _refuse(status: int, message: str) -> Response:
    resp = jsonify({"error": message})
    resp.status_code = status
    return resp


def operator_api(view: F) -> F:
    """JSON endpoint for the operator: 401 without a session, 403 without the CSRF token on a
    state-changing method."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not is_operator():
            return _refuse(401, _("operator login required"))
        if request.method not in ("GET", "HEAD", "OPTIONS") and not _csrf_ok():
            return _refuse(403, _("missing or wrong CSRF token: reload the page"))
        return view(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def operator_page(view: F) -> F:
    """A page for the operator: to the login (or first-run setup) page without a session."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not is_operator():
            target = "auth.login" if store().password_set else "auth.setup"
            return redirect(url_for(target, next=request.full_path.rstrip("?")))
        return view(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def safe_next(target: str | None, default: str = "/referee") -> str:
    """Only local paths: never an open redirect."""
    if not target:
        return default
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//") \
            or "\\" in target:
        return default
    return target


def _login_session() -> None:
    session.clear()
    session.permanent = True
    session["operator"] = True
    session["csrf"] = secrets.token_urlsafe(32)


@bp.route("/login", methods=["GET", "POST"])
def login() -> Any:
    if not store().password_set:
        return redirect(url_for("auth.setup", next=request.args.get("next")))
    error, status = None, 200
    nxt = safe_next(request.values.get("next"))
    if request.method == "POST":
        addr = request.remote_addr or "?"
        if not _csrf_ok():
            error, status = _("The form expired: please try again."), 403
        elif failures().blocked(addr):
            error, status = _("Too many wrong passwords: wait a minute."), 429
        elif store().check(request.form.get("password", "")):
            _login_session()
            return redirect(nxt)
        else:
            failures().add(addr)
            error, status = _("Wrong password."), 401
    return render_template("login.html", error=error, next=nxt), status


@bp.route("/setup", methods=["GET", "POST"])
def setup() -> Any:
    if store().password_set:
        return redirect(url_for("auth.login"))
    error, status = None, 200
    nxt = safe_next(request.values.get("next"))
    if request.method == "POST":
        code = request.form.get("code", "").strip()
        password = request.form.get("password", "")
        expected = current_app.config["SETUP_CODE"]
        addr = request.remote_addr or "?"
        if not _csrf_ok():
            error, status = _("The form expired: please try again."), 403
        elif failures().blocked(addr):
            error, status = _("Too many wrong codes: wait a minute."), 429
        elif not hmac.compare_digest(code.encode(), expected.encode()):
            failures().add(addr)
            error, status = _("Wrong setup code: it is printed on the server's console."), 401
        elif password != request.form.get("password2", ""):
            error, status = _("The two passwords differ."), 400
        elif len(password) < MIN_PASSWORD:
            error = _("The password needs at least %(n)d characters.", n=MIN_PASSWORD)
            status = 400
        else:
            store().set_password(password)
            _login_session()
            return redirect(nxt)
    return render_template("setup.html", error=error, next=nxt,
                           min_password=MIN_PASSWORD), status


@bp.post("/logout")
def logout() -> Any:
    if is_operator() and not _csrf_ok():
        return _refuse(403, _("missing or wrong CSRF token: reload the page"))
    session.clear()
    return redirect(url_for("pages.spectator"))


@bp.get("/api/session")
def session_info() -> Any:
    """Who the page is talking as, and the CSRF token the operator's requests must carry."""
    operator = is_operator()
    return jsonify({"operator": operator, "csrf": csrf_token() if operator else None,
                    "password_set": store().password_set})

