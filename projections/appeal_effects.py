"""What an appeal's outcome in effect does to the standings (docs/appeals.md "Tiebreaks, matchpoints and the
redeal"): which score outcome rules each deal, when a redeal counts in its voided deal's place, a seat's facts
under an assigned or weighted score, and which adjustments are already counted in a deal."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from domain.model.appeal_rules import SCORE_OUTCOMES
from projections.facts import Facts
from projections.matchpoints import PARTS


def score_outcomes(appeals: Iterable[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """deal id → {appeal_id, outcome}: the score outcome in effect on the deal (one appeal at a time may
    replace a deal's score: domain/services/rulings.py refuses a second)."""
    found: dict[str, dict[str, Any]] = {}
    for appeal in sorted(appeals, key=lambda a: a.get("outcome_nid", 0)):
        outcome = appeal["outcome"]
        if appeal.get("deal_id") and outcome is not None and outcome["kind"] in SCORE_OUTCOMES:
            found[appeal["deal_id"]] = {"appeal_id": appeal["appeal_id"], "outcome": outcome}
    return found


def score_appeals(appeals: Iterable[dict[str, Any]]) -> set[str]:
    """The appeals whose outcome in effect rules on a score (anything but a penalty)."""
    return {a["appeal_id"] for a in appeals if a["outcome"] is not None and a["outcome"]["kind"] != "penalty"}


def replacement_counts(deal: dict[str, Any], outcomes: Mapping[str, dict[str, Any]]) -> bool:
    """A redeal counts in its voided deal's place while its appeal's outcome in effect is `void`."""
    ruled = outcomes.get(deal["scored"]["replaces"])
    return (ruled is not None and ruled["appeal_id"] == deal["scored"]["appeal_id"]
            and ruled["outcome"]["kind"] == "void")


def adjusted(entry: Facts, outcome: dict[str, Any], seat: int, adjusted_facts: Mapping[str, str]) -> Facts:
    """The seat's facts under an assigned or weighted score: `score` is the adjusted one (a weighted score's
    whole points, its parts kept for matchpoints), and each fact the format lists in `adjusted_facts` follows
    it — the deal is won by a seat whose adjusted score is positive (`won`), a role's win fact (地主胜局,
    庄家胜局叫分) is the role's value if so, else 0. Facts of what happened (roles, fouls, boards) stay."""
    score = outcome["scores"][seat]
    out = {**entry, "score": score}
    for fact, rule in adjusted_facts.items():
        if fact in entry:
            out[fact] = int(score > 0) if rule == "won" else (entry.get(rule, 0) if score > 0 else 0)
    if outcome["kind"] == "weighted":
        out[PARTS] = [(Fraction(part["weight"]), part["scores"][seat]) for part in outcome["parts"]]
    return out


def counted_in_deal(adjustment: dict[str, Any], ruling_appeals: set[str]) -> bool:
    """An appeal's compensating adjustment of a deal's score (not a penalty): the deal counts as adjusted (or
    not at all, voided), so it is not added again — in duplicate the adjusted score is matchpointed instead."""
    appeal = (adjustment.get("refers_to") or {}).get("appeal_id")
    return bool(appeal) and appeal in ruling_appeals and "deal_id" in adjustment["refers_to"]
