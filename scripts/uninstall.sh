#!/usr/bin/env bash
# Undoes scripts/install.sh: removes what `extension-bridge install` wrote (as its
# receipt lists them: host manifests, host configuration, and for Chromium the
# External Extensions files, the CRX and the signing key install made, so the
# browser drops the extension at its next start), then the binaries and the
# extension copy. The shared suite (your settings and queue)
# is kept; `extension-bridge where` shows its folder if you want it gone too.
set -euo pipefail

prefix=${PREFIX:-"$HOME/.local"}
bindir="$prefix/bin"
sharedir="$prefix/share/extension-bridge"

if [ -x "$bindir/extension-bridge" ]; then
    "$bindir/extension-bridge" uninstall "$@" || echo "uninstall.sh: extension-bridge uninstall failed; continuing" >&2
fi
rm -f "$bindir/extension-bridge-host" "$bindir/extension-bridge" "$prefix/share/man/man1/extension-bridge.1" \
    "$prefix/share/bash-completion/completions/extension-bridge" "$prefix/share/zsh/site-functions/_extension-bridge" \
    "$prefix/share/fish/vendor_completions.d/extension-bridge.fish"
# Only the copies install.sh made: the same folder may hold a signing key `pack` made, or another
# bridge's receipt, which are not install.sh's to remove.
# sources/ holds every version's source copy that generated projects were pinned to: uninstalling
# ExtensionBridge removes them too (upgrade such a project, or point it at a checkout).
rm -rf "$sharedir/extension" "$sharedir/source" "$sharedir/sources"
rmdir "$sharedir" 2>/dev/null || true
echo "removed $bindir/extension-bridge, $bindir/extension-bridge-host, the extension and source copies in $sharedir,"
echo "the man page and completions"
