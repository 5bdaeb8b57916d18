"""What a role can add to a deal again and again (docs/SECURITY.md §6b; issue 27 items 3 and 6), over real HTTP on a
SQLite file and on PostgreSQL:

- a commentator's annotations are notes about the deal, not moves of it: they do not make the version a pad
  showed stale, so a pad's next tap is recorded however many notes arrived since; a move since still makes it
  409 (the optimistic concurrency that keeps two pads from recording over each other);
- annotations, fouls, retractions and an appeal's evidence are bounded per deal (per appeal), so one token
  cannot make a deal's answer, page or PDF megabytes.
"""

from __future__ import annotations

from conftest import EXAMPLE_RECORD
from test_appeals import Event

from domain.kernel.engine import FOUL_NOTE_LIMIT
from domain.model.appeal import MAX_EVIDENCE
from domain.model.appeal_rules import APPEALS_PER_TABLE
from domain.model.deal import MAX_ANNOTATION_TEXT, MAX_ANNOTATIONS, MAX_FOULS, MAX_RETRACTIONS

ACTIONS = EXAMPLE_RECORD["actions"]


def refused(answer, status: int, code: str) -> None:  # noqa: ANN001
    assert answer.status_code == status and answer.json()["error"]["code"] == code, answer.text


def test_annotations_do_not_make_a_pads_version_stale_but_a_move_does(server):
    event = Event(server, "注释杯")
    assert server.service is not None
    _, commentator = server.service.tokens.create("commentator", label="解说")
    deal = event.live_deal
    shown = server.get(f"/api/deals/{deal}/pad", token=event.other_referee).json()["version"]
    for step in (0, 1, 1):
        note = server.post(f"/api/deals/{deal}/annotations", {"step": step, "text": "好牌"}, token=commentator)
        assert note.status_code == 201, note.text
    tap = server.post(f"/api/deals/{deal}/actions", {"action": ACTIONS[1], "expected_version": shown},
                      token=event.other_referee)
    assert tap.status_code == 201, tap.text
    # Another pad that still shows the version before that tap is refused: a move happened since.
    other_pad = server.post(f"/api/deals/{deal}/actions", {"action": ACTIONS[2], "expected_version": shown},
                            token=event.other_referee)
    refused(other_pad, 409, "conflict")
    # The version after the tap, followed by notes, is still current for the next tap.
    after_tap = tap.json()["version"]
    note = server.post(f"/api/deals/{deal}/annotations", {"step": 2, "text": "妙"}, token=commentator)
    assert note.status_code == 201
    assert server.post(f"/api/deals/{deal}/actions", {"action": ACTIONS[2], "expected_version": after_tap},
                       token=event.other_referee).status_code == 201
    # A version the deal never had is refused as before.
    refused(server.post(f"/api/deals/{deal}/actions", {"action": ACTIONS[3], "expected_version": 10_000},
                        token=event.other_referee), 409, "conflict")


def test_annotations_fouls_retractions_and_evidence_are_bounded(server):
    event = Event(server, "限额杯")
    assert server.service is not None
    _, commentator = server.service.tokens.create("commentator", label="解说")
    path = f"/api/deals/{event.live_deal}"
    # Annotations: the characters of all of them together…
    long_note = {"step": 0, "text": "长" * 5000, "text_en": "x" * 5000}
    for _ in range(MAX_ANNOTATION_TEXT // 10_000):
        assert server.post(f"{path}/annotations", long_note, token=commentator).status_code == 201
    refused(server.post(f"{path}/annotations", {"step": 0, "text": "再"}, token=commentator), 422,
            "too_many_annotations")
    # …and their number (on the finished deal).
    for index in range(MAX_ANNOTATIONS):
        note = server.post(f"/api/deals/{event.deal}/annotations", {"step": 1, "text": f"第{index}条"},
                           token=commentator)
        assert note.status_code == 201, note.text
    refused(server.post(f"/api/deals/{event.deal}/annotations", {"step": 1, "text": "再"}, token=commentator), 422,
            "too_many_annotations")
    assert len(server.get(f"/api/deals/{event.deal}").content) < 200_000
    # Fouls: their note's length, and their number in a deal.
    foul = {"seat": 0, "type": "foul", "code": "other", "note": "x" * (FOUL_NOTE_LIMIT + 1)}
    refused(server.post(f"{path}/actions", {"action": foul}), 422, "bad_action")
    foul["note"] = "出牌过慢"
    for _ in range(MAX_FOULS):
        assert server.post(f"{path}/actions", {"action": foul}).status_code == 201
    refused(server.post(f"{path}/actions", {"action": foul}), 422, "too_many_fouls")
    # Retractions: an action recorded and taken back again and again.
    for _ in range(MAX_RETRACTIONS):
        recorded = server.post(f"{path}/actions", {"action": ACTIONS[1]})
        assert recorded.status_code == 201, recorded.text
        at = recorded.json()["step"] - 1  # the index of the entry just recorded
        taken = server.post(f"{path}/retractions", {"at": at, "reason": "记错"})
        assert taken.status_code == 201, taken.text
    at = server.post(f"{path}/actions", {"action": ACTIONS[1]}).json()["step"] - 1
    refused(server.post(f"{path}/retractions", {"at": at, "reason": "记错"}), 422, "too_many_retractions")
    # An appeal's evidence.
    appeal = event.file(step=3).json()["appeal_id"]
    for index in range(MAX_EVIDENCE):
        assert server.post(f"/api/appeals/{appeal}/evidence", {"note": f"证据{index}"},
                           token=event.referee).status_code == 201
    refused(server.post(f"/api/appeals/{appeal}/evidence", {"note": "再"}, token=event.referee), 422,
            "too_much_evidence")


def test_a_tables_appeals_are_bounded(server):
    """A referee token cannot file appeals about its table without end: the tournament's appeals list, every
    reader's, would grow with each (docs/SECURITY.md §6b). The one past the limit is refused and stores nothing."""
    event = Event(server, "申诉上限杯")
    for _ in range(APPEALS_PER_TABLE):
        assert event.file().status_code == 201
    before = event.head()
    refused(event.file(), 422, "too_many_appeals")
    assert event.head() == before
    # Another table's referee still files about its own table.
    other = server.post(f"/api/matches/{event.live_match}/appeals", {
        "against": {"kind": "result"}, "category": "scoring_error", "statement": "比分记错"},
        token=event.other_referee)
    assert other.status_code == 201, other.text
