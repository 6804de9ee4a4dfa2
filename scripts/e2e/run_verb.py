#!/usr/bin/env python3
"""End to end for `extension-bridge run`: the real CLI, real builds, real Chromium and Firefox.

Every run starts from a user's HOME made for the test, with profile folders of both browsers in it
(and host manifests of their own, pointing at /bin/false), and a private TMPDIR. Checks:
- the built-in bridge, Chromium and Firefox at the same time: each gets its own private folder
  (mode 0700); the extension's `hello` and the host's reply appear as lines; the page is rewritten
  from the vocabulary the CLI wrote under the user's HOME (the host found the user's container
  although the browser's HOME is private); Firefox's debugging server is a socket in the folder,
  and no TCP port of Firefox listens;
- a project made by `new` (its host built by run, as its scripts/build.sh does): in Chromium, an edit
  to its content script reloads it, the page shows the change (the page's own script reports its
  DOM to the test server) and the script's error appears tagged `[content URL]`; an edit to the
  host's sources rebuilds it and the next `hello` is the new host's; a build error is shown and
  the old host keeps serving; the popup's console error (the background, edited, opens the popup)
  appears tagged `[popup]`; in Firefox, the same project (host up to date), its content script's and
  popup's errors tagged and an edit reloaded;
- Ctrl-C (SIGINT) and SIGTERM: exit 0, no process left that names the folder or runs from it, the
  folder and everything in TMPDIR gone;
- the user's profile folders, and everything else in HOME but the suite's container and the Swift
  toolchain's caches (run's builds are the user's own), are byte for byte as before.
The last line is `N passed, N failed`.

Usage: run_verb.py [--browser chromium|firefox|all] [--bin-dir DIR] [--keep]
Environment: E2E_BIN_DIR (default <repo>/.build/debug), E2E_TIMEOUT (seconds a line may take, 90).
"""
from __future__ import annotations

import argparse
import hashlib
import http.server
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.parse
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
TIMEOUT = float(os.environ.get("E2E_TIMEOUT", "90"))
BUILD_TIMEOUT = 40 * 60
BUILT_IN_CHROMIUM = "chrome-extension://honlgoealnaplikdeeidpcknncfcnfmo/"
BUILT_IN_FIREFOX = "extension-bridge@extensionbridge.org"

# The page's own script reports what the page shows, so the test sees the page, not run's lines.
PAGE = b"""<!doctype html>
<html><head><meta charset="utf-8"><title>run e2e</title></head>
<body><p id="text">The sky is blue.</p>
<script>
setInterval(() => {
  const state = {edit: document.documentElement.getAttribute("data-run-edit") || "",
                 text: document.getElementById("text").textContent};
  fetch("/report?" + new URLSearchParams(state)).catch(() => {});
}, 250);
</script></body></html>
"""


class Site:
    """127.0.0.1:<free port>: /run-page.html, and /report?edit=…&text=… recorded."""

    def __init__(self):
        self.reports: list[dict] = []
        self.lock = threading.Lock()
        site = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 (the standard library's name)
                url = urllib.parse.urlparse(self.path)
                if url.path == "/report":
                    with site.lock:
                        site.reports.append(dict(urllib.parse.parse_qsl(url.query)))
                    body = b""
                elif url.path == "/run-page.html":
                    body = PAGE
                else:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Cache-Control", "no-store")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/run-page.html"

    def wait_for_report(self, key: str, value: str, since: int = 0, timeout: float = TIMEOUT) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if any(value in report.get(key, "") for report in self.reports[since:]):
                    return
            time.sleep(0.2)
        with self.lock:
            last = self.reports[-1] if self.reports else None
        raise AssertionError(f"the page never reported {key} containing {value!r} (last report: {last})")

    def count(self) -> int:
        with self.lock:
            return len(self.reports)

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class Run:
    """One `extension-bridge run`, its lines collected as they come."""

    def __init__(self, cli: Path, args: list[str], env: dict, log: Path):
        self.lines: list[str] = []
        self.lock = threading.Lock()
        self.log = open(log, "w", encoding="utf-8")
        self.process = subprocess.Popen(
            [str(cli), "run", "--headless", *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, text=True, encoding="utf-8", errors="replace")
        threading.Thread(target=self._read, daemon=True).start()
        self.folder: str | None = None

    def _read(self):
        assert self.process.stdout is not None
        for line in self.process.stdout:
            line = line.rstrip("\n")
            self.log.write(line + "\n")
            self.log.flush()
            with self.lock:
                self.lines.append(line)

    def count(self) -> int:
        with self.lock:
            return len(self.lines)

    def wait_for(self, pattern: str, since: int = 0, timeout: float = TIMEOUT) -> re.Match:
        """The first line from `since` on that matches `pattern` (a regular expression)."""
        compiled = re.compile(pattern)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                for line in self.lines[since:]:
                    match = compiled.search(line)
                    if match:
                        return match
            if self.process.poll() is not None:
                time.sleep(0.3)  # the reader may still hold its last lines
                with self.lock:
                    if not any(compiled.search(line) for line in self.lines[since:]):
                        raise AssertionError(
                            f"run exited ({self.process.returncode}) before a line matched {pattern!r}; "
                            f"last lines: {self.lines[-8:]}")
                continue
            time.sleep(0.1)
        raise AssertionError(f"no line matched {pattern!r} within {timeout:.0f} s; last lines: {self.tail()}")

    def started(self, timeout: float = TIMEOUT) -> str:
        match = self.wait_for(r"run: (chromium|firefox) started \(pid (\d+)\).* in a throwaway profile in (\S+);",
                              timeout=timeout)
        self.folder = match.group(3)
        return self.folder

    def stop(self, sig: int) -> int:
        self.process.send_signal(sig)
        try:
            return self.process.wait(timeout=60)
        finally:
            time.sleep(0.3)
            self.log.close()

    def tail(self) -> list[str]:
        with self.lock:
            return self.lines[-8:]

    def kill(self):
        """After a failed check: SIGTERM first, so run still cleans up; SIGKILL only if it hangs."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


# ---------------------------------------------------------------- what is left behind


def processes_naming(folder: str) -> list[str]:
    """Processes whose command line names `folder` or whose executable is in it."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
            with open(f"/proc/{entry}/stat", "rb") as f:
                state = f.read().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        try:
            executable = os.readlink(f"/proc/{entry}/exe")
        except OSError:
            executable = ""
        if state != b"Z" and (folder in cmdline or executable.startswith(folder)):
            found.append(f"{entry}: {cmdline[:160]}")
    return found


def check_nothing_left(run: Run, tmpdir: Path | None, status: int, before: set[str] | None = None) -> None:
    """`run` stopped cleanly and left nothing; with `tmpdir`, no folder of any run is left there either, and
    with `before` (what TMPDIR held before runs that build nothing), nothing at all that was not there."""
    folder = run.folder
    assert folder, "run never said where its folder is"
    assert status == 0, f"run exited {status}; last lines: {run.tail()}"
    assert any(line.endswith(f"run: stopped; removed {folder}") for line in run.lines), run.tail()
    left = processes_still_naming(folder)
    assert not left, f"processes left behind: {left}"
    assert not os.path.exists(folder), f"{folder} is still there"
    if tmpdir is not None:
        # Firefox's crash helper names TMPDIR, not the folder, and is in a process group of its own.
        left = processes_still_naming(str(tmpdir))
        assert not left, f"processes naming TMPDIR left behind: {left}"
        leftovers = [p.name for p in tmpdir.iterdir() if p.name.startswith("extension-bridge-run-")]
        assert not leftovers, f"left in TMPDIR: {leftovers}"
        # A build is SwiftPM's and writes in TMPDIR as the user's own does; without one, run writes nothing
        # there (`swift build --show-bin-path` would leave TemporaryDirectory.* folders).
        new = sorted({p.name for p in tmpdir.iterdir()} - (before if before is not None else set()))
        assert before is None or not new, f"left in TMPDIR: {new}"


def processes_still_naming(path: str) -> list[str]:
    """`processes_naming(path)` once those ending have had 10 s to go."""
    deadline = time.monotonic() + 10
    while processes_naming(path) and time.monotonic() < deadline:
        time.sleep(0.2)
    return processes_naming(path)


def tcp_listeners_of(pids: set[int]) -> list[str]:
    """Listening TCP sockets (IPv4 and IPv6) held by any of `pids`."""
    inodes = set()
    for pid in pids:
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
                if target.startswith("socket:["):
                    inodes.add(target[8:-1])
        except OSError:
            continue
    listening = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as f:
            for row in f.readlines()[1:]:
                fields = row.split()
                if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                    listening.append(f"{table} {fields[1]}")
    return listening


def pids_naming(folder: str) -> set[int]:
    return {int(entry.split(":")[0]) for entry in processes_naming(folder)}


# ---------------------------------------------------------------- the user's HOME


def make_user_home(home: Path) -> None:
    """Profile folders as a user has them, with host manifests of their own that must not be used."""
    files = {
        ".config/chromium/Default/Preferences": '{"profile": {"name": "Person 1"}}',
        ".config/chromium/Local State": '{"browser": {}}',
        ".config/chromium/NativeMessagingHosts/org.extensionbridge.host.json":
            '{"name": "org.extensionbridge.host", "path": "/bin/false", "type": "stdio", "allowed_origins": []}',
        ".mozilla/firefox/profiles.ini": "[Profile0]\nName=default\nIsRelative=1\nPath=abc.default\n",
        ".mozilla/firefox/abc.default/prefs.js": 'user_pref("browser.startup.page", 3);\n',
        ".mozilla/native-messaging-hosts/org.extensionbridge.host.json":
            '{"name": "org.extensionbridge.host", "path": "/bin/false", "type": "stdio", "allowed_extensions": []}',
        ".pki/nssdb/cert9.db": "not really a database",
        ".cache/mozilla/firefox/abc.default/startupCache/x": "cache",
    }
    for relative, text in files.items():
        path = home / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    os.chmod(home / ".mozilla/firefox/abc.default/prefs.js", 0o600)


# Left out of the comparison, each for its reason: the suite's container is the app's data the host
# serves; the others are the Swift toolchain's own caches and folders, written by the user's `swift build`, which
# run runs for them exactly as the project's install.sh would.
NOT_COMPARED = (".local/share/group.", ".swiftpm", ".cache/org.swift.swiftpm", ".cache/clang",
                ".cache/org.swift.foundation.URLCache", ".local/share/bin")


def snapshot(home: Path) -> dict[str, tuple]:
    state = {}
    for root, dirs, files in os.walk(home, followlinks=False):
        for name in dirs + files:
            path = Path(root) / name
            relative = str(path.relative_to(home))
            if relative.startswith(NOT_COMPARED):
                continue
            info = os.lstat(path)
            if path.is_symlink():
                state[relative] = ("link", os.readlink(path))
            elif path.is_dir():
                state[relative] = ("dir", info.st_mode)
            else:
                state[relative] = ("file", info.st_mode, info.st_size, info.st_mtime_ns,
                                   hashlib.sha256(path.read_bytes()).hexdigest())
    return state


def compare(before: dict, after: dict) -> None:
    changed = sorted(key for key in set(before) | set(after) if before.get(key) != after.get(key))
    assert not changed, f"changed in the user's HOME: {changed[:20]}"


# ---------------------------------------------------------------- the checks


class Context:
    def __init__(self, bin_dir: Path, work: Path, site: Site):
        self.cli = bin_dir / "extension-bridge"
        self.work = work
        self.site = site
        self.home = work / "home"
        self.tmpdir = work / "tmp"
        self.tmpdir.mkdir()
        self.home.mkdir()
        make_user_home(self.home)
        self.env = {
            key: value for key, value in os.environ.items()
            if not key.startswith(("EXTENSION_BRIDGE_", "XDG_")) and key not in ("DISPLAY", "WAYLAND_DISPLAY")
        }
        self.env.update(HOME=str(self.home), TMPDIR=str(self.tmpdir), EXTENSION_BRIDGE_SOURCE=str(REPO))

    def cli_run(self, *args: str, cwd: Path | None = None) -> str:
        result = subprocess.run([str(self.cli), *args], env=self.env, cwd=cwd, capture_output=True, text=True,
                                timeout=300)
        assert result.returncode == 0, f"extension-bridge {' '.join(args)}: {result.stderr}"
        return result.stdout

    def start(self, args: list[str], log_name: str) -> Run:
        return Run(self.cli, args, self.env, self.work / log_name)


def built_in(ctx: Context, browsers: list[str]) -> None:
    """Both browsers at once: their own folders, lines, a rewritten page, no TCP port; SIGINT and SIGTERM."""
    # One after the other, so that only the first builds the host if it must; then both run at once.
    runs: dict[str, Run] = {}
    folders: dict[str, str] = {}
    before: set[str] | None = None
    try:
        for browser in browsers:
            runs[browser] = ctx.start(["--browser", browser, "--url", ctx.site.url], f"built-in-{browser}.log")
            folders[browser] = runs[browser].started(timeout=BUILD_TIMEOUT)
            if before is None:
                # TMPDIR was empty; a first run that built the host left the build's files there.
                built = not any("run: the host is up to date" in line for line in runs[browser].lines)
                before = {p.name for p in ctx.tmpdir.iterdir() if built and not folders[browser].endswith(p.name)}
        assert len(set(folders.values())) == len(folders), f"two runs shared a folder: {folders}"
        for browser, folder in folders.items():
            assert os.stat(folder).st_mode & 0o777 == 0o700, f"{folder} is not mode 0700"
            caller = re.escape(BUILT_IN_CHROMIUM if browser == "chromium" else BUILT_IN_FIREFOX)
            run = runs[browser]
            run.wait_for(rf"→ {caller} hello #\d+ \d+ B$")
            run.wait_for(rf"← {caller} hello #\d+ success \d+ B \d+\.\d ms$")
            run.wait_for(rf"← {caller} getPageState #\d+ success")
        ctx.site.wait_for_report("text", "The sky is blauw.")
        if "firefox" in runs:
            folder = folders["firefox"]
            assert os.path.exists(f"{folder}/devtools.sock"), "no debugging socket in the folder"
            listening = tcp_listeners_of(pids_naming(folder))
            assert not listening, f"Firefox listens on TCP: {listening}"
        signals = {"chromium": signal.SIGINT, "firefox": signal.SIGTERM}
        for browser, run in runs.items():
            check_nothing_left(run, None, run.stop(signals[browser]))
        check_nothing_left(run, ctx.tmpdir, 0, before)
    finally:
        for run in runs.values():
            run.kill()


def generated(ctx: Context, browsers: list[str]) -> None:
    """A project made by `new`: built by run, edits of the extension and the host, a failed build."""
    project = ctx.work / "RunProbe"
    ctx.cli_run("new", "RunProbe", "--host-name", "com.example.e2e.runprobe", "--group",
                "group.com.example.e2e.runprobe", "--dir", str(project), "--package-path", str(REPO))
    config = str(project / "bridge.json")
    content = project / "extension/content/content.js"
    original = content.read_text(encoding="utf-8")
    configuration = project / "Sources/RunProbeActions/AppConfiguration.swift"
    caller = r"chrome-extension://[a-p]{32}/"

    def edit_content(version: str) -> None:
        content.write_text(
            original + "\nsetTimeout(() => {\n"
            f'  document.documentElement.setAttribute("data-run-edit", "{version}");\n'
            f'  throw new Error("run-e2e boom {version}");\n}}, 50);\n', encoding="utf-8")

    def open_popup_with_an_error() -> None:
        popup = project / "extension/popup/popup.js"
        popup.write_text(popup.read_text(encoding="utf-8") + '\nconsole.error("run-e2e popup error");\n',
                         encoding="utf-8")
        background = project / "extension/background/background.js"
        background.write_text(
            background.read_text(encoding="utf-8") + "\nchrome.action.openPopup().catch(() => {});\n",
            encoding="utf-8")

    if "chromium" in browsers:
        run = ctx.start(["--config", config, "--browser", "chromium", "--verbose", "--url", ctx.site.url],
                        "generated-chromium.log")
        try:
            run.wait_for(r"run: building the host, as scripts/build.sh does: swift build -c release")
            run.started(timeout=BUILD_TIMEOUT)
            run.wait_for(rf"← {caller} hello #\d+ success")
            run.wait_for(r'"hostVersion":"1\.0\.0"')
            # The content script, edited: reloaded, the page shows it, its error tagged.
            mark, reports = run.count(), ctx.site.count()
            edit_content("v2")
            run.wait_for(r"run: content/content\.js changed: reloading the extension", since=mark)
            run.wait_for(r"run: reloaded the extension and 1 page$", since=mark)
            ctx.site.wait_for_report("edit", "v2", since=reports)
            page = re.escape(ctx.site.url)
            run.wait_for(rf"\[content {page}\] uncaught Error: run-e2e boom v2 \(content/content\.js:\d+\)$",
                         since=mark)
            # The host's sources, edited: rebuilt, and the next hello is the new host's.
            mark = run.count()
            configuration.write_text(configuration.read_text().replace('"1.0.0"', '"1.0.1"'), encoding="utf-8")
            run.wait_for(r"run: Sources/RunProbeActions/AppConfiguration\.swift changed: rebuilding the host",
                         since=mark)
            run.wait_for(r"run: rebuilt the host in [\d.]+ s; ended 1 running host", since=mark,
                         timeout=BUILD_TIMEOUT)
            run.wait_for(r'"hostVersion":"1\.0\.1"', since=mark)
            # A build error: shown, and the old host keeps serving (a reload's hello is answered by it).
            mark = run.count()
            configuration.write_text(configuration.read_text() + "\nlet broken =\n", encoding="utf-8")
            run.wait_for(r"build: .*AppConfiguration\.swift:\d+:\d+: error:", since=mark, timeout=BUILD_TIMEOUT)
            run.wait_for(r"run: problem: the host's build failed \(exit \d+\) after .*keeps serving", since=mark)
            mark, reports = run.count(), ctx.site.count()
            edit_content("v3")
            ctx.site.wait_for_report("edit", "v3", since=reports)
            run.wait_for(r'"hostVersion":"1\.0\.1"', since=mark)
            # The popup's errors: the background, edited, opens it (no toolbar to click headless).
            mark = run.count()
            open_popup_with_an_error()
            run.wait_for(r"\[popup\] error run-e2e popup error \(popup/popup\.js:\d+\)$", since=mark)
            check_nothing_left(run, ctx.tmpdir, run.stop(signal.SIGTERM))
        finally:
            run.kill()
            configuration.write_text(configuration.read_text().replace("\nlet broken =\n", ""), encoding="utf-8")

    if "firefox" in browsers:
        edit_content("v3")
        if "chromium" not in browsers:
            open_popup_with_an_error()
        run = ctx.start(["--config", config, "--browser", "firefox", "--url", ctx.site.url], "generated-firefox.log")
        try:
            run.started(timeout=BUILD_TIMEOUT)
            addon = re.escape(json.loads((project / "bridge.json").read_text())["extension"]["firefoxID"])
            run.wait_for(rf"← {addon} hello #\d+ success")
            page = re.escape(ctx.site.url)
            run.wait_for(rf"\[content {page}\] uncaught Error: run-e2e boom v3 \(content/content\.js:\d+\)$")
            run.wait_for(r"\[popup\] error run-e2e popup error \(popup/popup\.js:\d+\)$")
            mark, reports = run.count(), ctx.site.count()
            edit_content("v4")
            run.wait_for(r"run: reloaded the extension and 1 page$", since=mark)
            ctx.site.wait_for_report("edit", "v4", since=reports)
            run.wait_for(rf"\[content {page}\] uncaught Error: run-e2e boom v4", since=mark)
            check_nothing_left(run, ctx.tmpdir, run.stop(signal.SIGINT))
        finally:
            run.kill()


def refused_extension(ctx: Context) -> None:
    """An extension Chromium does not load (its manifest is not JSON): run says Chromium's reason and ends."""
    project = ctx.work / "RunProbe"
    manifest = project / "extension/manifest.json"
    original = manifest.read_text(encoding="utf-8")
    manifest.write_text(original.rstrip().rstrip("}") + ",\n", encoding="utf-8")
    run = ctx.start(["--config", str(project / "bridge.json"), "--browser", "chromium"], "refused-chromium.log")
    try:
        started = time.monotonic()
        run.started(timeout=BUILD_TIMEOUT)
        status = run.process.wait(timeout=90)
        time.sleep(0.3)  # the reader's last lines
        assert status == 65, f"run exited {status}, not 65; last lines: {run.tail()}"
        folder = re.escape(str(project / "extension"))
        run.wait_for(rf"^extension-bridge: chromium did not load the extension from {folder}: "
                     r"Manifest is not valid JSON\..*; fix it and run again$")
        assert time.monotonic() - started < 60, "run waited instead of ending"
        check_nothing_left(run, ctx.tmpdir, 0)  # its exit status is checked above
    finally:
        run.kill()
        manifest.write_text(original, encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--browser", choices=["chromium", "firefox", "all"], default="all")
    parser.add_argument("--bin-dir", default=os.environ.get("E2E_BIN_DIR", str(REPO / ".build/debug")))
    parser.add_argument("--keep", action="store_true", help="keep the work folder (logs, the project)")
    args = parser.parse_args()
    browsers = ["chromium", "firefox"] if args.browser == "all" else [args.browser]
    work = Path(tempfile.mkdtemp(prefix="run-verb-e2e-"))
    site = Site()
    passed = failed = 0
    try:
        ctx = Context(Path(args.bin_dir), work, site)
        ctx.cli_run("write", "extensionEnabled", "-bool", "true")
        ctx.cli_run("write", "vocabulary", "-dict", "blue", "blauw")
        before = snapshot(ctx.home)
        checks = [("built-in bridge", lambda: built_in(ctx, browsers)),
                  ("generated project", lambda: generated(ctx, browsers)),
                  *([("an extension Chromium refuses", lambda: refused_extension(ctx))] if "chromium" in browsers
                    else []),
                  ("the user's HOME untouched", lambda: compare(before, snapshot(ctx.home)))]
        for name, check in checks:
            started = time.monotonic()
            try:
                check()
                passed += 1
                print(f"ok   {name} ({time.monotonic() - started:.0f} s)", flush=True)
            except Exception:  # noqa: BLE001 (each check reports its own failure and the rest go on)
                failed += 1
                print(f"FAIL {name} ({time.monotonic() - started:.0f} s)", flush=True)
                traceback.print_exc()
                print(f"     logs in {work}", flush=True)
    finally:
        site.close()
        if failed == 0 and not args.keep:
            subprocess.run(["rm", "-rf", str(work)], check=False)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
