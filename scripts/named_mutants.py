"""The bugs issue 26 found surviving, planted one at a time in a copy of the checkout: each must fail its area's tests.

mutmut (pyproject's [tool.mutmut], docs/TESTING.md) plants its own small changes; these are the reviewer's, named,
and not all of them are among mutmut's (a bomb doubling made `1 + n`). Each is one text replacement in one file;
the copy is made in a temporary folder, so the checkout is never changed. Exit status 1 if one survives.

    .venv/bin/python scripts/named_mutants.py            # all of them (about two minutes on a quiet machine)
    .venv/bin/python scripts/named_mutants.py bomb_2n    # one
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DDZ, SJ = "domain/games/doudizhu/engine.py", "domain/games/shengji/scoring.py"
REQUEST, AUDIT = "domain/model/idempotent_request.py", "domain/services/audit.py"
DDZ_TESTS, SJ_TESTS = ["tests/rules/doudizhu"], ["tests/rules/shengji"]
KEY_TESTS = ["tests/services/test_idempotency.py", "tests/services/test_idempotency_routes.py"]
VERIFY_TESTS = ["tests/store/test_tamper_evidence.py"]

# name: (file, what the code says, the planted bug, the tests that must catch it)
NAMED: dict[str, tuple[str, str, str, list[str]]] = {
    # 斗地主: each bomb or rocket doubles (docs/rules/doudizhu.md §2.4)
    "bomb_1_plus_n": (DDZ, "bomb = 2 ** state.bombs", "bomb = 1 + state.bombs", DDZ_TESTS),
    "bomb_2n": (DDZ, "bomb = 2 ** state.bombs", "bomb = 2 * state.bombs", DDZ_TESTS),
    "bomb_once": (DDZ, "bomb = 2 ** state.bombs", "bomb = 2 if state.bombs else 1", DDZ_TESTS),
    # 升级: the attackers' "under 40" (docs/rules/shengji.md), in the level table and in the big points
    "under_40_levels": (SJ, "2 if points < 40 else 1", "2 if points <= 40 else 1", SJ_TESTS),
    "under_40_big_points": (SJ, "4 if points < 40 else 2", "4 if points <= 40 else 2", SJ_TESTS),
    # 升级: passing A ends the match; reaching A does not
    "reaching_ace": (SJ, "passed_ace = new_levels[gaining] + steps > TOP_LEVEL",
                     "passed_ace = new_levels[gaining] + steps >= TOP_LEVEL", SJ_TESTS),
    # Idempotency: the same key and body to another route is another request
    "route_ignored": (REQUEST, "return (self.method, self.path, self.body_sha256) == (method, path, body_digest(body))",
                      "return (self.method, self.body_sha256) == (method, body_digest(body))", KEY_TESTS),
    # fupan verify: a link's digest against its content, and every link's `prev`
    "link_digest_unchecked": (AUDIT, 'if content is not None and content != link["digest"]:', "if False:",
                              VERIFY_TESTS),
    "prev_checked_on_first_link_only": (AUDIT, 'elif link["prev"] != prev:',
                                        'elif seq == 1 and link["prev"] != prev:', VERIFY_TESTS),
}


def planted(name: str) -> bool:
    """True when the tests fail with the bug planted (killed). They pass on the checkout as it is (CI)."""
    path, code, bug, tests = NAMED[name]
    with tempfile.TemporaryDirectory(prefix=f"fupan-{name}-") as folder:
        copy = Path(folder) / "checkout"
        shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".venv", ".git", "mutants", "__pycache__",
                                                                  ".hypothesis", "artifacts"))
        text = (copy / path).read_text()
        if text.count(code) != 1:
            raise SystemExit(f"{name}: {path} no longer says {code!r} once; update scripts/named_mutants.py")
        (copy / path).write_text(text.replace(code, bug))
        # `python -m pytest` from the copy puts the copy first on sys.path, before the checkout's editable install.
        run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:randomly", "-k", "not postgres",
                              *tests], cwd=copy, capture_output=True, text=True,
                             env={**os.environ, "HYPOTHESIS_PROFILE": "ci"})
        if run.returncode not in (0, 1):
            raise SystemExit(f"{name}: the tests could not run (exit {run.returncode})\n{run.stdout}\n{run.stderr}")
        return run.returncode == 1


def main(names: list[str]) -> int:
    survived = []
    for name in names or list(NAMED):
        killed = planted(name)
        print(f"{name}: {'killed' if killed else 'SURVIVED'}")
        if not killed:
            survived.append(name)
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
