#!/usr/bin/env bash
# Runs every test: format lint, Swift unit and integration tests (the real
# built binaries over pipes and the real file system), the extension's node
# tests, and the end-to-end tests in real Chromium and Firefox.
# Installs what it needs when run as root (Debian packages, a venv under .build).
#   scripts/test.sh          everything (what .ci/run runs)
#   scripts/test.sh --fast   format lint, Swift unit tests (not EndToEndTests), the secrets tests
#                            in a private keyring, the extension's node tests and one
#                            real-browser pass in Chromium: a few minutes
# Either way it ends with each step's duration, so slow steps are visible.
set -euo pipefail

cd "$(dirname "$0")/.."
root=$PWD
export BUILD_DIR="${BUILD_DIR:-$root/.build}"
started=$(date +%s)

fast=0
for arg in "$@"; do
    case $arg in
        --fast) fast=1 ;;
        -h | --help) sed -n '2,10p' "$0"; exit 0 ;;
        *) printf 'test.sh: unknown option %s (try --fast)\n' "$arg" >&2; exit 64 ;;
    esac
done

step_names=()
step_seconds=()
step_name=""
step_started=0
end_step() {
    if [ -n "$step_name" ]; then
        step_names+=("$step_name")
        step_seconds+=("$(($(date +%s) - step_started))")
    fi
    step_name=""
}
step() {
    end_step
    step_name="$*"
    step_started=$(date +%s)
    printf '\n==> %s\n' "$*"
}
durations() {
    local status=$?
    end_step
    printf '\ntest.sh: step durations (%s):\n' "$([ "$status" -eq 0 ] && echo passed || echo "FAILED, exit $status")"
    for i in "${!step_names[@]}"; do printf '%6ss  %s\n' "${step_seconds[$i]}" "${step_names[$i]}"; done
    printf '%6ss  total\n' "$(($(date +%s) - started))"
}
trap durations EXIT
die() { printf 'test.sh: %s\n' "$*" >&2; exit 1; }

need_debian_package() {  # $1 command, $2 package
    command -v "$1" >/dev/null 2>&1 && return 0
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
        step "installing $2 (needed for $1)"
        apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null
    else
        die "$1 is missing: install the Debian package $2 (sudo apt-get install $2)"
    fi
}

command -v swift >/dev/null 2>&1 || die "the Swift toolchain is missing: install Swift 6 and put swift on PATH"
need_debian_package node nodejs
need_debian_package chattr e2fsprogs
need_debian_package mount mount
# install.sh's man page check; the packer's and generator's signing keys; the zip tests' reader.
need_debian_package man man-db
need_debian_package openssl openssl
need_debian_package unzip unzip
# The secrets tests' private session bus and keyring (scripts/e2e/secrets-test.sh).
need_debian_package dbus-run-session dbus-daemon
need_debian_package dbus-send dbus-bin
need_debian_package gnome-keyring-daemon gnome-keyring
need_debian_package secret-tool libsecret-tools

step "swift format lint --strict"
swift format lint --strict -r Sources Tests Fuzz Examples Package.swift

step "lint: shellcheck (every shell script), ruff (every Python file), node --check (every JavaScript file)"
need_debian_package shellcheck shellcheck
git ls-files -z '*.sh' scripts/bench .ci/run | xargs -0 shellcheck
lint_venv="$BUILD_DIR/lint-venv"
if [ ! -x "$lint_venv/bin/ruff" ]; then
    python3 -m venv "$lint_venv" && "$lint_venv/bin/pip" install -q "ruff==0.17.6" || die "cannot install ruff into $lint_venv"
fi
"$lint_venv/bin/ruff" check .
# No current JavaScript linter can be installed here (npm's registry is unreachable; Debian's eslint
# 6.4 cannot parse private class fields): node --check parses every file, and the manifest tests run.
git ls-files -z '*.js' | xargs -0 -n 1 node --check

step "checks: docs name what exists, the module graph agrees with Package.swift and ARCHITECTURE.md, system calls go through Syscalls.swift, no file-level cycle inside a module (scripts/checks); the page benchmark's and the page probe's own logic (scripts/benchmarks/test_page_bench.py, test_page_probe.py)"
python3 -m unittest discover -s scripts/checks -p 'test_*.py'
python3 -m unittest discover -s scripts/benchmarks -p 'test_*.py'
python3 scripts/checks/docs.py
python3 scripts/checks/modules.py
python3 scripts/checks/syscalls.py
python3 scripts/checks/cycles.py

step "swift build (debug, with tests)"
swift build --build-tests
bin_dir=$(swift build --show-bin-path)

if [ "$fast" -eq 1 ]; then
    step "swift test: unit tests (EndToEndTests skipped: the full run has them)"
    swift test --skip-build --skip EndToEndTests

    step "secrets in a real Secret Service: private session bus, gnome-keyring (scripts/e2e/secrets-test.sh)"
    EXTENSION_BRIDGE_BIN_DIR="$bin_dir" scripts/e2e/secrets-test.sh

    step "node --test: the extension's pure modules and its manifest"
    node --test extension/test/

    step "end-to-end in real Chromium (scripts/e2e/run.sh --browser chromium)"
    E2E_SKIP_BUILD=1 E2E_BIN_DIR="$bin_dir" scripts/e2e/run.sh --browser chromium

    printf '\ntest.sh: fast tier passed in %ss (the full run: scripts/test.sh)\n' "$(($(date +%s) - started))"
    exit 0
fi

step "swift test: unit tests and end-to-end tests of the built binaries"
EXTENSION_BRIDGE_BIN_DIR="$bin_dir" swift test --skip-build

step "secrets in a real Secret Service: private session bus, gnome-keyring (scripts/e2e/secrets-test.sh)"
EXTENSION_BRIDGE_BIN_DIR="$bin_dir" scripts/e2e/secrets-test.sh

step "API documentation with docc, warnings as errors (scripts/docs.sh)"
scripts/docs.sh

step "Examples/CustomAction: an app's own host on the library, built and driven over real pipes"
swift build --package-path Examples/CustomAction
GREETING_HOST="$(swift build --package-path Examples/CustomAction --show-bin-path)/greeting-host" \
    swift test --package-path Examples/CustomAction

step "Examples/SuiteApp: an app writing and draining the suite, beside the real host"
swift build --package-path Examples/SuiteApp
SUITE_APP="$(swift build --package-path Examples/SuiteApp --show-bin-path)/suite-app" \
    EXTENSION_BRIDGE_HOST="$bin_dir/extension-bridge-host" \
    swift test --package-path Examples/SuiteApp

step "fuzz targets replay their seed corpus (normal build)"
for target in FuzzFrameDecoder FuzzJSONParser FuzzEndpoint FuzzSuiteFile FuzzValueParser; do
    "$bin_dir/$target" "Fuzz/Corpus/$target"
done

step "node --test: the extension's pure modules and its manifest"
node --test extension/test/

step "end-to-end in real Chromium and Firefox (scripts/e2e/run.sh)"
E2E_SKIP_BUILD=1 E2E_BIN_DIR="$bin_dir" scripts/e2e/run.sh --browser all

step "installed for real: pack's CRX through External Extensions (Chromium); doctor reads real profiles (Firefox)"
e2e_python=$(scripts/e2e/setup.sh | sed -n 's/^E2E_PYTHON=//p' | tail -n 1)
EXTENSION_BRIDGE_BIN_DIR="$bin_dir" "$e2e_python" scripts/e2e/pack_chromium.py
"$e2e_python" scripts/e2e/doctor_presence.py

step "extension-bridge new: a generated bridge built offline, installed with --config, in real browsers; a Safari extension imported with --from-safari"
E2E_BIN_DIR="$bin_dir" scripts/e2e/generated.sh --browser all

step "real Safari extensions (../shared/safari-corpus, or SAFARI_CORPUS) through new --from-safari, in real Chromium and Firefox against their originals (scripts/e2e/safari_corpus.py)"
"$e2e_python" scripts/e2e/safari_corpus.py --bin-dir "$bin_dir"

step "install.sh on an empty HOME, twice, with no browser; Chromium gets the CRX (scripts/e2e/install-test.sh)"
scripts/release-build.sh extension-bridge-host extension-bridge
INSTALL_BIN_DIR="$(swift build -c release --show-bin-path)" scripts/e2e/install-test.sh

step "extension-bridge run: the built-in bridge and a generated project in real Chromium and Firefox, edits reloaded and rebuilt, Ctrl-C and SIGTERM leave nothing, the user's HOME untouched (scripts/e2e/run-verb.sh)"
# After install.sh's step: the release host it built is the one run finds up to date.
E2E_BIN_DIR="$bin_dir" scripts/e2e/run-verb.sh --browser all

step "Debian package: lintian, dpkg -i, the extension in real Chromium and Firefox, dpkg -r, purge (scripts/e2e/deb-test.sh)"
if [ "$(id -u)" -eq 0 ] && command -v dpkg-deb >/dev/null 2>&1; then
    PACKAGE_BIN_DIR="$(swift build -c release --show-bin-path)" scripts/e2e/deb-test.sh
else
    echo "skipped: needs root and dpkg-deb"
fi

step "swift test --sanitize=address (host and CLI built with ASan too)"
asan_bin=$(swift build --scratch-path "$BUILD_DIR/asan" --sanitize=address --show-bin-path)
swift build --scratch-path "$BUILD_DIR/asan" --sanitize=address --build-tests
LSAN_OPTIONS="suppressions=$root/scripts/lsan.supp" EXTENSION_BRIDGE_BIN_DIR="$asan_bin" \
    swift test --scratch-path "$BUILD_DIR/asan" --sanitize=address --skip-build

step "swift test --sanitize=thread"
tsan_bin=$(swift build --scratch-path "$BUILD_DIR/tsan" --sanitize=thread --show-bin-path)
swift build --scratch-path "$BUILD_DIR/tsan" --sanitize=thread --build-tests
EXTENSION_BRIDGE_BIN_DIR="$tsan_bin" swift test --scratch-path "$BUILD_DIR/tsan" --sanitize=thread --skip-build

step "short fuzz run: ${FUZZ_SECONDS:=60} s per target (scripts/fuzz/run.sh)"
scripts/fuzz/run.sh --seconds "$FUZZ_SECONDS"

step "benchmark smoke run (scripts/bench --quick; the full run is scripts/bench)"
scripts/bench --quick

printf '\ntest.sh: all tests passed in %ss\n' "$(( $(date +%s) - started ))"
