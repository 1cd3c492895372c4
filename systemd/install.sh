#!/bin/bash
# Install gammoncam as a service on Raspberry Pi OS (bookworm, trixie) or Debian.
#
#   sudo systemd/install.sh                      install, or update after a `git pull`
#   sudo systemd/install.sh --no-picamera        a USB webcam only (no python3-picamera2 in apt)
#   sudo systemd/install.sh --no-start           install and enable, but do not (re)start now
#   sudo systemd/install.sh --uninstall          remove the service and /opt/gammoncam; keep the
#                                                config and the recorded matches
#   sudo systemd/install.sh --uninstall --purge  also remove /etc/gammoncam, /var/lib/gammoncam
#                                                and the gammoncam user
#
# Running it again is safe: it changes only what is missing or out of date and never overwrites
# /etc/gammoncam/config.toml.
#
# picamera2 comes from apt (python3-picamera2), not pip, and is built against apt's numpy, so the
# venv is made with --system-site-packages and pip is constrained to exactly apt's numpy; with
# numpy 1.x (bookworm) opencv-python-headless must stay below 4.12, whose wheels need numpy 2.
set -euo pipefail

APP=gammoncam
PREFIX=/opt/gammoncam
VENV=$PREFIX/venv
CONSTRAINTS=$PREFIX/constraints.txt
CONF_DIR=/etc/gammoncam
STATE_DIR=/var/lib/gammoncam
UNIT_PATH=/etc/systemd/system/gammoncam.service
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

say() { printf '%s-install: %s\n' "$APP" "$*"; }
die() { printf '%s-install: error: %s\n' "$APP" "$*" >&2; exit 1; }

usage() {
    sed -n '2,13s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

uninstall=0 purge=0 picamera=1 start=1
while [ $# -gt 0 ]; do
    case $1 in
        --uninstall) uninstall=1 ;;
        --purge) purge=1 ;;
        --no-picamera) picamera=0 ;;
        --no-start) start=0 ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; die "unknown option: $1" ;;
    esac
    shift
done
[ "$purge" = 0 ] || [ "$uninstall" = 1 ] || die "--purge goes with --uninstall"
[ "$(id -u)" = 0 ] || die "run as root (sudo $0)"

systemd_running() { [ -d /run/systemd/system ]; }

do_uninstall() {
    if systemd_running; then
        systemctl disable --now "$APP.service" 2>/dev/null || true
    elif command -v systemctl >/dev/null; then
        systemctl disable "$APP.service" 2>/dev/null || true
    fi
    rm -f "$UNIT_PATH"
    if systemd_running; then systemctl daemon-reload; fi
    rm -rf "$PREFIX"
    if [ "$purge" = 1 ]; then
        rm -rf "$CONF_DIR" "$STATE_DIR"
        if getent passwd "$APP" >/dev/null; then userdel "$APP"; fi
        if getent group "$APP" >/dev/null; then groupdel "$APP"; fi
        say "removed the service, $PREFIX, $CONF_DIR, $STATE_DIR and the $APP user"
    else
        say "removed the service and $PREFIX; kept $CONF_DIR and $STATE_DIR (--purge removes them)"
    fi
}

if [ "$uninstall" = 1 ]; then
    do_uninstall
    exit 0
fi

[ -f "$SRC/pyproject.toml" ] || die "run the installer from a gammoncam checkout ($SRC has no pyproject.toml)"

# --- the system: Debian release and apt packages ---
codename=unknown
if [ -r /etc/os-release ]; then
    # shellcheck disable=SC1091
    codename=$(. /etc/os-release && printf '%s' "${VERSION_CODENAME:-unknown}")
fi
case $codename in
    bookworm | trixie) ;;
    *) say "warning: tested on bookworm and trixie, not '$codename'" ;;
esac

packages=(python3 python3-venv python3-numpy ca-certificates)
[ "$picamera" = 0 ] || packages+=(python3-picamera2)
missing=()
for p in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [ "$status" = "install ok installed" ] || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    say "installing from apt: ${missing[*]}"
    apt-get update -qq
    if [ "$picamera" = 1 ] && ! apt-cache show python3-picamera2 >/dev/null 2>&1; then
        die "python3-picamera2 is not in the apt sources (not Raspberry Pi OS?); for a USB webcam run: $0 --no-picamera"
    fi
    # Recommends would pull a desktop (Qt, OpenGL) into a headless Pi.
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# --- the user: a system account in the video group (the camera devices) ---
if ! getent passwd "$APP" >/dev/null; then
    say "creating the system user $APP"
    useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
        --shell /usr/sbin/nologin --comment "gammoncam camera referee" "$APP"
fi
groups=" $(id -nG "$APP") "
if getent group video >/dev/null && [ "${groups#* video }" = "$groups" ]; then
    usermod -a -G video "$APP"
fi
install -d -m 0755 "$CONF_DIR"
install -d -o "$APP" -g "$APP" -m 0750 "$STATE_DIR"

# --- the venv: sees apt's numpy and picamera2 ---
apt_python=$(/usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
venv_ok() {
    [ -x "$VENV/bin/python" ] &&
        grep -qx 'include-system-site-packages = true' "$VENV/pyvenv.cfg" 2>/dev/null &&
        [ "$("$VENV/bin/python" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)" = "$apt_python" ]
}
if ! venv_ok; then
    say "creating $VENV (Python $apt_python, --system-site-packages)"
    rm -rf "$VENV"
    install -d -m 0755 "$PREFIX"
    /usr/bin/python3 -m venv --system-site-packages "$VENV"
fi

numpy_version=$(/usr/bin/python3 -c 'import numpy; print(numpy.__version__)')
{
    echo "# written by systemd/install.sh: keep apt's numpy (picamera2 is built against it)"
    echo "numpy==$numpy_version"
    case $numpy_version in
        1.*) echo "opencv-python-headless<4.12  # 4.12+ needs numpy 2" ;;
    esac
} >"$CONSTRAINTS"
say "installing gammoncam from $SRC into $VENV (numpy $numpy_version from apt)"
PIP_DISABLE_PIP_VERSION_CHECK=1 "$VENV/bin/python" -m pip install --quiet --no-cache-dir \
    --upgrade --upgrade-strategy only-if-needed --constraint "$CONSTRAINTS" "$SRC"

"$VENV/bin/python" - "$numpy_version" "$picamera" <<'EOF'
import sys

import cv2
import numpy

want, picamera = sys.argv[1], sys.argv[2] == "1"
if numpy.__version__ != want:
    sys.exit(f"the venv's numpy is {numpy.__version__} from {numpy.__file__}, not apt's {want}")
line = f"numpy {numpy.__version__} (apt), OpenCV {cv2.__version__}"
if picamera:
    import picamera2

    line += f", picamera2 from {picamera2.__file__}"
print(f"gammoncam-install: {line}")
EOF

# --- config: never overwritten; validated, so a bad one fails here and not at boot ---
if [ ! -e "$CONF_DIR/config.toml" ]; then
    say "writing $CONF_DIR/config.toml (from systemd/config.example.toml)"
    install -m 0644 "$SRC/systemd/config.example.toml" "$CONF_DIR/config.toml"
    if [ "$picamera" = 0 ]; then
        sed -i 's|^source = "picamera2"|source = 0|' "$CONF_DIR/config.toml"
    fi
fi
"$VENV/bin/python" -m gammoncam.config "$CONF_DIR/config.toml" ||
    die "fix $CONF_DIR/config.toml (see systemd/config.example.toml), then run $0 again"

# --- the service ---
install -m 0644 "$SRC/systemd/gammoncam.service" "$UNIT_PATH"
if systemd_running; then
    systemctl daemon-reload
    systemctl enable "$APP.service"
    if [ "$start" = 1 ]; then
        systemctl restart "$APP.service"
        say "started: systemctl status $APP; journalctl -u $APP -f"
    fi
else
    systemctl enable "$APP.service"
    say "systemd is not running here: the service is enabled and starts at the next boot"
fi
say "check the box with: sudo -u $APP $VENV/bin/gammoncam doctor"
