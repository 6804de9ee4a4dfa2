#!/usr/bin/env bash
# End-to-end tests in real headless Chromium and Firefox ESR (see scripts/e2e/README.md).
#   scripts/e2e/run.sh [run.py options: --browser chromium|firefox|all --repeat N --artifacts DIR ...]
# 1. scripts/e2e/setup.sh: browsers (apt) and the venv with marionette_driver, idempotent;
# 2. `swift build` (debug) unless E2E_SKIP_BUILD=1 (SwiftPM rebuilds only what changed);
# 3. scripts/e2e/run.py with the venv's python. Its last line is `N passed, N failed`;
#    the exit status is non-zero when anything failed.
# Environment: E2E_BIN_DIR (default <repo>/.build/debug), E2E_SKIP_BUILD, E2E_TIMEOUT,
# E2E_START_TIMEOUT, E2E_CHROMIUM, E2E_FIREFOX, BUILD_DIR (where the venv goes).
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "${SCRIPT_DIR}/../.." && pwd)"

setup_out="$("${SCRIPT_DIR}/setup.sh")" || {
    status=$?
    printf '%s\n' "${setup_out:-}"
    echo "e2e: setup.sh failed (exit ${status})" >&2
    echo "0 passed, 1 failed"
    exit "${status}"
}
E2E_PYTHON="$(printf '%s\n' "${setup_out}" | sed -n 's/^E2E_PYTHON=//p' | tail -n 1)"
if [[ -z "${E2E_PYTHON}" || ! -x "${E2E_PYTHON}" ]]; then
    echo "e2e: setup.sh did not report a usable E2E_PYTHON" >&2
    echo "0 passed, 1 failed"
    exit 1
fi

if [[ "${E2E_SKIP_BUILD:-0}" != "1" ]]; then
    echo "e2e: swift build (debug)"
    (cd "${REPO_DIR}" && swift build) >&2 || {
        echo "e2e: swift build failed" >&2
        echo "0 passed, 1 failed"
        exit 1
    }
fi

exec "${E2E_PYTHON}" "${SCRIPT_DIR}/run.py" "$@"
