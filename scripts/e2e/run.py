#!/usr/bin/env python3
"""ExtensionBridge end-to-end tests in real, headless Chromium and Firefox ESR.

    scripts/e2e/run.py [--browser chromium|firefox|all] [--repeat N] [--artifacts DIR]
                       [--bin-dir DIR] [--keep-artifacts] [--only NAME[,NAME...]]

Run it with the venv python from scripts/e2e/setup.sh (Firefox needs marionette_driver);
scripts/e2e/run.sh does setup, build and this. Each browser run gets a fresh temporary folder
holding copies of the two binaries (bin/), HOME (home/), the group container
(EXTENSION_BRIDGE_CONTAINER=container/) and the browser profile, installs the host with
`extension-bridge install` and checks the numbered behaviours below (see README.md). The last
line printed is exactly `N passed, N failed`; the exit status is 1 if anything failed.

A failing run keeps its folder under ARTIFACTS/<browser>-<n>/ (browser stderr with the host's
stderr for Chromium, the Browser Console for Firefox, screenshots, CLI output); a passing run's
folder is removed unless --keep-artifacts.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Callable, Optional

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE))

from browsers import (  # noqa: E402
    BrowserError, Chromium, Firefox, TestServer, WaitTimeout, chromium_extension_id, wait_until,
)

EXTENSION_DIR = REPO / "extension"
PAGES_DIR = HERE / "pages"
IDS = json.loads((EXTENSION_DIR / "extension-id.json").read_text())
HOST_NAME = IDS["hostName"]
CHROMIUM_ID = IDS["chromium"]
FIREFOX_ID = IDS["firefox"]
OTHER_CHROMIUM_ID = "a" * 32  # a well-formed ID that is not ours
OTHER_FIREFOX_ID = "someone-else@example.org"

TITLE_A = "ExtensionBridge test page A"
TITLE_B = "ExtensionBridge test page B (secret)"

# What page A looks like, untouched, and with {blue: blauw}. Regions that must never change are
# checked separately (script, textarea, input, code, contenteditable).
PAGE_A_ORIGINAL = {
    "title": "Blue and red",
    "p1": "The Blue sky is blue and BLUE.",
    "p2": "A red car, a blueberry and a bluebird.",
}
PAGE_A_BLAUW = {
    "title": "Blauw and red",
    "p1": "The Blauw sky is blauw and BLAUW.",
    "p2": "A red car, a blueberry and a bluebird.",
}
PAGE_A_BLAUW_ROOD = {
    "title": "Blauw and rood",
    "p1": "The Blauw sky is blauw and BLAUW.",
    "p2": "A rood car, a blueberry and a bluebird.",
}
PAGE_A_ROOD = {
    "title": "Blue and rood",
    "p1": "The Blue sky is blue and BLUE.",
    "p2": "A rood car, a blueberry and a bluebird.",
}
UNTOUCHED_JS = """({
  script: document.getElementById('s1').textContent,
  textareaText: document.getElementById('ta').textContent,
  textareaValue: document.getElementById('ta').value,
  input: document.getElementById('in').value,
  inputAttr: document.getElementById('in').getAttribute('value'),
  code: document.getElementById('code').textContent,
  editable: document.getElementById('ce').textContent,
})"""
UNTOUCHED = {
    "script": 'window.scriptText = "blue in a script";',
    "textareaText": "blue in a textarea",
    "textareaValue": "blue in a textarea",
    "input": "blue in an input",
    "inputAttr": "blue in an input",
    "code": "blue in code",
    "editable": "blue in an editable region",
}
TEXTS_JS = "({" + ", ".join(f"{k}: document.getElementById('{k}').textContent" for k in PAGE_A_ORIGINAL) + "})"

# Where the popup says what is wrong.
POPUP_PROBLEM_JS = """(() => {
  const t = document.querySelector('#host-status .problem-title');
  const d = document.querySelector('#host-status .problem-detail');
  const c = document.querySelector('#host-status .command');
  return t && t.textContent ? {title: t.textContent, detail: d.textContent, command: c.textContent} : null;
})()"""
POPUP_CONNECTED_JS = """(() => {
  const ok = document.querySelector('#host-status .ok');
  return ok ? {version: document.querySelector('#host-status .host-version').textContent,
               transport: document.querySelector('#host-status .transport').textContent} : null;
})()"""

# The popup's English texts for the problems (extension/_locales/en/messages.json).
_MESSAGES = json.loads((EXTENSION_DIR / "_locales" / "en" / "messages.json").read_text())


def msg(key: str) -> str:
    return _MESSAGES[key]["message"]


# The browsers' own words (see README.md, "Findings").
NOT_FOUND_TEXT = {
    "chromium": "Specified native messaging host not found.",
    "firefox": f"No such native application {HOST_NAME}",
}
FORBIDDEN = {
    # Chromium tells "forbidden" apart; Firefox reports a manifest without our ID as missing.
    "chromium": ("forbidden", "Access to the specified native messaging host is forbidden."),
    "firefox": ("not_found", f"No such native application {HOST_NAME}"),
}


def compact(value) -> str:
    """JSON as JS's JSON.stringify writes it (no spaces), for comparisons inside the page."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class CheckFailed(AssertionError):
    pass


def expect(cond: bool, what: str) -> None:
    if not cond:
        raise CheckFailed(what)


def expect_eq(actual, expected, what: str) -> None:
    if actual != expected:
        raise CheckFailed(f"{what}:\n    expected {expected!r}\n    actual   {actual!r}")


# --------------------------------------------------------------------------- one browser run


class Run:
    """One browser, one fresh world: binaries, HOME, container, profile, test server."""

    def __init__(self, browser: str, label: str, bin_src: Path, artifacts: Path, log: Callable[[str], None]):
        self.browser = browser
        self.label = label
        self.log = log
        self.dir = Path(tempfile.mkdtemp(prefix=f"e2e-{browser}-"))
        self.artifacts = artifacts / label
        if self.artifacts.exists():
            shutil.rmtree(self.artifacts)
        self.artifacts.mkdir(parents=True)
        self.bin = self.dir / "bin"
        self.bin.mkdir()
        for name in ("extension-bridge", "extension-bridge-host"):
            shutil.copy2(bin_src / name, self.bin / name)
        self.cli_path = self.bin / "extension-bridge"
        self.host_path = self.bin / "extension-bridge-host"
        self.home = self.dir / "home"
        self.home.mkdir()
        self.container = self.dir / "container"
        self.profile = self.dir / "profile"
        self.env = dict(os.environ)
        for k in list(self.env):
            if k.startswith("EXTENSION_BRIDGE_"):
                del self.env[k]
        self.env.update({"HOME": str(self.home), "EXTENSION_BRIDGE_CONTAINER": str(self.container)})
        self.cli_log = self.artifacts / "cli.log"
        self.b = None  # the browser object
        self.tabs: dict = {}

    # ---- CLI ----

    def cli(self, args: list, check: bool = True, quiet: bool = False) -> subprocess.CompletedProcess:
        t0 = time.monotonic()
        p = subprocess.run([str(self.cli_path), *args], env=self.env, capture_output=True, text=True,
                           timeout=60, cwd=str(self.dir))
        if not quiet:
            with open(self.cli_log, "a") as fh:
                fh.write(f"$ extension-bridge {' '.join(args)}\n{p.stdout}{p.stderr}"
                         f"[exit {p.returncode}{' = killed by signal %d' % -p.returncode if p.returncode < 0 else ''},"
                         f" {time.monotonic() - t0:.2f}s]\n\n")
        if check and p.returncode != 0:
            raise CheckFailed(f"`extension-bridge {' '.join(args)}` exited {p.returncode}: {p.stderr.strip() or p.stdout.strip()}")
        return p

    def drain(self) -> list:
        """`queue drain --json`: one JSON object per line."""
        out = self.cli(["queue", "drain", "--json"]).stdout
        return [json.loads(line) for line in out.splitlines() if line.strip()]

    def selection_args(self) -> list:
        if self.browser == "chromium":
            return ["--browser", "chromium", "--user-data-dir", str(self.profile)]
        return ["--browser", "firefox"]  # HOME is ours: $HOME/.mozilla/native-messaging-hosts/

    def install(self, extension_id: Optional[str] = None) -> None:
        args = ["install", *self.selection_args(), "--extension-dir", str(EXTENSION_DIR)]
        if extension_id:
            args += ["--extension-id", extension_id]
        self.cli(args)
        expect(self.manifest_path().is_file(), f"install wrote no host manifest at {self.manifest_path()}")

    def install_other_extension_only(self) -> None:
        """Install for a different build of the extension only (another key and gecko id):
        `install --extension-id` adds to the bundled extension's IDs, so point --extension-dir at
        a copy whose manifest names the other IDs."""
        other = self.dir / "other-extension"
        other.mkdir(exist_ok=True)
        manifest = json.loads((EXTENSION_DIR / "manifest.json").read_text())
        key = bytearray(base64.b64decode(manifest["key"]))
        key[-8] ^= 0x55  # another (well-formed base64) key, so another Chromium ID
        manifest["key"] = base64.b64encode(bytes(key)).decode()
        manifest["browser_specific_settings"]["gecko"]["id"] = OTHER_FIREFOX_ID
        (other / "manifest.json").write_text(json.dumps(manifest, indent=2))
        other_id = chromium_extension_id(manifest["key"])
        expect(other_id != CHROMIUM_ID, "the other key gives another ID")
        (other / "extension-id.json").write_text(json.dumps(
            {"chromium": other_id, "firefox": OTHER_FIREFOX_ID, "hostName": HOST_NAME}))
        self.cli(["install", *self.selection_args(), "--extension-dir", str(other)])
        body = json.loads(self.manifest_path().read_text())
        names = json.dumps(body.get("allowed_origins", body.get("allowed_extensions")))
        expect(CHROMIUM_ID not in names and FIREFOX_ID not in names, f"manifest names only the other build: {names}")

    def uninstall(self) -> None:
        self.cli(["uninstall", *self.selection_args()])
        expect(not self.manifest_path().exists(), f"uninstall left {self.manifest_path()}")

    def manifest_path(self) -> Path:
        if self.browser == "chromium":
            return self.profile / "NativeMessagingHosts" / f"{HOST_NAME}.json"
        return self.home / ".mozilla" / "native-messaging-hosts" / f"{HOST_NAME}.json"

    def doctor(self) -> subprocess.CompletedProcess:
        args = ["doctor", *self.selection_args(), "--extension-dir", str(EXTENSION_DIR)]
        return self.cli(args, check=False)

    def host_pids(self) -> list:
        """Running copies of *our* host binary (this run's bin/), found through /proc."""
        pids = []
        target = str(self.host_path)
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                exe = os.readlink(entry / "exe")
            except OSError:
                continue
            if exe == target or exe == target + " (deleted)":
                pids.append(int(entry.name))
        return pids

    def kill_hosts(self) -> int:
        n = 0
        for pid in self.host_pids():
            try:
                os.kill(pid, 15)
                n += 1
            except ProcessLookupError:
                pass
        wait_until(lambda: not self.host_pids(), 10, "our host processes to exit", 0.05)
        return n

    # ---- browser ----

    def start_browser(self):
        if self.browser == "chromium":
            self.b = Chromium(EXTENSION_DIR, self.artifacts, user_data_dir=self.profile, env=self.env)
            self.b.start()
            eid = self.b.wait_for_extension()
            expect_eq(eid, CHROMIUM_ID, "Chromium extension ID (from the manifest key)")
        else:
            self.b = Firefox(EXTENSION_DIR, self.artifacts, home_dir=self.home, env=self.env)
            self.b.start()
            self.b.install_extension()
        return self.b

    def open(self, name: str, url: str):
        """A new tab (it becomes the active one) showing ``url``."""
        tab = self.b.new_tab(url)
        self.tabs[name] = tab
        return tab

    def content_eval(self, tab, expression: str):
        return tab.content_script_eval(expression)

    def runtime(self) -> str:
        return "browser.runtime" if self.browser == "firefox" else "chrome.runtime"

    def popup(self):
        if self.browser == "chromium":
            return self.b.open_extension_page("popup/popup.html")
        return self.b.open_extension_page("popup/popup.html")

    def screenshot_all(self, prefix: str) -> None:
        try:
            self.b.screenshot_all(prefix)
        except Exception:  # noqa: BLE001 - best effort
            pass

    def close(self) -> None:
        try:
            if self.b is not None:
                if self.browser == "chromium":
                    try:
                        self.b.save_console()
                    except Exception:  # noqa: BLE001
                        pass
                self.b.close()
        finally:
            # Hosts are started by the browser (Chromium puts them in their own process group);
            # they exit on EOF, but make sure none of ours is left.
            for pid in self.host_pids():
                try:
                    os.kill(pid, 9)
                except ProcessLookupError:
                    pass

    def cleanup(self, keep: bool) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)
        if not keep:
            shutil.rmtree(self.artifacts, ignore_errors=True)


# --------------------------------------------------------------------------- the checks


def check_disabled(r: Run, site) -> None:
    """1. disabled (the default): the page is unchanged."""
    tab = r.open("A", site.url("index.html"))
    rt = r.runtime()
    # The content script's own question, asked again from its world: proves it is running and
    # that the background has answered it (the answer is what the content script acted on).
    reply = r.content_eval(tab, f"{rt}.sendMessage({{type: 'content_request:enabled'}})")
    expect_eq(reply, {"background_response:enabled": False}, "content_request:enabled while disabled")
    # Switched off, no vocabulary reaches the content script ({blue: blauw} is
    # stored): its page state carries no entries, and its getContent no rules.
    state = r.content_eval(tab, f"{rt}.sendMessage({{type: 'getPageState'}})")
    expect_eq((state.get("enabled"), state.get("compiled"), state.get("count"), state.get("rulesVersion")), (False, None, 0, ""),
              "the content script's page state while off: no rules (compiled), no rules version")
    content = r.content_eval(tab, f"{rt}.sendMessage({{type: 'getContent'}})")
    expect(content.get("status") == "success" and "rules" not in content and "blauw" not in json.dumps(content),
           f"the content script's getContent carries no rules: {content}")
    time.sleep(0.7)  # give a (wrong) replacement time to show
    expect_eq(tab.evaluate(TEXTS_JS), PAGE_A_ORIGINAL, "page text while disabled")
    expect_eq(tab.evaluate(UNTOUCHED_JS), UNTOUCHED, "script/textarea/input/code/editable while disabled")


def check_enabled_on_load(r: Run, site) -> None:
    """2. enabled + vocabulary: on load the page shows the replacements (case kept); script,
    textarea, input, code and contenteditable text is untouched."""
    r.cli(["write", "extensionEnabled", "-bool", "true"])
    r.cli(["write", "vocabulary", "-dict", "blue", "blauw"])
    tab = r.tabs["A"]
    tab.navigate(site.url("index.html"))  # a fresh load of the same page
    t0 = time.monotonic()
    tab.wait_for(f"JSON.stringify({TEXTS_JS}) === {json.dumps(compact(PAGE_A_BLAUW))}", timeout=15)
    r.log(f"    replaced {time.monotonic() - t0:.2f}s after load")
    expect_eq(tab.evaluate(TEXTS_JS), PAGE_A_BLAUW, "page text with {blue: blauw}")
    expect_eq(tab.evaluate(UNTOUCHED_JS), UNTOUCHED, "script/textarea/input/code/editable with {blue: blauw}")
    # Text added later is handled by the MutationObserver.
    tab.evaluate("document.getElementById('late').textContent = 'Late blue text', true")
    tab.wait_for("document.getElementById('late').textContent === 'Late blauw text'", timeout=10)


def check_live_update(r: Run, site) -> None:
    """3. the CLI changes the vocabulary with the page open → the page updates without a reload
    (the host's pageState event on the port → background → tabs)."""
    tab = r.tabs["A"]
    tab.evaluate("window.__e2eMarker = 'same document', true")
    t0 = time.monotonic()
    r.cli(["write", "vocabulary", "-dict", "blue", "blauw", "red", "rood"])
    tab.wait_for(f"JSON.stringify({TEXTS_JS}) === {json.dumps(compact(PAGE_A_BLAUW_ROOD))}", timeout=15)
    r.log(f"    page updated {time.monotonic() - t0:.2f}s after the CLI write")
    expect_eq(tab.evaluate("window.__e2eMarker"), "same document", "page was not reloaded")
    expect_eq(tab.evaluate(UNTOUCHED_JS), UNTOUCHED, "untouched regions after the live update")
    # Disabling from the CLI restores the page exactly, live as well.
    r.cli(["write", "extensionEnabled", "-bool", "false"])
    tab.wait_for(f"JSON.stringify({TEXTS_JS}) === {json.dumps(compact(PAGE_A_ORIGINAL))}", timeout=15)
    r.cli(["write", "extensionEnabled", "-bool", "true"])
    tab.wait_for(f"JSON.stringify({TEXTS_JS}) === {json.dumps(compact(PAGE_A_BLAUW_ROOD))}", timeout=15)
    measure_page_follows_write(r, tab)


PAGE_FOLLOW_TARGET_P50_MS = 50


def measure_page_follows_write(r: Run, tab, rounds: int = 10) -> None:
    """How long after a CLI write the open page shows the new vocabulary: a MutationObserver
    in the page notes Date.now() when the text changes; the write is the new suite file's
    modification time (written before the CLI's rename, fsync and exit, so this errs long).
    One system clock. Prints p50 and max; in Chromium, fails past the target p50."""
    latencies = []
    for i in range(rounds):
        word = f"rood{i}"
        tab.evaluate(f"""(() => {{ window.__e2eChangedAt = null;
          const target = {json.dumps(word)};
          const seen = () => document.body.textContent.includes(target);
          const obs = new MutationObserver(() => {{
            if (seen() && window.__e2eChangedAt === null) {{ window.__e2eChangedAt = Date.now(); obs.disconnect(); }}
          }});
          obs.observe(document.body, {{subtree: true, childList: true, characterData: true}});
          return true; }})()""")
        r.cli(["write", "vocabulary", "-dict", "blue", "blauw", "red", word])
        written = os.stat(r.container / "suite.json").st_mtime_ns / 1e6
        changed = tab.wait_for("window.__e2eChangedAt", timeout=15, interval=0.05)
        latencies.append(changed - written)
    # Leave the vocabulary as the checks after this one expect it.
    r.cli(["write", "vocabulary", "-dict", "blue", "blauw", "red", "rood"])
    tab.wait_for(f"JSON.stringify({TEXTS_JS}) === {json.dumps(compact(PAGE_A_BLAUW_ROOD))}", timeout=15)
    latencies.sort()
    p50 = latencies[len(latencies) // 2]
    r.log(f"    page follows a CLI write: p50 {p50:.0f} ms, max {latencies[-1]:.0f} ms over {rounds} writes "
          f"(target p50 <= {PAGE_FOLLOW_TARGET_P50_MS} ms)")
    # The target is Chromium's; Firefox's figure is printed for comparison.
    if r.browser == "chromium":
        expect(p50 <= PAGE_FOLLOW_TARGET_P50_MS, f"page follows a CLI write in {p50:.0f} ms p50, over the target")


def popup_save(r: Run, page_tab, popup) -> dict:
    """Brings ``page_tab`` to the front, presses the popup's "Save this page" (the popup is open
    in a background tab of the same window, so its tabs.query({active, currentWindow}) finds the
    page, as in the real toolbar popup) and returns the result line."""
    page_tab.activate()
    api = "browser" if r.browser == "firefox" else "chrome"
    # Without the `tabs` permission tab.url is hidden; "not the popup's own tab" is what we can see.
    popup.wait_for(
        f"Promise.all([{api}.tabs.query({{active: true, currentWindow: true}}), {api}.tabs.getCurrent()])"
        ".then(([t, me]) => t.length === 1 && t[0].id !== me.id)", timeout=10)
    popup.evaluate("document.getElementById('save-result').replaceChildren(), "
                   "document.getElementById('save-result').className = 'result', true")
    popup.click("#save")
    return popup.wait_for("""(() => { const r = document.getElementById('save-result');
      return (r.classList.contains('success') || r.classList.contains('error'))
        ? {ok: r.classList.contains('success'), text: r.textContent.trim()} : null; })()""", timeout=15)


def check_popup_save(r: Run, site) -> None:
    """4. the popup's "Save this page" → `extension-bridge queue drain --json` has the item with
    the page's URL and title."""
    popup = r.popup()
    r.tabs["popup"] = popup
    connected = popup.wait_for(POPUP_CONNECTED_JS, timeout=15)
    expect(bool(connected.get("version")), f"popup shows the connected host: {connected}")
    url_a = site.url("index.html")
    result = popup_save(r, r.tabs["A"], popup)
    expect(result["ok"], f"popup save result: {result}")
    expect(url_a in result["text"], f"popup save result names the URL: {result}")
    popup.wait_for("document.getElementById('queue-count').textContent === '1'", timeout=10)
    items = r.drain()
    expect(len(items) == 1, f"queue drain --json: one item expected, got {items!r}")
    item = items[0]
    expect_eq(item.get("url"), url_a, "drained item url")
    expect_eq(item.get("title"), TITLE_A, "drained item title")
    content = str(item.get("content", ""))
    expect("Blauw sky" in content or "Blue sky" in content, f"drained item content is the page text: {content[:200]!r}")
    expect_eq(r.drain(), [], "a second drain is empty")


def check_legacy(r: Run, site) -> None:
    """5. the legacy path: content_request:enabled → background_response:enabled (from the
    content script's world; host request {"message":"request:enabled_status"})."""
    rt = r.runtime()
    tab = r.tabs["A"]
    reply = r.content_eval(tab, f"{rt}.sendMessage({{type: 'content_request:enabled'}})")
    expect_eq(reply, {"background_response:enabled": True}, "content_request:enabled while enabled")
    r.cli(["write", "extensionEnabled", "-bool", "false"])
    reply = r.content_eval(tab, f"{rt}.sendMessage({{type: 'content_request:enabled'}})")
    expect_eq(reply, {"background_response:enabled": False}, "content_request:enabled after disable")
    r.cli(["write", "extensionEnabled", "-bool", "true"])
    reply = r.content_eval(tab, f"{rt}.sendMessage({{type: 'content_request:enabled'}})")
    expect_eq(reply, {"background_response:enabled": True}, "content_request:enabled after enable")
    tab.wait_for(f"JSON.stringify({TEXTS_JS}) === {json.dumps(compact(PAGE_A_BLAUW_ROOD))}", timeout=15)


PAGE_PROBE_JS = """(async () => {
  const B = %(b)s;
  const seen = [];
  window.addEventListener('message', (e) => seen.push(e.data));
  const asks = [{type: 'getContent', url: B}, {action: 'getContent', url: B},
                {message: 'request:enabled_status'}, {type: 'saveContent', url: B, content: 'x'}];
  for (const m of asks) window.postMessage(m, '*');
  let direct = 'no runtime API on the page';
  const rt = globalThis.chrome && globalThis.chrome.runtime;
  if (rt && typeof rt.sendMessage === 'function') {
    try {
      const reply = await rt.sendMessage(%(ext)s, {type: 'getContent', url: B});
      direct = 'reply: ' + JSON.stringify(reply === undefined ? null : reply);
    } catch (e) { direct = 'threw: ' + String(e && e.message || e); }
  }
  await new Promise((r) => setTimeout(r, 800));
  return {replies: seen.length - asks.length, seen: JSON.stringify(seen), direct,
          browserGlobal: typeof globalThis.browser,
          leaked: document.documentElement.outerHTML.includes('zebralantern')};
})()"""


def check_isolation(r: Run, site) -> None:
    """6. a page using window.postMessage, or a content script asking for another URL's saved
    content, gets nothing."""
    rt = r.runtime()
    url_b = site.url("other.html")
    tab_b = r.open("B", url_b)
    result = popup_save(r, tab_b, r.tabs["popup"])
    expect(result["ok"], f"saving page B from the popup: {result}")
    # B's own content script sees B's item: the data exists and is reachable the legitimate way.
    own_b = r.content_eval(tab_b, f"{rt}.sendMessage({{type: 'getContent'}})")
    expect(own_b.get("status") == "success" and len(own_b.get("items", [])) == 1,
           f"page B's content script sees its own saved item: {own_b}")
    expect_eq(own_b["items"][0].get("title"), TITLE_B, "B's item title")

    tab_a = r.tabs["A"]
    asks = {
        "getContent url=B": f"{rt}.sendMessage({{type: 'getContent', url: {json.dumps(url_b)}}})",
        "getContent url=B#x": f"{rt}.sendMessage({{type: 'getContent', url: {json.dumps(url_b + '#x')}}})",
        "saveContent": f"{rt}.sendMessage({{type: 'saveContent', url: {json.dumps(url_b)}, content: 'x'}})",
        "queueCount": f"{rt}.sendMessage({{type: 'queueCount'}})",
        "setSettings": f"{rt}.sendMessage({{type: 'setSettings', settings: {{enabled: false}}}})",
        "hostStatus": f"{rt}.sendMessage({{type: 'hostStatus'}})",
    }
    for what, expr in asks.items():
        reply = r.content_eval(tab_a, expr)
        expect(isinstance(reply, dict) and reply.get("status") == "error" and reply.get("code") == "forbidden_sender",
               f"page A's content script, {what}: refused expected, got {reply!r}")
    own_a = r.content_eval(tab_a, f"{rt}.sendMessage({{type: 'getContent'}})")
    expect(own_a.get("status") == "success", f"A's own getContent works: {own_a}")
    expect_eq(own_a.get("url"), site.url("index.html"), "A's getContent is about A")
    expect_eq(own_a.get("items"), [], "A's getContent lists no item of B")
    expect("zebralantern" not in json.dumps(own_a), "B's content does not leak into A's reply")

    ext = CHROMIUM_ID if r.browser == "chromium" else FIREFOX_ID
    probe = tab_a.evaluate(PAGE_PROBE_JS % {"b": json.dumps(url_b), "ext": json.dumps(ext)}, timeout=15)
    r.log(f"    page probe: postMessage replies={probe['replies']}, runtime.sendMessage from the page: {probe['direct']}")
    expect_eq(probe["replies"], 0, f"window.postMessage answers (seen: {probe['seen']})")
    expect(not probe["leaked"], "B's secret appears in page A")
    expect(probe["direct"] == "no runtime API on the page" or probe["direct"].startswith("threw"),
           f"page → extension runtime.sendMessage: {probe['direct']}")
    expect_eq(probe["browserGlobal"], "undefined", "the page has no `browser` global")
    # The settings were not changed by A's refused setSettings.
    expect_eq(tab_a.evaluate(TEXTS_JS), PAGE_A_BLAUW_ROOD, "page A still replaced")
    r.drain()


PARTS_BEFORE = {
    "top": ["blue on top"], "reparsed": ["blue in a re-parsed table"], "open": ["blue in open shadow", "blue in shadow code"], "nested": ["blue nested"],
    "closed": ["blue in closed shadow"], "declared": ["blue declared"], "late": [],
    "same": ["blue in same-origin frame", "blue in frame textarea"], "blank": ["blue in blank frame"],
}
PARTS_ON_LOAD = {
    "top": ["blauw on top"], "reparsed": ["blauw in a re-parsed table"], "open": ["blauw in open shadow", "blue in shadow code"], "nested": ["blauw nested"],
    # closed shadow roots are out of reach (documented in extension/README.md)
    "closed": ["blue in closed shadow"], "declared": ["blauw declared"], "late": [],
    "same": ["blauw in same-origin frame", "blue in frame textarea"], "blank": ["blauw in blank frame"],
}
PARTS_LATER = {
    **PARTS_ON_LOAD,
    "open": ["blauw in open shadow", "blue in shadow code", "blauw added later to open shadow"],
    "late": ["blauw attached later", "blauw added later to late shadow"],
    "same": ["blauw in same-origin frame", "blue in frame textarea", "blauw added later in frame"],
    "blank": ["blauw in blank frame", "blauw added later in blank"],
}
PARTS_OFF = {
    **PARTS_BEFORE,
    "open": ["blue in open shadow", "blue in shadow code", "blue added later to open shadow"],
    "late": ["blue attached later", "blue added later to late shadow"],
    "same": ["blue in same-origin frame", "blue in frame textarea", "blue added later in frame"],
    "blank": ["blue in blank frame", "blue added later in blank"],
}


def wait_probe(tab, expected: dict, what: str, timeout: float = 15) -> None:
    seen = {}

    def matches():
        seen["v"] = tab.evaluate("probe()")
        return seen["v"] == expected
    try:
        wait_until(matches, timeout, what, 0.2)
    except WaitTimeout:
        raise CheckFailed(f"{what}:\n    expected {expected!r}\n    actual   {seen.get('v')!r}") from None


def check_every_part(r: Run, site) -> None:
    """8. open shadow roots (at parse time, declarative, nested, attached later), a same-origin
    frame and an about:blank frame written by script are rewritten, on load and when text is
    added later; code and textarea inside them stay; a closed shadow root stays out of reach;
    a table the page re-parses (outerHTML) after it was rewritten keeps the replacement;
    disabling restores all of it, the re-parsed copy included."""
    tab = r.open("parts", site.url("parts.html"))
    wait_probe(tab, PARTS_ON_LOAD, "every part replaced on load")
    tab.evaluate("later()")
    wait_probe(tab, PARTS_LATER, "a shadow root attached later and text added later everywhere")
    r.cli(["write", "extensionEnabled", "-bool", "false"])
    wait_probe(tab, PARTS_OFF, "disabling restores every part")
    r.cli(["write", "extensionEnabled", "-bool", "true"])
    wait_probe(tab, {**PARTS_LATER, "closed": ["blue in closed shadow"]}, "enabling again replaces every part")


def check_one_enabled_rule(r: Run, site) -> None:
    """9. "enabled" has one rule: extensionEnabled, the seed's
    user_defaults_suite_enabled only when extensionEnabled is not stored; a plain write of
    either key keeps the other in step. The legacy question and getPageState agree, live and
    after a reload."""
    tab = r.tabs["A"]
    rt = r.runtime()
    legacy_js = f"{rt}.sendMessage({{type: 'content_request:enabled'}})"
    state_js = f"{rt}.sendMessage({{type: 'getPageState'}}).then(s => s.enabled)"
    # The sequence: it used to leave the legacy reply false and getSettings true.
    r.cli(["write", "user_defaults_suite_enabled", "-bool", "false"])
    r.cli(["write", "extensionEnabled", "-bool", "true"])
    tab.navigate(site.url("index.html"))
    tab.wait_for(f"JSON.stringify({TEXTS_JS}) === {json.dumps(compact(PAGE_A_BLAUW_ROOD))}", timeout=15)
    expect_eq(r.content_eval(tab, legacy_js), {"background_response:enabled": True},
              "the legacy reply agrees with extensionEnabled")
    expect_eq(r.content_eval(tab, state_js), True, "getPageState follows the same rule")
    r.cli(["write", "user_defaults_suite_enabled", "-bool", "true"])
    r.cli(["write", "extensionEnabled", "-bool", "false"])
    tab.wait_for(f"JSON.stringify({TEXTS_JS}) === {json.dumps(compact(PAGE_A_ORIGINAL))}", timeout=15)
    tab.navigate(site.url("index.html"))
    expect_eq(r.content_eval(tab, state_js), False, "after reload: getPageState says disabled")
    expect_eq(r.content_eval(tab, legacy_js), {"background_response:enabled": False},
              "after reload: the legacy reply says disabled too")
    time.sleep(0.7)
    expect_eq(tab.evaluate(TEXTS_JS), PAGE_A_ORIGINAL, "after reload the page agrees with the live change")
    # Typed reads coerce as UserDefaults' bool(forKey:): the integer 1 is true.
    r.cli(["delete", "user_defaults_suite_enabled"])
    r.cli(["write", "extensionEnabled", "-int", "1"])
    tab.wait_for(f"JSON.stringify({TEXTS_JS}) === {json.dumps(compact(PAGE_A_BLAUW_ROOD))}", timeout=15)
    r.cli(["write", "extensionEnabled", "-bool", "true"])


BIG_ENTRIES = 150_000
BIG_PROBE = "wordnumber0 Wordnumber74999 WORDNUMBER149999 blue"
BIG_EXPECTED = "w0-replaced W74999-replaced W149999-REPLACED blauw"


def check_paged_vocabulary(r: Run, site) -> None:
    """10. a vocabulary over 5 MiB (150,000 entries, plus one entry too big for any page) reaches
    an open page live (the pageState event with page 0, the other pages by getPageState) and a reloaded one; the popup says
    that one entry could not be delivered."""
    words = {f"wordnumber{i}": f"w{i}-replaced" for i in range(BIG_ENTRIES)}
    words.update({"blue": "blauw", "red": "rood", "enormous": "x" * 1_100_000})
    document = {"extensionEnabled": True, "vocabulary": words}
    path = r.dir / "big-vocabulary.json"
    path.write_text(json.dumps(document))
    size = len(json.dumps(words).encode())
    expect(size > 5 * 1024 * 1024, f"the vocabulary is over 5 MiB ({size} bytes)")
    tab = r.tabs["A"]
    set_late = f"document.getElementById('late').textContent = {json.dumps(BIG_PROBE)}"
    t0 = time.monotonic()
    r.cli(["import", str(path)])
    tab.evaluate(set_late)
    tab.wait_for(f"document.getElementById('late').textContent === {json.dumps(BIG_EXPECTED)}", timeout=60)
    r.log(f"    live: {BIG_ENTRIES:,} entries applied {time.monotonic() - t0:.2f}s after the import")
    t0 = time.monotonic()
    tab.navigate(site.url("index.html"))
    tab.evaluate(set_late)
    tab.wait_for(f"document.getElementById('late').textContent === {json.dumps(BIG_EXPECTED)}", timeout=60)
    expect_eq(tab.evaluate(TEXTS_JS), PAGE_A_BLAUW_ROOD, "page A with the big vocabulary")
    r.log(f"    reload: applied {time.monotonic() - t0:.2f}s after navigation")
    popup = r.popup()
    try:
        rules = popup.wait_for("""(() => { const r = document.querySelector('#host-status .rules');
          const p = document.querySelector('#host-status .rules-problem');
          return r && r.textContent && p && p.textContent ? {rules: r.textContent, problem: p.textContent} : null; })()""",
                               timeout=15)
    finally:
        popup.close()
    expect(rules["rules"].replace(",", "").replace("\u202f", "").replace(".", "").startswith(str(BIG_ENTRIES + 2)),
           f"popup counts the entries: {rules}")
    expect_eq(rules["problem"], msg("rulesUndeliverable").replace("$COUNT$", "1"), "popup says what was not delivered")
    small = r.dir / "small-vocabulary.json"
    small.write_text(json.dumps({"extensionEnabled": True, "vocabulary": {"blue": "blauw", "red": "rood"}}))
    r.cli(["import", str(small)])
    tab.wait_for("document.getElementById('late').textContent === " + json.dumps(BIG_PROBE.replace("blue", "blauw")),
                 timeout=30)


def check_popup_theme(r: Run, site) -> None:
    """11. the popup follows extensionTheme: dark and light fix its colours, auto follows the system."""
    for theme, background in (("dark", "rgb(13, 17, 23)"), ("light", "rgb(255, 255, 255)")):
        r.cli(["write", "extensionTheme", theme])
        popup = r.popup()
        try:
            got = popup.wait_for(f"document.documentElement.dataset.theme === {json.dumps(theme)} && "
                                 "getComputedStyle(document.body).backgroundColor", timeout=15)
        finally:
            popup.close()
        expect_eq(got, background, f"popup background with extensionTheme={theme}")
    r.cli(["delete", "extensionTheme"])


def popup_problem(r: Run) -> dict:
    popup = r.popup()
    try:
        return popup.wait_for(POPUP_PROBLEM_JS, timeout=15)
    finally:
        r.tabs.setdefault("problem-popups", []).append(popup)


def expect_doctor_fails(r: Run, words: list) -> str:
    p = r.doctor()
    out = (p.stdout + p.stderr)
    expect(p.returncode > 0, f"doctor exits with a status, not killed by a signal (got {p.returncode}):\n{out}")
    expect(p.returncode != 0, f"doctor exits non-zero (got {p.returncode}):\n{out}")
    low = out.lower()
    expect(any(w.lower() in low for w in words), f"doctor output names the problem (one of {words}):\n{out}")
    return out


def check_not_installed(r: Run, site) -> None:
    """7a. host not installed (uninstalled while the browser runs; the running host is ended so
    the extension must reconnect) → the popup says so; doctor reports it, non-zero exit."""
    r.uninstall()
    killed = r.kill_hosts()
    r.log(f"    ended {killed} running host process(es)")
    problem = popup_problem(r)
    expect_eq(problem["title"], msg("problem_not_found"), "popup problem title")
    expect_eq(problem["detail"], f"not_found: {NOT_FOUND_TEXT[r.browser]}", "popup problem detail")
    expect_eq(problem["command"], "extension-bridge doctor", "popup's suggested command")
    expect_doctor_fails(r, ["not installed", "missing", "not found", "no manifest", "does not exist"])


def check_wrong_id(r: Run, site) -> None:
    """7b. host installed for another extension ID only → the popup names the problem; doctor
    reports it, non-zero exit."""
    r.install_other_extension_only()
    r.kill_hosts()
    code, text = FORBIDDEN[r.browser]
    problem = popup_problem(r)
    expect_eq(problem["title"], msg(f"problem_{code}"), "popup problem title")
    expect_eq(problem["detail"], f"{code}: {text}", "popup problem detail")
    ours = CHROMIUM_ID if r.browser == "chromium" else FIREFOX_ID
    expect_doctor_fails(r, [ours, "allowed", "not allow", "does not list", "forbidden"])


def check_allowlist_refusal(r: Run, site) -> None:
    """7c. host manifest right, but the host's own configuration (extension-bridge-host.conf)
    allows someone else → the host refuses (caller_not_allowed), the popup says so; doctor
    reports it, non-zero exit."""
    r.install()
    conf = r.bin / "extension-bridge-host.conf"
    expect(conf.is_file(), f"install wrote the host configuration {conf}")
    conf.write_text("# edited by the e2e test\nformat = 1\nallow = someone-else@example.org\n"
                    "allow = chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/\n")
    r.kill_hosts()
    problem = popup_problem(r)
    expect_eq(problem["title"], msg("problem_caller_not_allowed"), "popup problem title")
    expect(problem["detail"].startswith("caller_not_allowed"), f"popup problem detail: {problem['detail']!r}")
    expect_doctor_fails(r, ["allowlist", "allowed", "not allow"])


def check_manifest_warnings(r: Run, site) -> None:
    """Loading the extension shows no manifest warnings but the documented one: Firefox's
    "Warning processing key" (it ignores `key`). Chromium: chrome://extensions' own API."""
    if r.browser == "chromium":
        tab = r.b.new_tab("chrome://extensions")
        try:
            info = tab.evaluate(
                "new Promise(r => chrome.developerPrivate.getExtensionsInfo("
                "{includeDisabled: true, includeTerminated: true}, r)).then(list => list.map(e => "
                "({id: e.id, warnings: e.installWarnings.map(w => w.message), "
                "errors: e.manifestErrors.map(m => m.message)})))")
        finally:
            tab.close()
        ours = [e for e in info if e["id"] == CHROMIUM_ID]
        expect(len(ours) == 1, f"chrome://extensions lists our extension: {info}")
        expect(ours[0]["warnings"] == [] and ours[0]["errors"] == [], f"no manifest warnings or errors: {ours[0]}")
    else:
        text = "\n".join(r.b.console_messages()) + "\n" + r.b.stderr_log.read_text(errors="replace")
        lines = [line for line in text.splitlines() if "Reading manifest" in line]
        # The documented warning must be seen, or this check is not reading the right log.
        expect(any("Warning processing key" in line for line in lines),
               f"Firefox's documented `key` warning is in its console: {text[-2000:]}")
        other = [line for line in lines if "Warning processing key" not in line]
        expect(not other, f"Firefox manifest warnings besides the documented `key`: {other}")


SHARE_PARA = "A blue sky over a red roof."
SHARE_BOX = "Paint it blue and red, Blue Ice."


def check_share_menus(r: Run, site) -> None:
    """12. the context-menu handlers (what contextMenus.onClicked calls; a driver cannot open a
    context menu) for a real tab: save a link, a selection in a paragraph, a selection in a
    textarea (twice: one item), `queue list` shows the kinds, undo removes the last item, then
    "Transform selection" in the textarea replaces it and the page's own undo restores it."""
    # The page as written (the rewriting is checked elsewhere): off for this check, as it was after.
    was_enabled = r.cli(["read", "extensionEnabled"], check=False).stdout.strip() == "true"
    r.cli(["disable"])
    try:
        share_checks(r, site)
    finally:
        if was_enabled:
            r.cli(["enable"])


def share_checks(r: Run, site) -> None:
    url = site.url("share.html")
    tab = r.open("share", url)
    tab.wait_for("document.readyState === 'complete'", timeout=15)
    r.cli(["write", "vocabulary", "-dict", "blue", "blauw", "red", "rood"])
    r.cli(["queue", "drain"], quiet=True)
    api = "bg.browser" if r.browser == "firefox" else "bg.chrome"
    # The tab's id: ask each tab's content script for its URL (tab.url is hidden without `tabs`).
    tab_id = r.b.background_eval(f"""(async () => {{
      for (const t of await {api}.tabs.query({{}})) {{
        try {{
          const page = await {api}.tabs.sendMessage(t.id, {{type: 'collectPage'}}, {{frameId: 0}});
          if (page && page.url === {json.dumps(url)}) return t.id;
        }} catch (e) {{}}
      }}
      return null; }})()""", timeout=20)
    expect(isinstance(tab_id, int), f"found the share page's tab: {tab_id!r}")
    tab_js = json.dumps({"id": tab_id, "url": url, "title": "ExtensionBridge share page"})

    def click(info: dict) -> dict:
        info = {"pageUrl": url, "frameId": 0, **info}
        return r.b.background_eval(
            f"bg.extensionBridgeMenus.onClicked({json.dumps(info)}, {tab_js})"
            ".then((x) => JSON.parse(JSON.stringify(x)))", timeout=20)

    link_url = site.url("other.html")
    saved_link = click({"menuItemId": "save-link", "linkUrl": link_url, "linkText": "The other page"})
    expect(saved_link.get("status") == "success", f"save link: {saved_link}")
    tab.activate()
    tab.evaluate("""(() => { const r = document.createRange(); r.selectNodeContents(document.getElementById('para'));
      const s = getSelection(); s.removeAllRanges(); s.addRange(r); return String(s); })()""")
    saved_para = click({"menuItemId": "save-selection", "selectionText": SHARE_PARA})
    expect(saved_para.get("status") == "success", f"save paragraph selection: {saved_para}")
    tab.activate()
    tab.evaluate("(() => { const b = document.getElementById('box'); b.focus(); b.setSelectionRange(9, 22); "
                 "return b.value.slice(b.selectionStart, b.selectionEnd); })()")
    saved_box = click({"menuItemId": "save-selection", "selectionText": "blue and red,"})
    again = click({"menuItemId": "save-selection", "selectionText": "blue and red,"})
    expect(saved_box.get("status") == "success", f"save textarea selection: {saved_box}")
    # Two user actions are two saves, each with its own key (one key per action: a second save of the
    # same selection is a second item, not a lost one).
    expect(again.get("duplicate") is False and again.get("added") is True
           and again.get("itemId") != saved_box.get("itemId"),
           f"the same selection saved twice is two items: {saved_box} then {again}")
    listed = [json.loads(line) for line in r.cli(["queue", "list", "--json"]).stdout.splitlines() if line.strip()]
    expect_eq(sorted((i["kind"], i["url"]) for i in listed),
              sorted([("link", link_url), ("selection", url), ("selection", url), ("selection", url)]),
              "queue list: kinds and URLs")
    text_list = r.cli(["queue", "list"]).stdout
    expect("\tlink\t" in text_list and "\tselection\t" in text_list, f"queue list shows the kind: {text_list!r}")
    undone = r.b.background_eval("bg.extensionBridgeMenus.undo().then((x) => JSON.parse(JSON.stringify(x)))")
    expect(undone.get("status") == "success", f"undo: {undone}")
    items = r.drain()
    expect_eq(sorted((i["kind"], i.get("pageUrl"), i["content"]) for i in items),
              sorted([("link", url, "The other page"), ("selection", url, SHARE_PARA),
                      ("selection", url, "blue and red,")]),
              "drained after undo: the link, the paragraph and the first textarea save")
    late = r.b.background_eval("bg.extensionBridgeMenus.undo().then((x) => JSON.parse(JSON.stringify(x)))")
    expect(late.get("status") == "error", f"a second undo has nothing to undo: {late}")

    # Transform selection with <app>, in the textarea: replaced in place, the page's undo restores it.
    tab.activate()
    tab.evaluate("(() => { const b = document.getElementById('box'); b.focus(); b.select(); return true; })()")
    # A selection that changed meanwhile is not replaced.
    stale = r.b.background_eval(
        f"{api}.tabs.sendMessage({tab_id}, {{type: 'replaceSelection', original: 'not the selection', text: 'X'}},"
        " {frameId: 0}).then((x) => JSON.parse(JSON.stringify(x)))")
    expect(stale.get("replaced") is False, f"a changed selection is not replaced: {stale}")
    expect_eq(tab.evaluate("document.getElementById('box').value"), SHARE_BOX, "textarea after a stale replace")
    tab.activate()
    tab.evaluate("(() => { const b = document.getElementById('box'); b.focus(); b.select(); return true; })()")
    result = click({"menuItemId": "transform-selection", "selectionText": SHARE_BOX})
    expect(result.get("replaced") is True, f"transform in a textarea replaces the selection: {result}")
    expect_eq(tab.evaluate("document.getElementById('box').value"), "Paint it blauw and rood, Blauw Ice.",
              "textarea after the transform")
    tab.activate()
    tab.evaluate("(() => { document.getElementById('box').focus(); return document.execCommand('undo'); })()")
    expect_eq(tab.evaluate("document.getElementById('box').value"), SHARE_BOX,
              "the page's own undo (the Ctrl+Z command) restores the textarea")
    # Outside an editable field the page is left alone and the result goes to the clipboard.
    tab.evaluate("""(() => { document.activeElement.blur(); const r = document.createRange();
      r.selectNodeContents(document.getElementById('para'));
      const s = getSelection(); s.removeAllRanges(); s.addRange(r); return true; })()""")
    copied = click({"menuItemId": "transform-selection", "selectionText": SHARE_PARA})
    expect(copied.get("replaced") is False and copied.get("text") == "A blauw sky over a rood roof.",
           f"transform of a paragraph selection: {copied}")
    expect_eq(tab.evaluate("document.getElementById('para').textContent"), SHARE_PARA, "the paragraph is unchanged")
    expect(copied.get("copied") is True, f"the transformed text went to the clipboard: {copied}")
    expect_eq(r.drain(), [], "a transform queues nothing")

    # The save-page shortcut (commands.onCommand's handler) and the "Save this page" entry.
    by_key = r.b.background_eval(f"bg.extensionBridgeMenus.onCommand('save-page', {tab_js})"
                                 ".then((x) => JSON.parse(JSON.stringify(x)))", timeout=20)
    expect(by_key.get("status") == "success", f"save-page shortcut: {by_key}")
    by_menu = click({"menuItemId": "save-page"})
    expect(by_menu.get("status") == "success" and by_menu.get("duplicate") is False
           and by_menu.get("itemId") != by_key.get("itemId"), f"the same page again is a new save: {by_menu}")
    queued = [json.loads(line) for line in r.cli(["queue", "list", "--json"]).stdout.splitlines() if line.strip()]
    expect_eq([i["kind"] for i in queued], ["page", "page"], "the shortcut's and the menu's page saves: two items")
    pages = r.drain()
    expect_eq([(i["kind"], i["url"], i["title"]) for i in pages], [("page", url, "ExtensionBridge share page")],
              "drained: the same page and text twice, collapsed by the drain (--all keeps both)")
    # The paragraph is still selected: a page save is the whole page all the same.
    expect(SHARE_PARA in pages[0]["content"] and "The other page" in pages[0]["content"],
           f"the page's whole text is saved: {pages[0]['content'][:200]!r}")


def check_design_mode(r: Run, site) -> None:
    """13. a frame in designMode (a rich-text editor) is editable as a whole:
    what the user types there stays as typed; a frame that becomes an editor after it was
    rewritten gets its original text back before the user's edit; switched off again, it
    stays unrewritten (an editor once, an editor for this document's life)."""
    r.cli(["write", "vocabulary", "-dict", "blue", "blauw"])
    r.cli(["enable"])
    tab = r.open("editor", site.url("editor.html"))
    tab.wait_for("document.getElementById('outside').textContent === 'blauw outside the editors'", timeout=15)
    # The late frame's content script is there and rewriting (so the editor frame's is too).
    tab.wait_for("frameText('late') === 'quoted blauw'", timeout=15)
    # Editors may type a space as U+00A0 (Firefox does at the end of a text): compare as spaces.
    typed = tab.evaluate("typeInto('editor', 'the sky is blue today.')", timeout=30).replace("\xa0", " ")
    expect_eq(typed, "the sky is blue today.", "typed into a designMode frame")
    time.sleep(0.5)
    expect_eq(tab.evaluate("frameText('editor')").replace("\xa0", " "), "the sky is blue today.",
              "the editor a moment later")
    tab.evaluate("(frameDoc('late').designMode = 'on', true)")
    typed = tab.evaluate("typeInto('late', ' the sky is blue today.')", timeout=30).replace("\xa0", " ")
    expect_eq(typed, "quoted blue the sky is blue today.",
              "designMode switched on later: the earlier replacement undone, the typed text kept")
    tab.evaluate("(frameDoc('late').designMode = 'off', "
                 "frameDoc('late').body.append(frameDoc('late').createTextNode(' blue after off')), true)")
    time.sleep(0.7)
    expect_eq(tab.evaluate("frameText('late')").replace("\xa0", " "), "quoted blue the sky is blue today. blue after off",
              "designMode switched off again: the document stays unrewritten")
    expect_eq(tab.evaluate("document.getElementById('outside').textContent"), "blauw outside the editors",
              "the page around the editors is still rewritten")


def check_editable_later(r: Run, site) -> None:
    """19. a region the page makes editable after it was rewritten gets the page's own text back
    before anyone edits it, so the page saves what the user typed and none of our words: made
    editable by the page's script (`element.contentEditable = 'true'`, read one task later as an
    editor's set-up reads it), and by an inline editor that sets the attribute on mousedown
    (the user clicks and types). It stays the page's text; the rest of the page stays rewritten."""
    r.cli(["write", "vocabulary", "-dict", "blue", "blauw"])
    r.cli(["enable"])
    tab = r.open("inline-editor", site.url("inline-editor.html"))
    tab.wait_for("document.getElementById('comment').textContent === 'The sea is Blauw today.'"
                 " && document.getElementById('note').textContent === 'Dear Bob, the sky is blauw. Thanks!'", timeout=15)
    expect_eq(tab.evaluate("editableText('note')"), "Dear Bob, the sky is blue. Thanks!",
              "what the page reads of a region one task after making it editable")
    saved = tab.evaluate("typeInto('note', ' See you.')", timeout=30).replace("\xa0", " ")
    expect_eq(saved, "Dear Bob, the sky is blue. Thanks! See you.", "what the page saves of the region it made editable")
    saved = tab.evaluate("typeInto('comment', ' Really blue.')", timeout=30).replace("\xa0", " ")
    expect_eq(saved, "The sea is Blue today. Really blue.",
              "what the page saves of an inline editor that set contenteditable on mousedown")
    time.sleep(0.5)
    expect_eq([t.replace("\xa0", " ") for t in tab.evaluate("[note.textContent, comment.textContent]")],
              ["Dear Bob, the sky is blue. Thanks! See you.", "The sea is Blue today. Really blue."],
              "the regions a moment later: not rewritten again")
    expect_eq(tab.evaluate("document.getElementById('outside').textContent"), "blauw outside the editors",
              "the page around the editors is still rewritten")
    r.tabs.pop("inline-editor", None)


def check_guarded_text(r: Run, site) -> None:
    """20. a page that puts its own text back whenever it is replaced (in its MutationObserver,
    a timer's task later, or by building the element anew with innerHTML) keeps it after a few
    rounds, and one that answers each replacement with new text of its own after a few hundred:
    the tab answers, the fight stops, and the rest of the page is still rewritten, later
    additions too."""
    r.cli(["write", "vocabulary", "-dict", "blue", "blauw"])
    r.cli(["enable"])
    tab = r.open("guarded", site.url("guarded.html"))
    tab.wait_for("document.getElementById('outside').textContent === 'blauw outside the guarded text'", timeout=15)
    time.sleep(1.5)
    first = tab.evaluate("[window.restores, window.answers]", timeout=10)
    time.sleep(1.5)
    second = tab.evaluate("[window.restores, window.answers]", timeout=10)
    r.log(f"    the page put its text back {first[0]} times and answered {first[1]} times, "
          f"then {second[0] - first[0]} and {second[1] - first[1]} more in 1.5 s")
    expect(first[0] <= 15 and first[1] <= 300 and second == first,
           f"the fights stop: {first} (restores, answers), then {second}")
    expect_eq(tab.evaluate("['at-once', 'later', 'rebuilt'].map((id) => document.getElementById(id).textContent)"),
              ["blue sky at once", "blue sky later", "blue sky rebuilt"], "the guarded texts are the page's")
    tab.evaluate("(document.getElementById('outside').append(' and blue later'), true)")
    tab.wait_for("document.getElementById('outside').textContent === 'blauw outside the guarded text and blauw later'",
                 timeout=15)
    r.tabs.pop("guarded", None)


HOOK_PROBE_SAME = {"attachShadowText": True, "toStringText": True, "name": "attachShadow", "length": 1,
                   "descriptor": [True, True, True], "heard": []}


def check_hook_invisible(r: Run, site) -> None:
    """14. what a page learns of content/shadow-hook.js, off and on: attachShadow
    and Function.prototype.toString read as native, the property is the native one's, no event
    of ours reaches the page, and (where the engine allows) no stack names the extension; on,
    a shadow root the probe attaches is still rewritten (the private channel works)."""
    r.cli(["write", "vocabulary", "-dict", "blue", "blauw"])
    r.cli(["disable"])
    tab = r.open("probe", site.url("hook-probe.html"))
    tab.wait_for("document.readyState === 'complete'", timeout=15)
    off = tab.evaluate("probe()")
    r.log(f"    off: {off}")
    expect_eq({k: off[k] for k in HOOK_PROBE_SAME}, HOOK_PROBE_SAME, "what the page sees while off")
    expect(off["stackNamesTheExtension"] is False, f"no stack names the extension while off: {off}")
    time.sleep(0.5)
    expect_eq(tab.evaluate("probeRoot.textContent"), "blue in a probe shadow", "off: nothing rewritten")
    r.cli(["enable"])
    tab.navigate(site.url("hook-probe.html"))
    tab.wait_for("document.getElementById('top').textContent === 'blauw on top'", timeout=15)
    on = tab.evaluate("probe()")
    r.log(f"    on: {on}")
    expect_eq({k: on[k] for k in HOOK_PROBE_SAME}, HOOK_PROBE_SAME, "what the page sees while on")
    expect(on["stackNamesTheExtension"] is False, f"no stack names the extension while on: {on}")
    tab.wait_for("probeRoot.textContent === 'blauw in a probe shadow'", timeout=15)
    r.log(f"    across frames: {tab.evaluate('probeAcrossFrames()')}")


# A host in front of the real one: relays frames both ways, logs each request's action, and
# the first time it sees a getPageState it exits without answering — the port drops with the
# page-state fetch in flight. Every later copy (the marker file exists) only relays.
DROPPING_HOST = """#!/usr/bin/python3
import json, os, struct, subprocess, sys, threading
REAL, MARK, LOG = {real!r}, {mark!r}, {log!r}
child = subprocess.Popen([REAL, *sys.argv[1:]], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
out = sys.stdout.buffer
def relay():
    while True:
        data = child.stdout.read1(1 << 16)
        if not data:
            os._exit(0)  # the real host ended: so does this port
        out.write(data)
        out.flush()
threading.Thread(target=relay, daemon=True).start()
inp = sys.stdin.buffer
while True:
    header = inp.read(4)
    if len(header) < 4:
        break
    body = inp.read(struct.unpack("=I", header)[0])
    try:
        action = json.loads(body).get("action")
    except ValueError:
        action = None
    with open(LOG, "a") as fh:
        fh.write(f"{{os.getpid()}} {{action}}\\n")
    if action == "getPageState" and not os.path.exists(MARK):
        open(MARK, "w").close()
        child.kill()
        os._exit(0)
    child.stdin.write(header + body)
    child.stdin.flush()
child.stdin.close()
child.wait()
"""


def check_port_drop_during_page_state(r: Run, site) -> None:
    """15. the host ends, and the vocabulary changes before the background has a port again →
    the open tab follows it without a navigation: the new port's first act is a page-state fetch
    (the host pushes only what changes after its hello). That fetch is dropped too (the host
    ends without answering it) → the background resends it (hello lists getPageState as
    resend-safe). A page loaded then is rewritten; then a CLI write is pushed as the page state
    itself: the page follows it with no getPageState sent to the host (no second round trip)."""
    r.cli(["write", "extensionEnabled", "-bool", "true"])
    r.cli(["write", "vocabulary", "-dict", "blue", "blauw"])
    # A served tab first: the background keeps a port (and reconnects it) only for tabs it serves.
    tab = r.open("drop", site.url("index.html"))
    tab.wait_for(f"JSON.stringify({TEXTS_JS}) === {json.dumps(compact(PAGE_A_BLAUW))}", timeout=15)
    real_dir = r.dir / "real-host"
    real_dir.mkdir(exist_ok=True)
    real = real_dir / r.host_path.name
    shutil.copy2(r.host_path, real)
    for extra in ("extension-bridge-host.conf", "extension-bridge-host.allowed"):
        if (r.bin / extra).exists():
            shutil.copy2(r.bin / extra, real_dir / extra)
    mark, log = r.dir / "dropped-once", r.dir / "host-requests.log"
    log.write_text("")
    wrapper = r.bin / "dropping-host.tmp"
    wrapper.write_text(DROPPING_HOST.format(real=str(real), mark=str(mark), log=str(log)))
    wrapper.chmod(0o755)
    os.replace(wrapper, r.host_path)  # the running host keeps its (now deleted) file

    def requests() -> list:
        return [tuple(line.split(" ", 1)) for line in log.read_text().splitlines()]

    def actions() -> list:
        return [action for _, action in requests()]

    def resent_one_shot() -> bool:
        """A relay process whose first request is getPageState: a one-shot, no port (no hello)."""
        first = {}
        for pid, action in requests():
            first.setdefault(pid, action)
        return "getPageState" in first.values()

    def fetched_since_last_hello() -> bool:
        seen = actions()
        return "hello" in seen and "getPageState" in seen[len(seen) - 1 - seen[::-1].index("hello"):]

    try:
        # End the running host and change the vocabulary at once: the background is waiting to
        # reconnect (backoff) or reconnecting. Either a push or the new port's fetch brings it.
        r.kill_hosts()
        r.cli(["write", "vocabulary", "-dict", "blue", "blauw", "red", "rood"])
        tab.wait_for(f"JSON.stringify({TEXTS_JS}) === {json.dumps(compact(PAGE_A_BLAUW_ROOD))}", timeout=15)
        expect(mark.exists(), "the port dropped during a page-state fetch")
        expect(resent_one_shot(), f"the dropped fetch was resent one-shot: {requests()}")
        tab.navigate(site.url("index.html"))  # a fresh load: its content script asks for the page state
        tab.wait_for(f"JSON.stringify({TEXTS_JS}) === {json.dumps(compact(PAGE_A_BLAUW_ROOD))}", timeout=15)
        # The port comes back (keep-alive: tabs are served) and fetches once; a write is then pushed.
        wait_until(lambda: actions().count("hello") >= 2 and fetched_since_last_hello(), 15,
                   "the background to reconnect again, and fetch the state on that port", 0.05)
        before = len(actions())
        r.cli(["write", "vocabulary", "-dict", "blue", "blauw"])
        tab.wait_for(f"JSON.stringify({TEXTS_JS}) === {json.dumps(compact(PAGE_A_BLAUW))}", timeout=15)
        after = actions()[before:]
        expect("getPageState" not in after, f"the push was applied without asking the host again: {after}")
        r.log(f"    requests the host saw: {actions()}")
    finally:
        os.replace(real, r.host_path)
        r.kill_hosts()  # the real copies now run from host_path: the dropping hosts end with them
        r.tabs.pop("drop", None)


FIRST_PAINT_TEXT = "Blauw skies The sky is blauw, the sea is blauw and BLAUW."


def check_first_paint(r: Run, site) -> None:
    """16. the page reads translated in its first paint. first-paint.html's own
    requestAnimationFrame callback (page world, asked for in its head) keeps the body's text
    before each frame's paint; the browser's 'first-contentful-paint' entry says which frame
    was painted first. That frame already shows the new words, and no frame ever showed the
    old ones. The page's text is parsed in the task that ends parsing, and the page queues
    100 ms of its own tasks then: the frames in between come before any task the content
    script queues at the end of parsing, so its frame callback must still rewrite them.
    (Loads after the first: the background holds the current state by then.)"""
    # The measured loads are the steady state: the background connected to the host and holding
    # the current rules. A check before this one may have left the port down (check 15 kills the
    # hosts), and then a load's getPageState waits for a host to start and answer, and the rules
    # can come after the first paint (seen once in CI, Firefox). So: a first vocabulary reaches the
    # tab (fetched or pushed), then a second one reaches the open tab, which only a push on a
    # connected port does (the background then holds a current state).
    r.cli(["enable"])
    r.cli(["write", "vocabulary", "-dict", "blue", "blauw", "skies", "luchten"])
    tab = r.open("paint", site.url("first-paint.html"))
    tab.wait_for("document.getElementById('words').textContent === 'Blauw luchten'", timeout=15)
    r.cli(["write", "vocabulary", "-dict", "blue", "blauw"])
    tab.wait_for("document.getElementById('words').textContent === 'Blauw skies'", timeout=15)
    rounds = []
    for n in range(3):
        tab.navigate(site.url("first-paint.html"))
        tab.wait_for("window.fcp !== null && window.loadedAt !== null && window.frames_.length > 0", timeout=15)
        result = tab.evaluate("({fcp: window.fcp, frames: window.frames_})")
        frames = [f for f in result["frames"] if f["text"] is not None]
        painted = [f for f in frames if f["t"] <= result["fcp"]]
        rounds.append((round(result["fcp"], 1), [(round(f["t"], 1), f["text"][:12]) for f in frames[:3]]))
        expect(painted, f"load {n}: a frame with the text began before the first contentful paint: {result}")
        expect_eq(painted[-1]["text"], FIRST_PAINT_TEXT,
                  f"load {n}: the text of the frame painted first (first contentful paint at {result['fcp']:.1f} ms;"
                  f" frames {[(round(f['t'], 1), f['text'][:12]) for f in frames[:4]]})")
        old = [f for f in frames if "blue" in f["text"].lower()]
        expect(not old, f"load {n}: no frame showed the old words: {old}")
    r.log(f"    first contentful paint, first frames: {rounds}")
    r.tabs.pop("paint", None)



def check_change_behind_cursor(r: Run, site) -> None:
    """17. a page script that changes, while the document still parses, a text
    node the cursor has already passed (behind-cursor.html) still gets it rewritten: the pass
    over the whole document after parsing (it waits for the load event, so that it does not
    hold DOMContentLoaded or the load event back) finds it."""
    r.cli(["write", "vocabulary", "-dict", "blue", "blauw"])
    r.cli(["enable"])
    tab = r.open("behind", site.url("behind-cursor.html"))
    tab.wait_for("document.getElementById('late').textContent === 'and blauw after it'", timeout=15)
    for n in range(2):
        tab.navigate(site.url("behind-cursor.html"))
        tab.wait_for("window.changedBehind === true && document.readyState === 'complete'", timeout=15)
        try:
            tab.wait_for("document.getElementById('early').textContent === 'blauw behind the cursor'", timeout=10)
        except WaitTimeout as exc:  # say what the page shows
            text = tab.evaluate("document.getElementById('early').textContent")
            raise AssertionError(f"load {n}: the text changed behind the cursor reads {text!r}") from exc
    r.tabs.pop("behind", None)


def check_back_forward_cache(r: Run, site) -> None:
    """18. tabs do not each pay for the vocabulary: a page kept in the back/forward
    cache lets the rules go and keeps its new words; on Back it comes back rewritten, takes the
    rules again — those written while it was away included (no pageState reached it) — and
    follows later changes live."""
    r.cli(["enable"])
    r.cli(["write", "vocabulary", "-dict", "blue", "blauw"])
    tab = r.open("bfcache", site.url("index.html") + "?bfcache=1")  # served without no-store
    tab.wait_for(f"JSON.stringify({TEXTS_JS}) === {json.dumps(compact(PAGE_A_BLAUW))}", timeout=15)
    # Firefox does not keep every page (a load here and there comes back as a new document): up
    # to three tries, the vocabulary changed each time while the page is away.
    both, one = (["blue", "blauw", "red", "rood"], PAGE_A_BLAUW_ROOD), (["blue", "blauw"], PAGE_A_BLAUW)
    for attempt, (words, expected) in enumerate([both, one, both]):
        tab.evaluate("(window.__e2eRestored = null,"
                     " addEventListener('pageshow', (e) => { window.__e2eRestored = e.persisted; }), true)")
        tab.navigate(site.url("other.html"))
        r.cli(["write", "vocabulary", "-dict", *words])  # while index.html is away
        tab.evaluate("history.back(), true")
        tab.wait_for("location.pathname.endsWith('/index.html') && document.readyState === 'complete'", timeout=15)
        tab.wait_for("window.__e2eRestored !== null", timeout=15)  # undefined: a new document
        restored = tab.evaluate("window.__e2eRestored") is True
        try:
            tab.wait_for(f"JSON.stringify({TEXTS_JS}) === {json.dumps(compact(expected))}", timeout=15)
        except WaitTimeout as exc:
            raise AssertionError(f"back {'from the cache' if restored else 'as a new load'}: the change made while"
                                 f" the page was away is not applied: it reads {tab.evaluate(TEXTS_JS)}") from exc
        if restored:
            break
        r.log(f"    try {attempt + 1}: the page came back as a new document, not from the back/forward cache")
    else:
        raise AssertionError("the page never came back from the back/forward cache (pageshow, persisted)")
    r.cli(["write", "vocabulary", "-dict", "red", "rood"])
    try:
        tab.wait_for(f"JSON.stringify({TEXTS_JS}) === {json.dumps(compact(PAGE_A_ROOD))}", timeout=15)
    except WaitTimeout as exc:
        raise AssertionError(f"after Back, a later change is followed live: the page reads {tab.evaluate(TEXTS_JS)}") from exc
    r.tabs.pop("bfcache", None)


CHECKS = [
    ("0-manifest-loads-without-warnings", check_manifest_warnings),
    ("1-disabled-unchanged", check_disabled),
    ("2-enabled-replaces-on-load", check_enabled_on_load),
    ("3-live-update-no-reload", check_live_update),
    ("4-popup-save-queue-drain", check_popup_save),
    ("5-legacy-enabled-status", check_legacy),
    ("6-isolation-postmessage-cross-url", check_isolation),
    ("8-every-part-of-the-page", check_every_part),
    ("9-one-enabled-rule", check_one_enabled_rule),
    ("10-paged-vocabulary-over-5-mib", check_paged_vocabulary),
    ("11-popup-follows-theme", check_popup_theme),
    ("12-share-menus-undo-transform", check_share_menus),
    ("13-designmode-editor-not-rewritten", check_design_mode),
    ("14-page-cannot-see-the-hook", check_hook_invisible),
    ("15-port-drop-during-page-state-fetch", check_port_drop_during_page_state),
    ("16-first-paint-translated", check_first_paint),
    ("17-change-behind-the-cursor", check_change_behind_cursor),
    ("18-back-forward-cache-lets-the-rules-go", check_back_forward_cache),
    ("19-editable-later-gets-the-pages-text-back", check_editable_later),
    ("20-text-the-page-puts-back-stays", check_guarded_text),
    ("7a-not-installed-popup-doctor", check_not_installed),
    ("7b-wrong-extension-id-popup-doctor", check_wrong_id),
    ("7c-host-allowlist-refusal-popup-doctor", check_allowlist_refusal),
]
# A failed check leaves the browser in an unknown state; these later checks still run, since
# each sets up what it needs from the state the previous ones leave (fresh loads, CLI writes).


def run_browser(browser: str, label: str, args, log) -> tuple:
    passed = failed = 0
    r = Run(browser, label, args.bin_dir, args.artifacts, log)
    t0 = time.monotonic()
    ok = True
    only = set(args.only.split(",")) if args.only else None
    try:
        try:
            r.cli(["write", "vocabulary", "-dict", "blue", "blauw"])  # present but not enabled
            r.install()
        except Exception as exc:  # noqa: BLE001
            ok = False
            failed += 1
            log(f"  FAIL {browser} setup (CLI write/install): {exc}")
            return passed, failed
        with TestServer(PAGES_DIR) as site:
            try:
                r.start_browser()
                log(f"  {label}: {r.b.version} started in {time.monotonic() - t0:.1f}s")
            except Exception as exc:  # noqa: BLE001
                ok = False
                failed += 1
                log(f"  FAIL {browser} start: {exc}")
                return passed, failed
            for name, fn in CHECKS:
                if only and not any(name.startswith(o) for o in only):
                    continue
                c0 = time.monotonic()
                try:
                    fn(r, site)
                    passed += 1
                    log(f"  ok   {browser} {name} ({time.monotonic() - c0:.1f}s)")
                except Exception as exc:  # noqa: BLE001
                    failed += 1
                    ok = False
                    r.screenshot_all(f"failure-{name}")
                    detail = str(exc) if isinstance(exc, (CheckFailed, WaitTimeout, BrowserError)) \
                        else traceback.format_exc()
                    log(f"  FAIL {browser} {name} ({time.monotonic() - c0:.1f}s): {detail}")
                    with open(r.artifacts / "failures.log", "a") as fh:
                        fh.write(f"== {name}\n{traceback.format_exc()}\n")
    finally:
        try:
            r.close()
        finally:
            if not ok:
                shutil.copytree(r.dir / "container", r.artifacts / "container", dirs_exist_ok=True) \
                    if (r.dir / "container").exists() else None
                log(f"  {label}: artifacts kept in {r.artifacts}")
            r.cleanup(keep=(not ok) or args.keep_artifacts)
    log(f"  {label}: {passed} passed, {failed} failed in {time.monotonic() - t0:.1f}s")
    return passed, failed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--browser", default="all", choices=["chromium", "firefox", "all"])
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--artifacts", type=Path, default=REPO / ".build" / "e2e-artifacts")
    ap.add_argument("--bin-dir", type=Path, default=Path(os.environ.get("E2E_BIN_DIR", REPO / ".build" / "debug")),
                    help="where extension-bridge and extension-bridge-host are (default .build/debug)")
    ap.add_argument("--keep-artifacts", action="store_true", help="keep the folders of passing runs too")
    ap.add_argument("--only", default="", help="run only checks whose names start with these (comma-separated)")
    args = ap.parse_args()
    args.artifacts = args.artifacts.resolve()
    args.bin_dir = args.bin_dir.resolve()
    for name in ("extension-bridge", "extension-bridge-host"):
        if not (args.bin_dir / name).is_file():
            print(f"e2e: {args.bin_dir / name} is missing: run `swift build` first", flush=True)
            print("0 passed, 1 failed", flush=True)
            return 1
    browsers = ["chromium", "firefox"] if args.browser == "all" else [args.browser]

    def log(line: str) -> None:
        print(line, flush=True)

    total_p = total_f = 0
    t_all = time.monotonic()
    for i in range(1, args.repeat + 1):
        t_round = time.monotonic()
        if args.repeat > 1:
            log(f"round {i}/{args.repeat}")
        for browser in browsers:
            try:
                p, f = run_browser(browser, f"{browser}-{i}", args, log)
            except Exception:  # noqa: BLE001 - a bug here must still end with the count line
                log(f"  FAIL {browser}-{i}: the run itself broke:\n{traceback.format_exc()}")
                p, f = 0, 1
            total_p += p
            total_f += f
        if args.repeat > 1:
            log(f"round {i} took {time.monotonic() - t_round:.1f}s")
    log(f"e2e total {time.monotonic() - t_all:.1f}s")
    print(f"{total_p} passed, {total_f} failed", flush=True)
    return 0 if total_f == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

