"""What docs/ARCHITECTURE.md claims about dependencies holds: the import-linter contracts in pyproject.toml
(layers, no Flask in the domain, database drivers only in the store modules, rules engines on the kernel
alone, each game's package independent), checked by `lint-imports` — and they bite: a copy of the code
with one forbidden import breaks the contract it crosses. And no module imports itself round a cycle."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import grimp
import pytest
from paths import ROOT

PACKAGES = ("domain", "projections", "api", "replay_ui", "web", "cli", "fixtures")


def lint_imports(cwd: Path) -> subprocess.CompletedProcess:
    command = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))
    # PYTHONPATH first: a copy's packages shadow the installed (editable) ones.
    return subprocess.run([command, "--no-cache"], cwd=cwd, capture_output=True, text=True, timeout=300,
                          env={"PATH": str(Path(sys.executable).parent), "PYTHONPATH": str(cwd)})


def test_the_architecture_contracts_hold():
    done = lint_imports(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = settings["tool"]["importlinter"]["contracts"]
    assert f"Contracts: {len(contracts)} kept, 0 broken." in done.stdout


@pytest.mark.parametrize(("module", "line", "contract"), [
    ("domain/kernel/engine.py", "import flask", "The domain imports no web framework"),
    ("domain/games/wakeng/engine.py", "import domain.kernel.integrity", "Rules engines use only"),
    ("domain/games/sandayi/patterns.py", "import domain.games.doudizhu.patterns", "Each game's package stands alone"),
    ("projections/facts.py", "import api.errors", "Layers"),
    ("domain/model/deal.py", "import domain.services.presenters", "Domain layers"),
    ("domain/kernel/cards.py", "import domain.games.shedding", "Domain layers"),
    ("replay_ui/shared/cards.py", "import api.auth", "Layers"),
    ("api/errors.py", "import replay_ui.shared.i18n", "Layers"),  # the JSON API and the pages are siblings
    ("replay_ui/viewer/views.py", "import web.units", "Layers"),  # the app factory sits above both
    ("web/units.py", "import cli.common", "Layers"),
    ("domain/solver/search.py", "import domain.games.shedding", "Domain layers"),  # the search sits below the games
    ("api/resources.py", "import sqlite3", "Only the store modules"),
])
def test_a_forbidden_import_breaks_its_contract(tmp_path: Path, module: str, line: str, contract: str):
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("static", "templates",
                                                                                           "*.json", "__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    target = tmp_path / module
    target.write_text(target.read_text(encoding="utf-8") + f"\n{line}  # noqa\n", encoding="utf-8")
    done = lint_imports(tmp_path)
    assert done.returncode == 1
    broken = [row for row in done.stdout.splitlines() if " BROKEN" in row]
    assert len(broken) == 1 and broken[0].startswith(contract), done.stdout


ROOMS = ("domain", "projections", "api", "replay_ui", "web", "cli", "fixtures", "tests", "benchmarks", "docs",
         "scripts")
PATH_IN_TEXT = re.compile(r"(?<![\w/.:-])((?:" + "|".join(ROOMS) + r")/[\w/.<>*-]*[\w>*/])")


def test_every_path_the_architecture_map_names_exists():
    """docs/ARCHITECTURE.md stays true: each file or folder it names is there (`<game>` stands for every game)."""
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    games = sorted(p.name for p in (ROOT / "domain" / "games").iterdir() if (p / "engine.py").exists())
    missing = []
    for named in sorted(set(PATH_IN_TEXT.findall(text))):
        for path in ([named.replace("<game>", g) for g in games] if "<game>" in named else [named]):
            if "<" in path:
                continue  # another placeholder (an id in a URL, a name chosen by the reader)
            if not (list(ROOT.glob(path)) if "*" in path else (ROOT / path).exists()):
                missing.append(path)
    assert not missing, f"docs/ARCHITECTURE.md names paths that do not exist: {missing}"


def import_cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Every group of modules that import one another round a cycle (Tarjan's strongly connected components of
    more than one module, or one importing itself), each as one cycle through it for the message."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(module: str) -> None:  # recursive: the graph is ~200 modules and a few levels deep
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1 or module in graph.find_modules_directly_imported_by(module):
                groups.append(sorted(group))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    cycles = []
    for group in groups:
        start, members = group[0], set(group)
        back = min((graph.find_shortest_chain(importer=other, imported=start) or (other, start)
                    for other in graph.find_modules_directly_imported_by(start) if other in members), key=len)
        cycles.append([start, *back])
    return cycles


def test_no_module_imports_itself_round_a_cycle():
    """Between any two modules of the project, imports run one way: a cycle (a module importing, through others,
    a module that imports it) is named with its path, e.g. a -> b -> c -> a."""
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    assert "web.units" in graph.modules and "replay_ui.viewer.views" in graph.modules  # the scan saw the project
    cycles = import_cycles(graph)
    assert cycles == [], "\n".join(" -> ".join(cycle) for cycle in cycles)


def test_the_cycle_check_finds_a_cycle():
    graph = grimp.ImportGraph()
    for module in ("a", "a.b", "a.c", "a.d"):
        graph.add_module(module)
    graph.add_import(importer="a.b", imported="a.c")
    graph.add_import(importer="a.c", imported="a.d")
    graph.add_import(importer="a.d", imported="a.b")
    graph.add_import(importer="a", imported="a.b")
    assert import_cycles(graph) == [["a.b", "a.c", "a.d", "a.b"]]
