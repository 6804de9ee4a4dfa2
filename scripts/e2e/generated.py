#!/usr/bin/env python3
"""End to end: `extension-bridge new` makes a bridge for another app, and that bridge works in
real Chromium and Firefox beside the built-in one.

Once: generate a project into a temporary folder (`new … --package-path <this checkout>`), add the
author's actions, commit it to git and clone it as a teammate would (teammate.py): into a fresh HOME
with no ExtensionBridge installed, where the clone builds offline (it carries its ExtensionBridge
libraries) and passes its own `scripts/test.sh` (its host over real pipes, its app's side over a real
suite, its extension's node tests) without a warning; `swift package dump-package` shows its products;
no file names a folder of the machine it was made on; its host's `--help` and a refused caller's
reply name `--config bridge.json` and its `scripts/install.sh`; its `scripts/install.sh` without the
tool says what building needs. Then, in each browser, from an empty HOME, with the clone:
`doctor --config bridge.json` names the clone's `scripts/install.sh` as the fix, and that line, pasted,
builds the host static (no unexplained warning) and installs it; its extension loads (its own key
and ids), and
- its popup shows `appInfo`'s answer (the generated action, through its own host);
- the app (`<name>-app vocabulary blue=blauw`: the project's app target) turns the extension on and
  a page is rewritten from the app's group, not from the default group (both hold a vocabulary;
  only the app's word may appear); a page saved from the popup is drained by `<name>-app import` into
  the app's list; `<name>-app off` turns it off, and a page's content script hears so;
- `doctor --config bridge.json` passes, and `doctor` without --config checks it too;
- `uninstall --config bridge.json` leaves none of the files install wrote;
- the app's own actions: the project gets three Swift actions (shout, whisper, lower) and
  app/app.js declares shout (popup and content scripts), whisper (the default callers) and notBuilt
  (no Swift action: a stale host). From the popup, shout is answered by the host, lower (in the host,
  undeclared) is refused, notBuilt is a stale host and the popup says so with the fix; from a page's
  content script, whisper is refused and shout is answered.
And `new --features vocabulary` (Chromium): a second project, with the same host name and group,
is only generated (no second host is built: the first one's install also allows its extension id);
its extension, loaded alone in a fresh profile, has no `chrome.contextMenus` in its service worker,
no save-page in `chrome.commands.getAll()`, and still rewrites a page.
The last line is `N passed, N failed`.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE))

from browsers import BrowserError, Chromium, Firefox, TestServer, WaitTimeout  # noqa: E402
from teammate import TeammateFailed, clone_and_test  # noqa: E402

PAGES_DIR = HERE / "pages"
NAME = "ReadLater"
HOST_NAME = "com.example.e2e.readlater"
GROUP = "group.com.example.e2e.readlater"
PAGE_TEXT_JS = "document.getElementById('p1').textContent"

# An app's own actions, added the way an author adds them: the Swift actions (one file, registered in
# main.swift) and their declaration in extension/app/app.js; nothing else in the project is touched.
APP_ACTIONS_SWIFT = """import BridgeHost

/// `shout {text}` → `{status: "success", text}` upper-cased.
public struct ShoutAction: BridgeAction {
    public let name = "shout"
    public init() {}
    public func perform(_ request: BridgeRequest, in context: ActionContext) -> BridgeReply {
        guard let text = request.string("text"), text.utf8.count <= 1_000 else {
            return .error(.invalidRequest, "shout needs a text of at most 1000 bytes")
        }
        return .success(["text": .string(text.uppercased())])
    }
}

/// `whisper {text}` → lower-cased; declared for the popup and the background only.
public struct WhisperAction: BridgeAction {
    public let name = "whisper"
    public init() {}
    public func perform(_ request: BridgeRequest, in context: ActionContext) -> BridgeReply {
        .success(["text": .string((request.string("text") ?? "").lowercased())])
    }
}

/// `lower`: in the host, never declared in app/app.js, so the extension never sends it.
public struct LowerAction: BridgeAction {
    public let name = "lower"
    public init() {}
    public func perform(_ request: BridgeRequest, in context: ActionContext) -> BridgeReply { .success([:]) }
}
"""
APP_ACTIONS_JS = """  actions: Object.freeze({
    shout: Object.freeze({ callers: Object.freeze(['popup', 'content']) }),
    whisper: Object.freeze({}),
    notBuilt: Object.freeze({}),
  }),"""


def add_app_actions(project: Path, description: dict) -> None:
    """What an author does to add actions: the Swift actions, and their declaration in app/app.js."""
    target = project / "Sources" / f"{NAME}Actions"
    expect(target.is_dir(), f"the generated actions target {target}")
    (target / "AppActions.swift").write_text(APP_ACTIONS_SWIFT)
    host_main = project / "Sources" / description["hostProduct"] / "main.swift"
    main = host_main.read_text()
    expect("[AppInfoAction()]" in main, "the host's main.swift registers AppInfoAction")
    host_main.write_text(main.replace("[AppInfoAction()]", "[AppInfoAction(), ShoutAction(), WhisperAction(), LowerAction()]"))
    app = project / "extension" / "app" / "app.js"
    text = app.read_text()
    expect("  actions: Object.freeze({\n  })," in text, f"app.js has an empty actions declaration: {text}")
    app.write_text(text.replace("  actions: Object.freeze({\n  }),", APP_ACTIONS_JS))


class CheckFailed(Exception):
    pass


def expect(ok: bool, what: str) -> None:
    if not ok:
        raise CheckFailed(what)


def run(args: list, env: dict, cwd: Path | None = None, check: bool = True) -> subprocess.CompletedProcess:
    p = subprocess.run([str(a) for a in args], env=env, cwd=cwd, capture_output=True, text=True, timeout=900)
    if check and p.returncode != 0:
        raise CheckFailed(f"`{' '.join(map(str, args))}` exited {p.returncode}: {p.stderr.strip()[-2000:] or p.stdout[-2000:]}")
    return p


def files_under(root: Path, skip: tuple) -> set:
    out = set()
    for path in root.rglob("*"):
        rel = path.relative_to(root)
        if path.is_file() and not any(str(rel).startswith(s) for s in skip):
            out.add(str(rel))
    return out


def generate(cli: Path, work: Path, env: dict, log) -> tuple[Path, dict]:
    """The author's project, then the teammate's clone of it, built and tested: returns the clone."""
    project = work / "project"
    t0 = time.monotonic()
    run([cli, "new", NAME, "--host-name", HOST_NAME, "--group", GROUP, "--dir", project, "--package-path", REPO], env)
    log(f"  new wrote {sum(1 for p in project.rglob('*') if p.is_file())} files in {time.monotonic() - t0:.1f}s")
    description = json.loads((project / "bridge.json").read_text())
    add_app_actions(project, description)
    # Generated scripts are code too: shellcheck them as the project's own are (scripts/test.sh lints).
    if shutil.which("shellcheck"):
        scripts = sorted(str(p) for p in (project / "scripts").glob("*.sh"))
        lint = subprocess.run(["shellcheck", *scripts], capture_output=True, text=True)
        expect(lint.returncode == 0, f"shellcheck on the generated scripts: {lint.stdout[-2000:]}")
        log(f"  shellcheck: the {len(scripts)} generated scripts are clean")
    clone, teammate = clone_and_test(project, work, env, "new", log, made_on=[REPO, work, Path(env.get("HOME", "/root"))])
    check_clone_messages(clone, description, teammate, log)
    return clone, description


def check_clone_messages(clone: Path, description: dict, env: dict, log) -> None:
    """The clone's host and scripts name this bridge's commands, and say what building needs."""
    host = clone / ".build" / "debug" / description["hostProduct"]
    help_text = run([host, "--help"], env).stdout
    expect("`scripts/install.sh` in the ReadLater project" in help_text and "--config bridge.json" in help_text
           and "run `extension-bridge install`;" not in help_text, f"the host's --help: {help_text}")
    caller = "chrome-extension://" + "b" * 32 + "/"
    refused = subprocess.run([str(host), caller], input=b"", capture_output=True, timeout=30,
                             env={**env, "EXTENSION_BRIDGE_ALLOWED_CALLERS": "chrome-extension://" + "a" * 32 + "/"})
    reply = json.loads(refused.stdout[4:].decode())
    expect(refused.returncode == 3 and reply.get("code") == "caller_not_allowed", f"refused: {refused.returncode} {reply}")
    expect("extension-bridge install --config bridge.json --extension-id ID" in reply["message"]
           and "scripts/install.sh --extension-id ID" in reply["message"], f"the refusal's fix: {reply['message']}")
    missing = run(["scripts/install.sh"], env, cwd=clone, check=False)
    expect(missing.returncode == 69 and "Building and testing this project need no" in missing.stderr,
           f"install.sh without the tool: {missing.returncode} {missing.stderr}")
    log("  the clone's host --help, a refusal and install.sh without the tool name this bridge's commands")


def generate_vocabulary_only(cli: Path, work: Path, env: dict, log) -> tuple[Path, dict]:
    """`new --features vocabulary` beside the main project, with its host name and group: only written,
    never built (the main project's host serves it)."""
    project = work / "vocabulary-only"
    run([cli, "new", NAME + "Words", "--host-name", HOST_NAME, "--group", GROUP, "--dir", project, "--package-path", REPO,
         "--features", "vocabulary"], env)
    description = json.loads((project / "bridge.json").read_text())
    manifest = json.loads((project / "extension" / "manifest.json").read_text())
    expect(description.get("features") == ["vocabulary"], f"bridge.json features: {description.get('features')}")
    expect(sorted(manifest["permissions"]) == ["nativeMessaging", "storage"] and "commands" not in manifest,
           f"the vocabulary-only manifest: {manifest['permissions']}, commands: {manifest.get('commands')}")
    log(f"  new --features vocabulary wrote {project.name}: permissions {manifest['permissions']}")
    return project, description


def check_browser(browser: str, cli: Path, project: Path, description: dict, artifacts: Path, base_env: dict,
                  log, lite: tuple | None = None) -> tuple[int, int]:
    passed = failed = 0
    work = Path(tempfile.mkdtemp(prefix=f"e2e-generated-{browser}-"))
    home = work / "home"
    home.mkdir()  # empty: nothing made before the code under test runs
    profile = work / "profile"
    env = dict(base_env)
    for k in list(env):
        if k.startswith("EXTENSION_BRIDGE_"):
            del env[k]
    env["HOME"] = str(home)  # the real group folders under this HOME: no EXTENSION_BRIDGE_CONTAINER
    # The project's scripts/install.sh needs the tool: the one this checkout built.
    env["PATH"] = f"{cli.parent}:{env.get('PATH', '/usr/bin:/bin')}"
    app = project / ".build" / "debug" / (NAME.lower() + "-app")
    runtime = "browser.runtime" if browser == "firefox" else "chrome.runtime"
    select = ["--browser", "chromium", "--user-data-dir", str(profile)] if browser == "chromium" else ["--browser", "firefox"]
    b = None

    def step(name: str, fn) -> None:
        nonlocal passed, failed
        t0 = time.monotonic()
        try:
            fn()
            passed += 1
            log(f"  ok   {browser} generated {name} ({time.monotonic() - t0:.1f}s)")
        except Exception as exc:  # noqa: BLE001
            failed += 1
            detail = str(exc) if isinstance(exc, (CheckFailed, WaitTimeout, BrowserError)) else traceback.format_exc()
            log(f"  FAIL {browser} generated {name}: {detail}")
            if b is not None:
                try:
                    b.screenshot_all(f"failure-{name}")
                except Exception:  # noqa: BLE001
                    pass

    before = set()
    written: list = []
    # Folders the browsers themselves write into HOME (crash reports, caches), and the app's own list:
    # not install's.
    browser_own = (".local/share/group.", ".config/chromium/Crash", ".config/mozilla", ".mozilla/firefox", ".cache",
                   ".mozilla/extensions", ".pki", f".local/share/{NAME.lower()}/")
    try:
        def install() -> None:
            nonlocal before
            # The app's group and the default group both hold a vocabulary for "blue". The app (the
            # project's app target) writes its own words and turns its extension on.
            out = run([app, "vocabulary", "blue=blauw"], env).stdout
            expect(f"the extension is on (group {GROUP})" in out, f"{app.name} vocabulary: {out}")
            run([cli, "write", "vocabulary", "-dict", "blue", "groen"], env)
            run([cli, "enable"], env)
            before = files_under(home, skip=browser_own)
            # Not installed yet: doctor's fix is the project's own install script, which builds first.
            doctor = run([cli, "doctor", "--config", project / "bridge.json", *select, "--json"], env, check=False)
            fixes = [c.get("fix") or "" for c in json.loads(doctor.stdout)["checks"]]
            pasted = next((f for f in fixes if f"scripts/install.sh --browser {browser}" in f), None)
            expect(doctor.returncode == 1 and pasted is not None and pasted.startswith(f"cd {shlex.quote(str(project))} && "),
                   f"doctor --config names the project's scripts/install.sh: {fixes}")
            done = run(["sh", "-c", pasted], env)
            note = "note: the static link's dlopen warning is the Swift runtime's"
            build_warnings = [line for line in done.stderr.splitlines() if "warning:" in line]
            expect(not build_warnings, f"the static build printed an unexplained warning: {build_warnings}")
            if "Linking" in done.stderr:  # a second browser's install finds the host built
                expect(note in done.stderr, f"the static build explains its dlopen warning: {done.stderr[-1500:]}")
            out = done.stdout
            # The vocabulary-only project's extension is served by this host too (Chromium only).
            if lite and browser == "chromium":
                extra = ["--extension-id", lite[1]["extension"]["chromiumID"]]
                out += run(["scripts/install.sh", *select, *extra], env, cwd=project).stdout
            written.extend(line.split(None, 1)[1] for line in out.splitlines() if line.startswith("written"))
            expect(len(written) >= 3, f"install wrote the host, its configuration and a manifest: {out}")
            log(f"    installed by pasting doctor's fix: {pasted}")
        step("install-by-doctors-fix", install)

        with TestServer(PAGES_DIR) as site:
            art = artifacts / f"generated-{browser}"
            if browser == "chromium":
                b = Chromium(project / "extension", art, user_data_dir=profile, env=env)
                b.start()
                eid = b.wait_for_extension(extension_id=description["extension"]["chromiumID"])
                expect(eid == description["extension"]["chromiumID"], f"the generated key's id: {eid}")
            else:
                b = Firefox(project / "extension", art, home_dir=home, env=env)
                b.start()
                b.install_extension()
            log(f"  {browser}: {b.version} started with the generated extension")

            def popup_app_info() -> None:
                popup = b.open_extension_page("popup/popup.html")
                text = popup.wait_for(
                    "(() => { const e = document.getElementById('app-info'); "
                    "return e && !e.hidden && e.textContent.trim() ? e.textContent.trim() : null; })()", timeout=20)
                expect(NAME in text and "1.0.0" in text, f"popup shows appInfo: {text!r}")
                popup.close()
            step("popup-appInfo", popup_app_info)

            def app_actions() -> None:
                def send(tab, action: str, payload: dict | None = None, content: bool = False):
                    message = json.dumps({"type": "appAction", "action": action, "payload": payload or {}})
                    expression = f"{runtime}.sendMessage({message})"
                    return tab.content_script_eval(expression) if content else tab.evaluate(expression)

                popup = b.open_extension_page("popup/popup.html")
                reply = send(popup, "shout", {"text": "hello, app"})
                expect(reply == {"status": "success", "text": "HELLO, APP"}, f"popup → shout, answered by the host: {reply!r}")
                reply = send(popup, "whisper", {"text": "QUIET"})
                expect(reply.get("text") == "quiet", f"popup → whisper (default callers): {reply!r}")
                reply = send(popup, "lower")
                expect(reply.get("code") == "undeclared_action", f"popup → lower (undeclared): {reply!r}")
                reply = send(popup, "notBuilt")
                expect(reply.get("code") == "stale_host" and "Rebuild" in reply.get("message", ""),
                       f"popup → notBuilt (declared, not in the host): {reply!r}")
                shown = popup.wait_for(
                    "(() => { const e = document.getElementById('stale-host'); "
                    "return e && !e.hidden ? e.textContent.replace(/\\s+/g, ' ').trim() : null; })()", timeout=20)
                expect("notBuilt" in shown and "whisper" not in shown and "scripts/install.sh" in shown,
                       f"the popup names the action the host lacks, and the fix: {shown!r}")
                popup.close()
                tab = b.new_tab(site.url("index.html"))
                tab.wait_for(f"(() => {{ const t = {PAGE_TEXT_JS}; return t.includes('blauw') ? t : null; }})()", timeout=20)
                reply = send(tab, "whisper", {"text": "X"}, content=True)
                expect(reply.get("code") == "forbidden_sender", f"content script → whisper (not declared for it): {reply!r}")
                reply = send(tab, "shout", {"text": "from the page"}, content=True)
                expect(reply == {"status": "success", "text": "FROM THE PAGE"}, f"content script → shout (declared): {reply!r}")
                tab.close()
            step("app-actions", app_actions)

            def page_from_generated_group() -> None:
                tab = b.new_tab(site.url("index.html"))
                text = tab.wait_for(f"(() => {{ const t = {PAGE_TEXT_JS}; return t.includes('blauw') ? t : null; }})()",
                                    timeout=20)
                expect("groen" not in text, f"the default group's word is not used: {text!r}")
                tab.close()
            step("page-from-the-apps-group", page_from_generated_group)

            def app_imports_a_saved_page() -> None:
                popup = b.open_extension_page("popup/popup.html")
                url = site.url("index.html") + "?saved-for-the-app"
                reply = popup.evaluate(
                    f"{runtime}.sendMessage({{type: 'saveContent', url: {json.dumps(url)}, title: 'Saved', "
                    "content: 'the page'})")
                expect(reply.get("status") == "success", f"the popup saved the page: {reply!r}")
                popup.close()
                out = run([app, "import"], env).stdout
                expect(out.startswith("imported 1, 0 already in the list"), f"{app.name} import: {out}")
                listed = run([app, "list"], env).stdout
                expect(f"{url}\tSaved" in listed, f"{app.name} list: {listed}")
                again = run([app, "import"], env).stdout
                expect(again.startswith("imported 0, 0 already in the list"), f"the queue was drained: {again}")
            if "saving" in description.get("features", []):
                step("app-imports-a-saved-page", app_imports_a_saved_page)

            def app_turns_it_off() -> None:
                run([app, "off"], env)
                tab = b.new_tab(site.url("index.html"))
                deadline = time.monotonic() + 20
                state = None
                while time.monotonic() < deadline:
                    state = tab.content_script_eval(f"{runtime}.sendMessage({{type: 'getPageState'}})", timeout=10)
                    if isinstance(state, dict) and state.get("enabled") is False:
                        break
                    time.sleep(0.3)
                expect(isinstance(state, dict) and state.get("enabled") is False,
                       f"after {app.name} off the page's content script hears off: {state!r}")
                tab.close()
                run([app, "on"], env)
            step("app-turns-it-off", app_turns_it_off)

            def doctor() -> None:
                p = run([cli, "doctor", "--config", project / "bridge.json", *select], env, check=False)
                expect(p.returncode == 0 and "answered hello" in p.stdout and GROUP in p.stdout,
                       f"doctor --config passes: exit {p.returncode}\n{p.stdout}{p.stderr}")
                every = run([cli, "doctor", *select], env, check=False)
                expect(f"{HOST_NAME}.json" in every.stdout, f"doctor without --config checks the generated bridge:\n{every.stdout}")
            step("doctor-config", doctor)
            b.close()
            b = None

            def vocabulary_only() -> None:
                # A fresh profile holding only the vocabulary-only extension and the installed host's manifest.
                lite_profile = work / "profile-vocabulary-only"
                (lite_profile / "NativeMessagingHosts").mkdir(parents=True)
                shutil.copy(profile / "NativeMessagingHosts" / f"{HOST_NAME}.json", lite_profile / "NativeMessagingHosts")
                lite_id = lite[1]["extension"]["chromiumID"]
                lb = Chromium(lite[0] / "extension", artifacts / "generated-vocabulary-only", user_data_dir=lite_profile,
                              env=env)
                try:
                    lb.start()
                    expect(lb.wait_for_extension(extension_id=lite_id) == lite_id, "the vocabulary-only extension loaded")
                    # In an extension page of its own: a CDP evaluation in the service worker sometimes has no
                    # `chrome` binding here (seen in CI), an extension page always has the extension's APIs.
                    # (That the background registers no menu handlers is the node tests'.)
                    page = lb.open_extension_page("popup/popup.html")
                    menus = page.evaluate("typeof chrome.contextMenus")
                    expect(menus == "undefined", f"no menus API for the vocabulary-only extension: {menus}")
                    # Chromium gives no chrome.commands at all to an extension whose manifest has no commands.
                    names = page.evaluate(
                        "chrome.commands ? chrome.commands.getAll().then((all) => all.map((c) => c.name)) : 'no API'")
                    expect(names == "no API" or "save-page" not in names, f"no save-page command: {names}")
                    tab = lb.new_tab(site.url("index.html"))
                    text = tab.wait_for(
                        f"(() => {{ const t = {PAGE_TEXT_JS}; return t.includes('blauw') ? t : null; }})()", timeout=20)
                    expect("groen" not in text, f"rewritten from the generated group: {text!r}")
                finally:
                    lb.close()
            if lite and browser == "chromium":
                step("features-vocabulary-only", vocabulary_only)

        def uninstall() -> None:
            run([cli, "uninstall", "--config", project / "bridge.json", *select], env)
            still = [path for path in written if Path(path).exists()]
            expect(not still, f"uninstall --config left what install wrote: {still}")
            after = files_under(home, skip=browser_own)
            left = sorted(after - before)
            expect(not left, f"uninstall --config left files: {left}")
            expect(not (home / ".local/share/extension-bridge/hosts").exists(), "the hosts folder is gone")
            expect(not (home / ".local/share/extension-bridge/receipts").exists(), "the receipts folder is gone")
        step("uninstall-leaves-nothing", uninstall)
    finally:
        if b is not None:
            b.close()
        shutil.rmtree(work, ignore_errors=True)
    return passed, failed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--browser", default="all", choices=["chromium", "firefox", "all"])
    ap.add_argument("--bin-dir", type=Path, default=Path(os.environ.get("E2E_BIN_DIR", REPO / ".build" / "debug")))
    ap.add_argument("--artifacts", type=Path, default=REPO / ".build" / "e2e-artifacts")
    args = ap.parse_args()
    cli = args.bin_dir.resolve() / "extension-bridge"

    def log(line: str) -> None:
        print(line, flush=True)

    work = Path(tempfile.mkdtemp(prefix="e2e-generated-"))
    env = dict(os.environ)
    # SwiftPM leaves a lock file per package path in TMPDIR: these go with `work`, not into /tmp.
    (work / "tmp").mkdir()
    env["TMPDIR"] = str(work / "tmp")
    passed = failed = 0
    try:
        try:
            project, description = generate(cli, work, env, log)
            lite = generate_vocabulary_only(cli, work, env, log) if args.browser in ("chromium", "all") else None
        except Exception as exc:  # noqa: BLE001
            detail = str(exc) if isinstance(exc, (CheckFailed, TeammateFailed)) else traceback.format_exc()
            log(f"  FAIL generate-clone-and-build: {detail}")
            print("0 passed, 1 failed", flush=True)
            return 1
        passed += 1
        for browser in (["chromium", "firefox"] if args.browser == "all" else [args.browser]):
            p, f = check_browser(browser, cli, project, description, args.artifacts.resolve(), env, log, lite)
            passed += p
            failed += f
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{passed} passed, {failed} failed", flush=True)
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
