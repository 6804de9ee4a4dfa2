#!/usr/bin/env python3
"""Section 7 of scripts/bench: the extension rewriting large real pages in real Chromium and real
Firefox, side by side with a plain token-and-map content script, with no extension at all, and
with a second browser with no extension (the A/A control: how far apart two identical browsers
come out on this machine, printed beside every row).

Pages: large HTML pages of Debian's python3.11-doc (apt-get install python3.11-doc), served on
127.0.0.1. Vocabularies of N entries as a user's would be: the documentation's most frequent words
first (every page of it: the language the measured pages are written in), each mapped to a
replacement that differs wherever it occurs (its upper case and two letters more), then words that
occur nowhere (user_vocabulary). At 100 entries that is "the", "a", "in", … (most texts of a page
change); from 20,000 on, every word of the pages. For each browser and size, four instances run at
once: ours (host installed, vocabulary imported with the CLI, extension/ of this checkout loaded,
as in scripts/e2e), the reference (a generated extension whose content script, document_idle,
holds the vocabulary in a Map, walks the body's text nodes skipping the same elements as ours,
splits each into words and looks each up), none and none-2 (no extension). Each round loads each
page in each of them, each first in turn; round 0 is not counted. One tab per browser, navigated
from page to page, as a user follows links; the extension's service worker and host stay up
between loads (the background keeps its port while a tab it serves is open).

The harness's page-world script is served in the page itself, as the first element of <head>
(the server inserts it): the same way in both browsers, before any of the page's scripts and
any body text. Each round has two passes:

  * the timing pass (URL ?eb=time, all four): nothing of the harness runs during parsing but a
    requestAnimationFrame callback that keeps the body's text per frame until the second frame
    with text. Measured: dcl_ms and load_ms, navigation start to the end of DOMContentLoaded and
    of the load event, also as ratios to "none" in the same round (median of the per-round
    ratios); first_paint_pct: of the vocabulary's words in the body's text (outside the skipped
    elements) in the frame that began last before first-contentful-paint (its paintTime where the
    browser gives one, else its startTime), the share already replaced — what a user sees in the
    first paint; first_paint_of_final_pct: the replacements in that frame against all the page
    has once it settled (low when the first paint comes before most of the page is parsed,
    whoever rewrites it).
  * the replacement pass (URL ?eb=last; ours, reference, none): a page-world MutationObserver
    (characterData) notes the time of the last text change (last_ms) and counts the changes
    (changes: the texts ours wrote). In Chromium also a trace (DevTools protocol) for the tasks
    the extension caused (trace_tasks), split at the first contentful paint, and after the text
    settled the tab's JS heap (HeapProfiler.collectGarbage, then Runtime.getHeapUsage on the
    page's target: the renderer's V8 isolate, page world and every content script's world).
    same_text: the body's final text hashes the same for ours and the reference, every round.
  * in Chromium, rounds 1-3: the page loaded once in a new tab (a renderer of its own, no
    earlier pages), then the same heap figure: fresh_heap_bytes, what one page costs a tab.

Also per size in Chromium: the extension's service worker heap (collectGarbage, getHeapUsage on
its target) after the rounds, over the same measured in a browser whose vocabulary is empty.
In Firefox, no JS heap figure per tab or background is reachable over Marionette: instead, in
the replacement pass, the resident unique memory of the tab's content process and of the
extension process over "none" (see firefox_memory), reported for information. Not measured in
Firefox: the tasks (no trace over Marionette, no 'longtask' entries).

Prints one JSON line; run with the e2e venv's python (scripts/e2e/setup.sh)."""
import argparse
import collections
import contextlib
import functools
import http.server
import json
import re
import shutil
import statistics
import sys
import tempfile
import urllib.parse
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
sys.dont_write_bytecode = True
sys.path.insert(0, str(REPO / "scripts" / "e2e"))
import browsers  # noqa: E402
import run as e2e  # noqa: E402

# Firefox rounds performance.now() to 1 ms by default (as browser_bench.py).
browsers.FIREFOX_PREFS["privacy.reduceTimerPrecision"] = False

DOCS = Path("/usr/share/doc/python3.11/html")
PAGES = ["library/os.html", "library/functions.html"]
SIZES = [100, 20_000, 150_000]
HEAP_ROUNDS = 3  # the rounds (after round 0) in which heaps are measured
BROWSERS = ("chromium", "firefox")
CONFIGS = ("ours", "reference", "none", "none-2")  # none-2: the A/A control, timing pass only
REPLACEMENT_CONFIGS = ("ours", "reference", "none")
COLD = "ours-cold"  # ours, loaded right after its background and host were stopped (timing only)
REFERENCE_GECKO_ID = "token-map-reference@bench.invalid"
DUMP = None  # --dump-trace FILE: the last trace, for looking at by hand
SKIP_TAGS = ["HEAD", "SCRIPT", "STYLE", "NOSCRIPT", "TEXTAREA", "INPUT", "SELECT", "OPTION", "CODE", "PRE",
             "TEMPLATE", "KBD", "SAMP", "IFRAME", "OBJECT"]

# The replacement pass only: when did the text last change?
OBSERVER_JS = r"""(() => {
  window.__eb = {last: 0, changes: 0};
  new MutationObserver((records) => {
    let n = 0;
    for (const r of records) if (r.type === 'characterData') n += 1;
    if (n) { window.__eb.last = performance.now(); window.__eb.changes += n; }
  }).observe(document, {subtree: true, characterData: true});
})();"""

# The timing pass only: before each frame's paint (requestAnimationFrame) until the first
# contentful paint, the body's text (outside the skipped elements).
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

# After the load: of the vocabulary's words in the text painted first, how many were replaced, and
# how many replacements the page has now (settled)? KEYS and VALUES are replaced by JSON arrays
# (an expression: Marionette wraps it in a function).
FIRST_PAINT_RESULT_JS = """((keys, values) => {
  const p = window.__ebPaint, fcp = p && p.fcp();
  if (!fcp) return null;
  const at = fcp.paint ?? fcp.start;
  let snap = null;
  for (const f of p.frames) if (f.t <= at) snap = f;
  const known = new Set(keys), written = new Set(values);
  const count = (texts) => {
    let original = 0, replaced = 0;
    for (const text of texts) {
      for (const m of text.matchAll(/[\\p{L}\\p{M}\\p{N}]+/gu)) {
        if (written.has(m[0])) replaced += 1;
        else if (known.has(m[0].toLowerCase())) original += 1;
      }
    }
    return {original, replaced};
  };
  const now = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {acceptNode:
    (node) => node.nodeType === 3 ? NodeFilter.FILTER_ACCEPT : SKIPPED_NAMES.has(node.nodeName) ? NodeFilter.FILTER_REJECT
      : NodeFilter.FILTER_SKIP});
  while (walker.nextNode()) now.push(walker.currentNode.nodeValue);
  const settled = count(now);
  const painted = snap && snap.texts ? count(snap.texts) : {original: 0, replaced: 0};
  p.frames.length = 0;
  return {fcp_ms: Math.round(fcp.start), original: painted.original, replaced: painted.replaced,
          final_replaced: settled.replaced};
})(KEYS, VALUES)""".replace("SKIPPED_NAMES", "new Set(%s)" % json.dumps(SKIP_TAGS))

# Settled: the load event ended (and, in the replacement pass, the text last changed) SETTLE ms ago.
SETTLED_JS = {
    "heap": """(() => { const t = performance.getEntriesByType('navigation')[0];
  return !!(t && t.loadEventEnd) && performance.now() - t.loadEventEnd > SETTLE; })()""",
    "time": """(() => { const t = performance.getEntriesByType('navigation')[0];
  return !!(t && t.loadEventEnd && window.__ebPaint) && performance.now() - t.loadEventEnd > SETTLE; })()""",
    "last": """(() => { const t = performance.getEntriesByType('navigation')[0];
  if (!t || !t.loadEventEnd || !window.__eb) return false;
  return performance.now() - Math.max(window.__eb.last, t.loadEventEnd) > SETTLE; })()""",
}
TIMING_JS = """(() => { const t = performance.getEntriesByType('navigation')[0];
  return {dcl_ms: t.domContentLoadedEventEnd, load_ms: t.loadEventEnd}; })()"""
LAST_JS = """(() => { let h = 0; const text = document.body.textContent;
  for (let i = 0; i < text.length; i += 1) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return {last: window.__eb.last, changes: window.__eb.changes, text_hash: h}; })()"""

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


def words_of(pages) -> collections.Counter:
    """How often each word (lower case, no number) occurs in the text of ``pages`` (paths under
    DOCS), code and scripts left out."""
    counts = collections.Counter()
    for page in pages:
        html = (DOCS / page).read_text(errors="replace")
        html = re.sub(r"(?is)<(script|style|pre|code)\b.*?</\1>", " ", html)
        text = re.sub(r"<[^>]+>", " ", html)
        counts.update(w.lower() for w in re.findall(r"[^\W_]+", text) if not w.isdigit())
    return counts


def page_words() -> list:
    """Distinct words of the pages' text, rarest first (ties alphabetical)."""
    counts = words_of(PAGES)
    return sorted(counts, key=lambda w: (counts[w], w))


def frequent_words() -> list:
    """Distinct words of the whole documentation (every page of python3.11-doc), most frequent
    first (ties alphabetical): the language the measured pages are written in."""
    counts = words_of(sorted(str(p.relative_to(DOCS)) for p in DOCS.rglob("*.html")))
    return sorted(counts, key=lambda w: (-counts[w], w))


def vocabulary(words: list, size: int) -> dict:
    """The benchmark's vocabulary before (page_probe.py --vocabulary rare): the pages' rarest
    words, half of ``size``, the rest words that do not occur. At 100 entries 50 words that occur
    about once: a page barely changes, unlike a user's."""
    real = words[: size // 2]
    vocab = {w: w.upper()[::-1] for w in real}
    i = 0
    while len(vocab) < size:
        vocab[f"zq{i}x"] = f"r{i}"
        i += 1
    return vocab


def user_vocabulary(words: list, size: int) -> dict:
    """A user's vocabulary of ``size`` entries: the most frequent words of the language first
    (``words``, most frequent first), each to a replacement that differs from it wherever it
    occurs (upper case and two letters more: one letter made real words, "fa" → "FAQ"), then
    words that occur nowhere."""
    vocab = {w: w.upper() + "QZ" for w in words[:size]}
    i = 0
    while len(vocab) < size:
        vocab[f"zq{i}x"] = f"r{i}"
        i += 1
    return vocab


def json_bytes(vocab: dict) -> int:
    """The vocabulary's JSON bytes (UTF-8, compact): what the memory targets are measured against."""
    return len(json.dumps(vocab, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def reference_extension(directory: Path, vocab: dict, browser: str) -> Path:
    """The token-and-map content script. In Firefox as a Manifest V2 add-on: its content scripts
    run on http pages without a host-permission grant, and the script is the same."""
    directory.mkdir(parents=True, exist_ok=True)
    manifest = {"manifest_version": 3, "name": "token-and-map reference", "version": "1.0",
                "content_scripts": [{"matches": ["http://*/*"], "js": ["vocabulary.js", "reference.js"]}]}
    if browser == "firefox":
        manifest["manifest_version"] = 2
        manifest["browser_specific_settings"] = {"gecko": {"id": REFERENCE_GECKO_ID}}
    (directory / "manifest.json").write_text(json.dumps(manifest))
    (directory / "vocabulary.js").write_text("const REFERENCE_VOCABULARY = " + json.dumps(list(vocab.items())) + ";\n")
    (directory / "reference.js").write_text(REFERENCE_JS)
    return directory


def hooked_html(html: bytes, kind: str) -> bytes:
    """The page with the harness's script as the first element of its <head> (before any of the
    page's scripts and any body text): the paint snapshots for the timing pass ("time"), the
    MutationObserver for the replacement pass ("last"), nothing else."""
    js = {"time": FIRST_PAINT_JS, "last": OBSERVER_JS}.get(kind)
    if js is None:
        return html
    tag = b"<script>" + js.encode("utf-8") + b"</script>"
    m = re.search(rb"<head\b[^>]*>", html, re.IGNORECASE)
    at = m.end() if m else 0
    return html[:at] + tag + html[at:]


class _HookHandler(browsers._QuietHandler):
    def do_GET(self):  # noqa: N802 - http.server's name
        url = urllib.parse.urlsplit(self.path)
        kind = urllib.parse.parse_qs(url.query).get("eb", [""])[0]
        path = Path(self.translate_path(url.path))
        if not kind or path.suffix != ".html" or not path.is_file():
            return super().do_GET()
        body = hooked_html(path.read_bytes(), kind)
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        return None


class HookServer(browsers.TestServer):
    """browsers.TestServer whose .html answers carry the harness's script (URL ?eb=time|last)."""

    def __init__(self, directory):
        super().__init__(directory)
        self.httpd.server_close()
        handler = functools.partial(_HookHandler, directory=self.directory)
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self._thread = type(self._thread)(target=self.httpd.serve_forever, name="bench-http", daemon=True)


def trace_tasks(events: list, extension_prefix: str) -> dict:
    """The longest main-thread task the extension caused, and the longest extension time in one task.

    A renderer main-thread task whose first script (the earliest trace event inside it that
    names a script URL) is the extension's, outside the HTML parser, was started by the
    extension — its timer, its scheduler.postTask slice, its message — and counts whole, with
    whatever garbage collection or layout ran inside it. A task of the parser (the first script
    runs inside ParseHTML: our injected scripts, our MutationObserver callback at the end of a
    parser chunk, the page's scripts), of a frame (the first script runs inside FireAnimationFrame:
    our requestAnimationFrame callback comes first in every frame while the page loads, and the
    frame's style, layout and paint are the browser's, extension or not), of a navigation (a
    CommitLoad inside the task: committing the next page fires the old one's pagehide, and our
    listener may be the first script in it) or of the page (its script, its event, its timer) in
    which our code ran counts with our own time in it only. `any_task_ms` is the older, blunter
    measure: the longest task containing any extension code, whoever started it.

    Split at the first contentful paint (the trace's firstContentfulPaint mark; without one,
    every task counts as after it): before it nobody can interact with the page, so one catch-up
    of up to 100 ms is allowed there (`before_fcp_ms`, the longest; `before_fcp_over_50`, how
    many of ours were over 50 ms); `after_fcp_ms`, the longest of ours that began after it."""
    threads = {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "thread_name" and e.get("args", {}).get("name") == "CrRendererMain":
            threads[(e["pid"], e["tid"])] = True
    fcp = min((e["ts"] for e in events if e.get("name") == "firstContentfulPaint" and "ts" in e), default=None)
    tasks = collections.defaultdict(list)
    parsing = collections.defaultdict(list)  # ParseHTML and FireAnimationFrame spans
    commits = collections.defaultdict(list)  # CommitLoad: the browser's navigation tasks
    scripts = collections.defaultdict(list)  # (start, end, ours)
    for e in events:
        key = (e.get("pid"), e.get("tid"))
        if key not in threads or e.get("ph") != "X" or "dur" not in e:
            continue
        if e.get("name") in ("RunTask", "ThreadControllerImpl::RunTask"):
            tasks[key].append((e["ts"], e["ts"] + e["dur"]))
            continue
        if e.get("name") in ("ParseHTML", "FireAnimationFrame"):
            parsing[key].append((e["ts"], e["ts"] + e["dur"]))
        if e.get("name") == "CommitLoad":
            commits[key].append(e["ts"])
        data = e.get("args", {}).get("data", {}) or {}
        url = data.get("url") or data.get("scriptName") or ""
        if isinstance(url, str) and url:
            scripts[key].append((e["ts"], e["ts"] + e["dur"], url.startswith(extension_prefix)))
    max_task = 0.0
    max_any = 0.0
    max_ext = 0.0
    before, after, over_50 = 0.0, 0.0, 0
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
            committing = any(start <= c <= end for c in commits[key])
            started_by_us = first_ours and not in_parser and not committing
            max_any = max(max_any, whole)
            max_ext = max(max_ext, own)
            ours_ms = whole if started_by_us else own
            max_task = max(max_task, ours_ms)
            if fcp is not None and start < fcp:
                before = max(before, ours_ms)
                over_50 += ours_ms > 50
            else:
                after = max(after, ours_ms)
    return {"max_task_ms": round(max_task, 1), "any_task_ms": round(max_any, 1), "ext_ms": round(max_ext, 1),
            "before_fcp_ms": round(before, 1), "before_fcp_over_50": over_50, "after_fcp_ms": round(after, 1)}


def heap_bytes(usage: dict) -> int:
    """Runtime.getHeapUsage: the V8 heap's used bytes plus the ArrayBuffers' backing stores where
    the browser reports them (a compact form in typed arrays lives there, outside usedSize)."""
    return int(usage.get("usedSize", 0)) + int(usage.get("backingStorageSize", 0) or 0)


def chromium_gc_heap(send) -> int:
    for _ in range(2):
        send("HeapProfiler.collectGarbage")
    return heap_bytes(send("Runtime.getHeapUsage"))


@contextlib.contextmanager
def service_worker_session(b):
    """``send(method, params=None)`` to the extension's service worker (woken if it was not
    running), with the heap profiler on; detached afterwards."""
    sid = b._attach(b.wake_service_worker()["targetId"])
    try:
        b.cdp.send("HeapProfiler.enable", {}, sid)
        yield lambda method, params=None: b.cdp.send(method, params, sid, 300)
    finally:
        try:
            b.cdp.send("Target.detachFromTarget", {"sessionId": sid})
        except browsers.E2EError:
            pass


def service_worker_heap(b) -> tuple:
    """(heap bytes, whether the worker had to be started) of the extension's service worker."""
    had = b._sw_target(b.extension_id) is not None
    with service_worker_session(b) as send:
        return chromium_gc_heap(send), not had


FIREFOX_MEMORY_JS = """const done = arguments[arguments.length - 1];
Services.obs.notifyObservers(null, 'child-gc-request');
Services.obs.notifyObservers(null, 'child-cc-request');
Services.obs.notifyObservers(null, 'child-gc-request');
Cu.forceGC();
setTimeout(() => ChromeUtils.requestProcInfo().then((info) => done(info.children.map((c) => ({
  type: c.type, memory: c.memory, windows: (c.windows || []).map((w) => w.documentURI ? w.documentURI.spec : '')}))),
  (e) => done(String(e))), 1000);"""


def firefox_memory(b, url: str) -> dict:
    """Firefox: not the JS heap (no per-tab heap figure over Marionette) but the resident unique
    memory (ChromeUtils.requestProcInfo's memory) of the content process showing ``url`` (Fission:
    one process for the site, this tab only) and of the extension process (every add-on's
    background page), each after asking every child process to collect garbage and cycles."""
    m = b.client
    m.set_context(m.CONTEXT_CHROME)
    try:
        procs = m.execute_async_script(FIREFOX_MEMORY_JS, script_timeout=30000)
    finally:
        m.set_context(m.CONTEXT_CONTENT)
    if not isinstance(procs, list):
        raise browsers.BrowserError(f"requestProcInfo: {procs}")
    tab = [p["memory"] for p in procs if url in p["windows"]]
    ext = [p["memory"] for p in procs if p["type"] == "extension"]
    return {"process_bytes": tab[0] if len(tab) == 1 else None, "ext_process_bytes": sum(ext) if ext else None}


def load(browser: str, b, tab, url: str, kind: str, settle_ms: int, trace_prefix) -> None:
    """Navigate and wait until settled (see SETTLED_JS); in Chromium's replacement pass, traced."""
    settled = SETTLED_JS[kind].replace("SETTLE", str(int(settle_ms)))
    settled = "(location.href === %s) && %s" % (json.dumps(url), settled)
    if browser == "chromium":
        with b.cdp._cond:
            b.cdp.events.clear()
        if trace_prefix:
            b.cdp.send("Tracing.start", {"traceConfig": {"includedCategories": [
                "toplevel", "devtools.timeline", "v8.execute", "loading", "__metadata"]},
                "transferMode": "ReportEvents"})
        tab.send("Page.navigate", {"url": url})
    else:
        tab.navigate(url, timeout=120)
    browsers.wait_until(lambda: tab.evaluate(settled), 120, f"{url} to settle", 0.25)


def measure(browser: str, b, tab, url: str, kind: str, settle_ms: int, paint_expr: str, trace_prefix=None,
            heap: bool = True) -> dict:
    """One load of ``url`` (a timing or a replacement pass, see the module's docstring); ``heap``
    False leaves the memory figures out."""
    load(browser, b, tab, url, kind, settle_ms, trace_prefix)
    if kind == "time":
        result = tab.evaluate(TIMING_JS)
        paint = tab.evaluate(paint_expr) or {}
        seen = paint.get("original", 0) + paint.get("replaced", 0)
        final = paint.get("final_replaced", 0)
        result["fcp_ms"] = paint.get("fcp_ms")
        result["first_paint_words"] = seen
        result["first_paint_pct"] = round(100 * paint.get("replaced", 0) / seen, 1) if seen else None
        result["first_paint_of_final_pct"] = round(100 * paint.get("replaced", 0) / final, 1) if final else None
        return result
    result = tab.evaluate(LAST_JS)
    result["last_ms"] = round(result.pop("last"), 1)
    if browser != "chromium":
        if heap:
            result.update(firefox_memory(b, url))
        return result
    if trace_prefix:
        cdp = b.cdp
        cdp.send("Tracing.end")
        browsers.wait_until(lambda: any(e.get("method") == "Tracing.tracingComplete" for e in list(cdp.events)),
                            60, "the trace", 0.1)
        with cdp._cond:
            batches = [e["params"]["value"] for e in cdp.events if e.get("method") == "Tracing.dataCollected"]
        events = [e for batch in batches for e in batch]
        if DUMP:
            Path(f"{DUMP}.{'ours' if trace_prefix.endswith(e2e.CHROMIUM_ID + '/') else 'reference'}"
                 f".{url.rsplit('/', 1)[-1]}.json").write_text(json.dumps(events))
        result.update(trace_tasks(events, trace_prefix))
    # After the text settled: the renderer's isolate (page world and content scripts' worlds).
    if heap:
        result["heap_bytes"] = chromium_gc_heap(lambda m: tab.send(m, timeout=60))
    return result


FIREFOX_STOP_BACKGROUND_JS = """const done = arguments[arguments.length - 1];
const {ExtensionParent} = ChromeUtils.importESModule('resource://gre/modules/ExtensionParent.sys.mjs');
const extension = ExtensionParent.GlobalManager.getExtension(arguments[0]);
Promise.resolve(extension && extension.terminateBackground({ignoreDevToolsAttached: true}))
  .then(() => done(!!extension), (e) => done(String(e)));"""


def stop_background(browser: str, run) -> None:
    """What a page meets first after the extension's background went idle (Chromium stops a
    service worker after 30 s with no port or event; Firefox suspends its event page) or the
    browser started: the background stopped (its state, its port, and so its host, gone). The
    next page load starts it, and it fetches and compiles the state from a new host."""
    b = run.b
    if browser == "chromium":
        helper = b.tabs[0]
        helper.send("ServiceWorker.enable")
        helper.send("ServiceWorker.stopAllWorkers")
        browsers.wait_until(lambda: b._sw_target(b.extension_id) is None, 30, "the service worker to stop", 0.05)
    else:
        m = b.client
        m.set_context(m.CONTEXT_CHROME)
        try:
            stopped = m.execute_async_script(FIREFOX_STOP_BACKGROUND_JS, script_args=[b.addon_id], script_timeout=30000)
        finally:
            m.set_context(m.CONTEXT_CONTENT)
        if stopped is not True:
            raise browsers.BrowserError(f"stopping the add-on's background: {stopped}")
    run.kill_hosts()


def fresh_tab_heap(b, url: str, settle_ms: int) -> int:
    """Chromium: the heap of a new tab that loaded ``url`` once (see the module's docstring)."""
    tab = new_tab("chromium", b)
    try:
        load("chromium", b, tab, url, "heap", settle_ms, None)
        return chromium_gc_heap(lambda m: tab.send(m, timeout=60))
    finally:
        tab.close()


def summarise(browser: str, size: int, page: str, jb: int, samples: dict) -> dict:
    """One row: medians per configuration; ratios and heap differences to "none" per round (the
    loads of one round alternate side by side), then their median."""
    row = {"browser": browser, "entries": size, "page": page, "json_bytes": jb}
    for name in (*CONFIGS, COLD):
        s = samples[(name, page)]

        def med(k, s=s):
            vals = [v for v in s.get(k, []) if v is not None]
            return round(statistics.median(vals), 1) if vals else None

        def most(k, s=s):
            vals = [v for v in s.get(k, []) if v is not None]
            return max(vals) if vals else None
        row[name] = {"last_ms": med("last_ms"), "max_task_ms": most("max_task_ms"),
                     "any_task_ms": most("any_task_ms"), "ext_ms": most("ext_ms"),
                     "before_fcp_ms": most("before_fcp_ms"), "before_fcp_over_50": most("before_fcp_over_50"),
                     "after_fcp_ms": most("after_fcp_ms"),
                     "first_paint_of_final_pct": med("first_paint_of_final_pct"),
                     "changes": med("changes"), "text_hashes": sorted(set(s.get("text_hash", []))),
                     "dcl_ms": med("dcl_ms"), "load_ms": med("load_ms"), "fcp_ms": med("fcp_ms"),
                     "first_paint_words": med("first_paint_words"), "first_paint_pct": med("first_paint_pct"),
                     "heap_bytes": med("heap_bytes"), "fresh_heap_bytes": med("fresh_heap_bytes"),
                     "process_bytes": med("process_bytes"),
                     "ext_process_bytes": med("ext_process_bytes")}
        if name == "none":
            continue
        n = samples[("none", page)]
        for k in ("dcl_ms", "load_ms"):
            pairs = list(zip(s.get(k, []), n.get(k, []), strict=True)) if s.get(k) else []
            row[name][k.replace("_ms", "_vs_none")] = round(statistics.median(
                [x / max(1e-9, y) for x, y in pairs]), 2) if pairs else None
        if name not in REPLACEMENT_CONFIGS:
            continue  # the A/A control: its timings only
        for k, over in (("heap_bytes", "heap_over_none"), ("fresh_heap_bytes", "fresh_heap_over_none"),
                        ("process_bytes", "process_over_none"),
                        ("ext_process_bytes", "ext_process_over_none")):
            pairs = [(x, y) for x, y in zip(s.get(k, []), n.get(k, []), strict=True) if x is not None and y is not None]
            row[name][over] = int(statistics.median([x - y for x, y in pairs])) if pairs else None
    # The same final text, every round: both did the same replacements.
    row["same_text"] = row["ours"]["text_hashes"] == row["reference"]["text_hashes"] and len(row["ours"]["text_hashes"]) == 1
    last_o, last_r = row["ours"]["last_ms"], row["reference"]["last_ms"]
    row["ratio"] = round(last_o / max(1e-9, last_r), 2) if last_o is not None and last_r is not None else None
    return row


def start_browser(browser: str, artifacts: Path, extension=None) -> tuple:
    """(browser object, trace prefix) of a browser started with ``extension`` (a directory) or
    none; the prefix (chrome-extension://<id>/) only for an extension in Chromium."""
    b = (browsers.Chromium if browser == "chromium" else browsers.Firefox)(None, artifacts)
    b.start()
    if extension is None:
        return b, None
    if browser == "chromium":
        return b, f"chrome-extension://{b.load_unpacked(extension)}/"
    b.install_extension(extension)
    return b, None


def start_reference(browser: str, artifacts: Path, label: str, vocab: dict, workdir: Path):
    """(browser object, trace prefix) of the token-and-map reference."""
    return start_browser(browser, artifacts / label, reference_extension(workdir / f"reference-{browser}", vocab, browser))


def start_none(browser: str, artifacts: Path, label: str):
    return start_browser(browser, artifacts / label)[0]


def new_tab(browser: str, b):
    tab = b.new_tab("about:blank")
    if browser == "chromium":
        tab.send("HeapProfiler.enable")
    return tab


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


@contextlib.contextmanager
def ours(browser: str, label: str, bin_dir, artifacts: Path, vocab: dict):
    """Our whole extension: an e2e run (its own home), the host installed, ``vocab`` imported
    with the CLI, the browser started (the run's ``b``). Closed and removed afterwards, also
    when a step fails."""
    for name in ("extension-bridge", "extension-bridge-host"):  # before the run makes its folder
        if not (Path(bin_dir) / name).is_file():
            raise browsers.E2EError(f"{Path(bin_dir) / name} is missing: build it with scripts/release-build.sh "
                                    "(or name another folder with --bin-dir)")
    run = e2e.Run(browser, label, Path(bin_dir), artifacts, log)
    try:
        values = run.dir / "values.json"
        values.write_text(json.dumps({"extensionEnabled": True, "vocabulary": vocab}))
        run.install()
        run.cli(["import", str(values)])
        run.start_browser()
        yield run
    finally:
        run.close()
        run.cleanup(False)


def baseline_service_worker(a, site, artifacts: Path) -> dict:
    """The service worker's heap with an empty vocabulary: after one page load, median of three."""
    with ours("chromium", "ours-empty", a.bin_dir, artifacts, {}) as r:
        tab = new_tab("chromium", r.b)
        heaps = []
        for i in range(3):
            load("chromium", r.b, tab, site.url(PAGES[0]) + ("?eb=time" if i % 2 == 0 else "?eb=last"),
                 "time" if i % 2 == 0 else "last", a.settle_ms, None)
            heaps.append(service_worker_heap(r.b)[0])
        return {"heap_bytes": int(statistics.median(heaps)), "samples": heaps}


def run_size(a, browser: str, size: int, vocab: dict, site, artifacts: Path, sw_base) -> tuple:
    jb = json_bytes(vocab)
    rows, sw = [], None
    with contextlib.ExitStack() as stack:  # every browser closed, ours's run removed, on every path
        r = stack.enter_context(ours(browser, f"ours-{browser}-{size}", a.bin_dir, artifacts, vocab))
        ref, ref_prefix = start_reference(browser, artifacts, f"ref-{browser}-{size}", vocab, r.dir)
        stack.callback(ref.close)
        opened = {"ours": r.b, "reference": ref}
        for name in ("none", "none-2"):
            opened[name] = start_none(browser, artifacts, f"{name}-{browser}-{size}")
            stack.callback(opened[name].close)
        real = [k for k, v in vocab.items() if not k.startswith("zq")]
        paint_expr = FIRST_PAINT_RESULT_JS.replace("KEYS", json.dumps(real)).replace(
            "VALUES", json.dumps([vocab[k] for k in real]))
        tabs = {name: (b, new_tab(browser, b)) for name, b in opened.items()}
        prefixes = {"ours": f"chrome-extension://{e2e.CHROMIUM_ID}/" if browser == "chromium" else None,
                    "reference": ref_prefix, "none": None}
        samples = collections.defaultdict(lambda: collections.defaultdict(list))
        sw_heaps, sw_restarted = [], False
        for rnd in range(a.rounds + 1):  # round 0 warms caches and is not counted
            heap_round = 1 <= rnd <= HEAP_ROUNDS  # memory moves little: the first rounds only
            for page in PAGES:
                for kind, configs in (("time", CONFIGS), ("last", REPLACEMENT_CONFIGS)):
                    order = configs[rnd % len(configs):] + configs[:rnd % len(configs)]  # each first in turn
                    for name in order:
                        b, tab = tabs[name]
                        m = measure(browser, b, tab, f"{site.url(page)}?eb={kind}", kind, a.settle_ms,
                                    paint_expr, prefixes[name] if kind == "last" else None, heap=heap_round)
                        if name == "ours" and kind == "last" and browser == "chromium" and heap_round:
                            heap, restarted = service_worker_heap(b)
                            sw_heaps.append(heap)
                            sw_restarted = sw_restarted or restarted
                        if rnd > 0:
                            for k, v in m.items():
                                samples[(name, page)][k].append(v)
                # Cold: ours once more, its background and host stopped first (paired with this round's "none").
                stop_background(browser, r)
                m = measure(browser, r.b, tabs["ours"][1], f"{site.url(page)}?eb=time", "time", a.settle_ms, paint_expr)
                if rnd > 0:
                    for k, v in m.items():
                        samples[(COLD, page)][k].append(v)
                if browser == "chromium" and heap_round:
                    for name in REPLACEMENT_CONFIGS:
                        heap = fresh_tab_heap(tabs[name][0], f"{site.url(page)}?eb=heap", a.settle_ms)
                        samples[(name, page)]["fresh_heap_bytes"].append(heap)
        for page in PAGES:
            row = summarise(browser, size, page, jb, samples)
            rows.append(row)
            log(json.dumps(row))
        if sw_heaps:
            heap = int(statistics.median(sw_heaps))
            base = sw_base["heap_bytes"] if sw_base else None
            sw = {"browser": browser, "entries": size, "json_bytes": jb, "heap_bytes": heap,
                  "empty_heap_bytes": base, "over_empty": heap - base if base is not None else None,
                  "started_by_harness": sw_restarted}
            log(json.dumps(sw))
    return rows, sw


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bin-dir", default=str(REPO / ".build" / "release"))
    p.add_argument("--rounds", type=int, default=11, help="counted rounds (round 0 warms up and is not counted)")
    p.add_argument("--sizes", default=",".join(map(str, SIZES)))
    p.add_argument("--browsers", default=",".join(BROWSERS), help="chromium,firefox or one of them")
    p.add_argument("--settle-ms", type=int, default=1000)
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
    words = frequent_words()
    artifacts = Path(tempfile.mkdtemp(prefix="eb-page-bench-"))
    out = {"pages": PAGES, "rounds": a.rounds, "rows": [], "service_worker": []}
    try:
        with HookServer(DOCS) as site:
            for browser in a.browsers.split(","):
                sw_base = baseline_service_worker(a, site, artifacts) if browser == "chromium" else None
                if sw_base:
                    out["service_worker_empty"] = sw_base
                    log(json.dumps({"service_worker_empty": sw_base}))
                for size in map(int, a.sizes.split(",")):
                    rows, sw = run_size(a, browser, size, user_vocabulary(words, size), site, artifacts, sw_base)
                    out["rows"] += rows
                    if sw:
                        out["service_worker"].append(sw)
    except browsers.E2EError as error:  # a browser, its driver or a binary is missing: what to do, no traceback
        sys.exit(f"page_bench: {error}")
    finally:
        shutil.rmtree(artifacts, ignore_errors=True)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
