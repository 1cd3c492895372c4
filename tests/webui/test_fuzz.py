"""Fuzzed API requests (hypothesis): never a 500, never a change without login."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gammoncam.service import MatchService
from gammoncam.store import EventStore

from .conftest import Operator, login, make_app

NAMES = ["new_match", "opening_roll", "roll", "play", "confirm", "let_stand", "clear_flag",
         "double", "take", "drop", "beaver", "raccoon", "resign", "accept", "reject", "undo",
         "set_position", "set_dice", "note", "replace_play", "nonsense", ""]
scalars = st.none() | st.booleans() | st.integers(-3, 30) | st.text(max_size=12) | st.floats(
    allow_nan=False, allow_infinity=False)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
    st.text(max_size=8), inner, max_size=4), max_leaves=12)
keys = st.sampled_from(["play", "position", "dice", "white", "black", "value", "side", "turn",
                        "xgid", "length", "text", "points", "crawford", "variant", "max_cube"])
commands = st.builds(lambda name, args: {"command": name, **args}, st.sampled_from(NAMES),
                     st.dictionaries(keys, values, max_size=4))
bodies = commands | values
FUZZ = settings(max_examples=120, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


def _app(tmp_path_factory: Any) -> tuple[Any, MatchService]:
    store = EventStore(tmp_path_factory.mktemp("fuzz") / "f.db")
    service = MatchService(store)
    app = make_app(service)
    return app, service


def test_no_change_without_login(tmp_path_factory: Any) -> None:
    app, service = _app(tmp_path_factory)
    op = app.test_client()
    login(op)
    Operator(op).command("new_match", length=3)
    spectator = app.test_client()

    @FUZZ
    @given(body=bodies, csrf=st.sampled_from([None, "", "guess"]))
    def check(body: Any, csrf: str | None) -> None:
        before = service.snapshot()["seq"]
        headers = {"X-CSRF-Token": csrf} if csrf is not None else {}
        resp = spectator.post("/api/commands", json=body, headers=headers)
        assert resp.status_code == 401
        assert service.snapshot()["seq"] == before

    check()


def test_logged_in_fuzz_never_500(tmp_path_factory: Any) -> None:
    app, service = _app(tmp_path_factory)
    client = app.test_client()
    login(client)
    op = Operator(client)
    op.command("new_match", length=3)
    op.command("opening_roll", white=3, black=1)

    @FUZZ
    @given(body=bodies)
    def check(body: Any) -> None:
        resp = op.post("/api/commands", body)
        assert resp.status_code in (200, 400), (body, resp.get_json())
        assert client.get("/api/state").status_code == 200

    check()


@FUZZ
@given(path=st.sampled_from(["/api/state", "/api/events", "/api/commands", "/api/legal",
                             "/api/matches", "/api/matches/1/export", "/api/clip", "/healthz",
                             "/api/calibration", "/login", "/setup", "/lang/xx", "/"]),
       method=st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH"]),
       query=st.text(max_size=20), data=st.binary(max_size=64))
def test_random_requests_never_500(path: str, method: str, query: str, data: bytes) -> None:
    app, _ = _APP
    resp = app.test_client().open(path, method=method, query_string={"format": query,
                                                                     "next": query}, data=data)
    assert resp.status_code < 500, (method, path, resp.status_code)
    resp.close()


class _Lazy:
    def __init__(self) -> None:
        self._value: tuple[Any, Any] | None = None

    def __iter__(self) -> Any:
        if self._value is None:
            import tempfile
            from pathlib import Path

            store = EventStore(Path(tempfile.mkdtemp()) / "r.db")
            service = MatchService(store)
            service.command({"command": "new_match", "length": 3})
            self._value = (make_app(service), service)
        return iter(self._value)


_APP = _Lazy()
