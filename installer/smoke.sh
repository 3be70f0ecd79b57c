#!/usr/bin/env bash
# Smoke test of what installer/build.sh made (dist/noda-desktop/ and the .deb), with no network at all:
# pytest itself and every program it starts run inside `unshare -n` (run as root).
#   installer/build.sh && installer/smoke.sh
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x dist/noda-desktop/noda ] || { echo "먼저 installer/build.sh로 빌드하십시오." >&2; exit 2; }
.venv/bin/python -c "import pytest" 2>/dev/null || .venv/bin/python -m pip install -q -e ".[test]"
export QT_QPA_PLATFORM=offscreen
exec unshare -n -- .venv/bin/python -m pytest -m installer -q -s tests/installer "$@"
