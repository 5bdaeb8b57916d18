"""How every game's score slip reads its facts (domain/games/slip.py, domain/records/slips.py), as
docs/record-format.md "Result-only records" says: a slip is a JSON object of the game's facts; a missing,
mistyped or unknown fact is `bad_slip`; fouls are `[{"seat", "code", "note", "penalty"}]`, each read as a recorded
foul is (so a foul the game refuses is refused as in a record, naming which foul). Messages name a fact in plain
words, in both languages, never `None` (docs/ARCHITECTURE.md's messages)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.kernel.engine import DealSetup
from domain.kernel.errors import IllegalAction
from domain.records.slips import score

THREE = ["甲", "乙", "丙"]
LANDLORD_WON = {"landlord": 0, "winner": "landlord"}


def refused(facts: Any, game: str = "doudizhu", seats: list[str] = THREE,
            context: dict[str, Any] | None = None) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        score(DealSetup(game, {}, seats, 0, [], [], context or {}), facts)
    error = caught.value
    for text in (error.message, error.message_zh):
        assert text and "None" not in text
    return error


@pytest.mark.parametrize("facts", [[1], "landlord 0", None, 3])
def test_a_slip_is_a_json_object(facts: Any) -> None:
    assert refused(facts).code == "bad_slip"


def test_an_unknown_fact_is_named() -> None:
    error = refused({**LANDLORD_WON, "trump": "S", "bid": 2})
    assert error.code == "bad_slip" and error.details["unknown"] == ["bid", "trump"]
    assert "bid" in error.message and "trump" in error.message_zh


@pytest.mark.parametrize(("value", "code"), [(True, "bad_slip"), (3, "bad_slip"), (-1, "bad_slip"), ("0", "bad_slip"),
                                             (None, "bad_slip")])
def test_a_seat_is_one_of_the_tables_players(value: Any, code: str) -> None:
    error = refused({"landlord": value, "winner": "landlord"})
    assert error.code == code and (error.details["field"], error.details["seats"]) == ("landlord", 3)
    assert "the landlord" in error.message and "地主" in error.message_zh


@pytest.mark.parametrize("value", [True, 4, -1, 1.0, "1"])
def test_a_count_is_a_whole_number_in_its_range(value: Any) -> None:
    """`robs` 0–3 (docs/record-format.md); a yes/no is not a number."""
    error = refused({**LANDLORD_WON, "robs": value})
    assert error.code == "bad_slip" and error.details["field"] == "robs"
    assert error.message.startswith("The robs") and "抢地主" in error.message_zh


@pytest.mark.parametrize("value", [1, "yes", None])
def test_a_yes_or_no_is_true_or_false(value: Any) -> None:
    error = refused({**LANDLORD_WON, "rocket": value})
    assert error.code == "bad_slip" and error.details["field"] == "rocket"
    assert "rocket" in error.message and "王炸" in error.message_zh


def test_a_choice_is_one_of_its_words() -> None:
    error = refused({"landlord": 0, "winner": "nobody"})
    assert error.code == "bad_slip" and error.details["field"] == "winner"


def test_a_fact_without_a_name_of_its_own_is_named_as_written() -> None:
    """A failed throw's `retracted` (升级) has no word at the table: the message names it as the slip does."""
    error = refused({"dealer": 0, "points": 60, "throws": [{"seat": 1, "retracted": 0}]}, "shengji",
                    ["东", "南", "西", "北"], {"levels": [5, 3], "dealer": 0})
    assert error.code == "bad_slip" and error.details["field"] == "retracted"
    assert "etracted" in error.message and "retracted" in error.message_zh


@pytest.mark.parametrize("fouls", [{"seat": 1}, "talking"])
def test_the_fouls_are_a_list(fouls: Any) -> None:
    assert refused({**LANDLORD_WON, "fouls": fouls}).code == "bad_slip"


def test_each_foul_is_an_object_and_a_refused_foul_is_named_by_its_place() -> None:
    error = refused({**LANDLORD_WON, "fouls": [{"seat": 1, "code": "talking"}, "peek"]})
    assert error.code == "bad_slip" and error.details == {"foul": 1}
    error = refused({**LANDLORD_WON, "fouls": [{"seat": 1, "code": "talking"}, {"seat": 7, "code": "peek"}]})
    assert error.code == "bad_seat" and error.details["foul"] == 1
    error = refused({**LANDLORD_WON, "fouls": [{"seat": 1, "code": "talking", "penalty": 1001}]})
    assert error.code == "bad_action" and error.details["foul"] == 0


def test_fouls_are_stored_as_recorded_fouls() -> None:
    """A slip's foul reads as the game reads a recorded one: its type, code, note (default empty), penalty."""
    stored, result = score(DealSetup("doudizhu", {}, THREE, 0, [], [], {}),
                           {**LANDLORD_WON, "fouls": [{"seat": 2, "code": "talking", "penalty": 3}]})
    assert stored["fouls"] == [{"seat": 2, "type": "foul", "code": "talking", "note": "", "penalty": 3}]
    assert result["scores"] == [3, -1, -1 - 3]  # 1,000 chips at most, taken off the offender's score


def test_the_options_in_force_are_the_tables_with_the_games_defaults() -> None:
    """docs/rules/doudizhu.md's options: `ddz.payout` is `literal31` unless the table says otherwise (the landlord
    ±3·M, the farmers ∓M), `zeroSum21` ±2·M."""
    assert score(DealSetup("doudizhu", {}, THREE, 0, [], [], {}), LANDLORD_WON)[1]["scores"] == [3, -1, -1]
    zero_sum = DealSetup("doudizhu", {"ddz.payout": "zeroSum21"}, THREE, 0, [], [], {})
    assert score(zero_sum, LANDLORD_WON)[1]["scores"] == [2, -1, -1]
