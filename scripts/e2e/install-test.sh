#!/usr/bin/env bash
# scripts/install.sh on a fresh machine, as a new user meets it: an EMPTY HOME
# (no profile folder: the browsers are installed but were never started), a
# path with spaces, a second run, a manifest folder that is a symlink, a
# machine with no browser at all, and Chromium started on the user's own profile
# folder getting the extension from the CRX install.sh made (no --load-extension). Uses the real browsers installed by
# scripts/e2e/setup.sh and the release binaries (INSTALL_BIN_DIR, default
# .build/release, built with scripts/release-build.sh when missing).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin=${INSTALL_BIN_DIR:-"$repo/.build/release"}
if [[ ! -x "$bin/extension-bridge" || ! -x "$bin/extension-bridge-host" ]]; then
    "$repo/scripts/release-build.sh" extension-bridge-host extension-bridge
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "install-test: FAIL: $*" >&2; failures=$((failures + 1)); }
ok() { echo "install-test: ok   $*"; }

[[ -x /usr/lib/chromium/chromium ]] || { echo "install-test: Chromium is not installed (scripts/e2e/setup.sh)" >&2; exit 1; }
command -v firefox-esr >/dev/null || { echo "install-test: firefox-esr is not installed (scripts/e2e/setup.sh)" >&2; exit 1; }

# 1. Empty HOME with a space in it; Chromium and Firefox installed, never started.
home="$tmp/fresh home"
mkdir "$home"
[[ -z "$(ls -A "$home")" ]] || fail "HOME is not empty"
status=0
out=$(HOME="$home" PATH="/usr/local/bin:/usr/bin:/bin" INSTALL_BIN_DIR="$bin" "$repo/scripts/install.sh" 2>&1) || status=$?
((status == 0)) || { echo "$out"; fail "install.sh exited $status on an empty HOME"; }
chromium_manifest="$home/.config/chromium/NativeMessagingHosts/org.extensionbridge.host.json"
firefox_manifest="$home/.mozilla/native-messaging-hosts/org.extensionbridge.host.json"
[[ -f "$chromium_manifest" ]] && ok "empty HOME: registered for Chromium" || { echo "$out"; fail "no Chromium manifest"; }
[[ -f "$firefox_manifest" ]] && ok "empty HOME: registered for Firefox" || { echo "$out"; fail "no Firefox manifest"; }
grep -q "\"path\": \"$home/.local/bin/extension-bridge-host\"" "$chromium_manifest" \
    || fail "the Chromium manifest does not point at the installed host"
cli="$home/.local/bin/extension-bridge"
doctor=$(HOME="$home" "$cli" doctor 2>&1) && ok "doctor passes after install.sh" || { echo "$doctor"; fail "doctor failed"; }
grep -q "chromium: user" <<<"$doctor" && grep -q "firefox: user" <<<"$doctor" \
    || { echo "$doctor"; fail "doctor does not say Chromium and Firefox use the user manifests"; }

# The man page and completions install.sh put under PREFIX/share, checked by their own tools.
share="$home/.local/share"
man -l "$share/man/man1/extension-bridge.1" 2>/dev/null | grep -Eq "extension-bridge +doctor" \
    && ok "man page installed and renders" || fail "no man page under $share/man/man1"
bash -n "$share/bash-completion/completions/extension-bridge" && ok "bash completion: bash -n" \
    || fail "bash completion missing or broken"
if command -v zsh >/dev/null; then
    zsh -n "$share/zsh/site-functions/_extension-bridge" && ok "zsh completion: zsh -n" || fail "zsh completion broken"
fi
if command -v fish >/dev/null; then
    fish -n "$share/fish/vendor_completions.d/extension-bridge.fish" && ok "fish completion: fish -n" \
        || fail "fish completion broken"
fi
got=$(bash -c 'source "$1"; COMP_WORDS=(extension-bridge queue ""); COMP_CWORD=2; _extension_bridge; echo "${COMPREPLY[*]}"' \
    _ "$share/bash-completion/completions/extension-bridge")
[[ "$got" == "list count drain watch remove" ]] && ok "bash completes queue subcommands" || fail "bash completion offered '$got'"

# The installed copy of the package lets `new` generate a project without a checkout.
gen=$(cd "$tmp" && HOME="$home" PATH="/usr/bin:/bin" "$cli" new Demo --host-name org.example.demo \
    --group group.org.example.demo --dry-run 2>&1) && grep -q "Package.swift" <<<"$gen" \
    && ok "new finds the installed source copy" || { echo "$gen"; fail "new cannot use the installed source copy"; }

# 2. A second run changes nothing.
again=$(HOME="$home" PATH="/usr/bin:/bin" INSTALL_BIN_DIR="$bin" "$repo/scripts/install.sh" 2>&1) || fail "second run failed"
grep -q "already installed: nothing changed" <<<"$again" && ok "second run: nothing changed" \
    || { echo "$again"; fail "second run changed something"; }

# 3. Uninstall leaves the HOME as empty as it was (the group container is not created by install), but
#    for the signing key install said to keep.
HOME="$home" "$repo/scripts/uninstall.sh" >/dev/null 2>&1 || fail "uninstall.sh failed"
left=$(cd "$home" && find . -type f | sort)
[[ "$left" == "./.local/share/extension-bridge/keys/extension-bridge.pem" ]] \
    && ok "uninstall.sh removes every file install.sh wrote but the key it said to keep" || fail "left behind: $left"

# 4. The Firefox manifest folder is a symlink to a folder elsewhere: written through it, doctor happy.
home2="$tmp/linked"
mkdir -p "$home2/.mozilla" "$tmp/elsewhere"
ln -s "$tmp/elsewhere" "$home2/.mozilla/native-messaging-hosts"
HOME="$home2" PATH="/usr/bin:/bin" INSTALL_BIN_DIR="$bin" "$repo/scripts/install.sh" >/dev/null 2>&1 \
    || fail "install.sh with a symlinked manifest folder failed"
[[ -L "$home2/.mozilla/native-messaging-hosts" && -f "$tmp/elsewhere/org.extensionbridge.host.json" ]] \
    && ok "symlinked manifest folder: kept, manifest written through it" || fail "symlinked folder replaced or unused"
HOME="$home2" "$home2/.local/bin/extension-bridge" doctor >/dev/null 2>&1 || fail "doctor fails with a symlinked folder"

# 5. No browser at all: binaries installed, next steps said, exit 0.
home3="$tmp/nobrowser"
mkdir -p "$home3" "$tmp/emptyroot"
none=$(HOME="$home3" EXTENSION_BRIDGE_DETECT_ROOT="$tmp/emptyroot" INSTALL_BIN_DIR="$bin" "$repo/scripts/install.sh" 2>&1) \
    && ok "no browser: exit 0" || { echo "$none"; fail "no browser: install.sh failed"; }
grep -q "No browser was found" <<<"$none" && [[ -x "$home3/.local/bin/extension-bridge-host" ]] \
    && ok "no browser: binaries installed and next steps printed" || { echo "$none"; fail "no browser: no advice"; }
# Nothing was installed into a browser, so nothing may say so.
grep -Eiq "next start|installed at|enabled" <<<"$none" && { echo "$none"; fail "no browser: claims an extension install"; } \
    || ok "no browser: no sentence claims the extension was installed"
# The command it names for later, run as printed once a browser is there, installs the host and the extension.
later=$(grep -A1 "After installing a browser, run:" <<<"$none" | tail -n 1 | sed 's/^ *//')
[[ "$later" == "$home3/.local/bin/extension-bridge install --crx" ]] || fail "no browser: the command for later is '$later'"
mkdir -p "$tmp/emptyroot/usr/bin" && printf '#!/bin/sh\n' >"$tmp/emptyroot/usr/bin/chromium" && chmod 755 "$tmp/emptyroot/usr/bin/chromium"
after=$(HOME="$home3" EXTENSION_BRIDGE_DETECT_ROOT="$tmp/emptyroot" bash -c "$later" 2>&1) || { echo "$after"; fail "'$later' failed"; }
if compgen -G "$home3/.config/chromium/External Extensions/*.json" >/dev/null \
    && [[ -f "$home3/.config/chromium/NativeMessagingHosts/org.extensionbridge.host.json" ]]; then
    ok "no browser, then one: the command named installs the host and the extension"
else
    echo "$after"
    fail "no browser, then one: '$later' did not install the extension"
fi

# 5b. No openssl on PATH (a PATH of links to every tool but openssl), a browser present: only the host
#     is registered, the output says so and names the command that finishes the job, and claims nothing.
home3b="$tmp/noopenssl"
nossl="$tmp/path-without-openssl"
mkdir -p "$home3b" "$nossl" "$tmp/chromiumroot/usr/bin"
for tool in /usr/bin/* /bin/*; do
    name=${tool##*/}
    [[ "$name" == openssl || -e "$nossl/$name" ]] || ln -s "$tool" "$nossl/$name"
done
printf '#!/bin/sh\n' >"$tmp/chromiumroot/usr/bin/chromium" && chmod 755 "$tmp/chromiumroot/usr/bin/chromium"
nossl_out=$(HOME="$home3b" PATH="$nossl" EXTENSION_BRIDGE_DETECT_ROOT="$tmp/chromiumroot" INSTALL_BIN_DIR="$bin" \
    "$repo/scripts/install.sh" 2>&1) || { echo "$nossl_out"; fail "no openssl: install.sh failed"; }
if grep -q "openssl is not on PATH" <<<"$nossl_out" && grep -q "run: $home3b/.local/bin/extension-bridge install --crx" <<<"$nossl_out" \
    && ! grep -Eiq "next start|installed at" <<<"$nossl_out" && [[ ! -e "$home3b/.config/chromium/External Extensions" ]]; then
    ok "no openssl: host only, said so, the command that installs the extension named, no claim"
else
    echo "$nossl_out"
    fail "no openssl: wrong output or an External Extensions file"
fi
# With openssl and the same browser: the claim is made by install, for Chromium, and is true.
withssl=$(HOME="$home3b" EXTENSION_BRIDGE_DETECT_ROOT="$tmp/chromiumroot" INSTALL_BIN_DIR="$bin" "$repo/scripts/install.sh" 2>&1) \
    || fail "with openssl: install.sh failed"
if [[ $(grep -c "installs at the browser's next start" <<<"$withssl") -eq 1 ]] && grep -q "^Chromium: the extension" <<<"$withssl" \
    && compgen -G "$home3b/.config/chromium/External Extensions/*.json" >/dev/null; then
    ok "with openssl: one claim, for Chromium, and its External Extensions file is there"
else
    echo "$withssl"
    fail "with openssl: the claim and the files disagree"
fi

# 6. PREFIX somewhere unwritable (a file stands where the folder should be): a clear error, not a half install.
home4="$tmp/badprefix"
mkdir -p "$home4"
touch "$home4/blocker"
if bad=$(HOME="$home4" PREFIX="$home4/blocker/x" INSTALL_BIN_DIR="$bin" "$repo/scripts/install.sh" 2>&1); then
    fail "install.sh into an unwritable PREFIX succeeded"
else
    grep -q "choose a writable PREFIX" <<<"$bad" && ok "unwritable PREFIX: clear error" || { echo "$bad"; fail "unclear error"; }
fi

# 7. Chromium gets the extension for good (install --crx), as a user starts it: on
#    ~/.config/chromium, without --load-extension; a second install keeps the id; uninstall removes it.
python=$("$repo/scripts/e2e/setup.sh" | sed -n 's/^E2E_PYTHON=//p' | tail -n 1)
home5="$tmp/chromium user"
mkdir -p "$home5"
artifacts="${BUILD_DIR:-$repo/.build}/e2e-artifacts/install-crx"
out5=$(HOME="$home5" PATH="/usr/local/bin:/usr/bin:/bin" INSTALL_BIN_DIR="$bin" "$repo/scripts/install.sh" 2>&1) \
    || { echo "$out5"; fail "install.sh (CRX) failed"; }
key="$home5/.local/share/extension-bridge/keys/extension-bridge.pem"
if [[ "$(stat -c %a "$key" 2>/dev/null)" == 600 && "$(stat -c %a "$(dirname "$key")")" == 700 ]]; then
    ok "the machine's signing key is made on first install, mode 0600 in a 0700 folder"
else
    fail "signing key $key missing or not private"
fi
cli5="$home5/.local/bin/extension-bridge"
HOME="$home5" "$cli5" enable >/dev/null 2>&1 && HOME="$home5" "$cli5" write vocabulary -dict blue blauw >/dev/null 2>&1 \
    || fail "could not write the suite"
present=$("$python" "$repo/scripts/e2e/crx_chromium.py" present "$home5" "$artifacts") || true
echo "$present"
id1=$(tail -n 1 <<<"$present")
if [[ "$id1" =~ ^[a-p]{32}$ ]]; then
    ok "Chromium on ~/.config/chromium has the extension from the CRX ($id1) and rewrites a page"
else
    fail "Chromium did not install the extension from the CRX"
fi
doctor5=$(HOME="$home5" "$cli5" doctor --browser chromium 2>&1) || true
grep -q "installed from an External Extensions file" <<<"$doctor5" \
    && ok "doctor reads Chromium's profile: installed from an External Extensions file" \
    || { echo "$doctor5"; fail "doctor does not see the CRX's extension in ~/.config/chromium"; }
grep -q "chrome-extension://$id1/" "$home5/.config/chromium/NativeMessagingHosts/org.extensionbridge.host.json" \
    && ok "the host manifest allows the CRX's id" || fail "the host manifest does not allow $id1"
again5=$(HOME="$home5" PATH="/usr/local/bin:/usr/bin:/bin" INSTALL_BIN_DIR="$bin" "$repo/scripts/install.sh" 2>&1) \
    || fail "second install (CRX) failed"
if grep -q "already installed: nothing changed" <<<"$again5" && [[ -f "$home5/.config/chromium/External Extensions/$id1.json" ]]; then
    ok "second install: the same key, the same id, nothing changed"
else
    echo "$again5"
    fail "second install changed the CRX or its id"
fi
HOME="$home5" "$repo/scripts/uninstall.sh" >/dev/null 2>&1 || fail "uninstall.sh (CRX) failed"
[[ ! -e "$home5/.config/chromium/External Extensions/$id1.json" && -f "$key" ]] \
    && ok "uninstall.sh removes the External Extensions file and keeps the key install said to keep" \
    || fail "uninstall.sh left the External Extensions file or removed the key"
"$python" "$repo/scripts/e2e/crx_chromium.py" absent "$home5" "$artifacts" && ok "after uninstall Chromium has no extension" \
    || fail "Chromium still has the extension after uninstall"
# Installed again, the kept key signs: the same id. Asked to, uninstall.sh removes the key too.
HOME="$home5" PATH="/usr/local/bin:/usr/bin:/bin" INSTALL_BIN_DIR="$bin" "$repo/scripts/install.sh" >/dev/null 2>&1 \
    || fail "install.sh after uninstall.sh failed"
[[ -f "$home5/.config/chromium/External Extensions/$id1.json" ]] && ok "reinstalled with the kept key: the same id" \
    || fail "reinstall after uninstall.sh changed the id"
gone=$(HOME="$home5" "$repo/scripts/uninstall.sh" --remove-key 2>&1) || fail "uninstall.sh --remove-key failed"
if [[ ! -e "$key" ]] && grep -q "makes a new key, so the extension gets a new" <<<"$gone"; then
    ok "uninstall.sh --remove-key removes the key and says the next install gets a new id"
else
    echo "$gone"
    fail "uninstall.sh --remove-key kept the key or did not say what that means"
fi

# Two install.sh into one HOME at once: both succeed (one waits), and the binaries are whole.
home6="$tmp/twice"
mkdir -p "$home6"
HOME="$home6" PATH="/usr/bin:/bin" INSTALL_BIN_DIR="$bin" "$repo/scripts/install.sh" >"$tmp/twice-a.log" 2>&1 &
first=$!
HOME="$home6" PATH="/usr/bin:/bin" INSTALL_BIN_DIR="$bin" "$repo/scripts/install.sh" >"$tmp/twice-b.log" 2>&1 \
    && second=0 || second=$?
wait "$first" && firststatus=0 || firststatus=$?
if ((firststatus == 0 && second == 0)) && cmp -s "$bin/extension-bridge-host" "$home6/.local/bin/extension-bridge-host" \
    && cmp -s "$bin/extension-bridge" "$home6/.local/bin/extension-bridge"; then
    ok "two install.sh at once: both exit 0, the binaries are whole"
else
    cat "$tmp/twice-a.log" "$tmp/twice-b.log"
    fail "two install.sh at once: exit $firststatus and $second, or a binary differs"
fi
# Stopped (SIGTERM) while copying, install.sh leaves no hidden half-copy; uninstall.sh leaves nothing of it.
# (Not SIGINT: a background job of a script ignores it.)
# A cp that lingers after writing the host's .new copy holds install.sh at that point, so the
# signal always lands mid-install (a real copy can end between two polls).
home7="$tmp/interrupted"
mkdir -p "$home7" "$tmp/slowcp"
printf '#!/bin/sh\n/bin/cp "$@" || exit\ncase "$*" in *.extension-bridge-host.new*) sleep 3 ;; esac\n' >"$tmp/slowcp/cp"
chmod 755 "$tmp/slowcp/cp"
HOME="$home7" PATH="$tmp/slowcp:/usr/bin:/bin" INSTALL_BIN_DIR="$bin" "$repo/scripts/install.sh" >/dev/null 2>&1 &
victim=$!
for _ in $(seq 1 500); do
    [[ -e "$home7/.local/bin/.extension-bridge-host.new" ]] && break
    sleep 0.01
done
kill -TERM "$victim" 2>/dev/null || true
wait "$victim" && stopped=0 || stopped=$?
((stopped == 143)) || fail "install.sh was not stopped by SIGTERM while copying (exit $stopped): nothing was tested"
HOME="$home7" "$repo/scripts/uninstall.sh" >/dev/null 2>&1 || true
left=$(find "$home7/.local" -name "*.new" 2>/dev/null)
[[ -z "$left" ]] && ok "stopped install.sh, then uninstall.sh: no hidden leftovers" \
    || fail "stopped install.sh left: $left"

if ((failures)); then
    echo "install-test: $failures failed"
    exit 1
fi
echo "install-test: all passed"
