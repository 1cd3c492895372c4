"""The judge's reasons in every language: each reason code of ``engine.judge`` has its rule in the
catalogues (es, ca, it), and a flag's codes reach the referee page with the translations; every
text the sources mark for translation (Python and templates) is in each catalogue."""

from __future__ import annotations

import json
import re

import pytest
from flask import Flask

from engine.judge import REASON_CODES
from webui.reasons import reason_texts

from .conftest import Operator

LANGS = ("es", "ca", "it")


def _texts(app: Flask, lang: str) -> dict[str, str]:
    with app.test_request_context(headers={"Accept-Language": lang}):
        return reason_texts()


def test_every_reason_code_has_a_rule_text(app: Flask) -> None:
    english = _texts(app, "en")
    assert set(english) == set(REASON_CODES)
    assert len(set(english.values())) == len(REASON_CODES)  # no two codes say the same


@pytest.mark.parametrize("lang", LANGS)
def test_every_reason_is_translated(app: Flask, lang: str) -> None:
    english, local = _texts(app, "en"), _texts(app, lang)
    same = [code for code in REASON_CODES if local[code] == english[code]]
    assert not same, f"{lang}: not translated: {same}"
    assert len(set(local.values())) == len(REASON_CODES)


def test_rule_terms_as_players_say_them(app: Flask) -> None:
    es, ca, it = (_texts(app, lang) for lang in LANGS)
    assert "barra" in es["enter_from_bar_first"] and "sacar" in es["bear_off_not_home"]
    assert "barra" in ca["hit_not_on_bar"] and "treure" in ca["bear_off_not_home"]
    assert "bar" in it["hit_not_on_bar"] and "portare fuori" in it["bear_off_not_home"]
    assert "dadi" in it["must_use_both_dice"] and "dados" in es["must_use_both_dice"]


@pytest.mark.parametrize("lang,rule", [
    ("es", "Se movieron más pips de los que dan los dados"),
    ("ca", "S'han mogut més pips dels que donen els daus"),
    ("it", "Sono stati mossi più punti di quanti ne diano i dadi"),
])
def test_a_flag_reaches_the_referee_page_with_its_code_translated(
        started: Operator, lang: str, rule: str) -> None:
    resp = started.command("play", play="13/9 6/5")  # 5 pips for a 3-1
    assert resp.status_code == 200
    flag = started.client.get("/api/state").get_json()["flag"]
    assert "too_many_pips" in flag["codes"] and len(flag["codes"]) == len(flag["reasons"])
    page = started.client.get("/referee", headers={"Accept-Language": lang}).get_data(as_text=True)
    found = re.search(r'<script[^>]*id="i18n"[^>]*>(.*?)</script>', page, re.S)
    assert found is not None
    strings = json.loads(found.group(1))
    assert strings["reasons"]["too_many_pips"] == rule


@pytest.mark.parametrize("lang", LANGS)
def test_every_text_of_the_sources_is_in_the_catalogue(lang: str) -> None:
    from pathlib import Path

    from babel.messages.extract import extract_from_dir
    from babel.messages.pofile import read_po

    root = Path(__file__).resolve().parents[2] / "webui"
    ids = {m if isinstance(m, str) else m[0] for _f, _l, m, _c, _x in extract_from_dir(
        str(root), [("**.py", "python"), ("templates/**.html", "jinja2")])}
    assert len(ids) > 200
    with (root / "translations" / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        po = read_po(f)
    missing = sorted(i for i in ids if i not in po or not po[i].string)
    assert not missing, f"{lang}: no translation for {missing}"
