#!/usr/bin/env bash
# Builds the API documentation of the library an app's host builds on
# (BridgeHost, with BridgeProtocol, SharedSuite and BridgeSystem) with the
# toolchain's docc, from symbol graphs of the debug build. Warnings are errors:
# a broken doc link fails the build. Output: .build/docs/*.doccarchive
#
#   scripts/docs.sh            (after `swift build`)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bin="$(swift build --show-bin-path)"
modules="$bin/Modules"
[ -d "$modules" ] || modules="$bin"
graphs="$root/.build/docs/symbol-graphs"
triple="$(swift -print-target-info | python3 -c 'import json,sys; print(json.load(sys.stdin)["target"]["triple"])')"
rm -rf "$root/.build/docs"
mkdir -p "$graphs"
for module in BridgeHost BridgeProtocol SharedSuite BridgeSystem; do
    mkdir -p "$graphs/$module"
    swift-symbolgraph-extract -module-name "$module" -I "$modules" -target "$triple" \
        -minimum-access-level public -output-dir "$graphs/$module"
    catalog="Sources/$module/$module.docc"
    args=(convert)
    [ -d "$catalog" ] && args+=("$catalog")
    args+=(--additional-symbol-graph-dir "$graphs/$module" --fallback-display-name "$module"
        --fallback-bundle-identifier "org.extensionbridge.$module" --output-dir "$root/.build/docs/$module.doccarchive"
        --warnings-as-errors)
    docc "${args[@]}" 2>&1 | sed "s|^|  $module: |"
    [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "docs.sh: docc failed for $module" >&2; exit 1; }
done
echo "docs.sh: API documentation in .build/docs/ (BridgeHost, BridgeProtocol, SharedSuite, BridgeSystem)"
