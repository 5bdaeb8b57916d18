"""An idempotency key and what is stored under it, through the service on a real SQLite store (docs/SECURITY.md §6a;
domain/model/idempotent_request.py, domain/services/idempotency.py): the key's documented shape, the first request
and its answer as stored, the conflict naming the first request, and a key stored without its answer (a version
before answers shared the write's transaction) answered `idempotency_pending`. Found by mutation testing
(docs/TESTING.md): each assertion here failed with one planted change that the HTTP tests let through."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Store

from domain.kernel.errors import BadRequest, Conflict
from domain.model.idempotent_request import MAX_KEY, IdempotentRequest, check_key

CALLER = "5b0c6a7e-0000-4000-8000-000000000001"
BY = {"role": "organiser", "token_id": CALLER}
PATH = "/api/deals/0c7c9d0e-0000-4000-8000-000000000002/actions"
BODY = b'{"action": {"seat": 2, "type": "call"}}'


@pytest.mark.parametrize("key", ["a", "!", "~", "x" * MAX_KEY, "!~" * 10, "0b4f9c1e-2d3a-4b5c-8d6e-7f8091a2b3c4"])
def test_a_key_of_1_to_255_visible_ascii_characters_is_taken_as_sent(key: str):
    assert MAX_KEY == 255
    assert check_key(key) == key


@pytest.mark.parametrize("key", ["", "x" * (MAX_KEY + 1), " ", "tap 1", "tap\t1", "\x7f", "键"])
def test_any_other_key_is_400_bad_idempotency_key(key: str):
    with pytest.raises(BadRequest) as refused:
        check_key(key)
    assert refused.value.code == "bad_idempotency_key"


def begin(app, key: str, method: str = "POST", path: str = PATH, body: bytes = BODY):
    with app.requests.open():
        return app.requests.begin(CALLER, key, method, path, body, BY)


def test_a_request_is_stored_with_its_answer_and_named_in_the_conflict_of_another(tmp_path: Path):
    store = Store.sqlite(tmp_path / "keys.sqlite")
    app = store.open()
    try:
        with app.requests.open():
            request, first = app.requests.begin(CALLER, "tap-1", "POST", PATH, BODY, BY)
            assert first and request.answer is None
            assert app.requests.finish(request, 201, '{"version": 2}', "application/json", True, BODY) is None
    finally:
        app.close()

    app = store.open()  # what was stored, read by a fresh process
    try:
        stored, first = begin(app, "tap-1")
        assert not first
        assert (stored.key, stored.method, stored.path, stored.recorded_by) == ("tap-1", "POST", PATH, BY)
        assert stored.answer == {"status": 201, "body": '{"version": 2}', "content_type": "application/json"}

        for method, path, body in [("POST", PATH, b"{}"), ("POST", PATH + "?x=1", BODY), ("PUT", PATH, BODY)]:
            with pytest.raises(Conflict) as conflict:
                begin(app, "tap-1", method, path, body)
            assert conflict.value.code == "idempotency_conflict"
            assert conflict.value.details == {"key": "tap-1", "method": "POST", "path": PATH}
    finally:
        app.close()


def test_the_answer_is_stored_with_who_recorded_the_request(tmp_path: Path):
    store = Store.sqlite(tmp_path / "keys.sqlite")
    app = store.open()
    try:
        with app.requests.open():
            request, _ = app.requests.begin(CALLER, "tap-2", "POST", PATH, BODY, BY)
            app.requests.finish(request, 422, '{"error": {}}', "application/problem+json", True, BODY)
        topics = [(n.topic, n.state) for n in app.store.recorder.select_notifications(1, 100)]
    finally:
        app.close()
    created, answered = [state for topic, state in topics if topic.startswith("fupan:IdempotentRequest")]
    assert b'"tap-2"' in created and b'"organiser"' in created
    assert b'"application/problem+json"' in answered and b'"organiser"' in answered and CALLER.encode() in answered


def test_a_key_stored_without_its_answer_is_pending_and_never_answered_by_a_resend(tmp_path: Path):
    store = Store.sqlite(tmp_path / "keys.sqlite")
    app = store.open()
    try:
        # As a version before answers shared the write's transaction stored it: the request, no answer.
        with app.requests.open():
            app.store.commit(IdempotentRequest.new(CALLER, "tap-3", "POST", PATH, BODY, BY))
        with pytest.raises(Conflict) as pending:
            begin(app, "tap-3")
        assert pending.value.code == "idempotency_pending"
        with pytest.raises(Conflict) as other:  # another request under it is still the conflict
            begin(app, "tap-3", body=b"{}")
        assert other.value.code == "idempotency_conflict"
    finally:
        app.close()


def test_two_processes_racing_under_one_key_store_one_request_and_the_loser_answers_the_winners_answer(
        tmp_path: Path):
    """Two applications on one store (two server processes) both find the key absent; the first to save wins, the
    other's save is refused whole and it answers the stored answer (docs/SECURITY.md §6a, the racing row)."""
    store = Store.sqlite(tmp_path / "keys.sqlite")
    first, second = store.open(), store.open()
    try:
        with first.requests.open():  # each request in its own process's unit, the second inside the first's
            mine, fresh = first.requests.begin(CALLER, "tap-4", "POST", PATH, BODY, BY)
            with second.requests.open():
                theirs, also_fresh = second.requests.begin(CALLER, "tap-4", "POST", PATH, BODY, BY)
                assert fresh and also_fresh
                assert second.requests.finish(theirs, 201, '{"won": true}', "application/json", True, BODY) is None
            stored = first.requests.finish(mine, 201, '{"won": false}', "application/json", True, BODY)
        assert stored is not None and stored.answer == {"status": 201, "body": '{"won": true}',
                                                        "content_type": "application/json"}
        # The same race under the key for another request: the loser's is the conflict, nothing of it stored.
        with first.requests.open():
            other, _ = first.requests.begin(CALLER, "tap-5", "POST", PATH, b"{}", BY)
            with second.requests.open():
                won, _ = second.requests.begin(CALLER, "tap-5", "POST", PATH, BODY, BY)
                second.requests.finish(won, 201, "{}", "application/json", True, BODY)
            with pytest.raises(Conflict) as conflict:
                first.requests.finish(other, 201, "{}", "application/json", True, b"{}")
        assert conflict.value.code == "idempotency_conflict"
    finally:
        first.close()
        second.close()
