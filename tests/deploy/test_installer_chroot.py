"""``systemd/install.sh`` for real, in a fresh Debian chroot made by debootstrap: as far as it goes
without a Pi. Opt-in (it takes minutes, needs root and the Debian mirror and PyPI)::

    GAMMONCAM_CHROOT=1 .venv/bin/python -m pytest tests/deploy/test_installer_chroot.py -s
    GAMMONCAM_CHROOT_SUITES=bookworm,trixie ...     (default: bookworm)

Stubbed, explicitly, because Debian does not have it: ``python3-picamera2`` (Raspberry Pi OS's
archive only). The test builds a stub .deb (an importable ``picamera2`` whose camera raises) and
serves it from a local apt repository inside the chroot, so the installer's apt step runs
unchanged. Nothing else is stubbed; there is no camera and no running systemd (``systemctl
enable`` works offline; nothing is started). When this machine reaches PyPI through a CA of its
own (``$PIP_CERT`` or ``$SSL_CERT_FILE``), pip in the chroot is given the same bundle.

What it checks: the install succeeds; the venv sees the system site-packages; its numpy is
apt's (pip did not shadow it) and OpenCV fits it (< 4.12 with numpy 1.x); picamera2 imports from
apt's path; the user (in group video), the directories and their modes; the config is the
example and validates; the unit is installed, enabled, and passes ``systemd-analyze verify``
inside the chroot with its real ExecStart; ``gammoncam doctor`` runs as the service user on a
video file; a second run changes nothing and keeps an edited config; a broken config fails the
install with the key named; ``--uninstall`` keeps config and matches, ``--purge`` removes all.

Measured (x86_64 VM with 2 vCPUs, shared with other work; deb.debian.org and PyPI over the
network), printed at the end of each run:
- bookworm: debootstrap 137 s, first install 88 s (apt: python3-venv, numpy 1.24.2, the stub;
  pip: OpenCV 4.11.0.86, flask, waitress, ...), second install 11 s; whole test 296 s. An
  earlier run on a quieter machine: debootstrap 126 s, first install 25 s.
- trixie: debootstrap 136 s, first install 63 s (Python 3.13, apt's numpy 2.2.4, pip's OpenCV
  5.0.0; the unit also verifies under trixie's systemd 257), second install 10 s; whole 271 s.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SUITES = [s for s in os.environ.get("GAMMONCAM_CHROOT_SUITES", "bookworm").split(",") if s]
MIRROR = os.environ.get("GAMMONCAM_CHROOT_MIRROR", "http://deb.debian.org/debian")
HOST_CA = os.environ.get("PIP_CERT") or os.environ.get("SSL_CERT_FILE")
ENV = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
       "HOME": "/root", "LANG": "C.UTF-8", "DEBIAN_FRONTEND": "noninteractive",
       **({"PIP_CERT": "/etc/ssl/host-ca-bundle.crt"} if HOST_CA else {})}

pytestmark = pytest.mark.skipif(
    os.environ.get("GAMMONCAM_CHROOT") != "1",
    reason="opt-in: GAMMONCAM_CHROOT=1 (debootstrap: minutes, root, the Debian mirror)")

STUB_INIT = '''"""STUB made by gammoncam's installer test: Debian has no python3-picamera2."""

STUB = True


class Picamera2:
    def __init__(self, *args, **kwargs):
        raise RuntimeError("stub picamera2: there is no Raspberry Pi camera in this chroot")
'''


def run(args: list[str], *, timeout: float = 1800, check: bool = True,
        **kw: object) -> subprocess.CompletedProcess[str]:
    out = subprocess.run(args, capture_output=True, text=True, timeout=timeout, **kw)  # type: ignore[call-overload]
    if check and out.returncode != 0:
        raise AssertionError(f"{' '.join(args)} -> {out.returncode}\n{out.stdout}\n{out.stderr}")
    return out


def in_root(root: Path, *args: str, user: str | None = None,
            check: bool = True) -> subprocess.CompletedProcess[str]:
    spec = [f"--userspec={user}:{user}"] if user else []
    return run(["chroot", *spec, str(root), "/usr/bin/env", "-i",
                *(f"{k}={v}" for k, v in ENV.items()), *args], check=check)


def stub_repo(root: Path) -> None:
    """A local apt repository in the chroot holding a stub python3-picamera2."""
    build = root / "tmp/stub-build"
    pkg = build / "usr/lib/python3/dist-packages/picamera2"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text(STUB_INIT)
    (build / "DEBIAN").mkdir()
    control = ("Package: python3-picamera2\nVersion: 0.0~gammoncam.stub\nArchitecture: all\n"
               "Maintainer: gammoncam tests <tests@gammoncam.invalid>\n"
               "Depends: python3, python3-numpy\n"
               "Description: STUB for gammoncam's installer test, not the camera library\n")
    (build / "DEBIAN/control").write_text(control)
    repo = root / "srv/stubs"
    repo.mkdir(parents=True)
    deb = repo / "python3-picamera2_0.0~gammoncam.stub_all.deb"
    run(["dpkg-deb", "--root-owner-group", "--build", str(build), str(deb)])
    data = deb.read_bytes()
    (repo / "Packages").write_text(
        control + f"Filename: ./{deb.name}\nSize: {len(data)}\n"
        f"MD5sum: {hashlib.md5(data).hexdigest()}\nSHA256: {hashlib.sha256(data).hexdigest()}\n\n")
    (root / "etc/apt/sources.list.d/gammoncam-stubs.list").write_text(
        "deb [trusted=yes] file:/srv/stubs ./\n")
    shutil.rmtree(build)


def copy_checkout(dest: Path) -> None:
    """The working tree's files (tracked and new, not ignored), as a user's checkout has them."""
    files = run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT).stdout
    for name in filter(None, files.split("\0")):
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)


@pytest.fixture(params=SUITES)
def chroot(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
           ) -> Iterator[tuple[str, Path, dict[str, float]]]:
    if os.geteuid() != 0 or shutil.which("debootstrap") is None:
        pytest.fail("the chroot test needs root and debootstrap (apt-get install debootstrap)")
    suite = request.param
    root = tmp_path_factory.mktemp(f"chroot-{suite}")
    root.chmod(0o755)  # the chroot's "/": the service user must be able to enter it
    times: dict[str, float] = {}
    t0 = time.monotonic()
    run(["debootstrap", "--variant=minbase", "--include=systemd,ca-certificates", suite,
         str(root), MIRROR])
    times["debootstrap"] = time.monotonic() - t0
    shutil.copy2("/etc/resolv.conf", root / "etc/resolv.conf")
    if HOST_CA:  # this machine reaches PyPI through a CA of its own: lend pip the same trust
        shutil.copy2(HOST_CA, root / "etc/ssl/host-ca-bundle.crt")
    stub_repo(root)
    copy_checkout(root / "src/gammoncam")
    run(["mount", "-t", "proc", "proc", str(root / "proc")])
    try:
        yield suite, root, times
    finally:
        run(["umount", "-l", str(root / "proc")], check=False)
        print(f"\n{suite}: " + ", ".join(f"{k} {v:.0f} s" for k, v in times.items()))
        shutil.rmtree(root, ignore_errors=True)


def installer(root: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return in_root(root, "/bin/bash", "/src/gammoncam/systemd/install.sh", *args, check=check)


def py(root: Path, code: str) -> str:
    return in_root(root, "/opt/gammoncam/venv/bin/python", "-c", code).stdout.strip()


def test_installer_in_a_debian_chroot(chroot: tuple[str, Path, dict[str, float]]) -> None:
    suite, root, times = chroot
    t0 = time.monotonic()
    first = installer(root)
    times["install"] = time.monotonic() - t0
    print(first.stdout)

    # the venv: system site-packages, apt's numpy, a fitting OpenCV, apt's picamera2
    cfg = (root / "opt/gammoncam/venv/pyvenv.cfg").read_text()
    assert "include-system-site-packages = true" in cfg
    apt_numpy = in_root(root, "/usr/bin/python3", "-c",
                        "import numpy; print(numpy.__version__)").stdout.strip()
    numpy_path = py(root, "import numpy; print(numpy.__version__, numpy.__file__)")
    assert numpy_path == f"{apt_numpy} /usr/lib/python3/dist-packages/numpy/__init__.py"
    cv = py(root, "import cv2; print(cv2.__version__)")
    if apt_numpy.startswith("1."):
        assert tuple(int(p) for p in cv.split(".")[:2]) < (4, 12), cv
    assert py(root, "import picamera2; print(picamera2.__file__, picamera2.STUB)") == (
        "/usr/lib/python3/dist-packages/picamera2/__init__.py True")

    # user, directories, config, unit
    passwd = (root / "etc/passwd").read_text()
    assert any(line.startswith("gammoncam:") and line.endswith(":/usr/sbin/nologin")
               for line in passwd.splitlines())
    assert "gammoncam" in in_root(root, "id", "-nG", "gammoncam").stdout.split()
    assert "video" in in_root(root, "id", "-nG", "gammoncam").stdout.split()
    state = root / "var/lib/gammoncam"
    assert oct(state.stat().st_mode & 0o777) == "0o750"
    assert in_root(root, "stat", "-c", "%U", "/var/lib/gammoncam").stdout.strip() == "gammoncam"
    conf = root / "etc/gammoncam/config.toml"
    assert conf.read_text() == (ROOT / "systemd/config.example.toml").read_text()
    unit = root / "etc/systemd/system/gammoncam.service"
    assert unit.read_text() == (ROOT / "systemd/gammoncam.service").read_text()
    assert (root / "etc/systemd/system/multi-user.target.wants/gammoncam.service").is_symlink()
    verify = in_root(root, "systemd-analyze", "verify", "/etc/systemd/system/gammoncam.service",
                     check=False)
    assert verify.returncode == 0 and verify.stdout + verify.stderr == "", verify.stderr

    # doctor, as the service user, on a video file: everything but the (absent) profile is fine
    doctor = in_root(root, "/opt/gammoncam/venv/bin/gammoncam", "doctor", "--camera",
                     "/src/gammoncam/gammoncam/demo/demo_game.mp4", user="gammoncam", check=False)
    print(doctor.stdout, doctor.stderr)
    rows = {line.split()[0]: line.split()[1] for line in doctor.stdout.splitlines()[:-1]}
    assert rows == {"config": "ok", "camera": "ok", "opencv": "ok", "profile": "FAIL",
                    "disk": "ok", "clock": rows.get("clock")}, doctor.stdout + doctor.stderr
    assert doctor.returncode == 1 and doctor.stdout.splitlines()[-1] == "problems: profile"

    # again: nothing created anew, the edited config kept
    conf.write_text(conf.read_text().replace('name = "Board 1"', 'name = "Table 7"'))
    t0 = time.monotonic()
    second = installer(root)
    times["second install"] = time.monotonic() - t0
    assert "creating" not in second.stdout and "writing" not in second.stdout, second.stdout
    assert "installing from apt" not in second.stdout
    assert 'name = "Table 7"' in conf.read_text()

    # a broken config stops the install, naming the key
    conf.write_text(conf.read_text().replace("[camera]", "[camera]\nfsp = 10"))
    broken = installer(root, check=False)
    assert broken.returncode == 1
    assert "camera.fsp: unknown key (did you mean 'fps'?)" in broken.stderr, broken.stderr
    conf.write_text(conf.read_text().replace("fsp = 10\n", ""))

    # uninstall keeps the config and the matches; purge removes everything
    (state / "gammoncam.db").write_bytes(b"matches")
    installer(root, "--uninstall")
    assert not (root / "opt/gammoncam").exists() and not unit.exists()
    assert not (root / "etc/systemd/system/multi-user.target.wants/gammoncam.service").exists()
    assert conf.exists() and (state / "gammoncam.db").exists()
    installer(root, "--uninstall")  # idempotent too
    installer(root, "--uninstall", "--purge")
    assert not conf.parent.exists() and not state.exists()
    assert "gammoncam:" not in (root / "etc/passwd").read_text()
    assert "gammoncam:" not in (root / "etc/group").read_text()
