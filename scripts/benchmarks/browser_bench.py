#!/usr/bin/env python3
"""Section 5 of scripts/bench: round trips through real browsers.

Reuses the end-to-end harness (scripts/e2e/run.py's Run: private HOME,
container, profile, binaries copied from .build/release, `extension-bridge
install`), starts Chromium and Firefox with the real extension, and times in
the extension (performance.now() in its popup page opened as a tab):
  * runtime.sendNativeMessage({action:"getSettings"}): a new host per message
  * one runtime.connectNative port: getSettings with ids, one after another
Prints one JSON line: {browser: {sendNativeMessage: {n,p50_ms,p99_ms}, port: {...}}}.
Run with the e2e venv's python (scripts/e2e/setup.sh)."""
import argparse
import json
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
sys.dont_write_bytecode = True  # no __pycache__ in scripts/e2e from our import
sys.path.insert(0, str(REPO / "scripts" / "e2e"))
import browsers  # noqa: E402
import run as e2e  # noqa: E402

# Firefox rounds performance.now() to 1 ms by default; we want microseconds.
browsers.FIREFOX_PREFS["privacy.reduceTimerPrecision"] = False

JS = r"""(async () => {
  const rt = (globalThis.browser || globalThis.chrome).runtime;
  const H = %(host)s, N = %(n)d, NP = %(np)d;
  const q = (a) => { a.sort((x, y) => x - y);
    return {n: a.length, p50_ms: a[Math.floor(a.length / 2)], p99_ms: a[Math.min(a.length - 1, Math.floor(a.length * 0.99))]}; };
  const one = [];
  for (let i = 0; i < N; i++) {
    const t = performance.now();
    const r = await rt.sendNativeMessage(H, {action: 'getSettings'});
    one.push(performance.now() - t);
    if (!r || r.status !== 'success') throw new Error('sendNativeMessage: ' + JSON.stringify(r));
  }
  const port = rt.connectNative(H);
  const waiting = new Map();
  port.onMessage.addListener((m) => { const f = waiting.get(m.id); if (f) { waiting.delete(m.id); f(m); } });
  const ask = (id) => new Promise((res) => { waiting.set(id, res); port.postMessage({action: 'getSettings', id}); });
  await ask(0);  // the spawn, not counted
  const pt = [];
  for (let i = 1; i <= NP; i++) {
    const t = performance.now();
    const r = await ask(i);
    pt.push(performance.now() - t);
    if (r.status !== 'success') throw new Error('port: ' + JSON.stringify(r));
  }
  port.disconnect();
  return {sendNativeMessage: q(one), port: q(pt)};
})()"""


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--count", type=int, default=200)
    p.add_argument("--bin-dir", default=str(REPO / ".build" / "release"))
    p.add_argument("--browser", default="chromium,firefox")
    a = p.parse_args()
    artifacts = Path(tempfile.mkdtemp(prefix="eb-bench-browsers-"))
    out = {}
    for browser in a.browser.split(","):
        r = e2e.Run(browser, "bench-" + browser, Path(a.bin_dir), artifacts, lambda s: print(s, file=sys.stderr))
        try:
            r.install()
            r.cli(["write", "extensionEnabled", "-bool", "true"])
            b = r.start_browser()
            b.version and print("%s: %s" % (browser, b.version), file=sys.stderr)
            js = JS % {"host": json.dumps(e2e.HOST_NAME), "n": a.count, "np": a.count * 5}
            # From an extension page (popup.html in a tab): evaluating in Chromium's service
            # worker over CDP hung here, a page context does not.
            tab = b.open_extension_page("popup/popup.html")
            res = tab.evaluate(js, timeout=600)
            res["version"] = b.version
            out[browser] = res
        finally:
            r.close()
            r.cleanup(False)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
