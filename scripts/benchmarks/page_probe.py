#!/usr/bin/env python3
"""A probe for changes to the page side (content/engine.js, content/content.js): faster to run,
and narrower, than page_bench.py. Not a benchmark with targets; it answers "is variant B cheaper
than variant A" on one page of python3.11-doc, in real Chromium or Firefox.

  load   Variants of the content scripts, each in a browser of its own, beside a browser with no
         extension; the loads alternate (each first in turn), round 0 is not counted. A variant
         is NAME=ENGINE[:CONTENT] (files; CONTENT defaults to this checkout's content.js). Its
         extension has no host and no real background: a stub background answers getPageState
         with the compiled form of the vocabulary at once (compiled by ENGINE, in node). So what
         is measured is the page side alone. --real adds our whole extension (host installed,
         vocabulary imported), as page_bench.py runs it. --nones 2 adds a second browser with no
         extension, none-2, measured as a variant: the spread of the instrument itself. Printed
         per variant, medians: dcl_ms, load_ms, first_paint_pct, fcp_ms, and dcl/load over no
         extension (median of per-round ratios).
  walk   The rewriter's walk behind the parser over a page that is already parsed, timed in an
         isolated world (Chromium: a DevTools isolated world; Firefox: a Marionette sandbox,
         which reads the page through Xray wrappers as a content script does), per ENGINE file:
         follow(document) and one catchUp without a time limit, seven times, each time with a
         new rewriter. The vocabulary's words are made absent from the page (prefixed), so
         nothing is written and the walk can be repeated.
  heap   Where a heap's bytes go (Chromium: DevTools heap snapshots, after collecting garbage).
         A new tab that loaded the page once with our whole extension (host installed,
         vocabulary imported) against a new tab of a browser with no extension; with --worker,
         our service worker after that load against the same with an empty vocabulary (what
         page_bench.py's two heap targets hold). Printed, one JSON object: each side's
         used_bytes (page_bench.py's heap figure, taken after the snapshot), the snapshots'
         difference in total and per node type, and the --top rows by type and name (a
         constructor or a V8 system type; strings counted together, but each string of 64 kB or
         more on a row of its own). A snapshot also counts Blink's own objects ("native") and
         the data of external strings, which used_bytes does not.

  .build/e2e-venv/bin/python scripts/benchmarks/page_probe.py load --browser firefox \\
      --variant before=/tmp/engine-before.js --variant after=extension/content/engine.js
  .build/e2e-venv/bin/python scripts/benchmarks/page_probe.py walk /tmp/engine-before.js extension/content/engine.js
  .build/e2e-venv/bin/python scripts/benchmarks/page_probe.py heap --size 20000

Run with the e2e venv's python (scripts/e2e/setup.sh); needs python3.11-doc and node."""
import argparse
import collections
import contextlib
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))
import page_bench as pb  # noqa: E402

REPO = pb.REPO
CONTENT_JS = REPO / "extension" / "content" / "content.js"

# The stub background: the page state, at once, to every getPageState; an echo of anything else
# with `texts` (floors/round-trip-write.js).
STUB_BACKGROUND = """const STATE = %s;
(globalThis.browser ?? globalThis.chrome).runtime.onMessage.addListener((message, sender, reply) => {
  if (message && message.type === 'getPageState') reply(STATE);
  else if (message && message.type === 'echo') reply({ texts: message.texts });
  return false;
});
"""

WALK_JS = """(() => {
  const T = globalThis.ExtensionBridgeText;
  const compiled = T.compileVocabulary(VOCABULARY, '1');
  const times = [];
  let visited = 0;
  for (let round = 0; round < 7; round += 1) {
    const rewriter = T.createRewriter({schedule: () => {}, maxNodesPerSlice: 1e9, maxSliceMs: 1e9,
                                       now: () => performance.now()});
    rewriter.setCompiled(compiled, null);
    const start = performance.now();
    rewriter.follow(document, () => false, () => {});
    visited = rewriter.catchUp(1e9);
    times.push(Math.round(performance.now() - start));
  }
  return JSON.stringify({ms: times, visited});
})()"""


def compiled_state(engine: Path, vocab: dict) -> dict:
    """The page state the background would send: the vocabulary compiled by ``engine`` (in node)."""
    script = ("const vm = require('vm'); const fs = require('fs'); const c = vm.createContext({});"
              "vm.runInContext(fs.readFileSync(process.argv[1], 'utf8'), c);"
              "const v = JSON.parse(fs.readFileSync(0, 'utf8'));"
              "process.stdout.write(JSON.stringify(c.ExtensionBridgeText.compileVocabulary(v, '1')));")
    out = subprocess.run(["node", "-e", script, str(engine)], input=json.dumps(vocab), capture_output=True,
                         text=True, check=True).stdout
    return {"status": "success", "enabled": True, "compiled": json.loads(out), "count": len(vocab),
            "rulesVersion": "1"}


def variant_extension(directory: Path, name: str, engine: Path, content: Path, state: dict, browser: str,
                      timeline: bool = False) -> Path:
    """An extension with ``engine`` and ``content`` as its content scripts (document_start, every
    frame, as ours) and the stub background. Firefox: Manifest V2 (content scripts run on http
    pages without a host-permission grant, as page_bench.py's reference)."""
    directory.mkdir(parents=True)
    (directory / "engine.js").write_text(engine.read_text())
    source = content.read_text()
    (directory / "content.js").write_text(timeline_content(source) if timeline else source)
    (directory / "background.js").write_text(STUB_BACKGROUND % json.dumps(state))
    scripts = [{"matches": ["http://*/*"], "js": ["engine.js", "content.js"], "run_at": "document_start",
                "all_frames": True}]
    if browser == "chromium":
        manifest = {"manifest_version": 3, "name": f"probe {name}", "version": "1.0",
                    "background": {"service_worker": "background.js"}, "content_scripts": scripts}
    else:
        manifest = {"manifest_version": 2, "name": f"probe {name}", "version": "1.0",
                    "background": {"scripts": ["background.js"]}, "content_scripts": scripts,
                    "browser_specific_settings": {"gecko": {"id": f"probe-{name}@bench.invalid"}}}
    (directory / "manifest.json").write_text(json.dumps(manifest))
    return directory


# --timeline: content.js noting, in its own world (the page never sees it), when it ran, when
# the page state came and when the walk behind the parser was done; read after each load.
TIMELINE_POINTS = (
    ("  'use strict';\n", "  'use strict';\n  globalThis.__ebTimeline = { start: performance.now() };\n"),
    ("  function onReply(reply) {\n", "  function onReply(reply) {\n    globalThis.__ebTimeline.reply ??= performance.now();\n"),
    ("      stopFollowingParser();\n      observe(document);\n",
     "      stopFollowingParser();\n      globalThis.__ebTimeline.walked ??= performance.now();\n      observe(document);\n"),
)


def timeline_content(source: str) -> str:
    """content.js with the --timeline notes in it (each at a line that must be there once); a
    content script without those lines (a floor) as it is: it keeps no notes."""
    if all(source.count(at) == 0 for at, _ in TIMELINE_POINTS):
        return source
    for at, instead in TIMELINE_POINTS:
        if source.count(at) != 1:
            raise SystemExit(f"page_probe: --timeline: content.js no longer has {at.strip()!r} once")
        source = source.replace(at, instead)
    return source


def timeline_of(tab, browser: str, b) -> dict:
    """The notes of the content script in ``tab`` (ms after navigation start), or {} without any."""
    extension = b.extension_id if browser == "chromium" else b.addon_id
    notes = tab.content_script_eval("globalThis.__ebTimeline ?? null", extension) or {}
    return {f"{k}_ms": round(v, 1) for k, v in notes.items()}


def parse_variant(spec: str) -> tuple:
    """NAME=ENGINE[:CONTENT] → (name, engine path, content path)."""
    name, sep, paths = spec.partition("=")
    if not sep or not name or name in ("real", "none") or name.startswith("none-"):
        raise argparse.ArgumentTypeError(f"a variant is NAME=ENGINE[:CONTENT] (not real, none or none-N): {spec!r}")
    engine, _, content = paths.partition(":")
    files = (Path(engine), Path(content) if content else CONTENT_JS)
    return (name, *map(existing_file, files))


def existing_file(path) -> Path:
    """``path`` if it is a file; else the argument error that names it (before any browser starts)."""
    path = Path(path)
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"no such file: {path}")
    return path


def summary(samples: dict, name: str) -> dict:
    s, none = samples[name], samples["none"]
    row = {}
    for k in ("dcl_ms", "load_ms", "first_paint_pct", "fcp_ms", "start_ms", "reply_ms", "walked_ms"):
        values = [v for v in s[k] if v is not None]
        row[k] = statistics.median(values) if values else None  # None: not measured in any round
        if not values and k in ("start_ms", "reply_ms", "walked_ms"):
            del row[k]
    if name != "none":
        for k in ("dcl_ms", "load_ms"):
            row[k.replace("_ms", "_vs_none")] = round(statistics.median(
                [x / max(1e-9, y) for x, y in zip(s[k], none[k], strict=True)]), 3)
    row["dcl_each_round"] = [round(v) for v in s["dcl_ms"]]
    return row


def make_cold(a, run) -> None:
    """Before a load of our whole extension (``run``): with --cold host, its host processes end
    (the background's port drops, the next request starts a host again); with --cold worker,
    Chromium stops the extension's service worker (and with it the port and the host): the next
    getPageState starts the worker, which fetches the state from a new host and compiles it."""
    if a.cold == "host":
        run.kill_hosts()
    elif a.cold == "worker":
        b = run.b
        helper = b.tabs[0]
        helper.send("ServiceWorker.enable")
        helper.send("ServiceWorker.stopAllWorkers")
        pb.browsers.wait_until(lambda: b._sw_target(b.extension_id) is None, 30, "the service worker to stop", 0.05)
        run.kill_hosts()


def run_load(a, vocab: dict, work: Path) -> None:
    real = [k for k, v in vocab.items() if not k.startswith("zq")]
    paint_expr = pb.FIRST_PAINT_RESULT_JS.replace("KEYS", json.dumps(real)).replace(
        "VALUES", json.dumps([vocab[k] for k in real]))
    opened = {}
    real_run = None
    with contextlib.ExitStack() as stack, pb.HookServer(pb.DOCS) as site:  # every browser closed on every path
        for name, engine, content in a.variant:
            ext = variant_extension(work / name, name, engine, content, compiled_state(engine, vocab), a.browser,
                                    a.timeline)
            opened[name] = pb.start_browser(a.browser, work / f"artifacts-{name}", ext)[0]
            stack.callback(opened[name].close)
        if a.real:
            if a.timeline:  # our extension, its content.js with the notes
                copy = work / "real-extension"
                shutil.copytree(pb.e2e.EXTENSION_DIR, copy)
                content = copy / "content" / "content.js"
                content.write_text(timeline_content(content.read_text()))
                pb.e2e.EXTENSION_DIR = copy
            real_run = stack.enter_context(pb.ours(a.browser, "probe-real", a.bin_dir, work, vocab))
            opened["real"] = real_run.b
        for other in range(1, a.nones + 1):  # from 2 on, the instrument's own spread: none against none
            name = "none" if other == 1 else f"none-{other}"
            opened[name] = pb.start_browser(a.browser, work / f"artifacts-{name}")[0]
            stack.callback(opened[name].close)
        tabs = {name: pb.new_tab(a.browser, b) for name, b in opened.items()}
        names = list(opened)
        samples = collections.defaultdict(lambda: collections.defaultdict(list))
        url = f"{site.url(a.page)}?eb=time"
        for rnd in range(a.rounds + 1):
            for name in names[rnd % len(names):] + names[:rnd % len(names)]:
                if name == "real" and a.cold != "none":
                    make_cold(a, real_run)
                tab = pb.new_tab(a.browser, opened[name]) if a.fresh_tabs else tabs[name]
                try:
                    m = pb.measure(a.browser, opened[name], tab, url, "time", a.settle_ms, paint_expr)
                    if a.timeline and not name.startswith("none"):
                        m.update(timeline_of(tab, a.browser, opened[name]))
                finally:
                    if a.fresh_tabs:
                        tab.close()
                if rnd > 0:
                    for k, v in m.items():
                        samples[name][k].append(v)
        for name in names:
            print(name, json.dumps(summary(samples, name)), flush=True)


def run_walk(a, vocab: dict, work: Path) -> None:
    absent = {f"zz{k}": v for k, v in vocab.items()}  # nothing on the page is a key: nothing written
    bench = WALK_JS.replace("VOCABULARY", json.dumps(absent))
    with pb.HookServer(pb.DOCS) as site:
        b = pb.start_browser(a.browser, work / "artifacts-walk")[0]
        try:
            tab = b.new_tab("about:blank")
            tab.navigate(site.url(a.page))
            for engine in a.engines:
                source = Path(engine).read_text()
                for repeat in range(2):  # a new world each time: its first walk makes every wrapper
                    if a.browser == "chromium":
                        frame = tab.send("Page.getFrameTree")["frameTree"]["frame"]["id"]
                        world = tab.send("Page.createIsolatedWorld", {"frameId": frame, "worldName": f"probe{repeat}"})
                        context = world["executionContextId"]
                        tab.send("Runtime.evaluate", {"expression": source, "contextId": context})
                        result = tab.send("Runtime.evaluate", {"expression": bench, "contextId": context,
                                                               "returnByValue": True})["result"].get("value")
                    else:
                        result = b.client.execute_script(f"{source}\nreturn {bench};", sandbox=f"probe{repeat}",
                                                         new_sandbox=True, script_timeout=120_000)
                    print(engine, result, flush=True)
        finally:
            b.close()


# Snapshot node types whose name is the value itself (a string's text): counted together.
VALUE_TYPES = {"string", "concatenated string", "sliced string", "number", "bigint", "symbol"}
BIG_STRING = 64 * 1024


def snapshot_sizes(snapshot: dict) -> dict:
    """A DevTools heap snapshot's self sizes summed per (node type, name): {key: [bytes, count]}.
    Names lose their snapshot ids (" @123"); a value type's name is its value, so those are one
    row, except each string of BIG_STRING bytes or more (a compiled form's table or data)."""
    meta = snapshot["snapshot"]["meta"]
    fields = meta["node_fields"]
    types = meta["node_types"][fields.index("type")]
    width = len(fields)
    at_type, at_name, at_size = (fields.index(k) for k in ("type", "name", "self_size"))
    nodes, strings = snapshot["nodes"], snapshot["strings"]
    sizes = collections.defaultdict(lambda: [0, 0])
    for i in range(0, len(nodes), width):
        kind = types[nodes[i + at_type]]
        size = nodes[i + at_size]
        if kind in VALUE_TYPES:
            name = f"one of {size // 1024} kB" if size >= BIG_STRING else ""
        else:
            name = re.sub(r" @\d+", "", strings[nodes[i + at_name]])[:80]
        row = sizes[(kind, name)]
        row[0] += size
        row[1] += 1
    return dict(sizes)


def difference(sizes: dict, base: dict, top: int) -> dict:
    """``sizes`` over ``base``: in total, per node type, and the ``top`` (type, name) rows that
    grew most."""
    keys = set(sizes) | set(base)
    grown = {k: (sizes.get(k, [0, 0])[0] - base.get(k, [0, 0])[0], sizes.get(k, [0, 0])[1] - base.get(k, [0, 0])[1])
             for k in keys}
    by_type = collections.Counter()
    for (kind, _), (size, _) in grown.items():
        by_type[kind] += size
    rows = sorted(grown.items(), key=lambda item: (-item[1][0], item[0]))[:top]
    return {"total_bytes": sum(size for size, _ in grown.values()),
            "by_type": dict(sorted(by_type.items(), key=lambda item: -item[1])),
            "top": [{"type": kind, "name": name, "bytes": size, "count": count}
                    for (kind, name), (size, count) in rows]}


def take_snapshot(cdp, send) -> dict:
    """A heap snapshot over ``send(method, params)`` (a tab's or a worker's session, the heap
    profiler on: page_bench.new_tab, page_bench.service_worker_session), after collecting garbage
    twice. Its chunks arrive as events before the command's reply."""
    chunks = cdp.sinks.setdefault("HeapProfiler.addHeapSnapshotChunk", [])
    try:
        for _ in range(2):
            send("HeapProfiler.collectGarbage", {})
        send("HeapProfiler.takeHeapSnapshot", {"reportProgress": False})
        return json.loads("".join(chunk["chunk"] for chunk in chunks))
    finally:
        del cdp.sinks["HeapProfiler.addHeapSnapshotChunk"]


def heap_side(a, url: str, vocab, work: Path, label: str) -> tuple:
    """(snapshot sizes, used bytes) of one side: no extension (``vocab`` None), or ours with
    ``vocab`` imported: the new tab's, or with --worker the service worker's after that load."""
    with contextlib.ExitStack() as stack:
        if vocab is None:
            b = pb.start_browser("chromium", work / f"artifacts-{label}")[0]
            stack.callback(b.close)
        else:
            b = stack.enter_context(pb.ours("chromium", f"probe-{label}", a.bin_dir, work, vocab)).b
        tab = pb.new_tab("chromium", b)
        pb.load("chromium", b, tab, url, "heap", a.settle_ms, None)
        send = stack.enter_context(pb.service_worker_session(b)) if a.worker else (
            lambda method, params=None: tab.send(method, params, timeout=300))
        sizes = snapshot_sizes(take_snapshot(b.cdp, send))
        return sizes, pb.chromium_gc_heap(send)


def run_heap(a, vocab: dict, work: Path) -> None:
    with pb.HookServer(pb.DOCS) as site:
        url = f"{site.url(a.page)}?eb=heap"
        sides = (("vocabulary", vocab), ("empty", {})) if a.worker else (("ours", vocab), ("none", None))
        measured = {name: heap_side(a, url, v, work, name) for name, v in sides}
    (name, (sizes, used)), (base_name, (base, base_used)) = measured.items()
    out = {"what": "service worker" if a.worker else "new tab", "page": a.page, "entries": a.size,
           "json_bytes": pb.json_bytes(vocab), f"{name}_used_bytes": used, f"{base_name}_used_bytes": base_used,
           "used_over": used - base_used}
    out.update(difference(sizes, base, a.top))
    print(json.dumps(out, indent=1), flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="mode", required=True)
    for mode in ("load", "walk", "heap"):
        m = sub.add_parser(mode)
        if mode != "heap":
            m.add_argument("--browser", choices=pb.BROWSERS, default="chromium")
        m.add_argument("--page", default=pb.PAGES[0], help="a page of python3.11-doc's html/")
        m.add_argument("--size", type=int, default=100, help="vocabulary entries")
        m.add_argument("--vocabulary", choices=("user", "rare"), default="user",
                       help="user: the documentation's most frequent words first, each written wherever it occurs "
                            "(page_bench.py's); rare: the pages' rarest words, half of --size, the rest absent (before)")
        if mode == "load":
            m.add_argument("--variant", type=parse_variant, action="append", required=True)
            m.add_argument("--real", action="store_true", help="also our whole extension, host and all")
            m.add_argument("--bin-dir", default=str(REPO / ".build" / "release"))
            m.add_argument("--rounds", type=int, default=7)
            m.add_argument("--nones", type=int, default=1,
                           help="browsers with no extension; from 2 on, none-2 … are measured against none as a variant "
                                "is: how far apart two identical browsers come out")
            m.add_argument("--settle-ms", type=int, default=1000)
            m.add_argument("--fresh-tabs", action="store_true",
                           help="each load in a new tab (a new renderer), closed after it; else one tab per browser, navigated")
            m.add_argument("--timeline", action="store_true",
                           help="also when our content script ran, got the page state and finished the walk (ms)")
            m.add_argument("--cold", choices=("none", "host", "worker"), default="none",
                           help="before each load of --real: end its host, or stop its service worker (Chromium) and host")
        elif mode == "walk":
            m.add_argument("engines", nargs="+", type=existing_file, help="engine.js files")
        else:
            m.add_argument("--worker", action="store_true", help="the service worker, not the tab")
            m.add_argument("--top", type=int, default=30, help="rows by type and name")
            m.add_argument("--bin-dir", default=str(REPO / ".build" / "release"))
            m.add_argument("--settle-ms", type=int, default=1500)
    a = p.parse_args()
    if a.mode == "load" and a.nones < 1:
        p.error("--nones: at least 1 (the browser with no extension that every variant is measured against)")
    if not (pb.DOCS / a.page).is_file():
        sys.exit("python3.11-doc is not installed (apt-get install python3.11-doc)")
    pb.PAGES = [a.page]
    vocab = (pb.user_vocabulary(pb.frequent_words(), a.size) if a.vocabulary == "user"
             else pb.vocabulary(pb.page_words(), a.size))
    work = Path(tempfile.mkdtemp(prefix="eb-page-probe-"))
    try:
        {"load": run_load, "walk": run_walk, "heap": run_heap}[a.mode](a, vocab, work)
    except pb.browsers.E2EError as error:  # a browser or its driver is missing: what to do, no traceback
        sys.exit(f"page_probe: {error}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
