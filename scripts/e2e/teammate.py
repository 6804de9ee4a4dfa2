"""A generated project as a teammate gets it: committed to git, cloned into a folder of a fresh HOME
on which no ExtensionBridge is installed (no `extension-bridge` on PATH, no EXTENSION_BRIDGE_*
variable, nothing under ~/.local/share/extension-bridge, no SwiftPM cache), then built and tested
there with the project's own scripts/test.sh, without a network (`unshare -n`, only the loopback
interface, where that is allowed).

Used by generated.py (a project made by `new`) and safari_import.py (one made by `new --from-safari`).
"""
from __future__ import annotations

import json
import shutil
import subprocess
import time
from pathlib import Path


class TeammateFailed(Exception):
    pass


def expect(ok: bool, what: str) -> None:
    if not ok:
        raise TeammateFailed(what)


def run(args: list, env: dict, cwd: Path | None = None, check: bool = True) -> subprocess.CompletedProcess:
    p = subprocess.run([str(a) for a in args], env=env, cwd=cwd, capture_output=True, text=True, timeout=1200)
    if check and p.returncode != 0:
        raise TeammateFailed(f"`{' '.join(map(str, args))}` exited {p.returncode}:\n{p.stdout[-3000:]}\n"
                             f"{p.stderr[-2000:]}")
    return p


def names_no_folder_of(project: Path, folders: list[Path]) -> None:
    """No file of the project names a folder of the machine it was made on (the keys aside: binary)."""
    for path in project.rglob("*"):
        if not path.is_file() or ".git" in path.parts or ".build" in path.parts or path.suffix == ".pem":
            continue
        text = path.read_bytes().decode("utf-8", "replace")
        for folder in folders:
            expect(str(folder) not in text, f"{path.relative_to(project)} names {folder}, a folder of this machine")


def teammate_env(base_env: dict, home: Path) -> dict:
    """The environment of someone with only the tools: swift, node and git on PATH, and a fresh HOME."""
    tools = {str(Path(shutil.which(tool) or f"/usr/bin/{tool}").resolve().parent) for tool in ("swift", "node", "git")}
    path = ":".join(sorted(tools) + ["/usr/bin", "/bin"])
    env = {k: v for k, v in base_env.items() if not k.startswith("EXTENSION_BRIDGE_") and k not in ("HOME", "PATH")}
    env.update(HOME=str(home), PATH=path, TMPDIR=str(home / "tmp"))
    (home / "tmp").mkdir(parents=True, exist_ok=True)
    expect(shutil.which("extension-bridge", path=path) is None, f"extension-bridge is on the teammate's PATH {path}")
    return env


def offline(args: list) -> list:
    """`args` run without a network where this process may make one (root: `unshare -n`), with only
    the loopback interface, up: Foundation's run loop needs a socket pair on it (without it, Process
    never hears that a child ended)."""
    unshare = ["unshare", "-n", "sh", "-c", 'ip link set lo up && exec "$0" "$@"']
    if shutil.which("ip") and subprocess.run([*unshare, "true"], capture_output=True).returncode == 0:
        return [*unshare, *map(str, args)]
    return args


def clone_and_test(project: Path, work: Path, base_env: dict, name: str, log, made_on: list[Path]) -> tuple[Path, dict]:
    """Commits `project`, clones it for a teammate under `work`/teammate, builds and tests the clone
    offline, and checks its products. Returns the clone and the teammate's environment."""
    names_no_folder_of(project, made_on)
    git = ["git", "-c", "user.name=Author", "-c", "user.email=author@example.com", "-c", "init.defaultBranch=main"]
    run([*git, "init", "--quiet"], base_env, cwd=project)
    run([*git, "add", "--all"], base_env, cwd=project)
    run([*git, "commit", "--quiet", "-m", "new project"], base_env, cwd=project)
    committed = run(["git", "ls-files"], base_env, cwd=project).stdout.split()
    expect(".extension-bridge/core.json" in committed and "ExtensionBridge/Package.swift" in committed,
           "core.json and the carried libraries are committed")
    expect(not any(path.endswith(".pem") for path in committed), "the private key is not committed")
    home = work / "teammate"
    home.mkdir()
    env = teammate_env(base_env, home)
    clone = home / project.name
    run(["git", "clone", "--quiet", "--no-hardlinks", project, clone], env)
    log(f"  {name}: committed ({len(committed)} files) and cloned into a fresh HOME without ExtensionBridge")
    t0 = time.monotonic()
    tested = run(offline(["scripts/test.sh"]), env, cwd=clone)
    text = tested.stdout + tested.stderr
    expect("passed after" in text and "# fail " not in text.replace("# fail 0", ""),
           f"the clone's scripts/test.sh: {text[-3000:]}")
    warnings = [line for line in text.splitlines() if "warning:" in line]
    expect(not warnings, f"the clone's build printed warnings: {warnings[:5]}")
    log(f"  {name}: the clone built and passed its scripts/test.sh offline in {time.monotonic() - t0:.1f}s"
        " (no warning)")
    dump = json.loads(run(offline(["swift", "package", "dump-package"]), env, cwd=clone).stdout)
    products = {p["name"]: next(iter(p["type"])) for p in dump["products"]}
    app = json.loads((clone / "bridge.json").read_text())["name"]
    wanted = {
        f"{app}Actions": "library", f"{app}App": "library", f"{app}Safari": "library",
        f"{app.lower()}-host": "executable", f"{app.lower()}-app": "executable",
    }
    expect(products == wanted, f"swift package dump-package products: {products}, expected {wanted}")
    deps = [d.get("fileSystem", [{}])[0].get("path", "") for d in dump["dependencies"]]
    expect(deps == [str(clone / "ExtensionBridge")], f"the one dependency is the carried folder: {deps}")
    log(f"  {name}: dump-package shows the products {sorted(products)}")
    return clone, env
