#!/usr/bin/env bash
# The secrets tests against a real Secret Service: a private session bus
# (dbus-run-session) with an unlocked gnome-keyring-daemon, HOME, TMPDIR and
# XDG_RUNTIME_DIR in a fresh temporary folder (so the keyring file is new and
# the tests can look for the value in every file under them). Runs
# EndToEndTests/SecretsTests with EXTENSION_BRIDGE_TEST_KEYRING=1, then
# stores a probe, locks the keyring (its unlock prompt cannot be shown: no
# display) and runs the locked-keyring test. Needs dbus, gnome-keyring and
# libsecret-tools (scripts/test.sh installs them) and a built package
# (swift build --build-tests; EXTENSION_BRIDGE_BIN_DIR names the binaries, as
# for swift test). The keyring daemon is stopped by its pid; the bus ends with
# dbus-run-session.
#   scripts/e2e/secrets-test.sh
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
for tool in dbus-run-session dbus-send gnome-keyring-daemon secret-tool; do
    command -v "$tool" >/dev/null || {
        echo "secrets-test: $tool is missing: apt-get install dbus gnome-keyring libsecret-tools" >&2
        exit 1
    }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/home" "$work/tmp" "$work/run"
chmod 700 "$work/run"

# Inside the private session: start the keyring with its password on stdin,
# wait for it to own org.freedesktop.secrets, run the tests, stop it by pid.
cat >"$work/session.sh" <<'SESSION'
set -euo pipefail
cd "$REPO"
printf 'test-password' | gnome-keyring-daemon --foreground --unlock --components=secrets >/dev/null 2>"$WORK/keyring.log" &
keyring=$!
trap 'kill "$keyring" 2>/dev/null || true; wait "$keyring" 2>/dev/null || true' EXIT
owned=0
for _ in $(seq 100); do
    if dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
        org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q 'boolean true'; then
        owned=1
        break
    fi
    sleep 0.1
done
[ "$owned" -eq 1 ] || { echo "secrets-test: gnome-keyring-daemon did not start:" >&2; cat "$WORK/keyring.log" >&2; exit 1; }

EXTENSION_BRIDGE_TEST_KEYRING=1 swift test --skip-build --filter 'EndToEndTests.SecretsTests'

bin=${EXTENSION_BRIDGE_BIN_DIR:-$(swift build --show-bin-path)}
printf 'probe-value' | env PATH=/usr/bin:/bin "$bin/extension-bridge" --suite group.test.locked secret set probe --shared
echo "secrets-test: keyring locked; its unlock prompt (gcr-prompter) cannot open a display: the bus logs that below" >&2
dbus-send --session --print-reply --dest=org.freedesktop.secrets /org/freedesktop/secrets \
    org.freedesktop.Secret.Service.Lock array:objpath:/org/freedesktop/secrets/collection/login >/dev/null
EXTENSION_BRIDGE_TEST_KEYRING=locked swift test --skip-build --filter 'SecretsTests.lockedKeyring'
SESSION

# The session bus refuses to raise its fd limit when not root-capable; that warning is noise.
HOME="$work/home" TMPDIR="$work/tmp" XDG_RUNTIME_DIR="$work/run" REPO="$repo" WORK="$work" \
    dbus-run-session -- bash "$work/session.sh" 2> >(grep -v 'Failed to set fd limit' >&2)
echo "secrets-test: passed (a private session bus with gnome-keyring-daemon $(gnome-keyring-daemon --version | head -1 | cut -d' ' -f2-))"
