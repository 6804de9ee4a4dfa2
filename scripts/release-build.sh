#!/usr/bin/env bash
# Builds static release executables: scripts/release-build.sh PRODUCT...
# (install.sh and bench use it, so what is benchmarked is what is installed).
#
# Every module is compiled with one section per function, and the host is
# linked with the functions a request runs placed side by side
# (scripts/layout/extension-bridge-host.order, made by scripts/layout/generate.sh):
# a one-shot host then touches fewer pages of code, and each first touch is a
# page fault (docs/BENCHMARKS.md). A linker without gold's
# --section-ordering-file gets the default layout, with a note.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
flags=(-c release -Xswiftc -static-executable -Xswiftc -Xfrontend -Xswiftc -function-sections)
order="$root/scripts/layout/extension-bridge-host.order"
quiet() { grep -Ev "warning: Using 'dlopen'|^\[" >&2 || true; }
for product in "$@"; do
    if [ "$product" = extension-bridge-host ] && [ -f "$order" ]; then
        # The layout file is not an input SwiftPM tracks: remove the binary so it is linked again.
        rm -f "$(swift build -c release --show-bin-path)/$product"
        if swift build "${flags[@]}" -Xlinker "--section-ordering-file=$order" --product "$product" 2>&1 | quiet; then
            continue
        fi
        echo "release-build: the linker refused the layout file; linking $product in the default order" >&2
    fi
    swift build "${flags[@]}" --product "$product" 2>&1 | quiet \
        || { echo "release-build: building $product failed" >&2; exit 1; }
done
