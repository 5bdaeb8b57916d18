"""The suite's own rules against luck (issue 26, docs/TESTING.md "No luck"), read from the tests' source:

- no fixed wait to synchronise: `time.sleep(…)` and Playwright's `wait_for_timeout(…)` only as the interval of a
  polling loop that ends on its condition (a `while` whose test names a `deadline`, or a loop with a `return` or
  `break` in it);
- no wall clock read for a window: `time.time()`, `time.monotonic()`, `time.perf_counter()` and `datetime.now()`
  only to set a polling loop's `deadline` (`deadline = time.monotonic() + 30`) or to compare with it; a time
  window is tested on a clock the test moves (FUPAN_AUTH_CLOCK, Playwright's page.clock);
- no port picked, closed and reused: no socket bound in a test (a server binds port 0 and says which it got);
- no `status_code in (…)`: a test asserts the one documented status.

Each rule fails on a line added that breaks it (see the tests at the end, which feed it such lines).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest
from paths import ROOT

TESTS = ROOT / "tests"
SLEEPS = {"sleep", "wait_for_timeout"}
CLOCKS = {("time", "time"), ("time", "monotonic"), ("time", "perf_counter"), ("datetime", "now"),
          ("datetime", "utcnow")}
# Legitimate exceptions, each with its reason: (path relative to tests/, function) → why.
ALLOWED: dict[tuple[str, str], str] = {
    ("api/test_security_stalls.py", "alongside"): "the measurement itself: how long a concurrent request waits while "
                                                  "a stall runs (docs/SECURITY.md §6, issue 27's acceptance)",
}


def sources() -> Iterator[tuple[str, ast.Module]]:
    for path in sorted(TESTS.rglob("*.py")):
        if path.name != Path(__file__).name:
            yield str(path.relative_to(TESTS)), ast.parse(path.read_text(encoding="utf-8"), str(path))


def parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def called(node: ast.AST) -> tuple[str, str] | None:
    """(object, attribute) of a call `object.attribute(…)`, the object's last name only."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        owner = node.func.value
        name = owner.id if isinstance(owner, ast.Name) else owner.attr if isinstance(owner, ast.Attribute) else ""
        return name, node.func.attr
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return "", node.func.id
    return None


def names_a_deadline(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Name) and "deadline" in n.id for n in ast.walk(node))


def enclosing(node: ast.AST, up: dict[ast.AST, ast.AST], kinds: tuple[type, ...]) -> ast.AST | None:
    while node in up:
        node = up[node]
        if isinstance(node, kinds):
            return node
    return None


def function_of(node: ast.AST, up: dict[ast.AST, ast.AST]) -> str:
    found = enclosing(node, up, (ast.FunctionDef, ast.AsyncFunctionDef))
    return found.name if isinstance(found, ast.FunctionDef | ast.AsyncFunctionDef) else "<module>"


def is_polling(loop: ast.AST) -> bool:
    """A loop that ends on its condition: its test names a deadline, or it returns or breaks."""
    if isinstance(loop, ast.While) and names_a_deadline(loop.test):
        return True
    return any(isinstance(n, ast.Return | ast.Break) for n in ast.walk(loop))


def broken_rules(name: str, tree: ast.Module) -> list[str]:
    up = parents(tree)
    found = []
    for node in ast.walk(tree):
        call = called(node)
        if call is None:
            continue
        where = f"{name}:{node.lineno} ({function_of(node, up)})"
        if (name, function_of(node, up)) in ALLOWED:
            continue
        if call[1] in SLEEPS and call != ("asyncio", "sleep"):
            loop = enclosing(node, up, (ast.While, ast.For))
            if loop is None or not is_polling(loop):
                found.append(f"{where}: a fixed wait ({call[1]}) — wait for the condition instead")
        elif call in CLOCKS:
            parent = up.get(node)
            setting = (isinstance(parent, ast.BinOp) and isinstance(up.get(parent), ast.Assign)
                       and names_a_deadline(up[parent].targets[0]))  # type: ignore[attr-defined]
            comparing = isinstance(parent, ast.Compare) and names_a_deadline(parent)
            if not (setting or comparing):
                found.append(f"{where}: the wall clock read ({'.'.join(call)}) beyond a polling deadline")
        elif call[1] == "bind":
            found.append(f"{where}: a socket bound by the test — let the server bind port 0 and say its port")
    for node in ast.walk(tree):
        if (isinstance(node, ast.Compare) and any(isinstance(op, ast.In | ast.NotIn) for op in node.ops)
                and isinstance(node.left, ast.Attribute) and node.left.attr == "status_code"):
            found.append(f"{name}:{node.lineno}: `status_code in (…)` — assert the documented status")
    return found


def test_the_suite_keeps_its_rules_against_luck() -> None:
    broken = [line for name, tree in sources() for line in broken_rules(name, tree)]
    assert not broken, "\n".join(broken)


def test_every_allowed_exception_still_exists() -> None:
    """An allowance outliving its function would let a new one of that name in unseen."""
    functions = {(name, node.name) for name, tree in sources() for node in ast.walk(tree)
                 if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)}
    assert set(ALLOWED) <= functions, set(ALLOWED) - functions


@pytest.mark.parametrize("source", [
    "import time\ndef test_x():\n    time.sleep(0.3)\n",
    "def test_x(page):\n    page.click('#b')\n    page.wait_for_timeout(600)\n",
    "import time\ndef test_x():\n    for _ in range(3):\n        time.sleep(1)\n",
    "import time\ndef test_x():\n    began = time.monotonic()\n",
    "import time\ndef test_x():\n    assert time.time() - 5 > 0\n",
    "from datetime import datetime\ndef test_x():\n    start = datetime.now()\n",
    "import socket\ndef free_port():\n    with socket.socket() as s:\n        s.bind(('127.0.0.1', 0))\n",
    "def test_x(r):\n    assert r.status_code in (400, 422)\n",
])
def test_each_rule_catches_a_line_that_breaks_it(source: str) -> None:
    assert broken_rules("added.py", ast.parse(source))


@pytest.mark.parametrize("source", [
    "import time\ndef wait(ok):\n    deadline = time.monotonic() + 30\n    while time.monotonic() < deadline:\n"
    "        if ok():\n            return\n        time.sleep(0.05)\n",
    "import time\ndef wait(ok):\n    deadline = time.monotonic() + 5\n"
    "    while not ok() and time.monotonic() < deadline:\n        time.sleep(0.1)\n",
    "def settle(page):\n    for _ in range(300):\n        if page.ready():\n            return\n"
    "        page.wait_for_timeout(50)\n",
    "def test_x(r):\n    assert r.status_code == 422\n",
])
def test_polling_with_a_deadline_and_exact_statuses_pass(source: str) -> None:
    assert broken_rules("added.py", ast.parse(source)) == []
