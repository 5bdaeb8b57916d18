"""`fupan verify`'s answers read from the service (domain/services/verification.py), as docs/SECURITY.md §9 and
docs/record-format.md "Round digests" say: a printed digest — a round's after k deals, a deal's closing or latest,
a link of the store-wide chain — is found and named, and the deals it covers are checked again; every deal's
hash chain is recomputed with its progress reported; a deal's own check gives its digest only to a reader who
may see the whole deal (§4: a live deal's to its referee, a closed one's to anyone). One small SQLite store
(tests/store/test_tamper_evidence.py's: a finished deal and a live one at table 1)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from uuid import UUID

import pytest
from conftest import Store
from test_tamper_evidence import Built

from domain.model.deal import Deal
from domain.model.token import LOCAL, PUBLIC, REFEREE, Principal
from domain.services.fupan import Fupan


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    return Built(Store.sqlite(Path(tmp_path_factory.mktemp("verify")) / "fupan.sqlite"))


@pytest.fixture
def app(built: Built) -> Iterator[Fupan]:
    app = built.open()
    try:
        yield app
    finally:
        app.close()


def closing_digest(app: Fupan, deal: str) -> str:
    """The deal's digest at its `Deal.Finished` (docs/record-format.md "Round digests")."""
    return next(e.digest for e in app.store.stream(UUID(deal), deal=True) if isinstance(e, Deal.Finished))


def test_a_deals_closing_and_latest_digests_are_found_and_checked(built: Built, app: Fupan) -> None:
    closing = closing_digest(app, built.finished)
    answer = app.audit.check_digest(closing[:20])
    assert answer == {"digest": closing[:20], "ok": True, "findings": [], "matches": [
        {"kind": "deal", "deal_id": built.finished, "which": "closing", "digest": closing}]}
    latest = app.audit.verify_deal(built.live, LOCAL)["digest"]
    (match,) = app.audit.check_digest(latest)["matches"]
    assert (match["kind"], match["deal_id"], match["which"]) == ("deal", built.live, "latest")


def test_a_rounds_digest_names_its_round_and_how_many_deals_it_covers(built: Built, app: Fupan) -> None:
    answer = app.audit.check_digest(built.round_digest)
    assert answer["ok"] and answer["findings"] == []
    assert answer["matches"] == [{"kind": "round", "tournament_id": built.tournament, "tournament": "校验杯",
                                  "round": 1, "label": answer["matches"][0]["label"], "deals": 1, "of": 1,
                                  "digest": built.round_digest}]


def test_a_link_of_the_store_wide_chain_is_found_by_its_digest(built: Built, app: Fupan) -> None:
    link = built.raw.links()[2]
    (match,) = [m for m in app.audit.check_digest(link["digest"])["matches"] if m["kind"] == "link"]
    assert match == {"kind": "link", "seq": int(link["seq"]), "at": link["at"], "digest": link["digest"]}


def test_every_deals_chain_is_recomputed_with_its_progress(app: Fupan) -> None:
    seen: list[tuple[int, int]] = []
    assert app.audit.verify_chains(lambda done, of: seen.append((done, of))) == {
        "ok": True, "deals": 2, "appeals": 0, "broken": []}
    assert seen == [(1, 2), (2, 2)]


def test_a_deals_digest_only_for_who_may_see_the_whole_deal(built: Built, app: Fupan) -> None:
    latest = app.deals.get(built.finished)["digest"]
    assert app.audit.verify_deal(built.finished, PUBLIC) == {"deal_id": built.finished, "ok": True,
                                                            "first_bad_version": None, "digest": latest}
    live = app.audit.verify_deal(built.live, PUBLIC)
    assert (live["ok"], live["digest"]) == (True, None)
    latest = app.audit.verify_deal(built.live, LOCAL)["digest"]
    assert latest is not None
    its_referee = Principal(REFEREE, "t1", frozenset({built.match}))
    another_referee = Principal(REFEREE, "t2", frozenset({"another-match"}))
    assert app.audit.verify_deal(built.live, its_referee)["digest"] == latest
    assert app.audit.verify_deal(built.live, another_referee)["digest"] is None


def test_an_edited_deal_breaks_its_chain_and_every_digest_that_covers_it(tmp_path: Path) -> None:
    """§9: an action edited in the database (its chain left as it was) — the deal's chain breaks at that version,
    and its printed closing digest and the round's are still found but no longer check; an event edited into
    something that no longer decodes breaks its deal's chain too, named with the reason."""
    built = Built(Store.sqlite(tmp_path / "fupan.sqlite"))
    version = next(v for v, t in built.raw.versions(built.finished) if t == "fupan:Deal.ActionRecorded")
    action = built.raw.state(built.finished, version)
    built.raw.set_state(built.finished, version, {**action, "recorded_by": {"role": "referee", "token_id": None}})
    app = built.open()
    try:
        assert app.audit.verify_chains() == {"ok": False, "deals": 2, "appeals": 0, "broken": [
            {"deal_id": built.finished, "first_bad_version": version}]}
        built.raw.run("UPDATE {events} SET state = ? WHERE originator_id = ? AND originator_version = 2",
                      (b"{not json", built.raw.oid(built.live)))
        app.close()
        app = built.open()
        unreadable = app.audit.verify_chains()["broken"][-1]
        assert (unreadable["deal_id"], unreadable["first_bad_version"]) == (built.live, None)
        assert unreadable["error"]
        # the printed digests are still looked up, with a deal that no longer reads in the store (no traceback)
        for printed in (closing_digest(app, built.finished), built.round_digest):
            answer = app.audit.check_digest(printed)
            assert not answer["ok"] and answer["matches"]
            assert [(f["kind"], f["aggregate"], f["id"], f["version"]) for f in answer["findings"]] == [
                ("chain_broken", "Deal", built.finished, version)]
        assert app.audit.verify_deal(built.finished, LOCAL)["first_bad_version"] == version
        assert [f["kind"] for f in app.audit.check_digest("ab" * 10)["findings"]] == ["digest_not_found"]
    finally:
        app.close()
