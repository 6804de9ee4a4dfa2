#!/usr/bin/env bash
# Regenerates scripts/layout/extension-bridge-host.order (see generate.py).
# Needs valgrind (installed with apt-get when missing).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
if ! command -v valgrind >/dev/null; then
    apt-get install -y --no-install-recommends valgrind
fi
# The layout of the plain build, so addresses name the functions as they are.
swift build -c release -Xswiftc -static-executable -Xswiftc -Xfrontend -Xswiftc -function-sections \
    --product extension-bridge-host --scratch-path .build/layout 2>&1 | grep -v "warning: Using 'dlopen'" || true
python3 scripts/layout/generate.py .build/layout/release/extension-bridge-host
