"""Viewpoints are read exactly, not by prefix (docs/SECURITY.md §6; issue 27 item 7), over real HTTP on a SQLite
file and on PostgreSQL: an appeal's evidence naming `seat:99`, `seat:abc`, `publicXYZ`, `referee\u202e` (or a seat
of 5,000 digits) is refused and stores nothing; and one stored by an older version that took prefixes breaks
neither the appeal's report nor its pages — for anyone, at any time."""

from __future__ import annotations

from test_appeals import Event

from domain.model.appeal import Appeal

BAD = ["seat:99", "seat:3", "seat:abc", "seat:01", "seat:-1", "seat:", "publicXYZ", "referee\u202e", "Referee",
       "seat:" + "7" * 5000, 2]


def test_evidence_viewpoints_are_exact_and_a_stored_bad_one_breaks_no_report(server):
    event = Event(server, "视角杯")
    appeal = event.file(step=3).json()["appeal_id"]
    path = f"/api/appeals/{appeal}"
    head = event.head()
    for viewpoint in BAD:
        answer = server.post(f"{path}/evidence", {"reference": {"deal_id": event.deal, "step": 3,
                                                                "viewpoint": viewpoint}}, token=event.referee)
        assert answer.status_code == 422 and answer.json()["error"]["code"] == "bad_evidence", (viewpoint,
                                                                                               answer.text[:200])
    assert event.head() == head
    for viewpoint in ("seat:0", "seat:2", "public", "referee"):
        answer = server.post(f"{path}/evidence", {"reference": {"deal_id": event.deal, "step": 3,
                                                                "viewpoint": viewpoint}}, token=event.referee)
        assert answer.status_code == 201, (viewpoint, answer.text)

    # An appeal whose evidence was stored with a bad viewpoint (as the prefix check let through): its report,
    # pages and answers still read.
    broken = event.file(step=2, on_behalf_of=[]).json()["appeal_id"]
    assert server.service is not None
    store = server.service.store
    with store.unit():
        stored = store.load(Appeal, broken, "appeal")
        stored.add_evidence({"deal_id": event.deal, "step": 2, "viewpoint": "seat:99"}, "旧版本存下的",
                            {"role": "local", "token_id": None})
        store.commit(stored)
    for page in (f"/appeals/{broken}/report", f"/appeals/{broken}", f"/api/appeals/{broken}",
                 f"/appeals/{broken}/review"):
        assert server.get(page).status_code == 200, page
        assert server.get(page, token=event.committee).status_code == 200, page
