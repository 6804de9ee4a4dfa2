"""Drive real, headless Chromium and Firefox ESR for ExtensionBridge's end-to-end tests.

Standard library only, plus PyPI's ``marionette_driver`` for Firefox (imported
lazily, so the Chromium half works without it). Run it with the venv that
``scripts/e2e/setup.sh`` creates.

    from browsers import Chromium, Firefox, TestServer

    with TestServer(pages_dir) as site, Chromium(ext_dir, artifacts) as chrome:
        ext_id = chrome.wait_for_extension()
        tab = chrome.new_tab(site.url("index.html"))
        tab.wait_for("document.querySelector('#out')?.textContent === 'done'")

See README.md beside this file for flags, error strings and pitfalls.
"""

from __future__ import annotations

import base64
import fcntl
import functools
import hashlib
import http.server
import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import uuid as uuidlib
from pathlib import Path
from typing import Any, Callable, Optional

__all__ = [
    "E2EError",
    "BrowserError",
    "WaitTimeout",
    "wait_until",
    "chromium_extension_id",
    "write_host_manifest",
    "TestServer",
    "Chromium",
    "ChromiumTab",
    "ExternalChromium",
    "Firefox",
    "FirefoxTab",
]

CHROMIUM_BINARY = os.environ.get("E2E_CHROMIUM", "/usr/lib/chromium/chromium")
FIREFOX_BINARY = os.environ.get("E2E_FIREFOX", "firefox-esr")

# Slow machine (2 cores shared with a compiler): be generous.
DEFAULT_START_TIMEOUT = float(os.environ.get("E2E_START_TIMEOUT", "90"))
DEFAULT_TIMEOUT = float(os.environ.get("E2E_TIMEOUT", "30"))


class E2EError(Exception):
    """Base class for every error raised here."""


class BrowserError(E2EError):
    """The browser did something unexpected (crashed, refused a command, JS threw)."""


class WaitTimeout(E2EError, TimeoutError):
    """A bounded wait ran out. The message says what was awaited and the last value seen."""


def wait_until(check: Callable[[], Any], timeout: float, what: str, interval: float = 0.1) -> Any:
    """Call ``check`` until it returns a truthy value; return that value.

    Exceptions from ``check`` count as "not yet" and the last one is reported on timeout.
    """
    deadline = time.monotonic() + timeout
    last: Any = None
    last_exc: Optional[BaseException] = None
    while True:
        try:
            last = check()
            last_exc = None
            if last:
                return last
        except WaitTimeout:
            raise
        except Exception as exc:  # noqa: BLE001 - reported below
            last_exc = exc
        if time.monotonic() >= deadline:
            detail = f"last error: {last_exc!r}" if last_exc else f"last value: {last!r}"
            raise WaitTimeout(f"timed out after {timeout:.0f}s waiting for {what} ({detail})")
        time.sleep(interval)


def chromium_extension_id(manifest_key_b64: str) -> str:
    """Chromium ID of an unpacked extension whose manifest has ``key``: SHA-256 of the DER key,
    first 32 hex digits, 0-f mapped to a-p."""
    digest = hashlib.sha256(base64.b64decode(manifest_key_b64)).hexdigest()[:32]
    return "".join(chr(ord("a") + int(c, 16)) for c in digest)


def write_host_manifest(
    directory: os.PathLike | str,
    name: str,
    path: os.PathLike | str,
    *,
    allowed_origins: Optional[list] = None,
    allowed_extensions: Optional[list] = None,
    description: str = "ExtensionBridge e2e host",
) -> Path:
    """Write ``directory/name.json``. Give ``allowed_origins`` (Chromium: "chrome-extension://ID/")
    or ``allowed_extensions`` (Firefox: add-on IDs)."""
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    body: dict = {"name": name, "description": description, "path": str(path), "type": "stdio"}
    if allowed_origins is not None:
        body["allowed_origins"] = list(allowed_origins)
    if allowed_extensions is not None:
        body["allowed_extensions"] = list(allowed_extensions)
    out = d / f"{name}.json"
    out.write_text(json.dumps(body, indent=2) + "\n")
    return out


# --------------------------------------------------------------------------- HTTP server


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, fmt, *args):  # noqa: D401 - keep test output clean
        pass

    def end_headers(self):
        # Nothing is cached between checks, but a page asked for with `?bfcache=1`, which the
        # back/forward cache may then keep (no-store would keep it out; check 18).
        if "bfcache=1" not in self.path.partition("?")[2].split("&"):
            self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def do_GET(self):
        # `?delay=MS` (at most 5 s): the answer comes that much later — a slow network, e.g. a
        # parser-blocking script that holds the rest of a page back (first-paint.html).
        query = self.path.partition("?")[2]
        for part in query.split("&"):
            name, _, value = part.partition("=")
            if name == "delay" and value.isdigit():
                time.sleep(min(int(value), 5000) / 1000)
        super().do_GET()


class TestServer:
    """A threaded static-file server on 127.0.0.1 at a random free port."""

    __test__ = False  # not a pytest test class

    def __init__(self, directory: os.PathLike | str):
        self.directory = str(directory)
        handler = functools.partial(_QuietHandler, directory=self.directory)
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self._thread = threading.Thread(target=self.httpd.serve_forever, name="e2e-http", daemon=True)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, path: str = "") -> str:
        return f"{self.origin}/{path.lstrip('/')}"

    def start(self) -> "TestServer":
        self._thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


# --------------------------------------------------------------------------- process helpers


def _kill_group(proc: subprocess.Popen, grace: float = 5.0) -> None:
    """SIGTERM the process group led by ``proc`` (started with start_new_session=True), SIGKILL
    what is left after ``grace`` s, and wait (bounded) until the group is gone. Touches no other
    process."""
    pgid = proc.pid

    def group_alive() -> bool:
        try:
            os.killpg(pgid, 0)
            return True
        except ProcessLookupError:
            return False
        except PermissionError:
            return True

    if proc.poll() is None or group_alive():
        try:
            os.killpg(pgid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        pass
    deadline = time.monotonic() + 10
    while group_alive() and time.monotonic() < deadline:
        try:
            os.killpg(pgid, signal.SIGKILL)
        except ProcessLookupError:
            break
        if proc.poll() is None:
            try:
                proc.wait(timeout=0.2)
            except subprocess.TimeoutExpired:
                pass
        time.sleep(0.1)  # orphaned helpers are zombies until init reaps them


def _tail(path: Path, n: int = 30) -> str:
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        return "(no log)"
    return "\n".join(lines[-n:])


# --------------------------------------------------------------------------- Chromium (CDP over a pipe)


class CDPError(BrowserError):
    pass


class _CDPPipe:
    """Chrome DevTools protocol over --remote-debugging-pipe: we write NUL-terminated JSON to the
    browser's fd 3 and read NUL-terminated JSON from its fd 4."""

    def __init__(self, to_browser: int, from_browser: int):
        self._w = to_browser
        self._r = from_browser
        self._lock = threading.Lock()
        self._next_id = 0
        self._pending: dict[int, dict] = {}
        self._cond = threading.Condition()
        self.events: list[dict] = []
        # method → list: that method's events are kept there instead, all of them, in order (the
        # chunks of a heap snapshot outnumber what `events` keeps).
        self.sinks: dict[str, list] = {}
        self.closed = False
        self._reader = threading.Thread(target=self._read_loop, name="cdp-reader", daemon=True)
        self._reader.start()

    def _read_loop(self) -> None:
        buf = b""
        try:
            while True:
                chunk = os.read(self._r, 1 << 16)
                if not chunk:
                    break
                buf += chunk
                while b"\0" in buf:
                    raw, buf = buf.split(b"\0", 1)
                    msg = json.loads(raw.decode("utf-8"))
                    with self._cond:
                        if "id" in msg:
                            self._pending[msg["id"]] = msg
                        elif msg.get("method") in self.sinks:
                            self.sinks[msg["method"]].append(msg.get("params", {}))
                        else:
                            self.events.append(msg)
                            if len(self.events) > 5000:
                                del self.events[:1000]
                        self._cond.notify_all()
        except OSError:
            pass
        finally:
            with self._cond:
                self.closed = True
                self._cond.notify_all()

    def send(self, method: str, params: Optional[dict] = None, session_id: Optional[str] = None,
             timeout: float = DEFAULT_TIMEOUT) -> dict:
        with self._lock:
            self._next_id += 1
            mid = self._next_id
            msg: dict = {"id": mid, "method": method, "params": params or {}}
            if session_id:
                msg["sessionId"] = session_id
            data = json.dumps(msg).encode("utf-8") + b"\0"
            try:
                view = memoryview(data)
                while view:
                    n = os.write(self._w, view)
                    view = view[n:]
            except OSError as exc:
                raise CDPError(f"{method}: pipe to browser is closed ({exc})") from exc
        deadline = time.monotonic() + timeout
        with self._cond:
            while mid not in self._pending:
                if self.closed:
                    raise CDPError(f"{method}: browser closed the DevTools pipe")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise WaitTimeout(f"timed out after {timeout:.0f}s waiting for the reply to {method}")
                self._cond.wait(left)
            resp = self._pending.pop(mid)
        if "error" in resp:
            raise CDPError(f"{method} failed: {resp['error']}")
        return resp.get("result", {})

    def close(self) -> None:
        for fd in (self._w, self._r):
            try:
                os.close(fd)
            except OSError:
                pass


def _dup_high(fd: int) -> int:
    """Move ``fd`` to a number >= 10 so the shell's 3</4> redirections cannot clobber it."""
    new = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return new


class ChromiumTab:
    """A page target (tab) attached with a flat session."""

    def __init__(self, browser: "Chromium", target_id: str, session_id: str):
        self.browser = browser
        self.target_id = target_id
        self.session_id = session_id

    def send(self, method: str, params: Optional[dict] = None, timeout: float = DEFAULT_TIMEOUT) -> dict:
        return self.browser.cdp.send(method, params, self.session_id, timeout)

    def evaluate(self, expression: str, timeout: float = DEFAULT_TIMEOUT) -> Any:
        """Evaluate a JS expression (a promise is awaited) and return its JSON value."""
        return self.browser._evaluate(self.session_id, expression, timeout)

    def wait_for(self, expression: str, timeout: float = DEFAULT_TIMEOUT, interval: float = 0.2) -> Any:
        """Poll a JS expression until it is truthy; return its value."""
        return wait_until(lambda: self.evaluate(expression, timeout=min(timeout, 10)), timeout,
                          f"page condition `{expression}` in {self.target_id}", interval)

    def navigate(self, url: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.send("Page.navigate", {"url": url}, timeout)
        self.wait_for(f"document.readyState === 'complete' && location.href.startsWith({json.dumps(url.split('#')[0])})",
                      timeout)

    def click(self, selector: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        """Wait for ``selector`` and click it (element.click(): a DOM click, not synthesized input)."""
        sel = json.dumps(selector)
        self.wait_for(f"!!document.querySelector({sel})", timeout)
        self.evaluate(f"document.querySelector({sel}).click(), true", timeout)

    def screenshot(self, path: os.PathLike | str, timeout: float = DEFAULT_TIMEOUT) -> Path:
        # A background tab is not painted in headless mode: captureScreenshot would wait for a
        # frame until the timeout. Select the tab first.
        try:
            self.activate()
        except E2EError:
            pass
        data = self.send("Page.captureScreenshot", {"format": "png"}, timeout)["data"]
        out = Path(path)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(base64.b64decode(data))
        return out

    def url(self) -> str:
        return self.evaluate("location.href")

    def activate(self) -> None:
        """Make this the window's active tab (what tabs.query({active: true}) reports)."""
        self.browser.cdp.send("Target.activateTarget", {"targetId": self.target_id})

    def _content_script_context(self, extension_id: str) -> Optional[str]:
        """uniqueId of the extension's isolated world (content script) in this tab's main frame,
        from the Runtime.executionContext* events of this session (Runtime is enabled per tab)."""
        contexts: dict = {}
        main_frame = self.send("Page.getFrameTree")["frameTree"]["frame"]["id"]
        for ev in list(self.browser.cdp.events):
            if ev.get("sessionId") != self.session_id:
                continue
            method, p = ev.get("method"), ev.get("params", {})
            if method == "Runtime.executionContextCreated":
                c = p["context"]
                contexts[c["id"]] = c
            elif method == "Runtime.executionContextDestroyed":
                contexts.pop(p.get("executionContextId"), None)
            elif method == "Runtime.executionContextsCleared":
                contexts.clear()
        origin = f"chrome-extension://{extension_id}"
        for c in reversed(list(contexts.values())):
            aux = c.get("auxData", {})
            if (c.get("origin", "").rstrip("/") == origin and not aux.get("isDefault")
                    and aux.get("frameId") == main_frame):
                return c.get("uniqueId")
        return None

    def content_script_eval(self, expression: str, extension_id: Optional[str] = None,
                            timeout: float = DEFAULT_TIMEOUT) -> Any:
        """Evaluate in the extension's content-script world of this tab (``chrome.runtime`` is the
        content script's; the sender the background sees is this tab's content script)."""
        eid = extension_id or self.browser.extension_id
        ctx = wait_until(lambda: self._content_script_context(eid), timeout,
                         f"content-script world of {eid} in {self.target_id}", 0.1)
        res = self.send("Runtime.evaluate", {
            "expression": expression, "awaitPromise": True, "returnByValue": True,
            "uniqueContextId": ctx, "timeout": int(timeout * 1000)}, timeout + 5)
        if "exceptionDetails" in res:
            d = res["exceptionDetails"]
            raise BrowserError(f"JS threw in content script `{expression[:200]}`: "
                               f"{(d.get('exception') or {}).get('description') or d.get('text')}")
        return res.get("result", {}).get("value")

    def console_messages(self) -> list:
        """console.* calls and uncaught exceptions seen in this tab since it was opened."""
        out = []
        for ev in list(self.browser.cdp.events):
            if ev.get("sessionId") != self.session_id:
                continue
            p = ev.get("params", {})
            if ev.get("method") == "Runtime.consoleAPICalled":
                out.append(f"[{p.get('type')}] " + " ".join(
                    str(a.get("value", a.get("description", ""))) for a in p.get("args", [])))
            elif ev.get("method") == "Runtime.exceptionThrown":
                d = p.get("exceptionDetails", {})
                out.append("[exception] " + str((d.get("exception") or {}).get("description") or d.get("text")))
        return out

    def close(self) -> None:
        try:
            self.browser.cdp.send("Target.closeTarget", {"targetId": self.target_id})
        except E2EError:
            pass
        if self in self.browser.tabs:
            self.browser.tabs.remove(self)


class Chromium:
    """Headless Chromium with one unpacked extension, driven over --remote-debugging-pipe.

    Use as a context manager. On an exception inside the ``with`` block, a screenshot of every
    open tab goes to ``artifacts_dir`` next to ``chromium.stderr.log`` (which is always kept).
    """

    # --no-sandbox: we run as root. --disable-gpu/--use-gl=swiftshader-free defaults keep it quiet
    # without a GPU. The rest stops background network traffic and first-run UI (offline machine).
    BASE_FLAGS = [
        "--headless=new",
        "--no-sandbox",
        "--remote-debugging-pipe",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-default-apps",
        "--disable-sync",
        "--disable-breakpad",
        "--disable-crash-reporter",
        "--metrics-recording-only",
        "--password-store=basic",
        "--use-mock-keychain",
        "--mute-audio",
        "--window-size=1280,800",
    ]

    def __init__(
        self,
        extension_dir: Optional[os.PathLike | str],
        artifacts_dir: os.PathLike | str,
        *,
        user_data_dir: Optional[os.PathLike | str] = None,
        binary: str = CHROMIUM_BINARY,
        extra_args: tuple = (),
        env: Optional[dict] = None,
        start_timeout: float = DEFAULT_START_TIMEOUT,
    ):
        self.extension_dir = Path(extension_dir).resolve() if extension_dir else None
        self.artifacts_dir = Path(artifacts_dir)
        self.artifacts_dir.mkdir(parents=True, exist_ok=True)
        self._own_udd = user_data_dir is None
        self.user_data_dir = Path(user_data_dir or tempfile.mkdtemp(prefix="e2e-chromium-"))
        self.user_data_dir.mkdir(parents=True, exist_ok=True)
        self.binary = binary
        self.extra_args = list(extra_args)
        self.env = dict(os.environ if env is None else env)
        self.start_timeout = start_timeout
        self.stderr_log = self.artifacts_dir / "chromium.stderr.log"
        self.proc: Optional[subprocess.Popen] = None
        self.cdp: Optional[_CDPPipe] = None
        self.tabs: list[ChromiumTab] = []
        self.extension_id: Optional[str] = None
        self.version: Optional[str] = None

    @property
    def native_hosts_dir(self) -> Path:
        """Where this browser looks for host manifests: USER_DATA_DIR/NativeMessagingHosts/
        (and /etc/chromium/native-messaging-hosts/), not ~/.config/chromium/..."""
        return self.user_data_dir / "NativeMessagingHosts"

    def args(self) -> list:
        a = [self.binary, *self.BASE_FLAGS, f"--user-data-dir={self.user_data_dir}"]
        if self.extension_dir:
            a.append(f"--load-extension={self.extension_dir}")
        a += self.extra_args
        a.append("about:blank")
        return a

    def start(self) -> "Chromium":
        # our end -> browser fd 3 ; browser fd 4 -> our end
        cmd_r, cmd_w = os.pipe()
        res_r, res_w = os.pipe()
        cmd_r, cmd_w, res_r, res_w = (_dup_high(f) for f in (cmd_r, cmd_w, res_r, res_w))
        # Let bash (dash takes single-digit fds only) place the pipe ends on fds 3 and 4
        # (thread-safe, unlike preexec_fn).
        shell = f'exec "$@" 3<&{cmd_r} 4>&{res_w} {cmd_r}<&- {res_w}>&-'
        log = open(self.stderr_log, "ab")
        try:
            self.proc = subprocess.Popen(
                ["/bin/bash", "-c", shell, "chromium", *self.args()],
                stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                pass_fds=(cmd_r, res_w), env=self.env, start_new_session=True,
                cwd=str(self.user_data_dir),
            )
        finally:
            log.close()
            os.close(cmd_r)
            os.close(res_w)
        self.cdp = _CDPPipe(cmd_w, res_r)
        try:
            info = self.cdp.send("Browser.getVersion", timeout=self.start_timeout)
        except E2EError as exc:
            self._fail_start(exc)
        self.version = info.get("product")
        return self

    def _fail_start(self, exc: BaseException):
        code = self.proc.poll() if self.proc else None
        self.close()
        raise BrowserError(f"Chromium did not start (exit code {code}): {exc}\n"
                           f"--- {self.stderr_log} (tail) ---\n{_tail(self.stderr_log)}") from exc

    def _evaluate(self, session_id: Optional[str], expression: str, timeout: float) -> Any:
        res = self.cdp.send("Runtime.evaluate", {
            "expression": expression, "awaitPromise": True, "returnByValue": True,
            "userGesture": True, "timeout": int(timeout * 1000),
        }, session_id, timeout + 5)
        if "exceptionDetails" in res:
            d = res["exceptionDetails"]
            text = (d.get("exception") or {}).get("description") or d.get("text")
            raise BrowserError(f"JS threw in `{expression[:200]}`: {text}")
        return res.get("result", {}).get("value")

    def targets(self) -> list:
        return self.cdp.send("Target.getTargets")["targetInfos"]

    def wait_for_extension(self, timeout: float = DEFAULT_START_TIMEOUT, extension_id: Optional[str] = None) -> str:
        """Wait for the extension's service worker target; return the extension ID from its URL."""
        def find():
            for t in self.targets():
                if t["type"] == "service_worker" and t["url"].startswith("chrome-extension://"):
                    eid = t["url"].split("/")[2]
                    if extension_id is None or eid == extension_id:
                        return eid
            return None
        try:
            self.extension_id = wait_until(find, timeout, "the extension's service worker target", 0.25)
        except WaitTimeout as exc:
            raise WaitTimeout(f"{exc}\nTargets: {self.targets()}\n--- stderr tail ---\n{_tail(self.stderr_log)}") from None
        return self.extension_id

    def _attach(self, target_id: str) -> str:
        return self.cdp.send("Target.attachToTarget", {"targetId": target_id, "flatten": True})["sessionId"]

    def _sw_target(self, eid: str) -> Optional[dict]:
        prefix = f"chrome-extension://{eid}/"
        return next((t for t in self.targets() if t["type"] == "service_worker" and t["url"].startswith(prefix)), None)

    def wake_service_worker(self, timeout: float = DEFAULT_TIMEOUT) -> dict:
        """Return the extension's service-worker target, starting the worker if it went idle
        (Chromium stops an idle MV3 worker after ~30 s and its target disappears)."""
        eid = self.extension_id or self.wait_for_extension()
        t = self._sw_target(eid)
        if t:
            return t
        helper = self.tabs[0] if self.tabs else self.new_tab("about:blank")
        helper.send("ServiceWorker.enable")
        helper.send("ServiceWorker.startWorker", {"scopeURL": f"chrome-extension://{eid}/"})
        return wait_until(lambda: self._sw_target(eid), timeout, f"service worker of {eid} to start", 0.2)

    def service_worker_eval(self, expression: str, timeout: float = DEFAULT_TIMEOUT) -> Any:
        """Evaluate in the extension's service worker (started first if idle; fresh session each call)."""
        t = self.wake_service_worker(timeout)
        sid = self._attach(t["targetId"])
        try:
            return self._evaluate(sid, expression, timeout)
        finally:
            try:
                self.cdp.send("Target.detachFromTarget", {"sessionId": sid})
            except E2EError:
                pass

    def background_eval(self, expression: str, timeout: float = DEFAULT_TIMEOUT) -> Any:
        """Same call as Firefox.background_eval: ``bg`` is the service worker's global."""
        return self.service_worker_eval("((bg) => (" + expression + "\n))(globalThis)", timeout)

    def load_unpacked(self, path: os.PathLike | str, timeout: float = DEFAULT_TIMEOUT) -> str:
        """Load an unpacked extension at run time (CDP Extensions.loadUnpacked; works over the pipe on
        Chromium 156 without --enable-unsafe-extension-debugging). Returns its ID."""
        eid = self.cdp.send("Extensions.loadUnpacked", {"path": str(Path(path).resolve())}, timeout=timeout)["id"]
        self.extension_id = eid
        return eid

    def new_tab(self, url: str = "about:blank", timeout: float = DEFAULT_TIMEOUT, wait_load: bool = True) -> ChromiumTab:
        tid = self.cdp.send("Target.createTarget", {"url": "about:blank"}, timeout=timeout)["targetId"]
        tab = ChromiumTab(self, tid, self._attach(tid))
        self.tabs.append(tab)
        tab.send("Page.enable")
        tab.send("Runtime.enable")
        if url != "about:blank":
            if wait_load:
                tab.navigate(url, timeout)
            else:
                tab.send("Page.navigate", {"url": url})
        return tab

    def open_extension_page(self, path: str = "popup/popup.html", timeout: float = DEFAULT_TIMEOUT) -> ChromiumTab:
        eid = self.extension_id or self.wait_for_extension()
        return self.new_tab(f"chrome-extension://{eid}/{path.lstrip('/')}", timeout)

    def screenshot_all(self, prefix: str = "failure") -> list:
        shots = []
        for i, tab in enumerate(list(self.tabs)):
            try:
                shots.append(tab.screenshot(self.artifacts_dir / f"{prefix}-chromium-tab{i}.png", timeout=10))
            except Exception:  # noqa: BLE001 - best effort on the failure path
                pass
        return shots

    def close(self) -> None:
        if self.cdp and self.proc and self.proc.poll() is None:
            try:
                self.cdp.send("Browser.close", timeout=10)
                self.proc.wait(timeout=10)
            except Exception:  # noqa: BLE001
                pass
        if self.proc:
            _kill_group(self.proc)
        if self.cdp:
            self.cdp.close()
            self.cdp = None
        if self._own_udd:
            shutil.rmtree(self.user_data_dir, ignore_errors=True)

    def __enter__(self) -> "Chromium":
        return self.start()

    def save_console(self) -> Path:
        path = self.artifacts_dir / "chromium.console.log"
        with open(path, "w") as fh:
            for i, tab in enumerate(self.tabs):
                for line in tab.console_messages():
                    fh.write(f"tab{i} {line}\n")
        return path

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None and self.proc and self.proc.poll() is None:
            self.screenshot_all()
            self.save_console()
        self.close()


# --------------------------------------------------------------------------- Firefox (Marionette)

FIREFOX_PREFS = {
    # Marionette on a port the OS picks; Firefox writes it to PROFILE/MarionetteActivePort.
    "marionette.port": 0,
    # quiet, offline, no first-run UI
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.startup.page": 0,
    "browser.startup.homepage": "about:blank",
    "startup.homepage_welcome_url": "about:blank",
    "startup.homepage_welcome_url.additional": "",
    "browser.aboutwelcome.enabled": False,
    "trailhead.firstrun.didSeeAboutWelcome": True,
    "datareporting.policy.dataSubmissionEnabled": False,
    "datareporting.healthreport.uploadEnabled": False,
    "toolkit.telemetry.enabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "app.update.auto": False,
    "app.update.enabled": False,
    "app.normandy.enabled": False,
    "extensions.update.enabled": False,
    "extensions.getAddons.cache.enabled": False,
    "extensions.blocklist.enabled": False,
    "extensions.systemAddon.update.enabled": False,
    "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False,
    "browser.safebrowsing.downloads.enabled": False,
    "browser.safebrowsing.blockedURIs.enabled": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
    "browser.newtabpage.enabled": False,
    "browser.region.network.url": "",
    "browser.search.geoip.url": "",
    "browser.topsites.contile.enabled": False,
    "services.settings.server": "data:,",
    "media.gmp-manager.url": "data:,",
    "browser.tabs.warnOnClose": False,
    "browser.warnOnQuit": False,
    "browser.sessionstore.resume_from_crash": False,
    # temporary add-ons need no signature; MV3 host permissions granted without a prompt
    "xpinstall.signatures.required": False,
    "extensions.manifestV3.enabled": True,
    # print extension console messages (and native host stderr) to our stderr log
    "devtools.console.stdout.chrome": True,
    "devtools.console.stdout.content": True,
    "browser.dom.window.dump.enabled": True,
    "dom.disable_open_during_load": False,
}


class FirefoxTab:
    """A tab (window handle). Each call switches Marionette to this tab first."""

    def __init__(self, browser: "Firefox", handle: str):
        self.browser = browser
        self.handle = handle

    def _focus(self):
        """Point Marionette at this tab without selecting it (so a popup page evaluated in a
        background tab still sees the page tab as the active one)."""
        m = self.browser.client
        m.set_context(m.CONTEXT_CONTENT)
        if m.current_window_handle != self.handle:
            m.switch_to_window(self.handle, focus=False)
        return m

    def activate(self) -> None:
        """Select this tab (what tabs.query({active: true}) reports)."""
        m = self.browser.client
        m.set_context(m.CONTEXT_CONTENT)
        m.switch_to_window(self.handle, focus=True)

    def content_script_eval(self, expression: str, addon_id: Optional[str] = None,
                            timeout: float = DEFAULT_TIMEOUT) -> Any:
        """Evaluate in the add-on's content-script sandbox of this tab (found through
        ExtensionContent.getContextByExtensionId from a system-principal Marionette sandbox);
        ``browser.runtime`` there is the content script's own."""
        m = self._focus()
        aid = addon_id or self.browser.addon_id
        script = (
            "const done = arguments[arguments.length - 1];\n"
            "const {ExtensionContent} = ChromeUtils.importESModule('resource://gre/modules/ExtensionContent.sys.mjs');\n"
            "const ctx = ExtensionContent.getContextByExtensionId(arguments[0], window);\n"
            "if (!ctx || !ctx.sandbox) { done({ok: false, error: 'no content script context', retry: true}); return; }\n"
            "const src = 'Promise.resolve().then(() => (' + arguments[1] + '\\n)).then(v => JSON.stringify({v: v === undefined ? null : v}))';\n"
            "let p; try { p = Cu.evalInSandbox(src, ctx.sandbox); } catch (e) { done({ok: false, error: String(e)}); return; }\n"
            "p.then(t => done({ok: true, value: JSON.parse(t).v}), e => done({ok: false, error: String(e)}));"
        )
        from marionette_driver import errors as merrors  # lazy

        def attempt():
            try:
                res = m.execute_async_script(script, script_args=[aid, expression], sandbox="system",
                                             new_sandbox=False, script_timeout=int(timeout * 1000))
            except merrors.ScriptTimeoutException as exc:
                raise WaitTimeout(f"timed out after {timeout:.0f}s evaluating `{expression[:200]}` "
                                  "in the content script") from exc
            except merrors.MarionetteException as exc:
                raise BrowserError(f"content-script eval of `{expression[:200]}` failed: {exc}") from exc
            if res and res.get("retry"):
                return None
            return res or {"ok": False, "error": "no result"}
        res = wait_until(attempt, timeout, f"content-script world of {aid} in Firefox tab {self.handle}", 0.1)
        if not res.get("ok"):
            raise BrowserError(f"JS threw in content script `{expression[:200]}`: {res.get('error')}")
        return res.get("value")

    def navigate(self, url: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        m = self._focus()
        m.timeout.page_load = timeout
        m.navigate(url)

    def evaluate(self, expression: str, timeout: float = DEFAULT_TIMEOUT) -> Any:
        """Evaluate a JS expression in the page's own global (awaits a promise); return JSON value."""
        m = self._focus()
        script = (
            "const done = arguments[arguments.length - 1];\n"
            "Promise.resolve().then(() => (" + expression + "\n))"
            ".then(v => done({ok: true, value: v === undefined ? null : v}),"
            " e => done({ok: false, error: String(e && e.stack ? e + '\\n' + e.stack : e)}));"
        )
        from marionette_driver import errors as merrors  # lazy
        try:
            # sandbox=None: run in the page's global (no Xray), so page and extension-page globals
            # (and browser.*/chrome.* on moz-extension:// pages) are visible.
            res = m.execute_async_script(script, sandbox=None, new_sandbox=False,
                                         script_timeout=int(timeout * 1000))
        except merrors.ScriptTimeoutException as exc:
            raise WaitTimeout(f"timed out after {timeout:.0f}s evaluating `{expression[:200]}`") from exc
        except merrors.MarionetteException as exc:
            raise BrowserError(f"evaluating `{expression[:200]}` failed: {exc}") from exc
        if not res or not res.get("ok"):
            raise BrowserError(f"JS threw in `{expression[:200]}`: {(res or {}).get('error')}")
        return res.get("value")

    def wait_for(self, expression: str, timeout: float = DEFAULT_TIMEOUT, interval: float = 0.2) -> Any:
        return wait_until(lambda: self.evaluate(expression, timeout=min(timeout, 10)), timeout,
                          f"page condition `{expression}` in Firefox tab {self.handle}", interval)

    def click(self, selector: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        sel = json.dumps(selector)
        self.wait_for(f"!!document.querySelector({sel})", timeout)
        self.evaluate(f"(document.querySelector({sel}).click(), true)", timeout)

    def screenshot(self, path: os.PathLike | str, timeout: float = DEFAULT_TIMEOUT) -> Path:
        self.activate()  # a background tab may not be painted
        m = self.browser.client
        out = Path(path)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(m.screenshot(format="binary", full=False))
        return out

    def url(self) -> str:
        return self._focus().get_url()

    def close(self) -> None:
        m = self._focus()
        remaining = m.close()
        if self in self.browser.tabs:
            self.browser.tabs.remove(self)
        if remaining:
            m.switch_to_window(remaining[0])


class ExternalChromium(Chromium):
    """Chromium as a user starts it, for the External Extensions route: without
    --disable-default-apps, which makes Chromium skip every external extension provider but
    policy, the External Extensions folder included (measured: with it, neither our CRX nor one
    from chromium --pack-extension installs; without it both do)."""

    BASE_FLAGS = [flag for flag in Chromium.BASE_FLAGS if flag != "--disable-default-apps"]


class Firefox:
    """Headless Firefox ESR with a temporary add-on, driven over Marionette.

    HOME is a fresh directory per run, so native host manifests go to
    ``self.native_hosts_dir`` ($HOME/.mozilla/native-messaging-hosts/). The add-on's
    moz-extension:// UUID is fixed before start through the ``extensions.webextensions.uuids``
    pref, so ``self.base_url`` is known without asking the browser.
    """

    def __init__(
        self,
        extension_dir: Optional[os.PathLike | str],
        artifacts_dir: os.PathLike | str,
        *,
        addon_id: Optional[str] = None,
        extension_uuid: Optional[str] = None,
        profile_dir: Optional[os.PathLike | str] = None,
        home_dir: Optional[os.PathLike | str] = None,
        binary: str = FIREFOX_BINARY,
        prefs: Optional[dict] = None,
        extra_args: tuple = (),
        env: Optional[dict] = None,
        start_timeout: float = DEFAULT_START_TIMEOUT,
    ):
        self.extension_dir = Path(extension_dir).resolve() if extension_dir else None
        if addon_id is None and self.extension_dir:
            manifest = json.loads((self.extension_dir / "manifest.json").read_text())
            gecko = manifest.get("browser_specific_settings", {}).get("gecko", {})
            addon_id = gecko.get("id")
        self.addon_id = addon_id
        self.extension_uuid = extension_uuid or str(uuidlib.uuid4())
        self.artifacts_dir = Path(artifacts_dir)
        self.artifacts_dir.mkdir(parents=True, exist_ok=True)
        self._scratch = Path(tempfile.mkdtemp(prefix="e2e-firefox-"))
        self.profile_dir = Path(profile_dir or self._scratch / "profile")
        self.home_dir = Path(home_dir or self._scratch / "home")
        self.profile_dir.mkdir(parents=True, exist_ok=True)
        self.home_dir.mkdir(parents=True, exist_ok=True)
        self.binary = binary
        self.prefs = dict(FIREFOX_PREFS)
        if self.addon_id:
            self.prefs["extensions.webextensions.uuids"] = json.dumps({self.addon_id: self.extension_uuid})
        self.prefs.update(prefs or {})
        self.extra_args = list(extra_args)
        base_env = dict(os.environ if env is None else env)
        base_env.update({
            "HOME": str(self.home_dir),
            "MOZ_CRASHREPORTER_DISABLE": "1",
            "MOZ_DISABLE_AUTO_SAFE_MODE": "1",
            "MOZ_HEADLESS": "1",
        })
        base_env.pop("XDG_CONFIG_HOME", None)
        base_env.pop("XDG_CACHE_HOME", None)
        self.env = base_env
        self.start_timeout = start_timeout
        self.stderr_log = self.artifacts_dir / "firefox.stderr.log"
        self.proc: Optional[subprocess.Popen] = None
        self.client = None
        self.tabs: list[FirefoxTab] = []
        self.version: Optional[str] = None
        self.uuid_from_pref: Optional[bool] = None
        self.console_log = self.artifacts_dir / "firefox.console.log"

    @property
    def native_hosts_dir(self) -> Path:
        return self.home_dir / ".mozilla" / "native-messaging-hosts"

    @property
    def base_url(self) -> str:
        return f"moz-extension://{self.extension_uuid}/"

    def _write_prefs(self) -> None:
        lines = [f"user_pref({json.dumps(k)}, {json.dumps(v)});" for k, v in self.prefs.items()]
        (self.profile_dir / "user.js").write_text("\n".join(lines) + "\n")

    def args(self) -> list:
        return [self.binary, "--headless", "--marionette", "--remote-allow-system-access",
                "--no-remote", "--new-instance", "--profile", str(self.profile_dir), *self.extra_args]

    def start(self) -> "Firefox":
        try:
            from marionette_driver.marionette import Marionette
        except ImportError as exc:
            raise E2EError("marionette_driver is missing: run scripts/e2e/setup.sh and use its venv") from exc
        self._write_prefs()
        port_file = self.profile_dir / "MarionetteActivePort"
        port_file.unlink(missing_ok=True)
        log = open(self.stderr_log, "ab")
        try:
            self.proc = subprocess.Popen(self.args(), stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                         env=self.env, start_new_session=True, cwd=str(self.home_dir))
        finally:
            log.close()

        def port():
            if self.proc.poll() is not None:
                raise BrowserError(f"firefox exited with code {self.proc.returncode}")
            text = port_file.read_text().strip() if port_file.exists() else ""
            return int(text) if text.isdigit() and int(text) > 0 else None
        try:
            p = wait_until(port, self.start_timeout, "Firefox's Marionette port (MarionetteActivePort)", 0.25)
            self.client = Marionette(host="127.0.0.1", port=p, startup_timeout=int(self.start_timeout))
            caps = self.client.start_session(timeout=self.start_timeout)
        except Exception as exc:  # noqa: BLE001
            code = self.proc.poll()
            self.close()
            raise BrowserError(f"Firefox did not start (exit code {code}): {exc}\n"
                               f"--- {self.stderr_log} (tail) ---\n{_tail(self.stderr_log)}") from exc
        self.version = f"{caps.get('browserName')} {caps.get('browserVersion')}"
        self.tabs = [FirefoxTab(self, self.client.current_window_handle)]
        return self

    def chrome_eval(self, script: str, args: tuple = (), timeout: float = DEFAULT_TIMEOUT) -> Any:
        """Run a privileged script (function body; use `return`) in the chrome context."""
        m = self.client
        m.set_context(m.CONTEXT_CHROME)
        try:
            return m.execute_script(script, script_args=args, script_timeout=int(timeout * 1000))
        finally:
            m.set_context(m.CONTEXT_CONTENT)

    def install_extension(self, path: Optional[os.PathLike | str] = None, timeout: float = DEFAULT_START_TIMEOUT) -> str:
        """Install ``path`` (default: extension_dir) as a temporary add-on; wait until its background
        has started; return the moz-extension:// base URL."""
        from marionette_driver.addons import Addons
        path = Path(path or self.extension_dir).resolve()
        addon_id = Addons(self.client).install(str(path), temp=True)
        if self.addon_id and addon_id != self.addon_id:
            raise BrowserError(f"installed add-on ID {addon_id!r} != expected {self.addon_id!r}")
        self.addon_id = addon_id

        def policy():
            return self.chrome_eval(
                "const p = WebExtensionPolicy.getByID(arguments[0]);"
                "return p && p.active ? p.getURL('') : null;", (addon_id,))
        base = wait_until(policy, timeout, f"WebExtensionPolicy for {addon_id} to become active", 0.25)
        self.uuid_from_pref = base == self.base_url
        if not self.uuid_from_pref:
            # pref was ignored (e.g. add-on ID unknown before start): trust the browser
            self.extension_uuid = base.split("/")[2]
        return self.base_url

    def background_eval(self, expression: str, page: str = "popup/popup.html", timeout: float = DEFAULT_TIMEOUT) -> Any:
        """Evaluate ``expression`` with ``bg`` bound to the background page's window (Firefox runs
        background.scripts as an event page; reach it through runtime.getBackgroundPage() from an
        extension page, opened once in a helper tab). Example: ``background_eval("bg.someGlobal")``."""
        if getattr(self, "_bg_tab", None) is None or self._bg_tab not in self.tabs:
            self._bg_tab = self.open_extension_page(page, timeout)
        return self._bg_tab.evaluate(
            "(async () => { const bg = await browser.runtime.getBackgroundPage(); return (" + expression + "\n); })()",
            timeout)

    def console_messages(self) -> list:
        """The Browser Console's messages (extension console output, JS errors, and the native
        host's stderr, which Firefox logs there rather than to its own stderr)."""
        return self.chrome_eval(
            "return Services.console.getMessageArray().map(m => {"
            " const e = m instanceof Ci.nsIScriptError ? m : null;"
            " return e ? `[${e.category}] ${e.errorMessage} (${e.sourceName}:${e.lineNumber})` : m.message; });")

    def save_console(self) -> Optional[Path]:
        try:
            msgs = self.console_messages()
        except Exception:  # noqa: BLE001 - best effort
            return None
        self.console_log.write_text("\n".join(msgs) + "\n")
        return self.console_log

    def new_tab(self, url: str = "about:blank", timeout: float = DEFAULT_TIMEOUT) -> FirefoxTab:
        m = self.client
        m.set_context(m.CONTEXT_CONTENT)
        handle = m.open(type="tab", focus=True)["handle"]
        tab = FirefoxTab(self, handle)
        self.tabs.append(tab)
        if url != "about:blank":
            tab.navigate(url, timeout)
        return tab

    def open_extension_page(self, path: str = "popup/popup.html", timeout: float = DEFAULT_TIMEOUT) -> FirefoxTab:
        return self.new_tab(self.base_url + path.lstrip("/"), timeout)

    def screenshot_all(self, prefix: str = "failure") -> list:
        shots = []
        for i, tab in enumerate(list(self.tabs)):
            try:
                shots.append(tab.screenshot(self.artifacts_dir / f"{prefix}-firefox-tab{i}.png", timeout=10))
            except Exception:  # noqa: BLE001
                pass
        return shots

    def close(self, timeout: float = 30) -> None:
        """In-app quit (Marionette:Quit = Services.startup.quit), then kill the process group."""
        if self.client is not None and self.proc and self.proc.poll() is None:
            self.save_console()
            try:
                self.client._send_message("Marionette:Quit", {})
            except Exception:  # noqa: BLE001 - try the chrome-context route, then kill
                try:
                    self.client.set_context(self.client.CONTEXT_CHROME)
                    self.client.execute_script(
                        "Services.startup.quit(Ci.nsIAppStartup.eForceQuit); return true;", script_timeout=5000)
                except Exception:  # noqa: BLE001
                    pass
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                pass
        if self.client is not None:
            try:
                self.client.client.close()
            except Exception:  # noqa: BLE001
                pass
            self.client.session = None
            self.client.cleanup_ran = True
            self.client = None
        if self.proc:
            _kill_group(self.proc)
        shutil.rmtree(self._scratch, ignore_errors=True)

    def __enter__(self) -> "Firefox":
        return self.start()

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None and self.proc and self.proc.poll() is None and self.client:
            self.screenshot_all()
        self.close()
