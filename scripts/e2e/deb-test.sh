#!/usr/bin/env bash
# The Debian package, end to end, as root: scripts/package-deb.sh builds it; lintian reports no
# errors or warnings; a Firefox ESR profile is made and started once BEFORE the install; `dpkg -i`
# (twice: a reinstall works); `extension-bridge doctor --system` passes; real Chromium started
# through Debian's /usr/bin/chromium with a fresh profile, and Firefox ESR on the profile made
# before, each have the extension the PACKAGE installed (no --load-extension, no temporary add-on)
# and rewrite a page from the suite on their first start; with a per-user install beside it,
# doctor says which one each browser uses; after `dpkg -r` neither browser has the extension and
# only the conffile is left; `dpkg --purge` leaves no file of the package behind. The machine is
# restored (dpkg --purge) on every path. Needs root, dpkg-deb and the browsers and venv of
# scripts/e2e/setup.sh. Runs alone: every browser on the machine sees a system-wide extension.
# Environment: PACKAGE_BIN_DIR (release binaries; default: built), BUILD_DIR.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build_dir=${BUILD_DIR:-"$repo/.build"}
[[ $(id -u) -eq 0 ]] || { echo "deb-test: needs root (dpkg -i)" >&2; exit 77; }
if ! command -v lintian >/dev/null; then
    apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends lintian >/dev/null
fi
python=$("$repo/scripts/e2e/setup.sh" | sed -n 's/^E2E_PYTHON=//p' | tail -n 1)

tmp=$(mktemp -d)
failures=0
fail() { echo "deb-test: FAIL: $*" >&2; failures=$((failures + 1)); }
ok() { echo "deb-test: ok   $*"; }
restore() {
    if dpkg-query -W -f='${Status}' linguisticat 2>/dev/null | grep -q "installed\|config-files"; then
        dpkg --purge linguisticat >/dev/null 2>&1 || echo "deb-test: dpkg --purge linguisticat failed" >&2
    fi
    if dpkg-query -W -f='${Status}' extension-bridge 2>/dev/null | grep -q "ok installed"; then
        dpkg --purge extension-bridge >/dev/null 2>&1 \
            || echo "deb-test: dpkg --purge failed: remove extension-bridge by hand" >&2
    elif dpkg-query -W -f='${Status}' extension-bridge 2>/dev/null | grep -q "config-files"; then
        dpkg --purge extension-bridge >/dev/null 2>&1 || echo "deb-test: dpkg --purge failed" >&2
    fi
    rm -rf "$tmp"
}
trap restore EXIT

if dpkg-query -W -f='${Status}' extension-bridge 2>/dev/null | grep -q "ok installed"; then
    echo "deb-test: extension-bridge is installed already (a package of its own?); refusing to touch it" >&2
    trap - EXIT
    rm -rf "$tmp"
    exit 1
fi

# A store id (docs/SHIPPING.md) joins the system manifests' allowlist beside the bundled one.
store_id=abcdefghijklmnopabcdefghijklmnop
# The package names whoever builds it; the test is that packager, at an address no one is sent mail at.
packager=(env DEBFULLNAME="ExtensionBridge tests" DEBEMAIL="tests@example.com")
if env -u DEBFULLNAME -u DEBEMAIL "$repo/scripts/package-deb.sh" "$tmp/refused" >/dev/null 2>"$tmp/refused.err" </dev/null \
    || ! grep -q "set DEBFULLNAME and DEBEMAIL" "$tmp/refused.err" || [[ -e "$tmp/refused" ]]; then
    fail "package-deb.sh without DEBFULLNAME and DEBEMAIL: $(cat "$tmp/refused.err")"
else ok "package-deb.sh without DEBFULLNAME and DEBEMAIL is refused, naming them"; fi
deb=$("${packager[@]}" "$repo/scripts/package-deb.sh" --extension-id "$store_id" "$tmp/out" | tail -n 1)
[[ -f "$deb" && "$deb" == *"/extension-bridge_"*"_$(dpkg --print-architecture).deb" ]] \
    && ok "package-deb.sh made $(basename "$deb")" || { fail "package-deb.sh printed '$deb'"; exit 1; }

lint=$(lintian "$deb" 2>&1 || true)
if grep -q '^[EW]:' <<<"$lint"; then fail "lintian:"; grep '^[EW]:' <<<"$lint" >&2; else ok "lintian: no errors or warnings"; fi
[[ "$(dpkg-deb -f "$deb" Maintainer)" == "ExtensionBridge tests <tests@example.com>" ]] \
    && ok "the package names its packager as maintainer" || fail "Maintainer: $(dpkg-deb -f "$deb" Maintainer)"

dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/share/extension-bridge/native-messaging-hosts/org.extensionbridge.host.json \
    2>/dev/null | grep -q "chrome-extension://$store_id/" && ok "package-deb.sh --extension-id: the store id is allowed" \
    || fail "the system manifests do not allow the --extension-id given to package-deb.sh"

home="$tmp/home"
firefox_profile="$tmp/firefox-profile"
artifacts="$build_dir/e2e-artifacts/deb"
mkdir -p "$home"
"$python" "$repo/scripts/e2e/deb_browsers.py" prepare-firefox "$firefox_profile" "$home" "$artifacts" \
    || fail "could not prepare a Firefox profile before the install"

snapshot() { find /etc /usr /opt -xdev 2>/dev/null | sort; }
snapshot >"$tmp/before"
dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|; s|/$||' | grep -v '^$' | sort >"$tmp/package-paths"

dpkg -i "$deb" >/dev/null && ok "dpkg -i" || fail "dpkg -i"
dpkg -i "$deb" >/dev/null && ok "dpkg -i again (reinstall)" || fail "dpkg -i a second time"
for path in /usr/bin/extension-bridge /usr/lib/extension-bridge/extension-bridge-host \
    /usr/lib/extension-bridge/extension-bridge-host.conf /etc/chromium/native-messaging-hosts/org.extensionbridge.host.json \
    /usr/lib/mozilla/native-messaging-hosts/org.extensionbridge.host.json /usr/share/man/man1/extension-bridge.1.gz \
    /usr/share/bash-completion/completions/extension-bridge /usr/share/extension-bridge/extension/manifest.json \
    /usr/share/chromium/extensions/extension-bridge/manifest.json /etc/firefox-esr/extension-bridge.js \
    "/usr/share/mozilla/extensions/{ec8030f7-c20a-464f-9b0e-13a3a9e97384}/extension-bridge@extensionbridge.org/manifest.json"; do
    [[ -e "$path" ]] || fail "the package did not install $path"
done
doctor=$(HOME="$home" /usr/bin/extension-bridge doctor --system 2>&1) && ok "extension-bridge doctor --system passes" \
    || { echo "$doctor"; fail "doctor --system"; }
grep -q "chromium: system /etc/chromium/native-messaging-hosts" <<<"$doctor" \
    || { echo "$doctor"; fail "doctor --system does not say Chromium uses the system manifest"; }
man -l /usr/share/man/man1/extension-bridge.1.gz 2>/dev/null | grep -q "doctor" && ok "man extension-bridge renders" \
    || fail "the man page does not render"

HOME="$home" /usr/bin/extension-bridge enable 2>/dev/null || fail "extension-bridge enable"
HOME="$home" /usr/bin/extension-bridge write vocabulary -dict blue blauw 2>/dev/null || fail "write vocabulary"
"$python" "$repo/scripts/e2e/deb_browsers.py" installed "$firefox_profile" "$home" "$artifacts" \
    || fail "the package did not put a working extension into Chromium and Firefox"

# A bridge made by `new`, packaged by its own scripts/package-deb.sh (the same `pack --deb` as ours),
# installed beside ours: lintian clean, both extensions in Chromium, its host the packaged static one,
# and `dpkg -r` of it leaves none of its files.
# With the package alone there is no source for `new`: refused, saying so and naming the way forward.
set +e
no_source=$(cd "$tmp" && env -u EXTENSION_BRIDGE_SOURCE HOME="$home" /usr/bin/extension-bridge new Lone \
    --host-name com.example.lone --group group.com.example.lone --dry-run 2>&1)
status=$?
set -e
[[ $status -eq 66 && "$no_source" == *"the Debian package does not include"* && "$no_source" == *"--package-path DIR"* ]] \
    && ok "new with the package alone is refused, naming --package-path" || fail "new without a source ($status): $no_source"
app="$tmp/Linguisticat"
app_group=group.com.example.linguisticat
/usr/bin/extension-bridge new Linguisticat --host-name com.example.linguisticat --group "$app_group" \
    --dir "$app" --package-path "$repo" >/dev/null 2>&1 || fail "extension-bridge new"
app_deb=$(cd "$app" && PATH="/usr/bin:$PATH" scripts/package-deb.sh "$tmp/app-out" 2>"$tmp/app-build.log" | tail -n 1)
if [[ -f "$app_deb" ]]; then
    ok "the generated project's scripts/package-deb.sh made $(basename "$app_deb")"
    app_lint=$(lintian "$app_deb" 2>&1 || true)
    if grep -q '^[EW]:' <<<"$app_lint"; then fail "lintian on the app's package:"; grep '^[EW]:' <<<"$app_lint" >&2
    else ok "lintian: the app's package has no errors or warnings"; fi
    dpkg-deb -f "$app_deb" Package Version Maintainer | tr '\n' ' ' | grep -q "Package: linguisticat Version: 1.0.0 Maintainer: Linguisticat maintainers <maintainers@example.com>" \
        && ok "the app's name, version and maintainer are in its control data" || fail "control data: $(dpkg-deb -f "$app_deb")"
    dpkg -i "$app_deb" >/dev/null && ok "dpkg -i the app's package beside ours" || fail "dpkg -i the app's package"
    app_files=$(dpkg -L linguisticat)
    HOME="$home" /usr/bin/extension-bridge --suite "$app_group" enable >/dev/null 2>&1
    HOME="$home" /usr/bin/extension-bridge --suite "$app_group" write vocabulary -dict sky hemel >/dev/null 2>&1
    DEB_APP_CHROMIUM_ID=$(sed -n 's/.*"chromiumID" *: *"\([a-p]*\)".*/\1/p' "$app/bridge.json") \
        DEB_APP_HOST=/usr/lib/com.example.linguisticat/linguisticat-host \
        "$python" "$repo/scripts/e2e/deb_browsers.py" app "$firefox_profile" "$home" "$artifacts" \
        || fail "the app's package did not work in Chromium beside ours"
    dpkg --purge linguisticat >/dev/null && ok "dpkg --purge the app's package" || fail "dpkg --purge linguisticat"
    left_app=$(while IFS= read -r f; do if [[ -f "$f" || -L "$f" ]]; then echo "$f"; fi; done <<<"$app_files")
    [[ -z "$left_app" ]] && ok "removing the app's package leaves none of its files" || fail "left behind: $left_app"
else
    tail -n 30 "$tmp/app-build.log" >&2
    fail "the generated project's scripts/package-deb.sh made no package"
fi

# A per-user install beside the system one: doctor names the one each browser reads.
mkdir -p "$tmp/user-bin"
cp /usr/lib/extension-bridge/extension-bridge-host /usr/bin/extension-bridge "$tmp/user-bin/"
HOME="$home" "$tmp/user-bin/extension-bridge" install --browser chromium \
    --extension-dir /usr/share/extension-bridge/extension >/dev/null 2>&1 || fail "per-user install"
both=$(HOME="$home" /usr/bin/extension-bridge doctor --browser chromium,firefox 2>&1) || true
if grep -q "chromium: user $home/.config/chromium" <<<"$both" && grep -q "firefox: system /usr/lib/mozilla" <<<"$both" \
    && grep -q "shadowed by $home/.config/chromium" <<<"$both"; then
    ok "user and system installs: doctor says Chromium uses the user one, Firefox the system one"
else
    echo "$both"
    fail "doctor does not say which install each browser uses"
fi
HOME="$home" "$tmp/user-bin/extension-bridge" uninstall >/dev/null 2>&1 || fail "per-user uninstall"

dpkg -r extension-bridge >/dev/null && ok "dpkg -r" || fail "dpkg -r"
"$python" "$repo/scripts/e2e/deb_browsers.py" removed "$firefox_profile" "$home" "$artifacts" \
    || fail "a browser still has the extension after dpkg -r"
[[ -f /etc/firefox-esr/extension-bridge.js ]] && ok "dpkg -r keeps the conffile /etc/firefox-esr/extension-bridge.js" \
    || fail "dpkg -r removed the conffile (only purge should)"
dpkg --purge extension-bridge >/dev/null && ok "dpkg --purge" || fail "dpkg --purge"
[[ ! -e /etc/firefox-esr/extension-bridge.js ]] || fail "dpkg --purge left /etc/firefox-esr/extension-bridge.js"
snapshot >"$tmp/after"
# Only what the package listed counts (another process may change other files meanwhile).
left=$(comm -13 "$tmp/before" "$tmp/after" | grep -E 'extension-bridge|extensionbridge|native-messaging-hosts' || true)
stale=$(comm -12 "$tmp/package-paths" "$tmp/after" | comm -23 - "$tmp/before" || true)
if [[ -z "$left$stale" ]]; then ok "dpkg --purge leaves no file behind"; else fail "left behind after dpkg --purge: $left $stale"; fi

if ((failures)); then
    echo "deb-test: $failures failed"
    exit 1
fi
echo "deb-test: all passed"
