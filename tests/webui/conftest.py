"""Fixtures for the web app: a service on a temporary store, the app, a spectator client and a
logged-in operator client (whose ``post`` carries the CSRF token)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from gammoncam.service import MatchService
from gammoncam.store import EventStore
from webui import create_app

PASSWORD = "correct horse battery"
SETUP_CODE = "c0de1234"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[EventStore]:
    s = EventStore(tmp_path / "web.db")
    yield s
    s.close()


@pytest.fixture
def service(store: EventStore) -> MatchService:
    return MatchService(store)


def make_app(service: Any, password: str | None = PASSWORD) -> Flask:
    app = create_app(service, setup_code=SETUP_CODE, config={"SSE_KEEPALIVE_S": 0.2})
    app.config["TESTING"] = True
    if password:
        app.extensions["gammoncam_auth"].set_password(password)
    return app


@pytest.fixture
def app(service: MatchService) -> Flask:
    return make_app(service)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


class Operator:
    """A logged-in test client; ``command`` posts with the session's CSRF token."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.csrf = client.get("/api/session").get_json()["csrf"]

    def post(self, url: str, body: Any = None, **kw: Any) -> Any:
        headers = {"X-CSRF-Token": self.csrf, **kw.pop("headers", {})}
        return self.client.post(url, json=body if body is not None else {}, headers=headers, **kw)

    def command(self, name: str, **args: Any) -> Any:
        return self.post("/api/commands", {"command": name, **args})


def login(client: FlaskClient, password: str = PASSWORD) -> Any:
    page = client.get("/login").get_data(as_text=True)
    token = page.split('name="csrf_token" value="')[1].split('"')[0]
    return client.post("/login", data={"password": password, "csrf_token": token,
                                       "next": "/referee"})


@pytest.fixture
def operator(app: Flask) -> Operator:
    c = app.test_client()
    assert login(c).status_code == 302
    return Operator(c)


@pytest.fixture
def started(operator: Operator) -> Operator:
    """A 3-point match, white to play 3-1 after the opening roll."""
    assert operator.command("new_match", length=3, white="Ann", black="Bob").status_code == 200
    assert operator.command("opening_roll", white=3, black=1).status_code == 200
    return operator
