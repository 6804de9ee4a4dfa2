#!/usr/bin/env bash
# End to end for `extension-bridge new` (scripts/e2e/generated.py): generate a bridge for another
# app, build it offline against this checkout, install it with --config, and use it in real
# Chromium and Firefox beside the built-in bridge. Then `new --from-safari`
# (scripts/e2e/safari_import.py): seed 002's Safari extension imported, its JavaScript unchanged.
#   scripts/e2e/generated.sh [--browser chromium|firefox|all]
# Environment: E2E_BIN_DIR (default <repo>/.build/debug: extension-bridge must be built).
set -euo pipefail
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
setup_out="$("${SCRIPT_DIR}/setup.sh")" || {
    printf '%s\n' "${setup_out:-}"
    echo "0 passed, 1 failed"
    exit 1
}
E2E_PYTHON="$(printf '%s\n' "${setup_out}" | sed -n 's/^E2E_PYTHON=//p' | tail -n 1)"
status=0
"${E2E_PYTHON}" "${SCRIPT_DIR}/generated.py" "$@" || status=1
"${E2E_PYTHON}" "${SCRIPT_DIR}/safari_import.py" "$@" || status=1
exit "${status}"
