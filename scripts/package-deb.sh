#!/usr/bin/env bash
# Builds a Debian package from the static release binaries:
#   scripts/package-deb.sh [--extension-id ID]... [OUTPUT_DIR]   (default: $BUILD_DIR/deb, BUILD_DIR=.build)
# --extension-id allows another extension id in the system host manifests too: the id the Chrome
# Web Store gave your upload, or another Firefox add-on id (docs/SHIPPING.md).
# and prints the path of the .deb it made (the last line of stdout).
#
# Layout: /usr/bin/extension-bridge; /usr/lib/extension-bridge/extension-bridge-host and its
# allowlist beside it; the extension in /usr/share/extension-bridge/extension, linked into
# Debian's chromium (/usr/share/chromium/extensions/extension-bridge) and firefox-esr (its system
# add-on folder) so every user has it at the next start; /etc/firefox-esr/extension-bridge.js (a
# conffile) so a Firefox profile that existed before the install gets it with host access; a system host
# manifest for every browser in the catalog (written by `extension-bridge install --system
# --destdir`); the man page; bash, zsh and fish completions; copyright and changelog.
#
# The manifests in /etc are symlinks into /usr/share/extension-bridge/native-messaging-hosts:
# they are generated, not configuration, so `dpkg -r` removes them (files in /etc would be
# conffiles, which dpkg keeps until purge). The Firefox preference file is the one conffile.
# Environment: PACKAGE_BIN_DIR=DIR packages binaries already built there (default: build them
# with scripts/release-build.sh).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
extra_ids=()
out_dir=""
while [[ $# -gt 0 ]]; do
    case $1 in
        --extension-id)
            [[ $# -ge 2 ]] || { echo "package-deb: --extension-id needs an id" >&2; exit 64; }
            extra_ids+=(--extension-id "$2")
            shift 2
            ;;
        -*) echo "package-deb: unknown option $1 (try --extension-id ID, then the output folder)" >&2; exit 64 ;;
        *) out_dir=$1; shift ;;
    esac
done
out_dir=${out_dir:-"${BUILD_DIR:-$repo/.build}/deb"}
command -v dpkg-deb >/dev/null || { echo "package-deb: dpkg-deb is missing (apt-get install dpkg)" >&2; exit 69; }

version=$(sed -n 's/.*static let current = "\([^"]*\)".*/\1/p' Sources/BridgeProtocol/BridgeVersion.swift)
[[ -n "$version" ]] || { echo "package-deb: cannot read BridgeVersion.current" >&2; exit 70; }
arch=$(dpkg --print-architecture)
name=extension-bridge
host_dir=/usr/lib/extension-bridge
host=$host_dir/extension-bridge-host

if [[ -n "${PACKAGE_BIN_DIR:-}" ]]; then
    bin=$PACKAGE_BIN_DIR
else
    scripts/release-build.sh extension-bridge-host extension-bridge >&2
    bin=$(swift build -c release --show-bin-path)
fi

mkdir -p "$out_dir"
out_dir=$(cd "$out_dir" && pwd)
stage="$out_dir/${name}_${version}_${arch}"
rm -rf "$stage"
umask 022
mkdir -p "$stage/DEBIAN" "$stage/usr/bin" "$stage$host_dir" "$stage/usr/share/$name" \
    "$stage/usr/share/doc/$name" "$stage/usr/share/man/man1" "$stage/usr/share/bash-completion/completions" \
    "$stage/usr/share/zsh/vendor-completions" "$stage/usr/share/fish/vendor_completions.d"

install -m 755 "$bin/extension-bridge" "$stage/usr/bin/extension-bridge"
install -m 755 "$bin/extension-bridge-host" "$stage$host"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/usr/bin/extension-bridge" "$stage$host"

# The extension, without its tests and tools.
mkdir -p "$stage/usr/share/$name/extension"
(cd extension && tar -cf - --exclude=./test --exclude=./tools --exclude=./package.json .) \
    | (cd "$stage/usr/share/$name/extension" && tar -xf -)

# The extension itself, for every user: Debian's /usr/bin/chromium passes --load-extension for each
# folder in /usr/share/chromium/extensions (only folders: a file there fails on every start), and
# Debian's firefox-esr loads unsigned add-ons from its system scope. Relative links (Debian policy
# 10.5), so dpkg -r removes both and each browser drops the extension at its next start.
gecko_id=$(sed -n 's/.*"firefox": *"\([^"]*\)".*/\1/p' extension/extension-id.json)
[[ -n "$gecko_id" ]] || { echo "package-deb: cannot read the Firefox id from extension/extension-id.json" >&2; exit 70; }
firefox_scope="/usr/share/mozilla/extensions/{ec8030f7-c20a-464f-9b0e-13a3a9e97384}"
mkdir -p "$stage/usr/share/chromium/extensions" "$stage$firefox_scope"
ln -s "../../$name/extension" "$stage/usr/share/chromium/extensions/$name"
ln -s "../../../$name/extension" "$stage$firefox_scope/$gecko_id"

# System manifests and the allowlist, from the catalog, by the CLI itself.
cli="$stage/usr/bin/extension-bridge"
HOME="$stage/nonexistent-home" "$cli" install --system --browser all --destdir "$stage" --host-path "$host" \
    --extension-dir "$stage/usr/share/$name/extension" ${extra_ids[@]+"${extra_ids[@]}"} >&2
rm -rf "$stage/nonexistent-home"
# Move what landed in /etc to /usr/share and link it back (see the header).
shared_manifests=/usr/share/$name/native-messaging-hosts
mkdir -p "$stage$shared_manifests"
while IFS= read -r file; do
    # Every Chromium-family manifest is the same file: keep one copy.
    copy="$shared_manifests/$(basename "$file")"
    if [[ -e "$stage$copy" ]]; then
        cmp -s "$file" "$stage$copy" || { echo "package-deb: $file differs from $copy" >&2; exit 70; }
        rm "$file"
    else
        mv "$file" "$stage$copy"
    fi
    ln -s "$copy" "$file"
done < <(find "$stage/etc" -type f | sort)

# Firefox ESR reads every file in /etc/firefox-esr as default preferences. Without a scan of the
# system scope at start-up, a profile that existed before this install gets the add-on one restart
# late and without its MV3 host permissions (so no content script runs). A conffile: the admin may
# change it, and purge removes it.
mkdir -p "$stage/etc/firefox-esr"
cat >"$stage/etc/firefox-esr/$name.js" <<'TXT'
// Installed by the extension-bridge package: scan the system add-on folder
// (/usr/share/mozilla/extensions) at every start, so a profile that existed
// before the package sees ExtensionBridge at its next start, with access to
// websites. 8 is the system scope (AddonManager.SCOPE_SYSTEM).
pref("extensions.startupScanScopes", 8);
TXT

# Man page and completions, generated from the CLI's declarations.
"$cli" man | gzip -9n >"$stage/usr/share/man/man1/extension-bridge.1.gz"
"$cli" completions bash >"$stage/usr/share/bash-completion/completions/extension-bridge"
"$cli" completions zsh >"$stage/usr/share/zsh/vendor-completions/_extension-bridge"
"$cli" completions fish >"$stage/usr/share/fish/vendor_completions.d/extension-bridge.fish"

# Debian policy: copyright and changelog.
year=$(date -u +%Y)
cat >"$stage/usr/share/doc/$name/copyright" <<TXT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: ExtensionBridge
Source: https://github.com/extensionbridge/extension-bridge

Files: *
Copyright: $year ExtensionBridge contributors
License: Apache-2.0

License: Apache-2.0
 Licensed under the Apache License, Version 2.0 (the "License"); you may not
 use this file except in compliance with the License. You may obtain a copy of
 the License at https://www.apache.org/licenses/LICENSE-2.0
 .
 On Debian systems, the complete text of the Apache License, Version 2.0 can be
 found in "/usr/share/common-licenses/Apache-2.0".
TXT
{
    echo "$name ($version) unstable; urgency=medium"
    echo
    echo "  * Built from the upstream tree; what changed is in NEWS.md.gz beside"
    echo "    this file (the project's CHANGELOG.md)."
    echo
    echo " -- ExtensionBridge maintainers <maintainers@extensionbridge.org>  $(date -u -R)"
} | gzip -9n >"$stage/usr/share/doc/$name/changelog.gz"
gzip -9n <CHANGELOG.md >"$stage/usr/share/doc/$name/NEWS.md.gz"

# Lintian: the Chrome, Edge, Brave and Vivaldi packages read only /etc/opt/<vendor>; that is
# where their system manifests must be.
mkdir -p "$stage/usr/share/lintian/overrides"
cat >"$stage/usr/share/lintian/overrides/$name" <<TXT
# Google Chrome, Microsoft Edge, Brave and Vivaldi read system native-messaging hosts only there.
$name: dir-or-file-in-etc-opt *
# Static on purpose: no Swift runtime package exists in Debian to depend on, and a browser pays the
# start-up of the host on every message (dynamic linking of the Swift runtime is most of it).
$name: statically-linked-binary *
TXT

installed_size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
cat >"$stage/DEBIAN/control" <<TXT
Package: $name
Version: $version
Architecture: $arch
Maintainer: ExtensionBridge maintainers <maintainers@extensionbridge.org>
Installed-Size: $installed_size
Section: web
Priority: optional
Homepage: https://github.com/extensionbridge/extension-bridge
Enhances: chromium, firefox-esr
Description: native-messaging host and settings tool for web extensions
 ExtensionBridge lets a web extension talk to native code in Chromium-family
 browsers and Firefox through native messaging, the way a Safari Web
 Extension talks to its containing app: extension-bridge-host answers the
 extension from a shared settings suite that the extension-bridge command
 writes, and keeps a queue of what the extension saved.
 .
 The package registers the host with every supported browser through its
 system manifest folder, and installs the extension for every user of
 Debian's chromium (through /usr/share/chromium/extensions) and firefox-esr
 (through its system add-on folder): it is there at the next start of the
 browser, without developer mode.
TXT
(cd "$stage" && find . -path ./DEBIAN -prune -o -type f -print | sed 's|^\./||' | sort | xargs -d '\n' md5sum) \
    >"$stage/DEBIAN/md5sums"
echo "/etc/firefox-esr/$name.js" >"$stage/DEBIAN/conffiles"
chmod 644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums" "$stage/DEBIAN/conffiles"

deb="$out_dir/${name}_${version}_${arch}.deb"
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)} \
    dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >&2
rm -rf "$stage"
echo "$deb"
