"""No caller stalls the server (docs/SECURITY.md §6; issue 27 item 2): every number a caller sends is bounded
before it is read — a weight "1e10000000", a viewpoint `seat:<5,000 digits>`, a step of thousands of digits, a
JSON number past any field's range —, and long work (a solver-completed appeal line) runs outside the
process's lock. Each stall is sent over real HTTP while other clients read and write; none of their requests
waits on it.

Measured, not asserted on one call's speed: while each stall is in flight, a public read and a previewing write
(a POST: it takes the request's unit and its lock, as every write does) are sent one after another, and each
must answer within a generous bound (10 × the 100 ms the issue allows, for a loaded 2-core machine). A stall
that holds the lock makes them wait its whole duration (16.9 s for the weight, ~2 s for the solver's line);
the stall itself must answer without a 5xx.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import requests
from conftest import EXAMPLE_RECORD
from test_appeals import Event

BOUND = 1.0  # seconds a concurrent request may take while a stall runs (the target is 0.1 s of the stall's own)
DIGITS = "7" * 5000
HUGE = "1e10000000"


def weighted(weight: str) -> dict[str, object]:
    return {"kind": "weighted", "parts": [{"weight": weight, "scores": [-2, -2, 4]},
                                          {"weight": "2/5", "scores": [2, 2, -6]}]}


def alongside(stall: Callable[[], requests.Response], others: list[Callable[[], requests.Response]]
              ) -> tuple[requests.Response | Exception, float, list[float]]:
    """Send `stall` in a thread and, while it is in flight, the `others` in turn (each from a session of its
    own): the stall's answer (or the client's error: no answer within its timeout), its duration, and the
    duration of every other request started while it ran."""
    answer: list[requests.Response | Exception] = []

    def send() -> None:
        try:
            answer.append(stall())
        except requests.RequestException as error:
            answer.append(error)

    started = time.monotonic()
    thread = threading.Thread(target=send)
    thread.start()
    waits: list[float] = []
    while thread.is_alive():  # the first of them may go before the stall arrives: later ones overlap it
        for other in others:
            began = time.monotonic()
            reply = other()
            assert reply.status_code < 400, reply.text
            waits.append(time.monotonic() - began)
    thread.join()
    return answer[0], time.monotonic() - started, waits


def test_no_stall_holds_the_other_requests_of_the_process(server):
    event = Event(server, "拖延杯")
    appeal = event.file(step=3).json()["appeal_id"]
    path = f"/api/appeals/{appeal}"
    reader, writer = requests.Session(), requests.Session()
    public_read = lambda: reader.get(f"{server.url}/api/tournaments/{event.tournament}", timeout=60)  # noqa: E731
    previewing_write = lambda: writer.post(f"{server.url}{path}/preview",  # noqa: E731
                                           json={"outcome": {"kind": "stands"}}, timeout=60)
    deal, live = event.deal, event.live_deal
    stalls: dict[str, Callable[[], requests.Response]] = {
        "preview weight 1e10000000": lambda: server.post(f"{path}/preview", {"outcome": weighted(HUGE)},
                                                         anonymous=True),
        "preview weight 1e100000": lambda: server.post(f"{path}/preview", {"outcome": weighted("1e100000")},
                                                       anonymous=True),
        "ruling weight": lambda: server.post(f"{path}/ruling", {"outcome": weighted(HUGE), "reason": "x"}),
        "decision weight": lambda: server.post(f"{path}/decision", {
            "outcome": weighted(HUGE), "reason": "x", "members": ["甲"], "vote": {"for": 1, "against": 0,
                                                                                  "abstain": 0}},
            token=event.committee),
        "a JSON number 1e10000000": lambda: server.post(
            f"{path}/preview", data=f'{{"outcome": {{"kind": "weighted", "parts": [{{"weight": {HUGE}, '
            '"scores": [0, 0, 0]}, {"weight": 1, "scores": [0, 0, 0]}]}}', anonymous=True,
            headers={"Content-Type": "application/json"}),
        "a JSON integer of 5,000 digits": lambda: server.post(
            f"{path}/lines", data=f'{{"from_step": {DIGITS}, "actions": []}}', token=event.referee,
            headers={"Content-Type": "application/json"}),
        "viewer frames seat:<5,000 digits>": lambda: server.get(f"/ui-api/deals/{live}/frames?viewpoint=seat:{DIGITS}"),
        "replay seat:<5,000 digits>": lambda: server.get(f"/api/deals/{deal}/replay?viewpoint=seat:{DIGITS}"),
        "appeal frames seat:<5,000 digits>": lambda: server.get(f"{path}/frames?viewpoint=seat:{DIGITS}"),
        "review frames seat:<5,000 digits>": lambda: server.get(
            f"/ui-api/appeals/{appeal}/frames?viewpoint=seat:{DIGITS}"),
        "replay step of 4,000 digits": lambda: server.get(f"/api/deals/{deal}/replay?step={DIGITS[:4000]}"),
        "analysis step of 4,000 digits": lambda: server.get(f"/api/deals/{deal}/analysis?step={DIGITS[:4000]}"),
        "a solver-completed line": lambda: server.post(f"{path}/lines", {"from_step": 3, "actions": [],
                                                                         "complete": True}, token=event.referee),
    }
    problems: dict[str, list[str]] = {}
    for name, stall in stalls.items():
        answer, took, waits = alongside(stall, [public_read, previewing_write])
        found = problems.setdefault(name, [])
        if not isinstance(answer, requests.Response):
            found.append(f"no answer after {took:.1f} s ({type(answer).__name__})")
        elif answer.status_code >= 500:
            found.append(f"{answer.status_code} after {took:.1f} s")
        if max(waits, default=0.0) > BOUND:
            found.append(f"a concurrent request waited {max(waits):.2f} s (the stall took {took:.2f} s)")
        elif took > 2 * BOUND and len(waits) < 2:
            found.append(f"only {len(waits)} concurrent requests in its {took:.2f} s")
    assert {name: found for name, found in problems.items() if found} == {}
    # The line the solver completed is kept (or refused as too large), and the deal untouched.
    assert server.get(f"/api/deals/{deal}").json()["version"] == len(EXAMPLE_RECORD["actions"]) + 2
