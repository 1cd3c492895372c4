"""The live state's additions from the event log (webui/logview.py, webui/view.py): a position
the camera (or the referee) set mid-game is in the move list where it happened, with its reason,
and in ``correction`` until the next play; the previous game's score (``last_game``: a Long Nardi
mars, a resignation) once the next game starts; Long Nardi's pip counts in each side's own
numbering."""

from __future__ import annotations

from flask.testing import FlaskClient

from .conftest import Operator

REASON = "the board could not be reached by any play from the recorded position"


def _start(operator: Operator) -> None:
    assert operator.command("new_match", length=5, white="Ana", black="Bruno").status_code == 200
    operator.command("opening_roll", white=3, black=1)
    operator.command("play", play="8/5 6/5")


def _camera_set(operator: Operator) -> dict:
    state = operator.client.get("/api/state").get_json()
    points = list(state["position"]["points"])
    points[23], points[20] = 1, 1  # white's 24/21 never seen
    resp = operator.command("set_position", turn="white", source="camera", reason=REASON,
                            position={**state["position"], "points": points})
    assert resp.status_code == 200, resp.get_json()
    return state


def test_a_camera_correction_is_in_the_move_list_and_the_status(client: FlaskClient,
                                                                 operator: Operator) -> None:
    _start(operator)
    _camera_set(operator)
    for who in (client, operator.client):  # spectators see it too: no misplay in it
        state = who.get("/api/state").get_json()
        kinds = [m["kind"] for m in state["moves"]]
        assert kinds == ["roll", "correction"]
        fix = state["moves"][1]
        assert (fix["source"], fix["reason"], fix["side"]) == ("camera", REASON, "white")
        assert state["correction"] == fix
    operator.command("roll", dice=[6, 5])
    operator.command("play", play="24/13")
    state = client.get("/api/state").get_json()
    assert [m["kind"] for m in state["moves"]] == ["roll", "correction", "roll"]
    assert "correction" not in state  # the status says it only until the next play


def test_the_referee_setting_the_position_says_so(client: FlaskClient,
                                                  operator: Operator) -> None:
    _start(operator)
    state = operator.client.get("/api/state").get_json()
    operator.command("set_position", turn="black", position=state["position"])
    fix = client.get("/api/state").get_json()["moves"][-1]
    assert (fix["kind"], fix["source"], fix["reason"]) == ("correction", "referee", "")


def test_no_correction_no_change(client: FlaskClient, operator: Operator) -> None:
    _start(operator)
    state = client.get("/api/state").get_json()
    assert [m["kind"] for m in state["moves"]] == ["roll"] and "correction" not in state
    assert "last_game" not in state


def test_a_long_nardi_mars_is_the_last_game_and_pips_count_each_sides_way(
        client: FlaskClient, operator: Operator) -> None:
    operator.command("new_match", length=5, white="Ana", black="Bruno", variant="long nardi")
    assert client.get("/api/state").get_json()["pips"] == {"white": 360, "black": 360}
    points = [1] + [0] * 10 + [-15] + [0] * 12  # white's last checker; black's 15 on its head
    resp = operator.command("set_position", turn="white", dice=[6, 5], position={
        "points": points, "bar": {"white": 0, "black": 0}, "off": {"white": 14, "black": 0}})
    assert resp.status_code == 200, resp.get_json()
    resp = operator.command("play", position={
        "points": [0] * 11 + [-15] + [0] * 12, "bar": {"white": 0, "black": 0},
        "off": {"white": 15, "black": 0}})
    assert resp.status_code == 200, resp.get_json()
    state = client.get("/api/state").get_json()
    assert state["game"] == 2 and state["score"] == {"white": 2, "black": 0}
    assert state["last_game"] == {"number": 1, "winner": "white", "points": 2,
                                  "result": "gammon"}  # a mars: the page calls it so
    assert state["pips"] == {"white": 360, "black": 360}


def test_an_undone_game_end_is_not_the_last_game(client: FlaskClient,
                                                 operator: Operator) -> None:
    _start(operator)
    operator.command("resign", side="black", value=1)
    operator.command("accept")
    assert client.get("/api/state").get_json()["last_game"]["result"] == "resign"
    operator.command("undo")
    assert "last_game" not in client.get("/api/state").get_json()


def test_a_correction_in_a_later_game_is_placed_in_that_game(client: FlaskClient,
                                                             operator: Operator) -> None:
    _start(operator)
    _camera_set(operator)  # game 1's: not in game 2's list
    operator.command("resign", side="black", value=1)
    operator.command("accept")
    operator.command("opening_roll", white=6, black=1)
    operator.command("play", play="13/7 8/7")
    _camera_set(operator)
    state = client.get("/api/state").get_json()
    assert state["game"] == 2 and [m["kind"] for m in state["moves"]] == ["roll", "correction"]
    assert state["correction"]["reason"] == REASON
