"""Run mutmut's survivors again against tests written after its pass, inside mutmut's copy (docs/TESTING.md
"Mutation testing"): the tests are collected once, then each mutant runs in a forked child of that one pytest
session (`MUTANT_UNDER_TEST` set in the child), stopping at its first failure — a few hundredths of a second a
mutant instead of a pytest start each.

    cd mutants && ../.venv/bin/python ../scripts/recheck_mutants.py MAP < names.txt

MAP has one line per module: a mutant-name prefix, then the tests (files or node ids) that hold it, e.g.
`domain.games.sandayi.slip tests/rules/sandayi/test_sandayi_slip.py`; the first line whose prefix a name starts
with is used. Names come one a line on standard input (`mutmut results` prints them); each is answered
`killed NAME`, `timeout NAME` (a child still running after FUPAN_RECHECK_SECONDS, 60 by default: a mutant that
made a loop endless, counted as killed as mutmut counts its timeouts) or `ALIVE NAME`. Copy the new test files
into the copy's tests/ first: mutmut copied tests/ when it wrote the mutants. Not for CI.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import Any

import pytest
from _pytest.runner import runtestprotocol

sys.path.insert(0, os.getcwd())  # the mutated copy first, as mutmut runs it


def main() -> None:
    mapping = [line.split() for line in Path(sys.argv[1]).read_text(encoding="utf-8").splitlines() if line.strip()]
    names = [line.strip() for line in sys.stdin if line.strip()]
    files = sorted({test.split("::")[0] for row in mapping for test in row[1:]})
    answer = os.dup(1)
    seconds = int(os.environ.get("FUPAN_RECHECK_SECONDS", "60"))

    class Loop:
        def pytest_runtestloop(self, session: Any) -> bool:
            for name in names:
                row = next((row for row in mapping if name.startswith(row[0])), None)
                if row is None:
                    os.write(answer, f"no tests mapped: {name}\n".encode())
                    continue
                items = [i for i in session.items if any(i.nodeid.startswith(test) for test in row[1:])]
                child = os.fork()
                if child == 0:
                    signal.alarm(seconds)  # SIGALRM ends the child: an endless loop is a timeout, not a hang
                    os.environ["MUTANT_UNDER_TEST"] = name
                    for index, item in enumerate(items):
                        after = items[index + 1] if index + 1 < len(items) else None
                        if any(report.failed for report in runtestprotocol(item, nextitem=after, log=False)):
                            os._exit(1)
                    os._exit(0)
                _, status = os.waitpid(child, 0)
                code = os.waitstatus_to_exitcode(status)
                verdict = "timeout" if code == -signal.SIGALRM else "killed" if code else "ALIVE "
                os.write(answer, f"{verdict} {name}\n".encode())
            return True  # the items ran in the children only

    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)
    os.dup2(quiet, 2)
    pytest.main(["-q", "--tb=no", "-p", "no:randomly", "-p", "no:cacheprovider", "--hypothesis-profile=mutation",
                 *files], plugins=[Loop()])


if __name__ == "__main__":
    main()
