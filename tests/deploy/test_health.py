"""/healthz's rule: (ok, reasons) from the service's status and the free disk space."""

from __future__ import annotations

from pathlib import Path

from gammoncam.health import CODES, check, code, disk_free, entry, evaluate, payload

GOOD = {"last_frame_at": 100.0, "camera": "ok", "profile": "/var/lib/gammoncam/profile.json",
        "drift": False}
GiB = 2**30


def test_a_working_board_is_healthy() -> None:
    assert evaluate(GOOD, now=101.0, disk_free=5 * GiB) == (True, [])
    body, status = payload(True, [])
    assert status == 200 and body == {"ok": True, "reasons": [], "codes": []}


def test_each_problem_gives_its_reason_and_code() -> None:
    cases = {
        "frames stale": ({**GOOD, "last_frame_at": 80.0}, "no frame for 21 s"),
        "camera lost": ({**GOOD, "camera": "lost", "camera_error": "USB gone"},
                        "reconnecting (USB gone)"),
        "no calibration": ({**GOOD, "profile": None}, "calibrate"),
        "drift": ({**GOOD, "drift": True}, "recalibrate"),
    }
    for want, (status, text) in cases.items():
        ok, reasons = evaluate(status, now=101.0, disk_free=5 * GiB)
        assert not ok and [code(r) for r in reasons] == [want], reasons
        assert text in reasons[0]
    ok, reasons = evaluate(GOOD, now=101.0, disk_free=10 * 2**20)
    assert not ok and reasons == ["disk low: 10 MiB free, 200 MiB needed"]
    assert set(cases) | {"disk low"} == set(CODES)


def test_missing_keys_count_as_the_worst_case() -> None:
    ok, reasons = evaluate({}, now=0.0, disk_free=None)
    assert not ok
    assert [code(r) for r in reasons] == ["camera lost", "frames stale", "no calibration",
                                          "disk low"]
    assert "no frame received yet" in reasons[1] and "unknown" in reasons[3]
    body, status = payload(ok, reasons)
    assert status == 503 and body["codes"] == [code(r) for r in reasons]


def test_stale_threshold_and_a_foreign_clock() -> None:
    assert evaluate(GOOD, now=109.9, disk_free=GiB)[0] is True
    assert evaluate(GOOD, now=110.0, disk_free=GiB)[0] is False
    assert evaluate(GOOD, now=110.0, disk_free=GiB, stale_after=30)[0] is True
    ok, reasons = evaluate({**GOOD, "last_frame_at": 1.8e9}, now=100.0, disk_free=GiB)
    assert not ok and "time.monotonic()" in reasons[0]  # a time.time() value by mistake


def test_check_measures_the_state_directory(tmp_path: Path) -> None:
    free = disk_free(tmp_path)
    assert free is not None and free > 0
    assert disk_free(tmp_path / "missing") is None
    ok, reasons = check({**GOOD, "last_frame_at": None}, tmp_path, min_free=1)
    assert [code(r) for r in reasons] == ["frames stale"]
    ok, reasons = check(GOOD, tmp_path, min_free=free * 4)
    assert "disk low" in [code(r) for r in reasons]


def test_entry_fits_the_web_apps_status_convention() -> None:
    ok, reasons = evaluate({**GOOD, "drift": True, "profile": None}, now=101.0, disk_free=GiB)
    e = entry(ok, reasons)
    assert e["ok"] is False and e["codes"] == ["no calibration", "drift"]
    assert e["error"] == "; ".join(reasons)
    assert entry(True, []) == {"ok": True, "error": "", "reasons": [], "codes": []}


def test_a_camera_still_starting_is_not_called_lost() -> None:
    from gammoncam.health import evaluate

    ok, reasons = evaluate({"camera": "starting", "profile": "p.json"}, now=100.0,
                           disk_free=10**12)
    assert not ok
    assert reasons == ["frames stale: no frame received yet"]
