"""The JSON API: state, commands (login + CSRF), what spectators may see, health, clip."""

from __future__ import annotations

from flask.testing import FlaskClient

from gammoncam.service import MatchService

from .conftest import Operator, login


def test_state_is_public_with_cors(client: FlaskClient, started: Operator) -> None:
    resp = client.get("/api/state")
    assert resp.status_code == 200
    assert resp.headers["Access-Control-Allow-Origin"] == "*"
    state = resp.get_json()
    assert state["audience"] == "spectator"
    assert state["turn"] == "white" and state["dice"] == [3, 1]
    assert state["settings"]["white"] == "Ann"


def test_command_without_login_is_refused_and_changes_nothing(
        client: FlaskClient, service: MatchService, started: Operator) -> None:
    before = service.snapshot()["seq"]
    resp = client.post("/api/commands", json={"command": "play", "play": "8/5 6/5"})
    assert resp.status_code == 401
    assert service.snapshot()["seq"] == before


def test_command_without_csrf_is_refused(service: MatchService, started: Operator) -> None:
    before = service.snapshot()["seq"]
    resp = started.client.post("/api/commands", json={"command": "play", "play": "8/5 6/5"})
    assert resp.status_code == 403
    resp = started.client.post("/api/commands", json={"command": "play", "play": "8/5 6/5"},
                               headers={"X-CSRF-Token": "forged"})
    assert resp.status_code == 403
    assert service.snapshot()["seq"] == before


def test_operator_records_a_play(started: Operator, service: MatchService) -> None:
    resp = started.command("play", play="8/5 6/5")
    assert resp.status_code == 200
    body = resp.get_json()
    assert [e["type"] for e in body["events"]] == ["Moved"]
    assert service.snapshot()["turn"] == "black"


def test_refused_command_is_a_400_with_the_reason(started: Operator) -> None:
    resp = started.command("take")
    assert resp.status_code == 400
    assert "not possible now" in resp.get_json()["error"]
    assert started.post("/api/commands", ["not", "an", "object"]).status_code == 400


def test_spectators_see_only_position_under_review(
        client: FlaskClient, started: Operator) -> None:
    assert started.command("play", play="13/9 6/5").status_code == 200  # 5 pips for 3-1
    spectator = client.get("/api/state").get_json()
    assert spectator["phase"] == "review" and spectator["review"] is True
    assert spectator["flag"] is None and spectator["candidates"] == []
    assert "pips" not in str(spectator.get("flag"))
    ref = started.client.get("/api/state").get_json()
    assert ref["phase"] == "flagged" and ref["flag"]["codes"] == ["too_many_pips"]
    # let stand: listed as played, never marked illegal for spectators
    assert started.command("let_stand").status_code == 200
    moves = client.get("/api/state").get_json()["moves"]
    assert moves[-1]["kind"] == "roll" and moves[-1]["illegal"] is False
    assert started.client.get("/api/state").get_json()["moves"][-1]["illegal"] is True


def test_legal_moves_only_shows_flags_to_everyone(client: FlaskClient, operator: Operator) -> None:
    operator.command("new_match", length=3, legal_moves_only=True)
    operator.command("opening_roll", white=3, black=1)
    operator.command("play", play="13/9 6/5")
    state = client.get("/api/state").get_json()
    assert state["phase"] == "flagged" and state["flag"]["reasons"]
    assert operator.command("let_stand").status_code == 400  # never let stand in that mode


def test_flag_resolved_by_the_correct_play(started: Operator) -> None:
    started.command("play", play="13/9 6/5")
    assert started.command("clear_flag").get_json()["state"]["phase"] == "rolled"
    state = started.command("play", play="8/5 6/5").get_json()["state"]
    assert state["phase"] == "roll" and state["turn"] == "black"


def test_replace_play_and_refused_replacement(started: Operator, service: MatchService) -> None:
    started.command("play", play="8/5 6/5")
    resp = started.command("replace_play", play="24/21 24/23")
    assert resp.status_code == 200
    assert sorted(service.snapshot()["moves"][-1]["play"].split()) == ["24/21", "24/23"]
    seq = service.snapshot()["seq"]
    assert started.command("replace_play", play="6/1 6/1").status_code == 400
    assert service.snapshot()["seq"] == seq  # nothing undone by a refused replacement


def test_set_position_from_xgid(started: Operator, service: MatchService) -> None:
    xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:3:10"
    resp = started.command("set_position", xgid=xgid, turn="white", dice=[6, 5])
    assert resp.status_code == 200, resp.get_json()
    state = service.snapshot()
    assert state["dice"] == [6, 5] and state["turn"] == "white"
    assert started.command("set_position", xgid="XGID=nonsense").status_code == 400


def test_legal_plays_for_the_referee(started: Operator, client: FlaskClient) -> None:
    plays = started.client.get("/api/legal").get_json()["plays"]
    assert "8/5 6/5" in [p["play"] for p in plays]
    assert client.get("/api/legal").status_code == 401


def test_clip_without_camera_is_an_honest_501(started: Operator, client: FlaskClient) -> None:
    assert client.post("/api/clip").status_code == 401
    resp = started.post("/api/clip")
    assert resp.status_code == 501 and "no camera" in resp.get_json()["error"]


def test_healthz(client: FlaskClient) -> None:
    resp = client.get("/healthz")
    body = resp.get_json()
    assert resp.status_code == 200 and body["ok"] is True and body["reasons"] == []


def test_healthz_reports_a_failing_camera(client: FlaskClient, service: MatchService) -> None:
    service.set_status(camera={"ok": False, "error": "no frames for 10 s"})
    resp = client.get("/healthz")
    assert resp.status_code == 503 and "camera: no frames for 10 s" in resp.get_json()["reasons"]


def test_unknown_api_path_is_json_404(client: FlaskClient) -> None:
    resp = client.get("/api/nothing")
    assert resp.status_code == 404 and "error" in resp.get_json()


def test_login_wrong_password_then_lockout(client: FlaskClient) -> None:
    for _ in range(5):
        assert login(client, "wrong password").status_code == 401
    assert login(client).status_code == 429


def test_logout_needs_csrf_and_ends_the_session(operator: Operator) -> None:
    assert operator.client.post("/logout").status_code == 403
    assert operator.client.post("/logout", data={"csrf_token": operator.csrf}).status_code == 302
    assert operator.client.get("/api/session").get_json()["operator"] is False


def test_session_cookie_is_httponly_and_samesite(client: FlaskClient) -> None:
    resp = login(client)
    cookie = resp.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie


def test_no_open_redirect_after_login(client: FlaskClient) -> None:
    page = client.get("/login").get_data(as_text=True)
    token = page.split('name="csrf_token" value="')[1].split('"')[0]
    from .conftest import PASSWORD

    resp = client.post("/login", data={"password": PASSWORD, "csrf_token": token,
                                       "next": "//evil.example/x"})
    assert resp.status_code == 302 and resp.headers["Location"] == "/referee"


class _Camera:
    """A fake camera service: the hooks the camera issue adds, over the real service."""

    def __init__(self, service: MatchService) -> None:
        self._service = service
        self.saved: list[str] = []
        self.corners: list[object] = []

    def __getattr__(self, name: str) -> object:
        return getattr(self._service, name)

    def snapshot_jpeg(self) -> bytes:
        return b"\xff\xd8fakejpeg\xff\xd9"

    def save_clip(self, path: str) -> int:
        self.saved.append(path)
        return 120

    def calibrate(self, corners: object) -> dict:
        self.corners.append(corners)
        return {"corners": corners or [[0, 0], [10, 0], [10, 10], [0, 10]], "start_ok": True,
                "problems": []}

    def save_profile(self) -> str:
        return "profile.json"


def test_camera_hooks(service: MatchService, tmp_path) -> None:  # noqa: ANN001
    from .conftest import make_app

    cam = _Camera(service)
    app = make_app(cam)
    app.config["CLIP_DIR"] = str(tmp_path / "clips")
    client = app.test_client()
    assert client.get("/api/camera/snapshot.jpg").status_code == 401
    login(client)
    op = Operator(client)
    assert client.get("/api/camera/snapshot.jpg").data.startswith(b"\xff\xd8")
    resp = op.post("/api/clip")
    assert resp.status_code == 200 and resp.get_json()["frames"] == 120
    assert cam.saved[0].startswith(str(tmp_path / "clips"))
    corners = [[1, 2], [30, 2], [30, 40], [1, 40]]
    assert op.post("/api/calibration", {"corners": corners}).get_json()["result"]["start_ok"]
    assert cam.corners == [corners]
    assert op.post("/api/calibration", {"corners": [[1, 2]]}).status_code == 400
    assert op.post("/api/calibration/save").get_json()["saved"] == "profile.json"
    page = client.get("/calibration").get_data(as_text=True)
    assert "No camera on this board" not in page and 'id="snap"' in page


def test_camera_pages_without_camera(operator: Operator) -> None:
    for url in ("/calibration", "/camera"):
        page = operator.client.get(url).get_data(as_text=True)
        assert "No camera on this board." in page
    assert operator.client.get("/api/camera/snapshot.jpg").status_code == 501
    assert operator.post("/api/calibration", {"corners": None}).status_code == 501
