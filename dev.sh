#!/usr/bin/env bash
# Set up and run Noda Desktop from a checkout (Debian, Python 3.11, run as root or with sudo).
#   ./dev.sh run   — install what is missing, then open the window on the bundled sample folder
#   ./dev.sh test  — install what is missing (with test extras), then run the whole test suite offscreen
set -euo pipefail
cd "$(dirname "$0")"

SYSTEM_PACKAGES=(libegl1 libgl1 libxkbcommon0 libxkbcommon-x11-0 libfontconfig1 libglib2.0-0
                 libdbus-1-3 libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-shape0
                 fonts-nanum tesseract-ocr-kor tesseract-ocr-eng)

install_system_packages() {
    local missing=()
    for p in "${SYSTEM_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        local sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
        echo "시스템 패키지 설치: ${missing[*]}"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
    fi
}

install_python() {   # $1: pip extras ("" or "[test]")
    local python=${PYTHON:-python3.11}
    command -v "$python" >/dev/null || python=python3
    [ -x .venv/bin/python ] || "$python" -m venv .venv
    local stamp=".venv/.installed$1"
    if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
        .venv/bin/python -m pip install -q --upgrade pip
        .venv/bin/python -m pip install -q -e ".$1"
        touch "$stamp"
    fi
}

case "${1:-}" in
    run)
        install_system_packages
        install_python ""
        shift
        if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
            echo "화면(DISPLAY)이 없어 보이지 않는 모드(offscreen)로 띄웁니다."
            export QT_QPA_PLATFORM=offscreen
        fi
        exec .venv/bin/noda-desktop "${@:-resources/sample}"
        ;;
    test)
        install_system_packages
        install_python "[test]"
        shift
        export QT_QPA_PLATFORM=offscreen
        exec .venv/bin/python -m pytest "$@"
        ;;
    *)
        echo "usage: ./dev.sh run [FOLDER…] | ./dev.sh test [pytest args]" >&2
        exit 2
        ;;
esac
