"""The result-blind review's steps in words (/ui-api/appeals/<id>/frames), over real HTTP: a step judged while
the cards are still dealt is told as that step — not as the declarations closed, which a 升级 deal cannot say
before its dealer is known; a trick closed before the judged step is told without its winner, which the review
leaves out (issue 23, the rehearsal's committee review)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import LiveServer
from test_messages import table_deal

from fixtures.random_play import shengji as shengji_play


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(Path(tmp_path_factory.mktemp("review_words")) / "review.sqlite").start()
    yield server
    server.stop()


def test_a_shengji_deal_judged_while_dealt_is_reviewed_step_by_step(live: LiveServer) -> None:
    players = ["张伟", "李娜", "王芳", "刘洋"]
    deal, setup = table_deal(live, "复核·升级", "shengji", players)
    _, actions = shengji_play.play_deal(setup, random.Random("review"), foul_rate=0, timeout_rate=0,
                                        irregularity_rate=0)
    for action in actions:
        assert live.post(f"/api/deals/{deal}/actions", {"action": action}).status_code == 201, action
    assert live.service is not None
    match = live.service.deals.get(deal)["match_id"]
    # Judged while the cards are dealt, and at the last card (tricks won before it: their winners are blinded).
    for step in (10, len(actions)):
        filed = live.post(f"/api/matches/{match}/appeals", {"against": {"kind": "deal", "deal_id": deal, "step": step},
                                                            "category": "rules_misapplied", "statement": "判罚有误"})
        assert filed.status_code == 201, filed.text
        appeal = filed.json()["appeal_id"]
        for viewpoint in ("public", "seat:1"):
            answered = live.get(f"/ui-api/appeals/{appeal}/frames", params={"viewpoint": viewpoint})
            assert answered.status_code == 200, (step, answered.text[:500])
            frames = answered.json()["frames"]
            assert len(frames) == step + 1 and all(frame["notation"]["zh"] for frame in frames[1:])
            assert '"result"' not in answered.text and '"scores"' not in answered.text
