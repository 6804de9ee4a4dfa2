#!/usr/bin/env bash
# Demo: build, install the host into a temporary Chromium profile and HOME, open
# scripts/demo/page.html in headless Chromium before and after enabling the vocabulary
# blue → blauw, red → rood, and save three screenshots to docs/images/:
#   demo-before.png, demo-after.png, popup.png (popup.html opened as a tab: host connected).
# Usage: scripts/demo.sh [OUT_DIR]   (default: <repo>/docs/images)
# Needs Debian's chromium (scripts/e2e/setup.sh installs it) and python3.
set -eu

SCRIPT_DIR="$(cd "$(dirname "$0")" && pwd)"
REPO_DIR="$(cd "${SCRIPT_DIR}/.." && pwd)"
OUT_DIR="${1:-${REPO_DIR}/docs/images}"
CHROMIUM="${E2E_CHROMIUM:-/usr/lib/chromium/chromium}"

if [ ! -x "${CHROMIUM}" ]; then
    echo "demo: ${CHROMIUM} is missing; installing the test browsers with scripts/e2e/setup.sh" >&2
    "${REPO_DIR}/scripts/e2e/setup.sh" >&2
fi

echo "demo: swift build"
(cd "${REPO_DIR}" && swift build) >&2

TMP="$(mktemp -d "${TMPDIR:-/tmp}/extension-bridge-demo.XXXXXX")"
cleanup() { rm -rf "${TMP}"; }
trap cleanup EXIT INT TERM

mkdir -p "${TMP}/bin" "${TMP}/home" "${TMP}/profile" "${TMP}/logs"
cp "${REPO_DIR}/.build/debug/extension-bridge" "${REPO_DIR}/.build/debug/extension-bridge-host" "${TMP}/bin/"
export HOME="${TMP}/home"
export EXTENSION_BRIDGE_CONTAINER="${TMP}/container"

"${TMP}/bin/extension-bridge" install --browser chromium --user-data-dir "${TMP}/profile" \
    --extension-dir "${REPO_DIR}/extension"
"${TMP}/bin/extension-bridge" doctor --browser chromium --user-data-dir "${TMP}/profile" \
    --extension-dir "${REPO_DIR}/extension"

if ! python3 "${SCRIPT_DIR}/demo/shoot.py" --cli "${TMP}/bin/extension-bridge" --profile "${TMP}/profile" \
    --out "${OUT_DIR}" --logs "${TMP}/logs"; then
    echo "demo: failed; Chromium's stderr (with the host's):" >&2
    tail -n 40 "${TMP}/logs/chromium.stderr.log" >&2 || true
    exit 1
fi
echo "demo: screenshots in ${OUT_DIR}"
