"""The referee's tap-to-edit board (Playwright on Debian's Chromium): a position set by tapping
points, the bar and a tray, and by the keyboard alone, with the turn and the dice, arrives as
the board's state; a draft that does not hold 15 checkers a side cannot be sent. The reasons of
an illegal play show in the page's language. Screenshots go to tests/webui/screenshots/."""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

from .server import OperatorClient, Server
from .test_browser import (
    SHOTS,
    TABLET_PORTRAIT,
    _login,
    _page,
    _shoot,
    browser,
    pytestmark,
    server,
)

__all__ = ["browser", "pytestmark", "server"]  # the fixtures and the skip mark of the module


def _state(server: Server) -> dict[str, Any]:
    with urllib.request.urlopen(server.url + "/api/state", timeout=5) as r:
        return json.loads(r.read())


def _tap(page: Any, zone: str, times: int = 1) -> None:
    for _ in range(times):
        page.click(f"#edit-board .zone[data-zone='{zone}']")


def _editor_after_opening(browser: Any, server: Server) -> Any:
    """The referee page, logged in, on a 5-point match after the opening roll (3-1)."""
    op = OperatorClient(server.url)
    op.command("new_match", length=5, white="Ana", black="Bruno")
    op.command("opening_roll", white=3, black=1)
    page = _page(browser)
    _login(page, server.url)
    page.wait_for_selector("#ed-counts:has-text('White 15 of 15')")
    return page


def test_set_position_by_tapping(browser: Any, server: Server) -> None:
    page = _editor_after_opening(browser, server)
    assert page.is_enabled("#ed-submit")
    # from the live start position: white's 13-point 5 -> 3, one on the 7-point, one borne off
    page.check("input[name=ed-tool][value=remove]")
    _tap(page, "p13", 2)
    assert page.is_disabled("#ed-submit")  # 13 white checkers: not a position
    page.check("input[name=ed-tool][value=white]")
    _tap(page, "p7")
    _tap(page, "off-white")
    # black: one from its 6-point (white's 19) onto the bar; a tap on a white point changes hands
    page.check("input[name=ed-tool][value=remove]")
    _tap(page, "p19")
    _tap(page, "bar-black")  # "remove" on an empty bar: stays empty
    page.check("input[name=ed-tool][value=black]")
    _tap(page, "bar-black")
    page.wait_for_selector("#ed-counts:has-text('White 15 of 15 · Black 15 of 15')")
    # by the keyboard alone: a black checker from white's 12-point onto white's 5-point
    page.focus("#edit-board .zone[data-zone='p12']")
    page.keyboard.press("Delete")
    page.focus("#edit-board .zone[data-zone='p5']")
    page.keyboard.press("Enter")
    assert page.get_attribute("#edit-board .zone[data-zone='p5']", "aria-label") == \
        "Point 5: 1 Black"
    page.select_option("#pos-turn", "black")
    page.select_option("#ed-die1", "6")
    page.select_option("#ed-die2", "4")
    SHOTS.mkdir(exist_ok=True)
    page.locator("#position-editor").screenshot(path=str(SHOTS / "referee-position-editor.png"))
    page.click("#ed-submit")
    page.wait_for_selector("#message:has-text('Done')")
    st = _state(server)
    pos = st["position"]
    want = [-2, 0, 0, 0, -1, 5, 1, 3, 0, 0, 0, -4, 3, 0, 0, 0, -3, 0, -4, 0, 0, 0, 0, 2]
    assert pos["points"] == want
    assert pos["bar"] == {"white": 0, "black": 1} and pos["off"] == {"white": 1, "black": 0}
    assert st["turn"] == "black" and st["dice"] == [6, 4] and st["phase"] == "rolled"
    page.wait_for_selector("#board .checker.black[data-point='5']")  # the main board follows
    page.set_viewport_size(TABLET_PORTRAIT)
    page.locator("#position-editor").scroll_into_view_if_needed()
    _shoot(page, "referee-position-editor-portrait")
    assert not page.errors


def test_plakoto_pins_and_the_variant_start(browser: Any, server: Server) -> None:
    op = OperatorClient(server.url)
    op.command("new_match", length=3, white="Ana", black="Bruno", variant="plakoto")
    pinned = [0] * 24
    pinned[5], pinned[18] = 1, -1  # white pinned under black's six on white's 6-point, and back
    op.command("set_position", turn="white", position={
        "points": [-8, 0, 0, 0, 0, -6] + [0] * 12 + [2, 0, 0, 0, 0, 12], "pinned": pinned})
    page = _page(browser)
    _login(page, server.url)
    page.wait_for_selector("#ed-counts:has-text('White 15 of 15 · Black 15 of 15')")
    assert page.locator("#edit-board circle.checker.pinned").count() == 2
    six = "#edit-board .zone[data-zone='p6']"
    assert page.get_attribute(six, "aria-label") == "Point 6: 6 Black (pinned: 1 White)"
    page.check("input[name=ed-tool][value=remove]")
    _tap(page, "p6", 7)  # the six pinners first, then the pinned checker
    assert page.get_attribute(six, "aria-label") == "Point 6: empty"
    page.click("#ed-start")  # Plakoto's start: fifteen each on the 24- and 1-points
    page.wait_for_selector("#ed-counts:has-text('White 15 of 15 · Black 15 of 15')")
    page.click("#ed-submit")
    page.wait_for_selector("#message:has-text('Done')")
    pos = _state(server)["position"]
    assert pos["points"] == [-15] + [0] * 22 + [15] and "pinned" not in pos
    page.check("input[name=ed-tool][value=black]")
    page.click("#ed-current")
    _tap(page, "p2")  # a sixteenth black checker: the count says so, nothing can be sent
    page.wait_for_selector("#ed-counts.bad:has-text('Black 16 of 15')")
    assert page.is_disabled("#ed-submit")
    assert not page.errors


def test_the_cube_is_corrected_with_the_position(browser: Any, server: Server) -> None:
    page = _editor_after_opening(browser, server)
    page.select_option("#ed-cube", "4")
    page.select_option("#ed-cube-owner", "white")
    page.click("#ed-submit")
    page.wait_for_selector("#message:has-text('Done')")
    assert _state(server)["cube"] == {"value": 4, "owner": "white"}
    page.select_option("#ed-cube-owner", "center")  # a centred 4 is an automatic double's cube
    page.select_option("#ed-cube", "1")
    page.click("#ed-submit")
    deadline = time.monotonic() + 10
    while _state(server)["cube"] != {"value": 1, "owner": "center"} and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _state(server)["cube"] == {"value": 1, "owner": "center"}
    assert not page.errors


def test_reasons_in_the_page_language(browser: Any, server: Server) -> None:
    op = OperatorClient(server.url)
    op.command("new_match", length=5, white="Ana", black="Bruno")
    op.command("opening_roll", white=3, black=1)
    page = _page(browser, lang="es")
    _login(page, server.url)
    op.command("play", play="13/9 6/5")  # 5 pips for a 3-1
    page.wait_for_selector("#flag-box:not([hidden])")
    item = page.locator("#flag-reasons li[data-code=too_many_pips]")
    assert item.locator(".rule").text_content() == "Se movieron más pips de los que dan los dados"
    assert "more than the 4" in item.locator(".detail").text_content()
    _shoot(page, "referee-flag-es")
    op.command("clear_flag")
    assert not page.errors
