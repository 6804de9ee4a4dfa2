#!/usr/bin/env bash
# Install what the real-browser end-to-end tests need, idempotently:
#   - Debian's chromium and firefox-esr (apt-get, as root; otherwise print what to install, exit 2)
#   - a Python venv at "${BUILD_DIR:-<repo>/.build}/e2e-venv" with PyPI's marionette_driver
# Prints the venv's python path on the last line as: E2E_PYTHON=<path>
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "${SCRIPT_DIR}/../.." && pwd)"
BUILD_DIR="${BUILD_DIR:-${REPO_DIR}/.build}"
VENV_DIR="${BUILD_DIR}/e2e-venv"
MARIONETTE_DRIVER_VERSION="3.7.1"
# fonts-dejavu-core: so screenshots show text; python3-venv: Debian's python3 needs it for `-m venv`.
APT_PACKAGES=(chromium firefox-esr fonts-dejavu-core python3-venv)
PYTHON="${E2E_BASE_PYTHON:-python3}"

log() { printf 'e2e-setup: %s\n' "$*"; }
start_ts=$(date +%s)

# ---------------------------------------------------------------- browsers (apt)
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
    if [[ "${pkg}" == python3-venv ]] && "${PYTHON}" -c 'import venv, ensurepip' 2>/dev/null; then
        continue # the chosen python can already make a venv with pip
    fi
    if ! dpkg-query -W -f='${Status}' "${pkg}" 2>/dev/null | grep -q '^install ok installed$'; then
        missing+=("${pkg}")
    fi
done

if ((${#missing[@]} == 0)); then
    log "apt packages already installed: ${APT_PACKAGES[*]}"
elif [[ "$(id -u)" != "0" ]]; then
    log "missing Debian packages: ${missing[*]}"
    log "run as root:  apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
    exit 2
else
    export DEBIAN_FRONTEND=noninteractive
    need_update=0
    for pkg in "${missing[@]}"; do
        candidate="$(apt-cache policy "${pkg}" 2>/dev/null | awk '/Candidate:/ {print $2}')"
        if [[ -z "${candidate}" || "${candidate}" == "(none)" ]]; then need_update=1; fi
    done
    if ((need_update)); then
        log "package lists lack a candidate: running apt-get update"
        apt-get -o DPkg::Lock::Timeout=600 update -qq
    fi
    log "installing: ${missing[*]}"
    t0=$(date +%s)
    apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    log "apt-get install took $(($(date +%s) - t0)) s"
fi

if [[ ! -x /usr/lib/chromium/chromium ]]; then
    log "error: /usr/lib/chromium/chromium not found after install" >&2
    exit 1
fi
if ! command -v firefox-esr >/dev/null 2>&1; then
    log "error: firefox-esr not on PATH after install" >&2
    exit 1
fi
log "chromium: $(/usr/lib/chromium/chromium --version 2>/dev/null | tr -s ' ')"
log "firefox:  $(firefox-esr --version 2>/dev/null)"

# ---------------------------------------------------------------- venv (PyPI)
have_version() {
    [[ -x "${VENV_DIR}/bin/python" ]] &&
        "${VENV_DIR}/bin/python" - "${MARIONETTE_DRIVER_VERSION}" <<'EOF' 2>/dev/null
import sys
from importlib.metadata import version
import marionette_driver.marionette  # noqa: F401 - must import, not just be listed
sys.exit(0 if version("marionette_driver") == sys.argv[1] else 1)
EOF
}

if have_version; then
    log "venv ready: ${VENV_DIR} (marionette_driver ${MARIONETTE_DRIVER_VERSION})"
else
    t0=$(date +%s)
    mkdir -p "${BUILD_DIR}"
    if [[ ! -x "${VENV_DIR}/bin/python" ]]; then
        log "creating venv ${VENV_DIR} with $(command -v "${PYTHON}")"
        "${PYTHON}" -m venv "${VENV_DIR}"
    fi
    log "installing marionette_driver==${MARIONETTE_DRIVER_VERSION} into the venv"
    "${VENV_DIR}/bin/python" -m pip install --quiet --disable-pip-version-check \
        "marionette_driver==${MARIONETTE_DRIVER_VERSION}"
    have_version || { log "error: marionette_driver did not import from ${VENV_DIR}" >&2; exit 1; }
    log "venv took $(($(date +%s) - t0)) s"
fi

log "done in $(($(date +%s) - start_ts)) s"
echo "E2E_PYTHON=${VENV_DIR}/bin/python"
