"""Units of work side by side (docs/ARCHITECTURE.md "Units of work"), on SQLite and PostgreSQL: while a write
holds one deal, a read of that deal answers its last committed state and a write to another deal is stored,
neither waiting for the first; two units that each hold what the other asks for never deadlock.

Each test holds a unit open in a thread of its own until the test lets it go (events, never a sleep); a request
that waited for it would not answer until then, so the timeouts below are only there to end a failing run.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from uuid import UUID

import pytest
import requests
from conftest import LiveServer
from test_idempotency import ACTIONS, actions_stored, new_deal

from domain.kernel.errors import Conflict
from domain.model.deal import Deal
from domain.model.tournament import Tournament
from domain.services.fupan import Fupan

FAILING_RUN = 60  # seconds after which a wait counts as waiting for ever


@contextmanager
def held(run: Callable[[], None]) -> Iterator[None]:
    """Run `run` in a thread of its own until it gives `holding` back, then let it finish after the block."""
    holding, release, failed = threading.Event(), threading.Event(), []

    def hold() -> None:
        try:
            run_until = run()
            holding.set()
            release.wait(timeout=2 * FAILING_RUN)  # past the test's own waits: a request waiting for it fails first
            if run_until is not None:
                run_until()
        except BaseException as error:
            failed.append(error)
            holding.set()

    thread = threading.Thread(target=hold, daemon=True)
    thread.start()
    assert holding.wait(timeout=FAILING_RUN)
    try:
        assert not failed, failed
        yield
    finally:
        release.set()
        thread.join(timeout=2 * FAILING_RUN)
    assert not failed, failed


def test_while_a_write_holds_a_deal_its_read_and_another_deals_write_go_on(server: LiveServer):
    _, held_deal = new_deal(server, "1")
    _, other_deal = new_deal(server, "2")
    service = server.service
    assert service is not None
    units: list[object] = []

    def write_held_open() -> Callable[[], None]:
        # A keyed write to the deal as a request does it: its unit open, its action recorded, its commit held
        # until its answer is ready (here: until the test lets it go).
        unit = service.requests.open(writes_to=[UUID(held_deal)])
        unit.__enter__()
        units.append(unit)
        service.store.defer()
        service.deals.record(held_deal, ACTIONS[0])

        def answer() -> None:
            service.store.commit_deferred()
            unit.__exit__(None, None, None)

        return answer

    headers = server.auth()
    with held(write_held_open), ThreadPoolExecutor(max_workers=2) as pool:
        read = pool.submit(requests.get, f"{server.url}/api/deals/{held_deal}", headers=headers, timeout=FAILING_RUN)
        write = pool.submit(requests.post, f"{server.url}/api/deals/{other_deal}/actions", json={"action": ACTIONS[0]},
                            headers=headers, timeout=FAILING_RUN)
        answered = read.result(timeout=FAILING_RUN)
        assert answered.status_code == 200
        assert answered.json()["actions"] == 0  # the last committed state: the held action is not in it
        assert write.result(timeout=FAILING_RUN).status_code == 201
    assert actions_stored(server, held_deal) == 1  # the held write, let go, was stored
    assert actions_stored(server, other_deal) == 1


def test_two_units_each_holding_what_the_other_asks_for_do_not_deadlock(server: LiveServer):
    """The unit asking for an id below one it holds does not wait: it fails as a conflict, nothing written."""
    deals = sorted(UUID(new_deal(server, table)[1]) for table in ("1", "2"))
    low, high = deals
    service = server.service
    assert service is not None
    got: list[Deal] = []

    def hold_low() -> Callable[[], None]:
        unit = service.store.unit(writes_to=[low])
        unit.__enter__()

        def then_ask_for_high() -> None:
            try:
                got.append(service.store.load(Deal, high, "deal"))  # waits for the other unit to end
            finally:
                unit.__exit__(None, None, None)

        return then_ask_for_high

    with held(hold_low), service.store.unit(writes_to=[high]), pytest.raises(Conflict):
        service.store.load(Deal, low, "deal")
    assert [deal.id for deal in got] == [high]


def test_a_read_saves_nothing_and_a_locking_unit_saves_nothing_it_did_not_lock(server: LiveServer):
    """A bug that would change an object other units read, or one that only a unit running alone may change,
    fails loudly instead."""
    _, deal = new_deal(server, "1")
    tournament = server.post("/api/tournaments", {"name": "锁杯", "game": "doudizhu"}).json()["id"]
    service: Fupan | None = server.service
    assert service is not None
    with service.store.reading(), service.store.unit(), pytest.raises(RuntimeError):
        service.store.commit(service.store.load(Deal, deal, "deal"))
    with service.store.unit(writes_to=[UUID(deal)]), pytest.raises(RuntimeError):
        service.store.commit(service.store.load(Tournament, tournament, "tournament"))


def test_a_post_that_stores_nothing_answers_while_a_write_runs_alone(server: LiveServer):
    """An analysis or a preview is a POST that computes for up to seconds: it runs as a read (api.common
    `stores_nothing`), so a write running alone (a tournament's) does not hold it, nor it the writes."""
    _, deal = new_deal(server, "1")
    service = server.service
    assert service is not None

    def write_alone_held_open() -> Callable[[], None]:
        unit = service.store.unit()  # names no deal: it runs alone, every locking write waits for it
        unit.__enter__()
        return lambda: unit.__exit__(None, None, None)

    with held(write_alone_held_open):
        answered = requests.post(f"{server.url}/api/deals/{deal}/variation", json={"step": 0},
                                 headers=server.auth(), timeout=FAILING_RUN)
        assert answered.status_code == 200, answered.text
        assert answered.json()["deal_id"] == deal
