"""斗地主's score slip of a deal everyone passed (docs/record-format.md "Result-only records": `{"redeal": true}`,
fouls aside): stored as such, and refused with anything else on it — it had no landlord and no play."""

from __future__ import annotations

from typing import Any

import pytest

from domain.kernel.engine import DealSetup
from domain.kernel.errors import IllegalAction
from domain.records.slips import score


def slip(facts: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    return score(DealSetup("doudizhu", {}, ["甲", "乙", "丙"], 0, [], [], {}), facts)


def test_a_passed_deal_is_stored_as_a_redeal_with_its_fouls():
    stored, result = slip({"redeal": True})
    assert stored == {"redeal": True, "fouls": []} and result["redeal"] is True
    foul = {"seat": 1, "code": "early_play", "note": "抢出", "penalty": 2}
    stored, _ = slip({"redeal": True, "fouls": [foul]})
    assert stored["redeal"] is True and [(f["seat"], f["code"]) for f in stored["fouls"]] == [(1, "early_play")]


@pytest.mark.parametrize("extra", [{"landlord": 0}, {"winner": "landlord"}, {"bombs": 1}])
def test_a_passed_deal_has_nothing_else_on_its_slip(extra: dict[str, Any]):
    with pytest.raises(IllegalAction) as caught:
        slip({"redeal": True, **extra})
    assert caught.value.code == "impossible_slip" and caught.value.details["facts"] == sorted(extra)
