#!/usr/bin/env bash
# End to end for `extension-bridge run` (scripts/e2e/run_verb.py): the built-in bridge and a
# project made by `new`, in real Chromium and Firefox, from a user's HOME made for the test.
#   scripts/e2e/run-verb.sh [--browser chromium|firefox|all] [--keep]
# Environment: E2E_BIN_DIR (default <repo>/.build/debug: extension-bridge must be built).
# The built-in host is built by run when it is older than its sources (release, a few minutes).
set -euo pipefail
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
setup_out="$("${SCRIPT_DIR}/setup.sh")" || {
    printf '%s\n' "${setup_out:-}"
    echo "0 passed, 1 failed"
    exit 1
}
E2E_PYTHON="$(printf '%s\n' "${setup_out}" | sed -n 's/^E2E_PYTHON=//p' | tail -n 1)"
exec "${E2E_PYTHON}" "${SCRIPT_DIR}/run_verb.py" "$@"
