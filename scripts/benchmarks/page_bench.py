#!/usr/bin/env python3
"""Section 6 of scripts/bench: the extension rewriting large real pages in real Chromium,
side by side with a plain token-and-map content script.

Pages: the largest HTML pages of Debian's python3.11-doc (apt-get install python3.11-doc),
served on 127.0.0.1. Vocabularies of 100, 1,000, 5,000 and 20,000 entries (words of those
pages, rarest first, padded with words that do not occur). For each size, two Chromium
instances run at once, one with our extension (host installed, vocabulary imported with the
CLI, as in scripts/e2e) and one with the reference: a generated extension whose content script
(document_idle) holds the vocabulary in a Map, walks the body's text nodes (skipping the same
elements as ours), splits each into words and looks each up. Page loads alternate between the
two. Measured per load, through the DevTools protocol:

  * last_ms: navigation start to the last text change, from a MutationObserver the harness
    puts in the page's own world before the page's scripts (Page.addScriptToEvaluateOnNewDocument);
  * max_task_ms: the longest main-thread task (trace event RunTask) of the page's renderer that
    the extension caused: whole when the task's first script is the extension's and does not
    run inside the HTML parser, else our own time in it (see trace_tasks); any_task_ms: the
    longest task with any extension code in it, whoever started it;
  * ext_ms: the longest time spent in the extension's own code within one task;
  * same_text: the body's final text was the same for both, in every round (a hash of it);
  * dcl_ms, load_ms: navigation start to the end of DOMContentLoaded and of the load event,
    each also as a ratio to a third Chromium with no extension at all ("none"), whose loads
    alternate with the other two (issue 27);
  * first_paint_pct: of the vocabulary's words in the body's text (outside the skipped
    elements) at the frame of the first contentful paint, the share already replaced — a
    requestAnimationFrame callback in the page's world counts them before each frame's paint
    until the 'paint' PerformanceObserver reports first-contentful-paint; the snapshot of the
    last frame that began before that paint is the one painted.

Prints one JSON line; run with the e2e venv's python (scripts/e2e/setup.sh)."""
import argparse
import collections
import json
import re
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
sys.dont_write_bytecode = True
sys.path.insert(0, str(REPO / "scripts" / "e2e"))
import browsers  # noqa: E402
import run as e2e  # noqa: E402

DOCS = Path("/usr/share/doc/python3.11/html")
PAGES = ["library/os.html", "library/stdtypes.html", "library/multiprocessing.html", "library/datetime.html"]
SIZES = [100, 1_000, 5_000, 20_000]
CONFIGS = ("ours", "reference", "none")
DUMP = None  # --dump-trace FILE: the last trace, for looking at by hand
SKIP_TAGS = ["HEAD", "SCRIPT", "STYLE", "NOSCRIPT", "TEXTAREA", "INPUT", "SELECT", "OPTION", "CODE", "PRE",
             "TEMPLATE", "KBD", "SAMP", "IFRAME", "OBJECT"]

# Runs in the page's own world before its scripts: when did the text last change?
OBSERVER_JS = r"""(() => {
  window.__eb = {last: 0, changes: 0};
  new MutationObserver((records) => {
    let n = 0;
    for (const r of records) if (r.type === 'characterData') n += 1;
    if (n) { window.__eb.last = performance.now(); window.__eb.changes += n; }
  }).observe(document, {subtree: true, characterData: true});
})();"""

# Also in the page's world, before its scripts: before each frame's paint (requestAnimationFrame)
# until the first contentful paint, the body's text (outside the skipped elements).
FIRST_PAINT_JS = r"""(() => {
  const skip = new Set(%s);
  const frames = [];
  let fcp = null;
  window.__ebPaint = {frames, fcp: () => fcp};
  // Before each frame's paint: the body's text as it is (the strings themselves, immutable: a
  // snapshot costs a walk, no copy); counted only after the load, outside the measured time.
  const filter = {acceptNode: (node) => node.nodeType === 3 ? NodeFilter.FILTER_ACCEPT
    : skip.has(node.nodeName) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_SKIP};
  // The paint entry comes a few frames late: snapshots stop at the second frame with text in it
  // (the first contentful paint is one of those); later frames only note their time, so a first
  // contentful paint after the snapshots is reported as not measured, never as a wrong share.
  let withText = 0;
  const frame = () => {
    if (fcp !== null) return;
    requestAnimationFrame(frame);
    if (withText >= 2) {
      frames.push({t: performance.now(), texts: null});
      return;
    }
    const texts = [];
    if (document.body) {
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, filter);
      while (walker.nextNode()) texts.push(walker.currentNode.nodeValue);
    }
    if (texts.some((text) => text.trim() !== '')) withText += 1;
    frames.push({t: performance.now(), texts});
  };
  requestAnimationFrame(frame);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.name === 'first-contentful-paint' && fcp === null) fcp = {start: e.startTime, paint: e.paintTime ?? null};
    }
  }).observe({type: 'paint', buffered: true});
})();""" % json.dumps(SKIP_TAGS)

# After the load: of the vocabulary's words in the text painted first, how many were replaced?
FIRST_PAINT_RESULT_JS = """((keys, values) => {
  const p = window.__ebPaint, fcp = p && p.fcp();
  if (!fcp) return null;
  const at = fcp.paint ?? fcp.start;
  let snap = null;
  for (const f of p.frames) if (f.t <= at) snap = f;
  if (!snap || !snap.texts) return {fcp_ms: Math.round(fcp.start), original: 0, replaced: 0};
  let original = 0, replaced = 0;
  const known = new Set(keys), written = new Set(values);
  for (const text of snap.texts) {
    for (const m of text.matchAll(/[\\p{L}\\p{M}\\p{N}]+/gu)) {
      if (written.has(m[0])) replaced += 1;
      else if (known.has(m[0].toLowerCase())) original += 1;
    }
  }
  p.frames.length = 0;
  return {fcp_ms: Math.round(fcp.start), original, replaced};
})(FIRST_PAINT_KEYS[0], FIRST_PAINT_KEYS[1])"""

SETTLED_JS = """(() => { const t = performance.getEntriesByType('navigation')[0];
  if (!t || !t.loadEventEnd || !window.__eb) return false;
  return performance.now() - Math.max(window.__eb.last, t.loadEventEnd) > %d; })()"""

REFERENCE_JS = r"""(() => {
  const map = new Map(REFERENCE_VOCABULARY);
  const skip = new Set(%s);
  const word = /[\p{L}\p{M}\p{N}]+/gu;
  const root = document.body;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode(node) {
      for (let p = node.parentNode; p && p !== root; p = p.parentNode) {
        if (skip.has(p.nodeName) || (p.getAttribute('contenteditable') ?? 'false') !== 'false') return NodeFilter.FILTER_REJECT;
      }
      return NodeFilter.FILTER_ACCEPT;
    },
  });
  const nodes = [];
  while (walker.nextNode()) nodes.push(walker.currentNode);
  for (const node of nodes) {
    const text = node.nodeValue;
    const next = text.replace(word, (w) => map.get(w.toLowerCase()) ?? w);
    if (next !== text) node.nodeValue = next;
  }
})();
""" % json.dumps(SKIP_TAGS)


def page_words() -> list:
    """Distinct words of the pages' text, rarest first (ties alphabetical)."""
    counts = collections.Counter()
    for page in PAGES:
        html = (DOCS / page).read_text(errors="replace")
        html = re.sub(r"(?is)<(script|style|pre|code)\b.*?</\1>", " ", html)
        text = re.sub(r"<[^>]+>", " ", html)
        counts.update(w.lower() for w in re.findall(r"[^\W_]+", text) if not w.isdigit())
    return sorted(counts, key=lambda w: (counts[w], w))


def vocabulary(words: list, size: int) -> dict:
    """Half real words (so pages change), the rest words that do not occur."""
    real = words[: size // 2]
    vocab = {w: w.upper()[::-1] for w in real}
    i = 0
    while len(vocab) < size:
        vocab[f"zq{i}x"] = f"r{i}"
        i += 1
    return vocab


def reference_extension(directory: Path, vocab: dict) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "manifest.json").write_text(json.dumps({
        "manifest_version": 3, "name": "token-and-map reference", "version": "1.0",
        "content_scripts": [{"matches": ["http://*/*"], "js": ["vocabulary.js", "reference.js"]}],
    }))
    (directory / "vocabulary.js").write_text("const REFERENCE_VOCABULARY = " + json.dumps(list(vocab.items())) + ";\n")
    (directory / "reference.js").write_text(REFERENCE_JS)
    return directory


def trace_tasks(events: list, extension_prefix: str) -> dict:
    """The longest main-thread task the extension caused, and the longest extension time in one task.

    A renderer main-thread task whose first script (the earliest trace event inside it that
    names a script URL) is the extension's, outside the HTML parser, was started by the
    extension — its timer, its scheduler.postTask slice, its message — and counts whole, with
    whatever garbage collection or layout ran inside it. A task of the parser (the first script
    runs inside ParseHTML: our injected scripts, our MutationObserver callback at the end of a
    parser chunk, the page's scripts) or of the page (its script, its event, its timer) in
    which our code ran counts with our own time in it only. `any_task_ms` is the older, blunter
    measure: the longest task containing any extension code, whoever started it."""
    threads = {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "thread_name" and e.get("args", {}).get("name") == "CrRendererMain":
            threads[(e["pid"], e["tid"])] = True
    tasks = collections.defaultdict(list)
    parsing = collections.defaultdict(list)  # ParseHTML spans
    scripts = collections.defaultdict(list)  # (start, end, ours)
    for e in events:
        key = (e.get("pid"), e.get("tid"))
        if key not in threads or e.get("ph") != "X" or "dur" not in e:
            continue
        if e.get("name") in ("RunTask", "ThreadControllerImpl::RunTask"):
            tasks[key].append((e["ts"], e["ts"] + e["dur"]))
            continue
        if e.get("name") == "ParseHTML":
            parsing[key].append((e["ts"], e["ts"] + e["dur"]))
        data = e.get("args", {}).get("data", {}) or {}
        url = data.get("url") or data.get("scriptName") or ""
        if isinstance(url, str) and url:
            scripts[key].append((e["ts"], e["ts"] + e["dur"], url.startswith(extension_prefix)))
    max_task = 0.0
    max_any = 0.0
    max_ext = 0.0
    for key, spans in scripts.items():
        spans.sort()
        for start, end in sorted(tasks[key]):
            inside = [(s, t, ours) for s, t, ours in spans if s >= start and t <= end]
            if not any(ours for _, _, ours in inside):
                continue
            # own time: union of the extension's spans inside this task
            total, cursor = 0, start
            for s, t, ours in inside:
                if not ours or t <= cursor:
                    continue
                total += t - max(s, cursor)
                cursor = t
            own = total / 1000
            whole = (end - start) / 1000
            first_start, first_end, first_ours = inside[0]
            in_parser = any(s <= first_start and first_end <= t for s, t in parsing[key])
            started_by_us = first_ours and not in_parser
            max_any = max(max_any, whole)
            max_ext = max(max_ext, own)
            max_task = max(max_task, whole if started_by_us else own)
    return {"max_task_ms": round(max_task, 1), "any_task_ms": round(max_any, 1), "ext_ms": round(max_ext, 1)}


def measure(browser, tab, url: str, extension_prefix: str, settle_ms: int, keys: str) -> dict:
    cdp = browser.cdp
    with cdp._cond:
        cdp.events.clear()
    cdp.send("Tracing.start", {"traceConfig": {"includedCategories": [
        "toplevel", "devtools.timeline", "v8.execute", "__metadata"]}, "transferMode": "ReportEvents"})
    tab.send("Page.navigate", {"url": url})
    browsers.wait_until(lambda: tab.evaluate(SETTLED_JS % settle_ms), 120, f"{url} to settle", 0.25)
    result = tab.evaluate("(() => { const t = performance.getEntriesByType('navigation')[0];"
                          " let h = 0; const text = document.body.textContent;"
                          " for (let i = 0; i < text.length; i += 1) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;"
                          " return {last: window.__eb.last, changes: window.__eb.changes, text_hash: h,"
                          " dcl_ms: t.domContentLoadedEventEnd, load_ms: t.loadEventEnd}; })()")
    paint = tab.evaluate(keys + FIRST_PAINT_RESULT_JS) or {}
    seen = paint.get("original", 0) + paint.get("replaced", 0)
    result["fcp_ms"] = paint.get("fcp_ms")
    result["first_paint_words"] = seen
    result["first_paint_pct"] = round(100 * paint.get("replaced", 0) / seen, 1) if seen else None
    cdp.send("Tracing.end")
    browsers.wait_until(lambda: any(e.get("method") == "Tracing.tracingComplete" for e in list(cdp.events)),
                        60, "the trace", 0.1)
    with cdp._cond:
        batches = [e["params"]["value"] for e in cdp.events if e.get("method") == "Tracing.dataCollected"]
    events = [e for batch in batches for e in batch]
    if DUMP:
        Path(f"{DUMP}.{'ours' if extension_prefix.endswith(e2e.CHROMIUM_ID + '/') else 'reference'}.{url.rsplit('/', 1)[-1]}.json").write_text(
            json.dumps(events))
    result.update(trace_tasks(events, extension_prefix))
    result["last_ms"] = round(result.pop("last"), 1)
    return result


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bin-dir", default=str(REPO / ".build" / "release"))
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--sizes", default=",".join(map(str, SIZES)))
    p.add_argument("--settle-ms", type=int, default=1500)
    p.add_argument("--dump-trace", default=None)
    p.add_argument("--pages", default=None, help="pages of python3.11-doc's html/, comma-separated")
    a = p.parse_args()
    global DUMP, PAGES
    DUMP = a.dump_trace
    if a.pages:
        PAGES = a.pages.split(",")
    if not all((DOCS / page).is_file() for page in PAGES):
        print(json.dumps({"skipped": "python3.11-doc is not installed (apt-get install python3.11-doc)"}))
        return
    words = page_words()
    artifacts = Path(tempfile.mkdtemp(prefix="eb-page-bench-"))
    out = {"pages": PAGES, "rounds": a.rounds, "rows": []}
    try:
        with browsers.TestServer(DOCS) as site:
            for size in map(int, a.sizes.split(",")):
                vocab = vocabulary(words, size)
                r = e2e.Run("chromium", f"ours-{size}", Path(a.bin_dir), artifacts, lambda s: print(s, file=sys.stderr))
                values = r.dir / "values.json"
                values.write_text(json.dumps({"extensionEnabled": True, "vocabulary": vocab}))
                ref = none = None
                try:
                    r.install()
                    r.cli(["import", str(values)])
                    ours = r.start_browser()
                    # No service worker to wait for: load it over CDP, which returns its ID.
                    ref = browsers.Chromium(None, artifacts / f"ref-{size}")
                    ref.start()
                    ref_id = ref.load_unpacked(reference_extension(r.dir / "reference", vocab))
                    # The third: no extension at all.
                    none = browsers.Chromium(None, artifacts / f"none-{size}")
                    none.start()
                    tabs = {}
                    real = [k for k, v in vocab.items() if not k.startswith("zq")]
                    keys = "const FIRST_PAINT_KEYS = " + json.dumps([real, [vocab[k] for k in real]]) + ";\n"
                    for name, b in (("ours", ours), ("reference", ref), ("none", none)):
                        tab = b.new_tab("about:blank")
                        tab.send("Page.addScriptToEvaluateOnNewDocument", {"source": OBSERVER_JS})
                        tab.send("Page.addScriptToEvaluateOnNewDocument", {"source": FIRST_PAINT_JS})
                        tabs[name] = (b, tab)
                    prefixes = {"ours": f"chrome-extension://{e2e.CHROMIUM_ID}/",
                                "reference": f"chrome-extension://{ref_id}/", "none": "chrome-extension://-/"}
                    samples = collections.defaultdict(lambda: collections.defaultdict(list))
                    for rnd in range(a.rounds + 1):  # round 0 warms caches and is not counted
                        for page in PAGES:
                            order = CONFIGS[rnd % 3:] + CONFIGS[:rnd % 3]  # each first in turn
                            for name in order:
                                b, tab = tabs[name]
                                m = measure(b, tab, site.url(page), prefixes[name], a.settle_ms, keys)
                                if rnd > 0:
                                    for k, v in m.items():
                                        samples[(name, page)][k].append(v)
                    for page in PAGES:
                        row = {"entries": size, "page": page}
                        for name in CONFIGS:
                            s = samples[(name, page)]
                            pct = [v for v in s["first_paint_pct"] if v is not None]
                            row[name] = {"last_ms": statistics.median(s["last_ms"]),
                                         "max_task_ms": max(s["max_task_ms"]), "any_task_ms": max(s["any_task_ms"]),
                                         "ext_ms": max(s["ext_ms"]),
                                         "changes": statistics.median(s["changes"]),
                                         "text_hashes": sorted(set(s["text_hash"])),
                                         "dcl_ms": round(statistics.median(s["dcl_ms"]), 1),
                                         "load_ms": round(statistics.median(s["load_ms"]), 1),
                                         "fcp_ms": statistics.median([v for v in s["fcp_ms"] if v is not None] or [0]),
                                         "first_paint_words": statistics.median(s["first_paint_words"]),
                                         "first_paint_pct": statistics.median(pct) if pct else None}
                            # Ratios per round (alternated loads side by side), then their median.
                            if name != "none":
                                n = samples[("none", page)]
                                for k in ("dcl_ms", "load_ms"):
                                    row[name][k.replace("_ms", "_vs_none")] = round(statistics.median(
                                        [x / max(1e-9, y) for x, y in zip(s[k], n[k], strict=True)]), 2)
                        # The same final text, every round: both did the same replacements.
                        row["same_text"] = row["ours"]["text_hashes"] == row["reference"]["text_hashes"] and len(row["ours"]["text_hashes"]) == 1
                        row["ratio"] = round(row["ours"]["last_ms"] / max(1e-9, row["reference"]["last_ms"]), 2)
                        out["rows"].append(row)
                        print(json.dumps(row), file=sys.stderr)
                finally:
                    if ref is not None:
                        ref.close()
                    if none is not None:
                        none.close()
                    r.close()
                    r.cleanup(False)
    finally:
        shutil.rmtree(artifacts, ignore_errors=True)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
