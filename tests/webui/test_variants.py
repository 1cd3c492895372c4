"""Variants on the pages: names as players say them, no cube where the variant has none, pins
and heads in the state the board is drawn from, and the new-match form's variant settings."""

from __future__ import annotations

import json
import re
from dataclasses import fields

import pytest
from flask.testing import FlaskClient

from engine.rules import VARIANTS
from engine.settings import MatchSettings

from .conftest import Operator

# Plakoto: a white checker pinned under six black ones on white's 6 (index 5), a black one
# under two white ones on index 18
PINNED_POSITION = {
    "points": [-8, 0, 0, 0, 0, -6] + [0] * 12 + [2, 0, 0, 0, 0, 12],
    "pinned": [0] * 5 + [1] + [0] * 12 + [-1] + [0] * 5,
}


def page_strings(client: FlaskClient, url: str = "/", lang: str = "en") -> dict:
    page = client.get(url, headers={"Accept-Language": lang}).get_data(as_text=True)
    blob = re.search(r'<script id="i18n" type="application/json">(.*?)</script>', page, re.S)
    assert blob, "the page hands its texts to the scripts"
    return json.loads(blob.group(1))


@pytest.mark.parametrize(("lang", "long_nardi", "head"), [
    ("en", "Long Nardi", "head"), ("es", "Nardi largo", "cabeza"),
    ("ca", "Nardi llarg", "cap"), ("it", "Nardi lungo", "testa")])
def test_variant_names_as_players_say_them(client: FlaskClient, lang: str, long_nardi: str,
                                           head: str) -> None:
    texts = page_strings(client, lang=lang)
    names = texts["variants"]
    assert {r.name for r in VARIANTS} <= set(names)  # every variant has a name to show
    assert names["long nardi"] == long_nardi and texts["head"] == head
    assert names["plakoto"] == "Plakoto" and names["fevga"] == "Fevga"
    assert names["portes"] == "Portes" and names["tavli"] == "Tavli"
    assert texts["match_game"].count("{") == 3  # "{m} · game {n}: {v}" in every language


@pytest.mark.parametrize(("variant", "extra", "cube"), [
    ("backgammon", {}, True), ("plakoto", {}, False), ("long nardi", {}, False),
    ("portes", {}, False), ("plakoto", {"cube": True}, True),
    ("backgammon", {"cube": False}, False), ("short nardi", {}, True)])
def test_cube_used_follows_the_variant_and_the_setting(client: FlaskClient, operator: Operator,
                                                      variant: str, extra: dict,
                                                      cube: bool) -> None:
    resp = operator.command("new_match", length=3, variant=variant, **extra)
    assert resp.status_code == 200, resp.get_json()
    assert client.get("/api/state").get_json()["cube_used"] is cube
    assert operator.client.get("/api/state").get_json()["cube_used"] is cube


def test_no_match_no_cube(client: FlaskClient) -> None:
    assert client.get("/api/state").get_json()["cube_used"] is False


def test_pins_reach_the_spectators(client: FlaskClient, operator: Operator) -> None:
    assert operator.command("new_match", length=3, variant="plakoto").status_code == 200
    resp = operator.command("set_position", position=PINNED_POSITION, turn="white")
    assert resp.status_code == 200, resp.get_json()
    state = client.get("/api/state").get_json()
    assert state["pinned"][5] == 1 and state["pinned"][18] == -1
    assert state["position"]["points"][5] == -6
    assert state["variant"] == state["match_variant"] == "plakoto" and state["heads"] is None


def test_heads_and_tavli_in_the_state(client: FlaskClient, operator: Operator) -> None:
    operator.command("new_match", length=3, variant="long nardi")
    assert client.get("/api/state").get_json()["heads"] == {"white": 23, "black": 11}
    operator.command("new_match", length=5, variant="tavli")
    state = client.get("/api/state").get_json()
    assert (state["match_variant"], state["variant"], state["game"]) == ("tavli", "portes", 1)


def test_new_match_form_offers_every_setting(operator: Operator) -> None:
    page = operator.client.get("/referee").get_data(as_text=True)
    form = page.split('id="new-match-form"', 1)[1].split("</form>", 1)[0]
    for f in fields(MatchSettings):
        assert f'name="{f.name}"' in form, f"the form lacks the setting {f.name}"
    select = form.split('name="variant"', 1)[1].split("</select>", 1)[0]
    assert re.findall(r'<option value="([^"]+)"', select) == [r.name for r in VARIANTS]
    assert '<option value="backgammon" selected>' in select
    for value in ("reroll", "past_start", "start_quarter", "ahead", "allowed", "never"):
        assert f'value="{value}"' in form


def test_new_match_form_selects_the_running_variant_in_spanish(operator: Operator) -> None:
    operator.command("new_match", length=3, variant="long nardi")
    page = operator.client.get("/referee", headers={"Accept-Language": "es"}
                               ).get_data(as_text=True)
    assert '<option value="long nardi" selected>Nardi largo</option>' in page
    assert "Seis puntos seguidos" in page and "Variante" in page


def test_form_settings_are_accepted_by_the_engine(client: FlaskClient,
                                                  operator: Operator) -> None:
    """What referee.js sends for a Tavli match with the variant settings changed."""
    cmd = {"white": "Ana", "black": "Bo", "event": "", "variant": "tavli", "end_values": "full",
           "fevga_first_checker": "start_quarter", "length": 5, "beavers": 1, "raccoons": 0,
           "automatic_doubles": 0, "crawford": True, "jacoby": True, "dead_cube_doubles": True,
           "draw_by_last_roll": False, "legal_moves_only": False, "mother_exception": False,
           "max_cube": None, "mother_points": 3, "cube": None, "backgammons": False,
           "winner_starts": None, "six_block": "never"}
    resp = operator.command("new_match", **cmd)
    assert resp.status_code == 200, resp.get_json()
    s = client.get("/api/state").get_json()["settings"]
    assert (s["mother_points"], s["mother_exception"], s["six_block"]) == (3, False, "never")
    assert s["opening"] == "reroll"  # left out: the variant's own opening
    bad = operator.command("new_match", **{**cmd, "length": 4})
    assert bad.status_code == 400 and "3, 5 or 7" in bad.get_json()["error"]
