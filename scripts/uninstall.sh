#!/usr/bin/env bash
# Undoes scripts/install.sh: removes what `extension-bridge install` wrote (as its
# receipt lists them: host manifests, host configuration, and for Chromium the
# External Extensions files and the CRX, so the browser drops the extension at its
# next start), then the binaries and the extension copy. Kept: the signing key
# install made, which install told you to keep (a reinstall signs with it, so the
# extension keeps its Chromium id; --remove-key removes it too), and the shared
# suite (your settings and queue; `extension-bridge where` shows its folder).
set -euo pipefail

remove_key=0
for arg in "$@"; do
    if [[ "$arg" == --remove-key ]]; then remove_key=1; fi
done

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
# --remove-key: also the machine's key when no receipt lists it (a reinstall reused it, or pack made it).
key="${XDG_DATA_HOME:-$HOME/.local/share}/extension-bridge/keys/extension-bridge.pem"
if [[ $remove_key -eq 1 && -f "$key" ]]; then
    rm -f "$key"
    rmdir "$(dirname "$key")" 2>/dev/null || true
    echo "removed the signing key $key: the next install --crx or pack makes a new key, so the extension gets a new"
    echo "  Chromium id and browsers treat it as a different extension"
elif [[ -f "$key" ]]; then
    echo "kept the signing key $key (install said to keep it: a reinstall signs with it, so the extension keeps"
    echo "  its Chromium id); scripts/uninstall.sh --remove-key removes it"
fi
rmdir "$sharedir" 2>/dev/null || true
echo "removed $bindir/extension-bridge, $bindir/extension-bridge-host, the extension and source copies in $sharedir,"
echo "the man page and completions"
