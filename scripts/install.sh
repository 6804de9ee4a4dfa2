#!/bin/sh
# Builds ExtensionBridge (release, static executables) and installs
# extension-bridge and extension-bridge-host into "$PREFIX/bin" (default
# ~/.local/bin) and the extension into "$PREFIX/share/extension-bridge".
# Any arguments are passed to `extension-bridge install` (see its --help).
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
prefix=${PREFIX:-"$HOME/.local"}
bindir="$prefix/bin"
sharedir="$prefix/share/extension-bridge"

command -v swift >/dev/null 2>&1 || {
    echo "install.sh: the Swift toolchain is missing: install Swift 6 and put swift on PATH" >&2
    exit 1
}

echo "==> building (release, static executables)"
"$root/scripts/release-build.sh" extension-bridge-host extension-bridge
built=$(cd "$root" && swift build -c release --show-bin-path)

echo "==> installing into $bindir"
mkdir -p "$bindir" "$sharedir"
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

if "$bindir/extension-bridge" install --help >/dev/null 2>&1; then
    echo "==> registering the host with your browsers"
    "$bindir/extension-bridge" install --extension-dir "$sharedir/extension" "$@"
fi

cat <<TXT

Installed:
  $bindir/extension-bridge-host   (the native-messaging host browsers start)
  $bindir/extension-bridge        (settings, queue, install, doctor)
  $sharedir/extension             (the extension to load)

Load the extension:
  Chromium, Chrome, Edge, Brave, Vivaldi: open chrome://extensions, turn on
    Developer mode, "Load unpacked", choose $sharedir/extension
  Firefox: open about:debugging#/runtime/this-firefox, "Load Temporary Add-on…",
    choose $sharedir/extension/manifest.json
Extension IDs: $(sed -n 's/.*"chromium": *"\([a-p]*\)".*/chromium \1/p' "$root/extension/extension-id.json"), firefox extension-bridge@extensionbridge.org
Check everything with: extension-bridge doctor
TXT
case ":$PATH:" in
    *":$bindir:"*) ;;
    *) echo "Note: $bindir is not on your PATH; add it to use extension-bridge by name." ;;
esac
