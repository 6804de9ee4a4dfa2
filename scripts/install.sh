#!/usr/bin/env bash
# Builds ExtensionBridge (release, static executables) and installs
# extension-bridge and extension-bridge-host into "$PREFIX/bin" (default
# ~/.local/bin), the extension into "$PREFIX/share/extension-bridge", the man
# page and bash/zsh/fish completions into "$PREFIX/share/...", and
# registers the host with every browser that is installed (its executable is
# there, even if it was never started) or has a profile folder, and installs
# the extension into Chromium-family browsers for good (`install --crx`).
# Any arguments are passed to `extension-bridge install` (see its --help).
# Environment: PREFIX; INSTALL_BIN_DIR=DIR installs binaries already built
# there (scripts/release-build.sh) instead of building.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
: "${HOME:?install.sh: HOME is not set}"
prefix=${PREFIX:-"$HOME/.local"}
bindir="$prefix/bin"
sharedir="$prefix/share/extension-bridge"

if [[ -n "${INSTALL_BIN_DIR:-}" ]]; then
    built=$INSTALL_BIN_DIR
else
    command -v swift >/dev/null 2>&1 || {
        echo "install.sh: the Swift toolchain is missing: install Swift 6 and put swift on PATH" >&2
        exit 1
    }
    echo "==> building (release, static executables)"
    "$root/scripts/release-build.sh" extension-bridge-host extension-bridge
    built=$(cd "$root" && swift build -c release --show-bin-path)
fi

echo "==> installing into $bindir"
mkdir -p "$bindir" "$sharedir" || {
    echo "install.sh: cannot create $bindir or $sharedir: choose a writable PREFIX (PREFIX=DIR scripts/install.sh)" >&2
    exit 73
}
# One install at a time: two would write the same `.TOOL.new` names and each rename
# the other's half-copied file into place. The lock is on the folder itself, as the
# CLI's own lock is (no lock file to leave or to remove), and is released before
# `extension-bridge install`, which takes that lock itself. (flock is util-linux's;
# without it, as on macOS, installs are not serialised.)
if command -v flock >/dev/null 2>&1; then
    exec 9<"$sharedir"
    if ! flock -n 9; then
        echo "==> waiting for another scripts/install.sh into $prefix to finish"
        flock 9
    fi
fi
# An interrupted install leaves no half-copied file behind: uninstall.sh knows only
# the finished names. Ctrl-C and SIGTERM end the script through the EXIT trap.
trap 'rm -rf "$bindir/.extension-bridge-host.new" "$bindir/.extension-bridge.new" "$sharedir/extension.new" \
    "$sharedir/sources/.${version:-unknown}.new"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
for tool in extension-bridge-host extension-bridge; do
    # Copy beside, then rename: a host the browser is running keeps its inode.
    cp "$built/$tool" "$bindir/.$tool.new"
    chmod 755 "$bindir/.$tool.new"
    mv -f "$bindir/.$tool.new" "$bindir/$tool"
done
rm -rf "$sharedir/extension.new"
cp -R "$root/extension" "$sharedir/extension.new"
rm -rf "$sharedir/extension"
mv "$sharedir/extension.new" "$sharedir/extension"

# The package's source, so `extension-bridge new` can generate projects that
# build offline against this version. Each version keeps its own folder,
# sources/<version>, which installing another version never touches: a
# project's Package.swift names it, so it builds against the same
# ExtensionBridge until `extension-bridge upgrade` moves it. `source` is a
# link to the current one (older versions kept a folder there).
version=$(sed -n 's/.*static let current = "\([0-9A-Za-z.+-]*\)".*/\1/p' "$root/Sources/BridgeProtocol/BridgeVersion.swift")
[[ -n "$version" ]] || {
    echo "install.sh: cannot read the version from Sources/BridgeProtocol/BridgeVersion.swift" >&2
    exit 1
}
sources="$sharedir/sources"
mkdir -p "$sources"
rm -rf "$sources/.$version.new"
mkdir -p "$sources/.$version.new"
if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    (cd "$root" && git ls-files -z --cached --others --exclude-standard | tar --null --ignore-failed-read -T - -cf - 2>/dev/null) \
        | tar -xf - -C "$sources/.$version.new"
else
    (cd "$root" && tar --exclude=./.build --exclude=./.git -cf - .) | tar -xf - -C "$sources/.$version.new"
fi
# The same version installed again (a rebuilt checkout) replaces its own folder only.
rm -rf "${sources:?}/${version:?}"
mv "$sources/.$version.new" "$sources/$version"
if [[ -d "$sharedir/source" && ! -L "$sharedir/source" ]]; then
    rm -rf "$sharedir/source"
fi
# -n: replace the link itself, not write into the folder it names (GNU and BSD ln).
ln -sfn "sources/$version" "$sharedir/source"

# The man page and shell completions, generated from the CLI's declarations.
mandir="$prefix/share/man/man1"
bash_dir="$prefix/share/bash-completion/completions"
zsh_dir="$prefix/share/zsh/site-functions"
fish_dir="$prefix/share/fish/vendor_completions.d"
mkdir -p "$mandir" "$bash_dir" "$zsh_dir" "$fish_dir"
"$bindir/extension-bridge" man >"$mandir/extension-bridge.1"
"$bindir/extension-bridge" completions bash >"$bash_dir/extension-bridge"
"$bindir/extension-bridge" completions zsh >"$zsh_dir/_extension-bridge"
"$bindir/extension-bridge" completions fish >"$fish_dir/extension-bridge.fish"

echo "==> registering the host with your browsers, and the extension with Chromium"
# --crx: Chromium installs the extension from a CRX signed with this machine's key (made the first
# time under ~/.local/share/extension-bridge/keys, reused so the id never changes). openssl signs it.
# What each browser got is said by `extension-bridge install` itself, per browser, and only when it
# wrote the file that browser installs from: this script claims nothing about the extension.
cli="$bindir/extension-bridge"
crx=(--crx)
if ! command -v openssl >/dev/null 2>&1; then
    crx=()
    if command -v apt-get >/dev/null 2>&1; then get_openssl="sudo apt-get install openssl"; else get_openssl="install openssl"; fi
    echo "install.sh: openssl is not on PATH, so the extension is not installed into any browser (only the host"
    echo "  is registered); $get_openssl, then run: $cli install --crx"
fi
status=0
if command -v flock >/dev/null 2>&1; then exec 9<&-; fi
# ${a[@]+"${a[@]}"}: an empty array is "unbound" to `set -u` before bash 4.4.
"$cli" install --extension-dir "$sharedir/extension" ${crx[@]+"${crx[@]}"} "$@" || status=$?
if [[ $status -ne 0 && ! ($status -eq 66 && $# -eq 0) ]]; then
    exit "$status"
fi

cat <<TXT

Installed:
  $bindir/extension-bridge-host   (the native-messaging host browsers start)
  $bindir/extension-bridge        (settings, queue, install, doctor)
  $sharedir/extension             (the extension, unpacked)
  $sharedir/sources/$version     (this version's source, for \`extension-bridge new\` and \`upgrade\`;
                                   $sharedir/source links to it; other versions' folders are kept)
  $mandir/extension-bridge.1, completions for bash, zsh and fish under $prefix/share
TXT
if [[ $status -eq 66 ]]; then
    # The host and the extension folder were just copied, so 66 here means: no browser found.
    cat <<TXT

No browser was found (no Chromium, Chrome, Edge, Brave, Vivaldi, Firefox or
LibreWolf executable, profile folder or Flatpak), so neither the host nor the
extension is installed into a browser yet. After installing a browser, run:
  $cli install --crx
or name one now: $cli install --crx --browser chromium
TXT
fi
cat <<TXT

Developers can load the unpacked copy by hand: in Firefox, about:debugging, "Load Temporary
Add-on…", $sharedir/extension/manifest.json (gone at the next restart).
Check everything with: $cli doctor
TXT
case ":$PATH:" in
    *":$bindir:"*) ;;
    *) echo "Note: $bindir is not on your PATH; add it to use extension-bridge by name." ;;
esac
