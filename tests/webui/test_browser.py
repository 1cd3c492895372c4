"""Browser tests: Playwright driving Debian's Chromium against a real waitress server.

The spectator page updates live; the referee sees an illegal flag and resolves it while
spectators see only "position under review"; an action without login is refused; a page
recovers after the server restarts. Every page is saved as a screenshot at tablet size (both
orientations) and phone size in tests/webui/screenshots/.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .server import PASSWORD, OperatorClient, Server

sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = "/usr/bin/chromium"
SHOTS = Path(__file__).with_name("screenshots")
TABLET = {"width": 1280, "height": 800}
TABLET_PORTRAIT = {"width": 800, "height": 1280}
PHONE = {"width": 390, "height": 844}

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists() and not shutil.which("chromium"),
                                reason="Debian's chromium is not installed (make test installs it)")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--no-first-run"])
        yield b
        b.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("board")).start()
    yield s
    s.stop()


def _page(browser: Any, viewport: dict[str, int] = TABLET, lang: str = "en") -> Any:
    ctx = browser.new_context(viewport=viewport, locale=lang,
                              extra_http_headers={"Accept-Language": lang})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def _login(page: Any, url: str) -> None:
    page.goto(url + "/login?next=/referee")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(url + "/referee")


def _shoot(page: Any, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.wait_for_timeout(300)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


def test_spectator_updates_live(browser: Any, server: Server) -> None:
    op = OperatorClient(server.url)
    op.command("new_match", length=5, white="Ana <b>", black="Bruno")
    op.command("opening_roll", white=3, black=1)
    page = _page(browser)
    page.goto(server.url + "/")
    page.wait_for_selector("#conn.live")
    assert page.text_content("#p-white .name") == "Ana <b>"  # user text shown, not markup
    assert page.text_content("#status") == "Ana <b> to play 3-1"
    op.command("play", play="8/5 6/5")
    page.wait_for_selector("#moves li:has-text('8/5 6/5')")
    assert "Bruno to roll" in page.text_content("#status")
    assert page.locator("svg#board circle.checker").count() == 30
    _shoot(page, "spectator-tablet-landscape")
    page.set_viewport_size(TABLET_PORTRAIT)
    _shoot(page, "spectator-tablet-portrait")
    page.set_viewport_size(PHONE)
    _shoot(page, "spectator-phone")
    assert not page.errors


def test_referee_sees_the_flag_and_resolves_it(browser: Any, server: Server) -> None:
    op = OperatorClient(server.url)
    op.command("new_match", length=5, white="Ana", black="Bruno")
    op.command("opening_roll", white=3, black=1)
    referee, spectator = _page(browser), _page(browser, lang="es")
    _login(referee, server.url)
    spectator.goto(server.url + "/")
    referee.wait_for_selector("#play-box:not([hidden])")
    referee.fill("#play-text", "13/9 6/5")  # 5 pips for a 3-1
    referee.click("#do-play")
    referee.wait_for_selector("#flag-box:not([hidden])")
    assert "more than the 4" in referee.text_content("#flag-reasons")
    spectator.wait_for_selector("#review:not([hidden])")
    assert spectator.text_content("#review") == "Posición en revisión"
    assert "more than the 4" not in spectator.content()  # no reasons leak to spectators
    _shoot(referee, "referee-flag-tablet-landscape")
    _shoot(spectator, "spectator-review-es")
    referee.click("#flag-box button[data-cmd=clear_flag]")
    referee.wait_for_selector("#flag-box", state="hidden")
    referee.wait_for_selector("#legal option[value='8/5 6/5']", state="attached")
    referee.select_option("#legal", "8/5 6/5")
    referee.click("#do-legal")
    spectator.wait_for_selector("#moves li:has-text('8/5')")
    assert spectator.is_hidden("#review")
    referee.click("#new-match summary")
    referee.set_viewport_size(TABLET_PORTRAIT)
    _shoot(referee, "referee-tablet-portrait")
    referee.click("#new-match summary")
    referee.set_viewport_size(TABLET)
    referee.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    _shoot(referee, "referee-controls-tablet-landscape")
    assert not referee.errors and not spectator.errors


def test_action_without_login_is_refused(browser: Any, server: Server) -> None:
    page = _page(browser)
    page.goto(server.url + "/")
    status = page.evaluate("""async () => (await fetch('/api/commands', {method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({command: 'new_match', length: 1})})).status""")
    assert status == 401
    page.goto(server.url + "/referee")
    assert page.url.startswith(server.url + "/login")
    _shoot(page, "login-tablet")


def test_other_pages(browser: Any, server: Server) -> None:
    page = _page(browser, lang="it")
    _login(page, server.url)
    for name in ("calibration", "camera"):
        page.goto(server.url + "/" + name)
        assert "Nessuna telecamera su questo tavoliere." in page.text_content("main")
        _shoot(page, f"{name}-tablet-it")
    # tournament: this board twice, once by another origin (CORS)
    other = server.url.replace("127.0.0.1", "localhost")
    page.goto(f"{server.url}/tournament?boards={server.url},{other}")
    page.locator(".tile .tconn.live").nth(1).wait_for()
    page.locator(".tile .tscore .tplayer").nth(3).wait_for()
    _shoot(page, "tournament-tablet-it")
    page.set_viewport_size(TABLET_PORTRAIT)
    _shoot(page, "tournament-tablet-portrait-it")
    assert not page.errors


def test_page_recovers_after_the_server_restarts(browser: Any,
                                                 tmp_path_factory: pytest.TempPathFactory) -> None:
    s = Server(tmp_path_factory.mktemp("restart")).start()
    try:
        op = OperatorClient(s.url)
        op.command("new_match", length=3, white="Ana", black="Bruno")
        page = _page(browser, lang="ca")
        page.goto(s.url + "/")
        page.wait_for_selector("#conn.live")
        s.stop()
        page.wait_for_selector("#conn.stale", timeout=10000)
        assert "Sense dades des de les" in page.text_content("#conn")
        _shoot(page, "spectator-stale-ca")
        s.start()
        op = OperatorClient(s.url)  # the session key survives; log in again anyway
        op.command("opening_roll", white=6, black=1)
        page.wait_for_selector("#conn.live", timeout=20000)
        page.wait_for_selector("#status:has-text('6-1')", timeout=20000)
    finally:
        s.stop()


def test_variants_on_the_pages(browser: Any, server: Server) -> None:
    """Plakoto pins (both colours on the point, the pinned one at its base), no cube, the
    variant's name; Long Nardi heads in Spanish; a Tavli match started from the referee's form
    shows "Tavli · game 1: Portes" on the referee and tournament pages."""
    op = OperatorClient(server.url)
    op.command("new_match", length=3, white="Ana", black="Bruno", variant="plakoto")
    pinned = [0] * 24
    pinned[5], pinned[18] = 1, -1
    op.command("set_position", turn="white", position={
        "points": [-8, 0, 0, 0, 0, -6] + [0] * 12 + [2, 0, 0, 0, 0, 12], "pinned": pinned})
    page = _page(browser)
    page.goto(server.url + "/")
    page.wait_for_selector("svg#board circle.checker.pinned")
    on6 = page.locator('svg#board circle.checker[data-point="6"]')
    classes = [on6.nth(k).get_attribute("class") for k in range(on6.count())]
    assert classes[0] == "checker white pinned"  # drawn first: at the point's base
    assert classes[1:] == ["checker black pinner"] * 4  # 6 pinners, 4 drawn, counted
    ys = [float(on6.nth(k).get_attribute("cy")) for k in range(on6.count())]
    assert ys == sorted(ys, reverse=True)  # bottom row: the base is lowest
    assert page.text_content('svg#board text.count[data-point="6"]') == "6"
    assert page.locator('svg#board circle.checker.pinned.black[data-point="19"]').count() == 1
    assert page.locator("svg#board g.pin").count() == 2
    assert page.locator("svg#board circle.checker").count() == 5 + (1 + 4) + (1 + 2) + 5
    assert "Plakoto" in page.text_content("#matchinfo")
    assert page.text_content("#cubeinfo") == "" and page.locator("svg#board rect.cube").count() == 0
    _shoot(page, "variant-plakoto-pins-tablet")

    op.command("new_match", length=3, white="Ana", black="Bruno", variant="long nardi")
    es = _page(browser, lang="es")
    es.goto(server.url + "/")
    es.wait_for_selector("svg#board g.head")
    assert es.locator("svg#board g.head").count() == 2
    assert es.text_content("svg#board g.head.white") == "cabeza"
    assert "Nardi largo" in es.text_content("#matchinfo")
    _shoot(es, "variant-long-nardi-es")

    referee = _page(browser, lang="it")
    _login(referee, server.url)
    referee.click("#new-match summary")
    referee.fill("input[name=length]", "4")
    referee.select_option("#nm-variant", "tavli")  # a Tavli match is to 3, 5 or 7 points
    assert referee.input_value("input[name=length]") == "5"
    assert referee.is_visible("select[name=mother_points]")
    referee.select_option("select[name=mother_points]", "3")
    referee.locator("#new-match").scroll_into_view_if_needed()
    _shoot(referee, "variant-new-match-form-it")
    referee.click("#new-match-form button[type=submit]")
    referee.wait_for_selector("#matchinfo:has-text('Tavli · partita 1: Portes')")
    assert referee.is_hidden("#cube-box")
    state = referee.evaluate("async () => (await fetch('/api/state')).json()")
    assert state["settings"]["mother_points"] == 3 and state["settings"]["opening"] == "reroll"
    referee.evaluate("window.scrollTo(0, 0)")
    _shoot(referee, "variant-tavli-referee-it")
    page.goto(f"{server.url}/tournament?boards={server.url}")
    page.wait_for_selector(".tile .tstatus:has-text('Tavli · game 1: Portes')")
    assert not page.errors and not es.errors and not referee.errors


def test_a_camera_correction_on_the_live_page(browser: Any, server: Server) -> None:
    """The camera set the board (a PositionCorrected marked as the camera's): the spectator's
    status says so with the reason as it happens, the move list keeps it where it happened; a
    Long Nardi mars is named as such once the next game starts, with both sides' pips 360."""
    op = OperatorClient(server.url)
    op.command("new_match", length=5, white="Ana", black="Bruno")
    op.command("opening_roll", white=3, black=1)
    state = op.command("play", play="8/5 6/5")["state"]
    points = list(state["position"]["points"])
    points[23], points[20] = 1, 1
    reason = "the board could not be reached by any play (read surely over 3 settled runs)"
    op.command("set_position", turn="white", source="camera", reason=reason,
               position={**state["position"], "points": points})
    page = _page(browser)
    page.goto(server.url + "/")
    page.wait_for_selector("#moves li.correction")
    want = f"The camera set the position: {reason}"
    assert page.text_content("#moves li.correction") == want
    assert page.text_content("#status .correction") == want
    assert page.text_content("#status").startswith("Ana to roll")
    _shoot(page, "spectator-camera-correction")
    op.command("roll", dice=[6, 5])
    op.command("play", play="24/13")
    page.wait_for_selector("#moves li:has-text('24/13')")
    assert page.locator("#status .correction").count() == 0
    assert page.locator("#moves li.correction").count() == 1
    assert [li.strip() for li in page.locator("#moves li").all_text_contents()] == [
        "3-1: 8/5 6/5", want, "6-5: 24/13"]

    op.command("new_match", length=5, white="Ana", black="Bruno", variant="long nardi")
    op.command("set_position", turn="white", dice=[6, 5], position={
        "points": [1] + [0] * 10 + [-15] + [0] * 12, "bar": {"white": 0, "black": 0},
        "off": {"white": 14, "black": 0}})
    op.command("play", position={"points": [0] * 11 + [-15] + [0] * 12,
                                 "bar": {"white": 0, "black": 0},
                                 "off": {"white": 15, "black": 0}})
    es = _page(browser, lang="es")
    es.goto(server.url + "/")
    es.wait_for_selector("#status .lastgame")
    assert es.text_content("#status .lastgame") == "Partida 1: Ana gana 2 punto(s) (mars)"
    assert es.text_content("#p-black .pips") == es.text_content("#p-white .pips") == "Pips 360"
    _shoot(es, "variant-long-nardi-mars-es")
    assert not page.errors and not es.errors
