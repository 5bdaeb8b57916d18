"""A write on PostgreSQL is two queries to the server (docs/PERFORMANCE.md, "Load"; domain/store/logchain.py
`ChainedPostgresApplicationRecorder`): its values written into the query's text, so what it stores must come back
byte for byte, and the store-wide chain must still prove it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from uuid import uuid4

import psycopg
import pytest
from conftest import EXAMPLE_RECORD, Store
from eventsourcing.persistence import IntegrityError, StoredEvent

from domain.services.audit import audit_log
from domain.services.fupan import Fupan


@pytest.fixture
def postgres(store: Store) -> Iterator[Fupan]:
    if store.backend != "postgres":
        pytest.skip("the PostgreSQL write path")
    service = store.open()
    yield service
    service.close()


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The text of every query a cursor sends from now on."""
    queries: list[str] = []
    execute = psycopg.Cursor.execute

    def counted(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        queries.append(query.decode() if isinstance(query, bytes) else str(query))
        return execute(self, query, *args, **kwargs)

    monkeypatch.setattr(psycopg.Cursor, "execute", counted)
    return queries


def test_a_recorded_action_is_three_queries_the_look_at_the_log_and_two_for_the_write(postgres: Fupan, sent):
    deal, _ = postgres.deals.start(game="doudizhu", seats=["甲", "乙", "丙"], first=EXAMPLE_RECORD["first"],
                                   hands=EXAMPLE_RECORD["hands"], kitty=EXAMPLE_RECORD["kitty"])
    sent.clear()
    postgres.deals.record(deal["id"], EXAMPLE_RECORD["actions"][0])
    # Nine before: the look, then BEGIN, SET LOCAL, LOCK, NOTIFY, INSERT, the head, the link and COMMIT.
    assert len(sent) == 3, sent
    assert sent[1].startswith("BEGIN;") and "LOCK TABLE" in sent[1] and "NOTIFY" in sent[1]
    assert sent[2].endswith("; COMMIT")


def test_what_a_write_stores_comes_back_byte_for_byte_and_its_link_proves_it(postgres: Fupan):
    recorder = postgres.store.recorder
    awkward = [bytes(range(256)), b"\\x00'; DROP TABLE x; --", "E'\\\\x' 引号 \" ' \\".encode()]
    ids = [uuid4() for _ in awkward]
    written = [StoredEvent(originator_id=uid, originator_version=1, topic="fupan:It's.A\\Topic", state=state)
               for uid, state in zip(ids, awkward, strict=True)]
    notification_ids = recorder.insert_events(written)
    assert notification_ids is not None and len(notification_ids) == 3
    assert sorted(notification_ids) == list(notification_ids)  # in the order given
    for uid, state in zip(ids, awkward, strict=True):
        (stored,) = recorder.select_events(uid)
        assert (stored.topic, bytes(stored.state)) == ("fupan:It's.A\\Topic", state)
    notifications = recorder.select_notifications(notification_ids[0], 3)
    assert [n.id for n in notifications] == list(notification_ids)
    assert audit_log(recorder, recorder.chain.keys)["findings"] == []


def test_a_stale_write_stores_nothing_and_leaves_the_connection_usable(postgres: Fupan):
    recorder = postgres.store.recorder
    uid = uuid4()
    recorder.insert_events([StoredEvent(originator_id=uid, originator_version=1, topic="t", state=b"{}")])
    links = len(list(recorder.chain_links()))
    with pytest.raises(IntegrityError):
        recorder.insert_events([StoredEvent(originator_id=uuid4(), originator_version=1, topic="t", state=b"{}"),
                                StoredEvent(originator_id=uid, originator_version=1, topic="t", state=b"{}")])
    assert len(list(recorder.chain_links())) == links  # no link, no event of the refused transaction
    assert [e.originator_version for e in recorder.select_events(uid)] == [1]
    recorder.insert_events([StoredEvent(originator_id=uid, originator_version=2, topic="t", state=b"{}")])
    assert [e.originator_version for e in recorder.select_events(uid)] == [1, 2]
    assert audit_log(recorder, recorder.chain.keys)["findings"] == []
