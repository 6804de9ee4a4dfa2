#!/usr/bin/env bash
# Builds ExtensionBridge's Debian package from the static release binaries:
#   scripts/package-deb.sh [--extension-id ID]... [OUTPUT_DIR]   (default: $BUILD_DIR/deb, BUILD_DIR=.build)
# and prints the path of the .deb it made (the last line of stdout).
#
# A thin caller of `extension-bridge pack --deb`, the one packaging path every bridge shares (a
# project made by `new` packages itself the same way: its scripts/package-deb.sh). The layout is
# documented there and in docs/INSTALLING.md: the host and its configuration in /usr/lib/extension-bridge/, the
# extension in /usr/share/extension-bridge/extension and, for every user, in Debian's chromium
# (/usr/share/chromium/extensions) and firefox-esr (its system add-on folder), with
# /etc/firefox-esr/extension-bridge.js as the one conffile; the system host manifests (those in /etc
# are links into /usr/share/extension-bridge/native-messaging-hosts, so `dpkg -r` removes them);
# /usr/bin/extension-bridge, its man page and completions; copyright, and the changelog made from
# CHANGELOG.md's section for the version (pack refuses a version that has none).
# --extension-id allows another extension id in the system host manifests too: the id the Chrome
# Web Store gave your upload, or another Firefox add-on id (docs/SHIPPING.md).
# Environment (also in docs/SHIPPING.md): DEBFULLNAME and DEBEMAIL, required: the package's maintainer is whoever
# builds it (as dch reads them; ExtensionBridge has no address of its own); PACKAGE_BIN_DIR=DIR packages binaries
# already built there (default: build them with scripts/release-build.sh); SOURCE_DATE_EPOCH (default: the last
# commit's time).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
extra=()
out_dir=""
while [[ $# -gt 0 ]]; do
    case $1 in
        --extension-id)
            [[ $# -ge 2 ]] || { echo "package-deb: --extension-id needs an id" >&2; exit 64; }
            extra+=(--extension-id "$2")
            shift 2
            ;;
        -*) echo "package-deb: unknown option $1 (try --extension-id ID, then the output folder)" >&2; exit 64 ;;
        *) out_dir=$1; shift ;;
    esac
done
out_dir=${out_dir:-"${BUILD_DIR:-$repo/.build}/deb"}
# Asked before the release build, which takes minutes; pack --deb refuses the same.
if [[ -z "${DEBFULLNAME:-}" || -z "${DEBEMAIL:-}" ]]; then
    echo "package-deb: set DEBFULLNAME and DEBEMAIL to your name and email address: the package names you as its" \
        "maintainer (e.g. DEBFULLNAME='Ada Lovelace' DEBEMAIL=ada@example.com scripts/package-deb.sh)" >&2
    exit 65
fi

if [[ -n "${PACKAGE_BIN_DIR:-}" ]]; then
    bin=$PACKAGE_BIN_DIR
else
    scripts/release-build.sh extension-bridge-host extension-bridge >&2
    bin=$(swift build -c release --show-bin-path)
fi
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)} \
    "$bin/extension-bridge" pack --deb --host-path "$bin/extension-bridge-host" --extension-dir "$repo/extension" \
    --changelog "$repo/CHANGELOG.md" --out "$out_dir" ${extra[@]+"${extra[@]}"} | sed -n 's/^wrote //p'
