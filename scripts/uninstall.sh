#!/usr/bin/env bash
# Undoes scripts/install.sh: removes the host manifests and host configuration that
# `extension-bridge install` wrote (as its receipt lists them), then the
# binaries and the extension copy. The shared suite (your settings and queue)
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
rm -rf "$sharedir"
echo "removed $bindir/extension-bridge, $bindir/extension-bridge-host, $sharedir, the man page and completions"
