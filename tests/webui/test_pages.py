"""Pages, first-run setup, languages, live events and downloads."""

from __future__ import annotations

import json
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from gammoncam.service import MatchService

from .conftest import SETUP_CODE, Operator, make_app


def test_first_run_asks_for_the_setup_code(service: MatchService) -> None:
    app = make_app(service, password=None)
    client = app.test_client()
    resp = client.get("/referee")
    assert resp.status_code == 302 and "/setup" in resp.headers["Location"]
    page = client.get("/setup").get_data(as_text=True)
    token = page.split('name="csrf_token" value="')[1].split('"')[0]
    form = {"csrf_token": token, "code": "wrong", "password": "a long password",
            "password2": "a long password"}
    assert client.post("/setup", data=form).status_code == 401
    assert not app.extensions["gammoncam_auth"].password_set
    assert client.post("/setup", data={**form, "code": SETUP_CODE, "password2": "x"}
                       ).status_code == 400
    assert client.post("/setup", data={**form, "code": SETUP_CODE, "password": "short",
                                       "password2": "short"}).status_code == 400
    assert client.post("/setup", data={**form, "code": SETUP_CODE}).status_code == 302
    store = app.extensions["gammoncam_auth"]
    assert store.password_set and store.check("a long password")
    assert client.get("/referee").status_code == 200
    assert client.get("/setup").status_code == 302  # once only


def test_password_is_stored_hashed(service: MatchService, tmp_path: Path) -> None:
    from webui import create_app

    path = tmp_path / "auth.json"
    app = create_app(service, auth_path=path)
    app.extensions["gammoncam_auth"].set_password("a long password")
    text = path.read_text()
    assert "a long password" not in text and "scrypt" in text
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    again = create_app(service, auth_path=path)  # the same key and password after a restart
    assert again.config["SECRET_KEY"] == app.config["SECRET_KEY"]
    assert again.extensions["gammoncam_auth"].check("a long password")


def test_language_from_accept_language_and_switch(client: FlaskClient) -> None:
    es = client.get("/", headers={"Accept-Language": "es-ES,es;q=0.9"}).get_data(as_text=True)
    assert 'lang="es"' in es and "Tablero" in es and "Posición en revisión" in es
    it = client.get("/", headers={"Accept-Language": "it"}).get_data(as_text=True)
    assert "Posizione in verifica" in it
    resp = client.get("/lang/ca?next=/tournament")
    assert resp.status_code == 302 and resp.headers["Location"] == "/tournament"
    ca = client.get("/", headers={"Accept-Language": "it"}).get_data(as_text=True)
    assert 'lang="ca"' in ca and "Posició en revisió" in ca
    assert client.get("/lang/ca?next=https://evil.example").headers["Location"] == "/"


def test_catalogues_are_complete_and_compiled() -> None:
    from babel.messages.mofile import read_mo
    from babel.messages.pofile import read_po

    root = Path(__file__).resolve().parents[2] / "webui" / "translations"
    for lang in ("es", "ca", "it"):
        po_path = root / lang / "LC_MESSAGES" / "messages.po"
        with po_path.open("rb") as f:
            po = read_po(f)
        with po_path.with_suffix(".mo").open("rb") as f:
            mo = read_mo(f)
        for msg in po:
            if msg.id:
                assert msg.string, f"{lang}: untranslated {msg.id!r}"
                assert mo[msg.id] is not None and mo[msg.id].string == msg.string, (
                    f"{lang}: .mo is older than .po for {msg.id!r}: python -m webui.i18n")


def test_every_page_has_the_language_switch(operator: Operator) -> None:
    for url in ("/", "/referee", "/tournament", "/calibration", "/camera"):
        page = operator.client.get(url).get_data(as_text=True)
        for code in ("en", "es", "ca", "it"):
            assert f"/lang/{code}?next=" in page, (url, code)


def test_event_stream_starts_with_a_snapshot(app: Flask, started: Operator) -> None:
    client = app.test_client()
    resp = client.get("/api/events", buffered=False)
    assert resp.mimetype == "text/event-stream"
    assert resp.headers["Access-Control-Allow-Origin"] == "*"
    chunks = iter(resp.response)
    assert next(chunks).startswith(b"retry:")
    first = next(chunks)
    text = first.decode() if isinstance(first, bytes) else first
    lines = dict(line.split(": ", 1) for line in text.strip().splitlines())
    snap = json.loads(lines["data"])
    assert lines["event"] == "state" and lines["id"] == f"{snap['boot_id']}-{snap['seq']}"
    assert snap["audience"] == "spectator"
    started.command("play", play="8/5 6/5")
    text = b"".join([next(chunks)]).decode()
    while "event: state" not in text:  # pings come between
        text = next(chunks).decode()
    assert json.loads(text.split("data: ", 1)[1])["turn"] == "black"
    streams = app.extensions["gammoncam_streams"]
    assert streams.open == 1
    resp.close()
    assert streams.open == 0


def test_streams_are_capped(app: Flask) -> None:
    app.extensions["gammoncam_streams"].limit = 0
    resp = app.test_client().get("/api/events")
    assert resp.status_code == 503 and resp.headers["Retry-After"]


def test_exports(client: FlaskClient, started: Operator, service: MatchService) -> None:
    started.command("play", play="8/5 6/5")
    mid = service.match_id
    assert client.get(f"/api/matches/{mid}/export?format=mat").status_code == 403  # active
    resp = started.client.get(f"/api/matches/{mid}/export?format=mat")
    assert resp.status_code == 200 and "attachment" in resp.headers["Content-Disposition"]
    assert "Ann" in resp.get_data(as_text=True) and "8/5 6/5" in resp.get_data(as_text=True)
    sgf = started.client.get(f"/api/matches/{mid}/export?format=sgf")
    assert sgf.status_code == 200 and "GM[6]" in sgf.get_data(as_text=True)
    record = started.client.get(f"/api/matches/{mid}/export?format=json")
    assert record.status_code == 200 and json.loads(record.get_data(as_text=True))
    assert started.client.get(f"/api/matches/{mid}/export?format=doc").status_code == 400
    assert started.client.get("/api/matches/999/export?format=mat").status_code == 404
    # a finished (abandoned) match is public
    started.command("new_match", length=1)
    assert client.get(f"/api/matches/{mid}/export?format=mat").status_code == 200
    listed = client.get("/api/matches").get_json()
    assert [m["id"] for m in listed["matches"]] == [mid, service.match_id]


def test_user_text_is_escaped_in_pages(app: Flask, operator: Operator) -> None:
    app.config["BOARD_NAME"] = "<script>alert(1)</script>"
    page = operator.client.get("/").get_data(as_text=True)
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;" in page
    page = operator.client.get("/login?next=%22%3E%3Cscript%3E").get_data(as_text=True)
    assert '"><script>' not in page
