#!/usr/bin/env python3
"""End to end: real Safari Web Extensions, as their authors published them, through
`extension-bridge new --from-safari` and real Chromium and Firefox.

The corpus is ../shared/safari-corpus beside the checkout (or $SAFARI_CORPUS): one folder per
extension, its `Resources/` as the Xcode project keeps it. It stays outside the repository (its
licences are the authors'); where it is absent this says so in one line and passes.

For each extension:
- import: `new --from-safari` succeeds; every file of the author's is byte-identical in the
  project's extension/; the corpus folder is unchanged;
- in each browser, the original is loaded where the browser can (the baseline: Chromium refuses
  Manifest V2 and some Apple-only values, Firefox a background that is only a service worker), then
  the import (Firefox: extension/; Chromium: extension/, or extension-chromium/ for Manifest V2),
  with the generated host installed from an empty HOME: the background starts, every page the
  manifest names (popup, options) is opened, and a web page each content script matches (the
  browsers resolve every name to the test servers); every error the extension reports (Chromium's
  extension error console; Firefox's script errors and console.error calls from the extension's
  URLs) is collected. The import passes when it has no error the original does not have (in that
  browser; where the browser cannot load the original, in the other browser's baseline);
- every native message the import found is sent from where the extension sends it (its background,
  or its page) in the form Safari takes, and reaches the generated action in the host
  (`not_implemented`); the host's log shows each one the extension's own code sent.
The last line is `N passed, N failed`.
"""
from __future__ import annotations

import argparse
import hashlib
import http.server
import json
import os
import re
import shutil
import socketserver
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE))

from browsers import Chromium, E2EError, Firefox, WaitTimeout  # noqa: E402

NAME = "Corpus"  # one name for every import, so their hosts share one build folder
HOST_NAME = "com.example.e2e.corpus"
GROUP = "group.com.example.e2e.corpus"
PAGE_KEYS = [("action", "default_popup"), ("browser_action", "default_popup"), ("page_action", "default_popup"),
             ("options_ui", "page"), ("options_page",)]
SETTLE = float(os.environ.get("CORPUS_SETTLE", "2.5"))  # seconds an opened page or tab may take to report errors


class CheckFailed(Exception):
    pass


def expect(ok: bool, what: str) -> None:
    if not ok:
        raise CheckFailed(what)


def run(args: list, env: dict, cwd: Path | None = None, check: bool = True, timeout: int = 1800):
    p = subprocess.run([str(a) for a in args], env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    if check and p.returncode != 0:
        raise CheckFailed(f"`{' '.join(map(str, args))}` exited {p.returncode}: {(p.stderr or p.stdout).strip()[-3000:]}")
    return p


def tree_digest(folder: Path) -> dict:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def loose_json(path: Path) -> dict:
    """A manifest as the browsers read it (trailing commas and comments allowed)."""
    text = path.read_text(encoding="utf-8-sig")
    text = re.sub(r'("(?:\\.|[^"\\])*")|//[^\n]*|/\*.*?\*/', lambda m: m.group(1) or "", text, flags=re.S)
    text = re.sub(r'("(?:\\.|[^"\\])*")|,(\s*[\]}])', lambda m: m.group(1) or m.group(2), text)
    return json.loads(text)


# --------------------------------------------------------------------------- the web pages content scripts run on

PAGE = (b"<!doctype html><html><head><meta charset='utf-8'><title>Corpus page</title></head><body>"
        b"<h1>A page</h1><p>Some text, a <a href='#x'>link</a> and <b>bold</b> words.</p>"
        b"<input type='text' value='field'><textarea>area</textarea></body></html>")


class _Page(http.server.BaseHTTPRequestHandler):
    def log_message(self, fmt, *args):
        pass

    def do_GET(self):  # noqa: N802 - the stdlib's name
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)


class Servers:
    """One page for every host and path, over HTTP and HTTPS (a self-signed certificate: Chromium is
    started with --ignore-certificate-errors, and github.com and youtube.com are HSTS-preloaded)."""

    def __init__(self, work: Path):
        key, cert = work / "key.pem", work / "cert.pem"
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out",
                        str(cert), "-days", "2", "-subj", "/CN=corpus.test"], check=True, capture_output=True)
        self.http = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Page)
        self.https = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Page)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(str(cert), str(key))
        self.https.socket = context.wrap_socket(self.https.socket, server_side=True)
        for server in (self.http, self.https):
            server.daemon_threads = True
            threading.Thread(target=server.serve_forever, daemon=True).start()

    def url(self, pattern: str, browser: str) -> str | None:
        """A URL `pattern` matches, on these servers; None for one this browser cannot be pointed at."""
        if pattern == "<all_urls>":
            pattern = "*://*/*"
        scheme, sep, rest = pattern.partition("://")
        if not sep or scheme not in ("*", "http", "https"):
            return None
        host, _, path = rest.partition("/")
        host = "corpus.test" if host == "*" else host.replace("*.", "www.")
        path = "/" + path.replace("*", "")
        secure = scheme == "https" or (scheme == "*" and browser == "chromium")
        if secure and browser == "firefox":
            return None
        port = (self.https if secure else self.http).server_address[1]
        return f"{'https' if secure else 'http'}://{host}:{port}{path}"

    def close(self):
        for server in (self.http, self.https):
            server.shutdown()
            server.server_close()


FIREFOX_PREFS = {
    # Every name resolves to the test servers; no HSTS preload list, no HTTPS-First upgrade.
    "network.dns.forceResolve": "127.0.0.1",
    "network.stricttransportsecurity.preloadlist": False,
    "dom.security.https_first": False,
    "dom.security.https_first_schemeless": False,
    "dom.security.https_only_mode": False,
    "network.proxy.type": 0,
}
CHROMIUM_ARGS = ("--host-resolver-rules=MAP * 127.0.0.1", "--ignore-certificate-errors")


# --------------------------------------------------------------------------- one run of one extension in one browser

class Run:
    """What one browser reported for one extension folder: whether it loaded, and its errors."""

    def __init__(self, label: str):
        self.label = label
        self.loaded = False
        self.load_error = ""
        self.errors: list[tuple[str, str]] = []  # (file, message), the extension's origin taken out
        self.notes: list[str] = []

    def visited(self, url: str, tab) -> None:
        """Notes whether the test page reached the tab (a content script can only run where it did)."""
        try:
            title = tab.evaluate("document.title", timeout=10)
        except E2EError as exc:
            title = f"? ({str(exc)[:80]})"
        self.notes.append(f"{url.split('/')[2]}: {'served' if title == 'Corpus page' else 'NOT served: ' + str(title)}")

    def keys(self) -> set:
        return {normalized(e) for e in self.errors}


def normalized(error: tuple[str, str]) -> tuple[str, str]:
    """An error as (file, message) with what differs between two loads of the same code taken out: the
    extension's origin, line and column numbers, the generated pages' names."""
    file, message = error
    message = re.sub(r"(chrome-extension|moz-extension)://[^/\s]+/", "EXT/", message)
    message = re.sub(r":\d+(:\d+)?", "", message)
    message = message.replace("bridge-compat-", "")
    message = re.sub(r"^Uncaught (\(in promise\) )?", "", message)
    return (file.replace("bridge-compat-", ""), message.strip())


def page_urls(manifest: dict) -> list[str]:
    out = []
    for path in PAGE_KEYS:
        value = manifest
        for key in path:
            value = value.get(key) if isinstance(value, dict) else None
        if isinstance(value, str) and value not in out:
            out.append(value.lstrip("/"))
    return out


def content_urls(manifest: dict, servers: Servers, browser: str) -> list[str]:
    out = []
    for entry in manifest.get("content_scripts", []):
        for pattern in entry.get("matches", []):
            url = servers.url(pattern, browser)
            if url:
                if url not in out:
                    out.append(url)
                break
    return out


def settled(read) -> list:
    """The errors once a second read finds no more (at most five reads): an original and its import are
    compared, so neither may be read while errors are still arriving."""
    errors = read()
    for _ in range(4):
        time.sleep(1)
        again = read()
        if len(again) == len(errors):
            return again
        errors = again
    return errors


def chromium_errors(b: Chromium, tab, eid: str) -> list[tuple[str, str]]:
    info = tab.evaluate(f"new Promise(r => chrome.developerPrivate.getExtensionInfo('{eid}', r))") or {}
    out = []
    for error in (info.get("runtimeErrors") or []) + (info.get("manifestErrors") or []):
        if error.get("severity") != "ERROR":
            continue
        source = re.sub(r"^chrome-extension://[^/]+/", "", error.get("source") or error.get("manifestKey") or "")
        out.append((source, error.get("message", "")))
    return out


def run_chromium(folder: Path, art: Path, env: dict, servers: Servers, profile: Path, log, act=None) -> Run:
    result = Run(f"chromium {folder.name}")
    b = Chromium(None, art, user_data_dir=profile, env=env, extra_args=CHROMIUM_ARGS)
    try:
        b.start()
        console = b.new_tab("chrome://extensions")
        console.evaluate("new Promise(r => chrome.developerPrivate.updateProfileConfiguration({inDeveloperMode: true}, r))")
        try:
            eid = b.load_unpacked(folder)
        except E2EError as exc:
            result.load_error = str(exc).splitlines()[0][:300]
            return result
        result.loaded = True
        manifest = json.loads((folder / "manifest.json").read_text())
        if manifest.get("background"):
            try:
                b.wake_service_worker(timeout=20)
            except WaitTimeout:
                result.notes.append("no service worker started")
        time.sleep(1)
        pages = {}
        for page in page_urls(manifest):
            try:
                pages[page] = b.new_tab(f"chrome-extension://{eid}/{page}")
            except E2EError as exc:
                result.notes.append(f"{page} did not load: {str(exc).splitlines()[0][:120]}")
        for url in content_urls(manifest, servers, "chromium"):
            result.visited(url, b.new_tab(url))
        time.sleep(SETTLE)
        if act:
            act(b, eid, pages)
        result.errors = settled(lambda: chromium_errors(b, console, eid))
    except E2EError as exc:
        result.notes.append(f"driver: {str(exc)[:300]}")
    finally:
        b.close()
    return result


FIREFOX_ERRORS = """
const base = arguments[0];
return Services.console.getMessageArray()
  .filter(m => m instanceof Ci.nsIScriptError && !(m.flags & Ci.nsIScriptError.warningFlag)
          && (m.sourceName || '').startsWith(base))
  .map(m => [m.sourceName.slice(base.length), m.errorMessage]);
"""
CONSOLE_EVENTS = """
const base = arguments[0];
const storage = Cc['@mozilla.org/consoleAPI-storage;1'].getService(Ci.nsIConsoleAPIStorage);
return storage.getEvents().filter(e => e.level === 'error' && (e.filename || '').startsWith(base))
  .map(e => [e.filename.slice(base.length), (e.arguments || []).map(a => String(a)).join(' ')]);
"""


def firefox_errors(f: Firefox, tabs: list) -> list[tuple[str, str]]:
    base = f.base_url
    out = [tuple(e) for e in f.chrome_eval(FIREFOX_ERRORS, (base,))]
    for tab in tabs:  # console.error calls stay in the process that made them: ask each tab's process
        try:
            m = tab._focus()
            for e in m.execute_script(CONSOLE_EVENTS, script_args=[base], sandbox="system", new_sandbox=False):
                if tuple(e) not in out:
                    out.append(tuple(e))
        except Exception:  # noqa: BLE001 - a tab that navigated away
            pass
    return out


def run_firefox(folder: Path, art: Path, env: dict, servers: Servers, home: Path, log, act=None) -> Run:
    result = Run(f"firefox {folder.name}")
    f = Firefox(folder, art, home_dir=home, env=env, prefs=FIREFOX_PREFS)
    try:
        f.start()
        try:
            f.install_extension(timeout=30)
        except E2EError as exc:
            result.load_error = str(exc).splitlines()[0][:300]
            return result
        except Exception as exc:  # noqa: BLE001 - Marionette's own error for a refused add-on
            result.load_error = str(exc).splitlines()[0][:300]
            return result
        result.loaded = True
        manifest = loose_json(folder / "manifest.json")
        time.sleep(1)
        tabs, pages = [], {}
        for page in page_urls(manifest):
            try:
                pages[page] = f.open_extension_page(page)
                tabs.append(pages[page])
            except Exception as exc:  # noqa: BLE001 - Marionette's timeout for a page that never loads
                result.notes.append(f"{page} did not load: {str(exc).splitlines()[0][:120]}")
        if not pages:  # a tab in the extension's process, to read its console there
            icon = next((p for p in sorted(folder.rglob("*.png"))), None)
            tabs.append(f.open_extension_page(str(icon.relative_to(folder)) if icon else "manifest.json"))
        for url in content_urls(manifest, servers, "firefox"):
            tabs.append(f.new_tab(url))
            result.visited(url, tabs[-1])
        time.sleep(SETTLE)
        if act:
            act(f, None, pages)
        result.errors = settled(lambda: firefox_errors(f, tabs))
    except E2EError as exc:
        result.notes.append(f"driver: {str(exc)[:300]}")
    finally:
        f.close()
    return result


# --------------------------------------------------------------------------- the checks

class Corpus:
    def __init__(self, args, log):
        self.args = args
        self.log = log
        self.passed = 0
        self.failed = 0
        self.cli = args.bin_dir.resolve() / "extension-bridge"
        self.work = Path(tempfile.mkdtemp(prefix="e2e-safari-corpus-"))
        self.env = dict(os.environ)
        (self.work / "tmp").mkdir()
        self.env["TMPDIR"] = str(self.work / "tmp")  # SwiftPM's lock files go with the work folder
        self.scratch = self.work / "build"  # every import's host in one build folder: one ExtensionBridge build

    def step(self, name: str, fn) -> bool:
        t0 = time.monotonic()
        try:
            fn()
            self.passed += 1
            self.log(f"  ok   {name} ({time.monotonic() - t0:.1f}s)")
            return True
        except Exception as exc:  # noqa: BLE001
            self.failed += 1
            detail = str(exc) if isinstance(exc, (CheckFailed, E2EError)) else traceback.format_exc()
            self.log(f"  FAIL {name}: {detail}")
            return False

    def import_extension(self, source: Path) -> dict:
        slug = source.name
        project = self.work / slug
        before = tree_digest(source)
        out = run([self.cli, "new", NAME, "--host-name", HOST_NAME, "--group", GROUP, "--dir", project,
                   "--package-path", REPO, "--from-safari", source / "Resources", "--json"], self.env)
        summary = json.loads(out.stdout.strip().splitlines()[-1])
        expect(tree_digest(source) == before, "the corpus folder is unchanged by the import")
        report = summary["safariImport"]
        for line in report["changes"]:
            self.log(f"    change: {line}")
        for f in report["findings"]:
            self.log(f"    found:  {f['file']}:{f['line']}: {f['api']}: {f['equivalent']}")
        for m in report["messages"]:
            self.log(f"    message: {m['shape']} from {', '.join(m['places'])} -> {m['action']}")
        resources = source / "Resources"
        for path in sorted(p for p in resources.rglob("*") if p.is_file()):
            relative = path.relative_to(resources)
            imported = project / "extension" / relative
            if relative.as_posix() == "manifest.json":
                continue
            expect(imported.is_file() and imported.read_bytes() == path.read_bytes(),
                   f"{relative} is byte-identical in the project's extension/")
        return {"project": project, "report": report, "slug": slug, "locales": locale_messages(resources),
                "bridge": json.loads((project / "bridge.json").read_text())}

    def build_host(self, imported: dict) -> Path:
        project = imported["project"]
        product = imported["bridge"]["hostProduct"]
        run(["swift", "build", "--package-path", project, "--scratch-path", self.scratch, "--product", product],
            self.env, timeout=3600)
        bin_dir = run(["swift", "build", "--package-path", project, "--scratch-path", self.scratch,
                       "--show-bin-path"], self.env).stdout.strip()
        return Path(bin_dir) / product

    def baseline(self, browser: str, slug: str, source: Path) -> Run:
        """The original as published, loaded from a copy (the browser writes nothing into the corpus)."""
        original = self.work / f"original-{slug}"
        if not original.exists():
            shutil.copytree(source / "Resources", original)
        scratch = Path(tempfile.mkdtemp(prefix=f"corpus-original-{browser}-", dir=self.work))
        env = {k: v for k, v in self.env.items() if not k.startswith("EXTENSION_BRIDGE_")}
        env["HOME"] = str(scratch / "home")
        (scratch / "home").mkdir()
        run_one = run_chromium if browser == "chromium" else run_firefox
        art = self.args.artifacts / "safari-corpus" / slug / browser / "original"
        shutil.rmtree(art, ignore_errors=True)
        result = run_one(original, art, env, self.servers, scratch / "profile", self.log)
        self.log(f"    {browser} original: " + (f"{len(result.errors)} error(s)" if result.loaded
                                                else f"not loaded: {result.load_error}")
                 + "".join(f"; {n}" for n in result.notes))
        for error in result.errors:
            self.log(f"      theirs: {error[0]}: {error[1][:200]}")
        shutil.rmtree(scratch, ignore_errors=True)
        return result

    def check_browser(self, browser: str, imported: dict, host: Path | None, baselines: dict) -> None:
        slug = imported["slug"]
        project = imported["project"]
        art = self.args.artifacts / "safari-corpus" / slug / browser / "imported"
        shutil.rmtree(art, ignore_errors=True)
        folder = project / ("extension-chromium" if browser == "chromium" and (project / "extension-chromium").is_dir()
                            else "extension")
        run_one = run_chromium if browser == "chromium" else run_firefox
        scratch = Path(tempfile.mkdtemp(prefix=f"corpus-{browser}-", dir=self.work))
        env = {k: v for k, v in self.env.items() if not k.startswith("EXTENSION_BRIDGE_")}
        env["HOME"] = str(scratch / "home")
        env["EXTENSION_BRIDGE_LOG"] = "debug"  # the host logs each action it answers
        (scratch / "home").mkdir()
        profile = scratch / "profile"
        select = ["--browser", "chromium", "--user-data-dir", str(profile)] if browser == "chromium" \
            else ["--browser", "firefox"]
        messages = [m for m in imported["report"]["messages"] if m.get("action")]
        replies: dict = {}

        own: list = []

        def act(b, eid, pages):
            # What the extension's own code sent by now (at start-up, on opening its pages), from the host's log.
            log_text = host_log(art) if browser == "chromium" else "\n".join(b.console_messages())
            own.extend(m["name"] for m in messages if f"{m['name']} -> error not_implemented" in log_text)
            for message in messages:
                replies[message["name"]] = send(browser, b, eid, pages, message, folder)

        try:
            if host:
                run([self.cli, "install", "--config", project / "bridge.json", *select, "--host-path", host], env)
            result = run_one(folder, art, env, self.servers, profile if browser == "chromium" else Path(env["HOME"]),
                             self.log, act)
        finally:
            if host:
                run([self.cli, "uninstall", "--config", project / "bridge.json", *select], env, check=False)
            shutil.rmtree(scratch, ignore_errors=True)
        self.log(f"    {browser} imported: " + (f"{len(result.errors)} error(s)" if result.loaded
                                                else f"not loaded: {result.load_error}") + "".join(
            f"; {n}" for n in result.notes))

        def loads():
            expect(result.loaded, f"{browser} loads the import: {result.load_error}")
        self.step(f"{browser} {slug} loads", loads)

        # A file that sends a message whose action is not written yet gets `not_implemented` where Safari's
        # handler answered: what its code then does is the unwritten action's, which the report names.
        unwritten = {place.rsplit(":", 1)[0] for m in messages for place in m["places"]}

        def no_new_errors():
            new = [e for e in result.errors if not theirs(e, browser, baselines, imported["locales"]) and e[0] not in unwritten]
            for e in result.errors:
                kind = "NEW" if e in new else "theirs" if theirs(e, browser, baselines, imported["locales"]) else "unwritten action"
                self.log(f"      {kind}: {e[0]}: {e[1][:200]}")
            expect(not new, f"{len(new)} error(s) the original does not have: "
                   + "; ".join(f"{f}: {m[:160]}" for f, m in new))
        if result.loaded:
            self.step(f"{browser} {slug} no error the original does not have", no_new_errors)

        def reached():
            for message in messages:
                reply = replies.get(message["name"])
                expect(isinstance(reply, dict) and reply.get("code") == "not_implemented",
                       f"{message['shape']} reaches its generated action: {reply!r}")
            self.log(f"      every message found reached its action in the host ({len(messages)}); the extension's "
                     f"own code had sent {', '.join(own) or 'none'} by then (the host's log)")
        if messages and result.loaded:
            self.step(f"{browser} {slug} native messages reach the host", reached)


def theirs(error: tuple[str, str], browser: str, baselines: dict, locales: set) -> bool:
    """An error the original has too: in this browser's baseline (same file, same message); the same
    message in either browser's baseline; where this browser could not load the original, an error in
    the same file in the other browser's (the engines word errors differently). And, loaded or not,
    Firefox's complaint about an i18n message that none of the extension's own locale files has."""
    missing = re.match(r"Unknown localization message (\S+)", error[1])
    if missing and missing.group(1).lower() not in locales:
        return True
    file, message = normalized(error)
    own = baselines.get(browser)
    if own is not None and own.loaded and (file, message) in own.keys():
        return True
    # The same error in the original in either browser, wherever the engine says it came from (Chromium
    # names a module worker's own script for a rejection in a module it imports).
    other = baselines.get("firefox" if browser == "chromium" else "chromium")
    for baseline in (own, other):
        if baseline is not None and baseline.loaded and message in {m for _, m in baseline.keys()}:
            return True
    if (own is None or not own.loaded) and other is not None and other.loaded:
        return file in {f for f, _ in other.keys()}
    return False


def locale_messages(resources: Path) -> set:
    """Every message name the extension's locale files define (lowercase: the browsers ignore case)."""
    names = set()
    for path in resources.glob("_locales/*/messages.json"):
        try:
            names.update(k.lower() for k in loose_json(path))
        except (ValueError, OSError):
            pass
    return names


def send(browser: str, b, eid, pages: dict, message: dict, folder: Path):
    """Sends `message` (its name under its key) as the extension does: from a page of it when it sends it from
    one, else from its background; in Safari's one-argument form."""
    shape = json.dumps({message["key"]: message["name"]})
    call = f"browser.runtime.sendNativeMessage('application.id', {shape})"
    from_page = any(p.split(":")[0].endswith((".js", ".mjs")) and p.split(":")[0] not in background_files(folder)
                    for p in message["places"])
    try:
        if from_page and pages:
            tab = next(iter(pages.values()))
            return tab.evaluate(f"browser.runtime.sendNativeMessage({shape}).catch(e => ({{error: String(e)}}))")
        if browser == "chromium":
            return b.service_worker_eval(f"{call}.catch(e => ({{error: String(e)}}))")
        page = next(iter(pages), None)
        return b.background_eval(f"bg.{call}.catch(e => ({{error: String(e)}}))", page=page or "manifest.json")
    except E2EError as exc:
        return {"error": str(exc)[:300]}


def background_files(folder: Path) -> set:
    manifest = loose_json(folder / "manifest.json")
    background = manifest.get("background", {})
    return {s.lstrip("/") for s in background.get("scripts", [])} | ({background["service_worker"]}
                                                                    if "service_worker" in background else set())


def host_log(art: Path) -> str:
    texts = []
    for name in ("chromium.stderr.log", "firefox.stderr.log", "firefox.console.log"):
        path = art / name
        if path.exists():
            texts.append(path.read_text(errors="replace"))
    return "\n".join(texts)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--browser", default="all", choices=["chromium", "firefox", "all"])
    ap.add_argument("--bin-dir", type=Path, default=Path(os.environ.get("E2E_BIN_DIR", REPO / ".build" / "debug")))
    ap.add_argument("--artifacts", type=Path, default=REPO / ".build" / "e2e-artifacts")
    ap.add_argument("--corpus", type=Path,
                    default=Path(os.environ.get("SAFARI_CORPUS", REPO.parent / "shared" / "safari-corpus")))
    ap.add_argument("--only", action="append", default=[], help="an extension's folder name (repeatable)")
    args = ap.parse_args()
    args.artifacts = args.artifacts.resolve()

    def log(line: str) -> None:
        print(line, flush=True)

    if not args.corpus.is_dir():
        print(f"safari corpus: {args.corpus} is absent, so the real-extension checks are skipped "
              "(set SAFARI_CORPUS to its folder)")
        print("0 passed, 0 failed")
        return 0
    sources = sorted(p for p in args.corpus.iterdir() if (p / "Resources" / "manifest.json").is_file()
                     and (not args.only or p.name in args.only))
    corpus = Corpus(args, log)
    corpus.servers = Servers(corpus.work)
    browsers = ["chromium", "firefox"] if args.browser == "all" else [args.browser]
    try:
        for source in sources:
            log(f"== {source.name}")
            holder: dict = {}

            def do_import(source=source, holder=holder):
                holder["imported"] = corpus.import_extension(source)
            if not corpus.step(f"import {source.name}", do_import):
                continue
            imported = holder["imported"]
            host = None
            if any(m.get("action") for m in imported["report"]["messages"]):
                def build(imported=imported, holder=holder):
                    holder["host"] = corpus.build_host(imported)
                if not corpus.step(f"build {source.name}'s host", build):
                    continue
                host = holder["host"]
            baselines = {browser: corpus.baseline(browser, source.name, source) for browser in browsers}
            for browser in browsers:
                corpus.check_browser(browser, imported, host, baselines)
            shutil.rmtree(imported["project"], ignore_errors=True)
    finally:
        corpus.servers.close()
        shutil.rmtree(corpus.work, ignore_errors=True)
    print(f"{corpus.passed} passed, {corpus.failed} failed", flush=True)
    return 0 if corpus.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
