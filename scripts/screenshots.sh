#!/usr/bin/env bash
# Screenshots of the real app under Xvfb (tray icon, tooltip, menu; the window in light, dark and
# without a tray) into screenshots/. Exit code non-zero when anything fails.
#
# It installs nothing itself, except in CI (CI=true): there it apt-get installs the X server, the tray
# host, xdotool and the X libraries Qt's xcb plugin needs, if they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(xvfb trayer xdotool dbus-daemon notification-daemon desktop-file-utils libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0 libxcb-shape0
          libxcb-cursor0 libxcb-xkb1 libxcb-randr0 libxcb-xfixes0 libxcb-sync1 libxcb-shm0 libxcb-util1
          libxkbcommon-x11-0 libx11-xcb1 fonts-dejavu-core)

missing=()
for package in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    if [ "${CI:-}" = "true" ]; then
        echo "== apt-get install ${missing[*]}"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    else
        echo "screenshots: missing packages: ${missing[*]}" >&2
        echo "install them with: sudo apt-get install -y ${missing[*]}" >&2
        exit 2
    fi
fi

PYTHON="${PYTHON:-}"
if [ -z "$PYTHON" ]; then
    if [ -x .venv/bin/python ]; then PYTHON=.venv/bin/python; else PYTHON=python3; fi
fi
exec timeout -s KILL 600 "$PYTHON" scripts/screenshots.py "$@"
