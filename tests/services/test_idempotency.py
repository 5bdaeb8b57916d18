"""Idempotency keys over real HTTP, on SQLite and PostgreSQL (api/idempotency.py, domain/model/idempotent_request.py).

A resend under the same key answers the first answer and stores nothing new — after a restart too, and when
it arrives at another server process on the same store; another body under the key is 409; keys are per
caller; a refused request's retry gets the same refusal even once the request would be legal; concurrent
resends store exactly one action.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
from typing import Any

import pytest
from conftest import EXAMPLE_RECORD, LiveServer, Store
from paths import ROOT

PLAYERS = EXAMPLE_RECORD["seats"]
ACTIONS = EXAMPLE_RECORD["actions"]


def keyed(key: str) -> dict[str, Any]:
    return {"headers": {"Idempotency-Key": key}}


def new_deal(server: LiveServer, table: str = "1") -> tuple[str, str]:
    """(match id, deal id) of a fresh 斗地主 table with the example deal started."""
    tournament = server.post("/api/tournaments", {"name": "幂等杯", "game": "doudizhu"}).json()["id"]
    for name in PLAYERS:
        server.post(f"/api/tournaments/{tournament}/players", {"name": name})
    match = server.post(f"/api/tournaments/{tournament}/matches",
                        {"table": table, "seats": PLAYERS, "first": 2}).json()["id"]
    body = {"hands": EXAMPLE_RECORD["hands"], "kitty": EXAMPLE_RECORD["kitty"], "first": 2}
    deal = server.post(f"/api/matches/{match}/deals", body).json()["id"]
    return match, deal


def actions_stored(server: LiveServer, deal: str) -> int:
    return server.get(f"/api/deals/{deal}", token=server.organiser).json()["actions"]


def test_a_resend_answers_the_first_answer_and_stores_nothing_new(server: LiveServer):
    match, deal = new_deal(server)
    path = f"/api/deals/{deal}/actions"
    first = server.post(path, {"action": ACTIONS[0]}, **keyed("tap-0001"))
    assert first.status_code == 201 and "Idempotent-Replayed" not in first.headers
    head = server.service.store.recorder.max_notification_id()  # type: ignore[union-attr]

    again = server.post(path, {"action": ACTIONS[0]}, **keyed("tap-0001"))
    assert (again.status_code, again.json()) == (201, first.json())
    assert again.headers["Idempotent-Replayed"] == "true"
    assert server.service.store.recorder.max_notification_id() == head  # type: ignore[union-attr]
    assert actions_stored(server, deal) == 1

    # Durable: a restarted server (a fresh process's cache) answers the same.
    server.restart()
    after_restart = server.post(path, {"action": ACTIONS[0]}, **keyed("tap-0001"))
    assert (after_restart.status_code, after_restart.json()) == (201, first.json())
    assert actions_stored(server, deal) == 1

    # The same key with another body: 409, nothing stored.
    other = server.post(path, {"action": ACTIONS[1]}, **keyed("tap-0001"))
    assert other.status_code == 409
    assert other.json()["error"]["code"] == "idempotency_conflict" and other.json()["error"]["message_zh"]
    assert actions_stored(server, deal) == 1
    # ... or another body to another route (the same body to another route: test_idempotency_routes.py).
    assert server.post(f"/api/matches/{match}/clock", {"minutes": 3}, **keyed("tap-0001")).status_code == 409

    # Keys are per caller: a referee's "tap-0001" is a request of its own, never the organiser's answer.
    _, referee = server.service.tokens.create("referee", [match], "table 1")  # type: ignore[union-attr]
    theirs = server.post(path, {"action": ACTIONS[1]}, token=referee, **keyed("tap-0001"))
    assert theirs.status_code == 201 and theirs.json()["version"] == first.json()["version"] + 1
    assert "Idempotent-Replayed" not in theirs.headers
    assert actions_stored(server, deal) == 2

    # A bad key is refused at the door.
    bad = server.post(path, {"action": ACTIONS[2]}, headers={"Idempotency-Key": "x" * 256})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_idempotency_key"


def test_a_refused_request_retried_under_its_key_is_refused_again_even_once_it_would_be_legal(server: LiveServer):
    _, deal = new_deal(server)
    path = f"/api/deals/{deal}/actions"
    early = server.post(path, {"action": ACTIONS[2]}, **keyed("early"))  # seat 1 passes before seat 2 called
    assert early.status_code == 422
    for action in ACTIONS[:2]:
        assert server.post(path, {"action": action}).status_code == 201
    retried = server.post(path, {"action": ACTIONS[2]}, **keyed("early"))  # it would be legal now
    assert (retried.status_code, retried.json()) == (422, early.json())
    assert retried.headers["Idempotent-Replayed"] == "true"
    assert actions_stored(server, deal) == 2
    # A stale write (409) is not kept: sent again it is judged again, and the key is free for the retry that
    # carries the right version.
    stale = server.post(path, {"action": ACTIONS[2], "expected_version": 1}, **keyed("stale"))
    again = server.post(path, {"action": ACTIONS[2], "expected_version": 1}, **keyed("stale"))
    assert stale.status_code == again.status_code == 409 and "Idempotent-Replayed" not in again.headers
    fixed = server.post(path, {"action": ACTIONS[2], "expected_version": 3}, **keyed("stale"))
    assert fixed.status_code == 201 and actions_stored(server, deal) == 3
    resent = server.post(path, {"action": ACTIONS[2], "expected_version": 3}, **keyed("stale"))
    assert (resent.status_code, resent.json()) == (201, fixed.json()) and actions_stored(server, deal) == 3


def test_a_token_creation_replayed_never_shows_its_secret_again(server: LiveServer):
    match, _ = new_deal(server)
    body = {"role": "referee", "matches": [match], "label": "deputy"}
    first = server.post("/api/tokens", body, **keyed("deputy-token"))
    assert first.status_code == 201 and first.json()["bearer"]
    again = server.post("/api/tokens", body, **keyed("deputy-token"))
    assert again.status_code == 201 and again.json()["bearer"] is None
    assert again.json()["token"] == first.json()["token"]
    assert len([t for t in server.get("/api/tokens", token=server.organiser).json() if t["label"] == "deputy"]) == 1
    events = server.service.store.recorder.select_notifications(1, 10**6)  # type: ignore[union-attr]
    secret = first.json()["bearer"].split("_", 2)[2]  # the secret itself may hold "_"
    assert not any(secret in n.state.decode() for n in events)


def race(send: list[Any]) -> list[Any]:
    """Run the callables at the same moment; their answers in order."""
    barrier = threading.Barrier(len(send))
    answers: list[Any] = [None] * len(send)

    def run(index: int) -> None:
        barrier.wait()
        answers[index] = send[index]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(send))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return answers


def test_concurrent_resends_on_one_server_store_exactly_one(server: LiveServer):
    _, deal = new_deal(server)
    path = f"/api/deals/{deal}/actions"
    for index, action in enumerate(ACTIONS[:4]):
        answers = race([lambda a=action, i=index: server.post(path, {"action": a}, **keyed(f"k{i}"))] * 3)
        assert {a.status_code for a in answers} == {201}
        assert len({a.text for a in answers}) == 1  # the same answer, one stored action
        assert actions_stored(server, deal) == index + 1


@pytest.mark.parametrize("rounds", [6])
def test_concurrent_resends_to_two_server_processes_store_exactly_one(store: Store, rounds: int):
    """Two applications on one store (as two gunicorn workers: each its own lock and cache)."""
    one, two = LiveServer(store).start(), LiveServer(store).start()
    try:
        _, deal = new_deal(one)
        path = f"/api/deals/{deal}/actions"
        for index, action in enumerate(ACTIONS[:rounds]):
            send = [lambda s=s, a=action, i=index: s.post(path, {"action": a}, token=one.organiser,
                                                          **keyed(f"two-{i}")) for s in (one, two)]
            answers = race(send)
            assert actions_stored(one, deal) == index + 1 == actions_stored(two, deal)
            created = [a for a in answers if a.status_code == 201]
            assert created, [a.text for a in answers]
            assert len({a.text for a in created}) == 1
            # The loser of a race stored nothing (its write, key and answer are one transaction) and answers the
            # winner's stored answer, or at worst a plain conflict; never "pending": no answer is ever awaited.
            for answer in answers:
                assert answer.status_code == 201 or (answer.status_code == 409
                                                     and answer.json()["error"]["code"] == "conflict"), answer.text
            resent = two.post(path, {"action": action}, token=one.organiser, **keyed(f"two-{index}"))
            assert (resent.status_code, resent.text) == (201, created[0].text)
        assert actions_stored(one, deal) == rounds
    finally:
        one.stop()
        two.stop()


# A worker that took a keyed write and died before answering it (kill -9 between the service's command and the
# answer): a real second process on the same store, doing exactly what the guard and api/idempotency.py do for
# a request — the unit, the caller, `begin`, the service's command — and killed where the answer would follow.
DIES_BEFORE_ANSWERING = """
import json, os, signal, sys
from domain.services.fupan import Fupan
env, token, key, path, deal, body = json.loads(sys.argv[1])
app = Fupan(env=env)
with app.requests.open():
    principal = app.tokens.authenticate(token)
    app.requests.begin(principal.token_id, key, "POST", path, body.encode(), principal.recorded_by)
    app.deals.record(deal, json.loads(body)["action"], recorded_by=principal.recorded_by)
    os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_write_whose_worker_died_before_answering_is_resolved_by_its_resend(server: LiveServer):
    """Either the write is absent and the resend does it once, or the resend answers the write's answer: never
    409 `idempotency_pending` for good (docs/SECURITY.md §6a)."""
    _, deal = new_deal(server)
    path = f"/api/deals/{deal}/actions"
    body = json.dumps({"action": ACTIONS[0]})
    died = subprocess.run([sys.executable, "-c", DIES_BEFORE_ANSWERING,
                           json.dumps([server.store.env, server.organiser, "lost-answer", path, deal, body])],
                          cwd=ROOT, capture_output=True, timeout=60)
    assert died.returncode == -signal.SIGKILL, died.stderr.decode()

    headers = {"Content-Type": "application/json", "Idempotency-Key": "lost-answer"}
    resent = server.post(path, data=body.encode(), headers=headers)
    assert resent.status_code == 201, resent.text
    assert actions_stored(server, deal) == 1  # done once: by the dead worker's commit or by this resend
    assert resent.json()["version"] == 2
    again = server.post(path, data=body.encode(), headers=headers)  # and from now on it is the answer
    assert (again.status_code, again.json()) == (201, resent.json()) and again.headers["Idempotent-Replayed"] == "true"
    assert actions_stored(server, deal) == 1


def test_a_keyed_write_answers_what_it_wrote_though_it_is_stored_only_with_its_answer(store: Store):
    """The unit holds a keyed write's commits until its answer is built: what the view reads back in it (the
    match a finished deal scored, an appeal's evidence) is what was written, and what the store holds after."""
    server = LiveServer(store).start()
    try:
        match, deal = new_deal(server)
        answers = [server.post(f"/api/deals/{deal}/actions", {"action": action}, **keyed(f"play-{i}"))
                   for i, action in enumerate(ACTIONS)]
        assert {a.status_code for a in answers} == {201} and answers[-1].json()["match"]
        _, referee = server.service.tokens.create("referee", [match], "table 1")  # type: ignore[union-attr]
        body = {"against": {"kind": "deal", "deal_id": deal, "step": 3}, "category": "rules_misapplied",
                "statement": "第4步的顺子应判无效", "on_behalf_of": [PLAYERS[1]]}
        filed = server.post(f"/api/matches/{match}/appeals", body, token=referee, **keyed("appeal"))
        assert filed.status_code == 201, filed.text
        path = f"/api/appeals/{filed.json()['appeal_id']}"
        evidence = server.post(f"{path}/evidence", {"reference": {"deal_id": deal, "step": 3}, "note": "手上还有 10"},
                               token=referee, **keyed("evidence"))
        assert evidence.status_code == 201, evidence.text
        server.restart()  # what was stored, read by a fresh process
        stored = server.get(path, token=server.organiser).json()
        assert evidence.json()["evidence"] == stored["evidence"] and len(stored["timeline"]) == 2
        resent = server.post(f"{path}/evidence", {"reference": {"deal_id": deal, "step": 3}, "note": "手上还有 10"},
                             token=referee, **keyed("evidence"))
        assert (resent.status_code, resent.json()) == (201, evidence.json())
        assert server.get(f"/api/deals/{deal}", token=server.organiser).json()["actions"] == len(ACTIONS)
    finally:
        server.stop()
