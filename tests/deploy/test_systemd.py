"""The unit file and the installer as CI checks them: ``systemd-analyze verify`` and
``shellcheck`` (``make test`` installs both from apt), plus the unit's contract with the code."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from gammoncam.config import CameraConfig

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "gammoncam.service"
INSTALLER = ROOT / "systemd" / "install.sh"
SYSTEM_UNITS = ("/usr/lib/systemd/system", "/lib/systemd/system")


def tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"{name} is not installed (make system-deps installs it)")
    return path


def directives(text: str) -> dict[str, list[str]]:
    """``Section.Key`` -> every value, in order (a systemd key may repeat)."""
    out: dict[str, list[str]] = {}
    section = ""
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        out.setdefault(f"{section}.{key}", []).append(value)
    return out


def fake_root(tmp_path: Path, unit_text: str) -> Path:
    """A root holding the unit, the system's own units and an executable where ExecStart points,
    so that ``verify --root`` checks the unit itself and not what this machine has installed."""
    root = tmp_path / "root"
    units = next((Path(p) for p in SYSTEM_UNITS if Path(p, "sysinit.target").exists()), None)
    if units is None:
        pytest.fail("no systemd units on this machine (apt-get install systemd)")
    shutil.copytree(units, root / "usr/lib/systemd/system", symlinks=True)
    (root / "etc/systemd/system").mkdir(parents=True)
    (root / "etc/systemd/system/gammoncam.service").write_text(unit_text)
    exe = Path(directives(unit_text)["Service.ExecStart"][0].split()[0])
    target = root / exe.relative_to("/")
    target.parent.mkdir(parents=True)
    target.write_text("#!/bin/sh\n")
    target.chmod(0o755)
    return root


def verify(tmp_path: Path, unit_text: str) -> subprocess.CompletedProcess[str]:
    root = fake_root(tmp_path, unit_text)
    return subprocess.run([tool("systemd-analyze"), "verify", f"--root={root}",
                           "gammoncam.service"], capture_output=True, text=True, timeout=60)


def test_unit_passes_systemd_analyze_verify_without_a_warning(tmp_path: Path) -> None:
    out = verify(tmp_path, UNIT.read_text())
    # verify exits 0 on unknown keys and bad values too: only silence means clean
    assert out.returncode == 0 and out.stdout + out.stderr == "", out.stdout + out.stderr


def test_verify_as_used_here_does_catch_a_misspelt_directive(tmp_path: Path) -> None:
    text = UNIT.read_text().replace("ProtectHome=yes", "ProtectHom=yes\nRestart=sometimes")
    out = verify(tmp_path, text)
    assert "ProtectHom" in out.stderr and "sometimes" in out.stderr


def test_unit_hardening_exposure_stays_low(tmp_path: Path) -> None:
    root = fake_root(tmp_path, UNIT.read_text())
    out = subprocess.run([tool("systemd-analyze"), "security", "--offline=true", "--threshold=20",
                          f"--root={root}", "gammoncam.service"],
                         capture_output=True, text=True, timeout=60)
    summary = (out.stdout + out.stderr).strip().splitlines()[-1]
    assert out.returncode == 0, summary
    assert "Overall exposure level" in summary


def test_unit_is_what_the_issue_and_the_code_expect() -> None:
    d = directives(UNIT.read_text())
    one = {key: values[-1] for key, values in d.items()}
    assert one["Service.Type"] == "notify" and one["Service.NotifyAccess"] == "main"
    assert one["Service.Restart"] == "on-failure"
    assert one["Service.User"] == "gammoncam" and one["Service.SupplementaryGroups"] == "video"
    assert one["Service.StateDirectory"] == "gammoncam"
    assert one["Service.ConfigurationDirectory"] == "gammoncam"
    for key in ("NoNewPrivileges", "ProtectHome", "PrivateTmp", "ProtectKernelTunables"):
        assert one[f"Service.{key}"] == "yes", key
    assert one["Service.ProtectSystem"] == "strict"
    # ProtectClock= would block /dev/video* on bookworm's systemd 252 (device allow-list)
    assert "Service.ProtectClock" not in d and "Service.PrivateDevices" not in d
    watchdog = float(one["Service.WatchdogSec"].removesuffix("s"))
    assert watchdog >= 2 * CameraConfig().stale_after  # a stall is seen before systemd acts
    assert one["Service.ExecStart"].split()[:2] == ["/opt/gammoncam/venv/bin/gammoncam", "serve"]
    assert "VENV=$PREFIX/venv" in INSTALLER.read_text()
    assert "PREFIX=/opt/gammoncam" in INSTALLER.read_text()


def test_installer_passes_shellcheck() -> None:
    out = subprocess.run([tool("shellcheck"), "--shell=bash", str(INSTALLER)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr


def test_installer_help_and_a_bad_option() -> None:
    ok = subprocess.run(["bash", str(INSTALLER), "--help"], capture_output=True, text=True)
    assert ok.returncode == 0 and "--uninstall" in ok.stdout
    bad = subprocess.run(["bash", str(INSTALLER), "--frobnicate"], capture_output=True, text=True)
    assert bad.returncode == 1 and "unknown option: --frobnicate" in bad.stderr
    lone = subprocess.run(["bash", str(INSTALLER), "--purge"], capture_output=True, text=True)
    assert lone.returncode == 1 and "--purge goes with --uninstall" in lone.stderr
