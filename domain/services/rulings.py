"""An appeal's outcomes (docs/appeals.md "Outcomes"): the chief referee's ruling and the committee's decision,
each applied to the standings at once by compensating adjustments, and a voided deal dealt again. Filing,
evidence, appealing the ruling and reading an appeal are domain/services/appeals.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID

from domain.kernel.dealing import seed_commitment
from domain.kernel.errors import Conflict, IllegalAction
from domain.model.appeal import Appeal
from domain.model.appeal_rules import (
    REPLACES,
    SCORE_OUTCOMES,
    check_committee,
    collect,
    compensation,
    need_reason,
    normalize_outcome,
    redeal_id,
    require_chief,
    target_points,
)
from domain.model.deal import Deal
from domain.model.ids import LOCAL_RECORDER
from domain.model.match import Match
from domain.model.tournament import Tournament, adjustable
from domain.services.appeal_views import appeal_dict
from domain.services.appeals import chief_tokens, disputed_deal, load_appeal
from domain.services.deals import deal_setup
from domain.services.presenters import deal_dict
from domain.services.service import Service
from domain.store.units import command


class Rulings(Service):
    """What an appeal changes: its outcome in the standings, or a voided deal played again."""

    def _outcome(self, a: Appeal, t: Tournament, outcome: Any) -> tuple[dict[str, Any], list[tuple[str, int]]]:
        """(the outcome as stored, the adjustments still to record for it), every one checked, nothing changed."""
        d = self.store.load(Deal, a.against["deal_id"], "deal") if "deal_id" in a.against else None
        seats = d.setup.seats if d is not None and d.result is not None else None
        normal = normalize_outcome(outcome, seats, set(t.players), a.lines)
        if normal["kind"] in SCORE_OUTCOMES and d is not None:
            self._refuse_if_adjusted_elsewhere(a, d)
        moves = compensation(target_points(normal, seats, None if d is None or d.result is None
                                           else list(d.result["scores"])), a.applied)
        bad = [(p, n) for p, n in moves if p not in t.players or not adjustable(n)]
        if bad:
            raise IllegalAction("bad_outcome", "This outcome would move a total by more than the limit.",
                                "该处理结果对总分的调整超出上限。", {"adjustments": bad})
        return normal, moves

    def _refuse_if_adjusted_elsewhere(self, a: Appeal, d: Deal) -> None:
        """One appeal at a time replaces a deal's score (docs/appeals.md "Outcomes"): each outcome is reckoned
        against the deal's recorded scores, so two in force would add up. Appeal within the other one instead."""
        for uid in self.store.ids_by_topic(Appeal.Created.TOPIC):
            other = self.store.load(Appeal, uid, "appeal") if uid != a.id else None
            if (other is not None and other.against.get("deal_id") == str(d.id)
                    and (other.outcome or {}).get("kind") in SCORE_OUTCOMES):
                raise Conflict("deal_adjusted_by_another_appeal",
                               f"Appeal {other.id} already replaced this deal's score ({other.outcome['kind']}): "
                               "change it there.", f"申诉 {other.id} 已改变这副牌的得分（{other.outcome['kind']}）："
                               "请在该申诉中处理。", {"appeal_id": str(other.id), "deal_id": str(d.id)})

    @staticmethod
    def _compensate(a: Appeal, t: Tournament, m: Match, normal: dict[str, Any], moves: list[tuple[str, int]],
                    step: str, recorded_by: dict[str, Any]) -> Callable[[], list[dict[str, Any]]]:
        """Record the outcome's compensating adjustments (called once the appeal's own checks passed)."""
        def record() -> list[dict[str, Any]]:
            table_round = next(e["round"] for e in t.matches if e["id"] == m.id)
            refers = {"appeal_id": str(a.id), **({"deal_id": a.against["deal_id"]} if "deal_id" in a.against else {})}
            kind = "penalty" if normal["kind"] == "penalty" else "adjustment"
            made = []
            for player, points in moves:
                adjusted = t.adjust(player, points, f"申诉 Appeal {str(a.id)[:8]}: {step} {normal['kind']}", kind,
                                    table_round, refers, recorded_by)
                made.append({"player_id": player, "points": points, "round": table_round,
                             "tournament_version": adjusted["version"]})
            return made
        return record

    @command
    def rule(self, appeal: UUID | str, outcome: Any, reason: str,
             recorded_by: dict[str, Any] = LOCAL_RECORDER) -> tuple[dict[str, Any], bool]:
        """The chief referee's ruling; its outcome is applied to the standings at once (compensating events)."""
        a, m, t = load_appeal(self.store, appeal)
        require_chief(recorded_by, chief_tokens(self.store, t), "rule on an appeal", "对申诉作出裁决")
        normal, moves = self._outcome(a, t, outcome)
        changed = a.rule(normal, reason, self._compensate(a, t, m, normal, moves, "ruling 裁决", recorded_by),
                         recorded_by)
        if changed:
            self.store.commit(a, t)
        return appeal_dict(a, full=True), changed

    @command
    def decide(self, appeal: UUID | str, outcome: Any, reason: str, members: list[str], vote: dict[str, int],
               recorded_by: dict[str, Any] = LOCAL_RECORDER) -> tuple[dict[str, Any], bool]:
        """The committee's decision; the standings move from the ruling's outcome to this one."""
        a, m, t = load_appeal(self.store, appeal)
        # The outcome, the reasons and the committee checked together: every problem said at once (issue 23).
        (normal, moves), _, _ = collect(lambda: self._outcome(a, t, outcome), lambda: need_reason(reason),
                                        lambda: check_committee(members, vote))
        changed = a.decide(normal, reason, members, vote,
                           self._compensate(a, t, m, normal, moves, "decision 仲裁", recorded_by), recorded_by)
        if changed:
            self.store.commit(a, t)
        return appeal_dict(a, full=True), changed

    @command
    def adjustments(self, appeal: UUID | str, outcome: Any) -> dict[str, Any]:
        """What deciding `outcome` now would record (for the impact preview); nothing changes."""
        a, m, t = load_appeal(self.store, appeal)
        normal, moves = self._outcome(a, t, outcome)
        table_round = next(e["round"] for e in t.matches if e["id"] == m.id)
        return {"tournament_id": str(t.id), "outcome": normal, "table_end": table_end_undone(m, a, normal),
                "adjustments": [{"player_id": p, "points": n, "round": table_round,
                                 "kind": "penalty" if normal["kind"] == "penalty" else "adjustment",
                                 "reason": f"申诉 Appeal {str(a.id)[:8]}",
                                 "refers_to": {"appeal_id": str(a.id),  # as _compensate records them
                                               **({"deal_id": a.against["deal_id"]} if "deal_id" in a.against
                                                  else {})}}
                                for p, n in moves]}

    @command
    def redeal(self, appeal: UUID | str, recorded_by: dict[str, Any] = LOCAL_RECORDER) -> tuple[dict[str, Any], bool]:
        """(the replacement deal, dealt now): the appeal's voided deal dealt again at its table with the voided
        deal's seats, options, first seat and context (升级's levels and dealer, 挖坑's board: the same cards), as
        a misdeal is dealt again (docs/appeals.md "A voided deal — who redeals"). Recorded as any deal; it
        counts in the standings in the voided deal's place while the appeal's outcome is `void`. Sent again: the
        same deal, nothing stored."""
        a, m, t = load_appeal(self.store, appeal)
        require_chief(recorded_by, chief_tokens(self.store, t), "deal a voided deal again", "重新发作废的牌")
        if a.redeal is not None:
            return deal_dict(self.store.load(Deal, a.redeal["deal_id"], "deal"), full=True), False
        a.check_redeal()  # every check before anything changes (a refusal leaves the cache as it was)
        voided = disputed_deal(self.store, m, a.against.get("deal_id"))  # a void outcome names a finished deal
        assert voided.number is not None
        if m.live_deal is not None:
            n = m.live_deal["number"]
            raise IllegalAction("deal_in_progress", f"The table is playing deal {n}: deal the voided deal again "
                                "after it.", f"本桌正在进行第 {n} 局：请在其后重新发作废的牌。",
                                {"deal_id": str(m.live_deal["deal_id"])})
        hands, kitty = None, None
        if m.rules.board(voided.setup.context) is not None and not voided.result_only:
            hands, kitty = voided.setup.hands, voided.setup.kitty  # a duplicate board: the same cards (B7)
        setup, seed = deal_setup(m.game, voided.setup.options, list(voided.setup.seats), None, voided.setup.first,
                                 hands, kitty, None, voided.setup.context)
        deal = Deal.start(redeal_id(a.id), setup, match=m.id, number=voided.number, seed=seed,
                          seed_commitment=None if seed is None else seed_commitment(seed),
                          meta={REPLACES: str(voided.id), "appeal_id": str(a.id)}, recorded_by=recorded_by)
        a.record_redeal(str(deal.id), str(voided.id), voided.number, recorded_by)
        self.store.commit(a, deal)
        return deal_dict(deal, full=True), True


def table_end_undone(m: Match, a: Appeal, outcome: dict[str, Any]) -> dict[str, Any] | None:
    """Whether `outcome`'s scores for the disputed deal would undo the table's end (issue 23: the chips of the
    table's winner fall below the target): the table's deals replayed through its own rules with the adjusted
    scores. Only for a table whose standing follows from the deals' scores alone (a chip table); a table closed
    by the organiser or ended by time is not judged. None when the end stands or nothing can be said."""
    end = m.standing.get("end")
    deal_id = a.against.get("deal_id")
    if not end or end.get("by") != "chips" or "scores" not in outcome or deal_id is None or m.chips is None:
        return None
    rules = m.rules
    standing = rules.start(m.options, len(m.seats))
    for entry in m.deals:
        if entry["status"] != "finished":
            continue
        scores = outcome["scores"] if str(entry["deal_id"]) == deal_id else entry["scores"]
        standing = rules.after_deal(standing, m.options, {"scores": list(scores)})
        if standing["end"] is not None:
            break
    if standing["end"] is not None and standing["end"].get("winner") == end.get("winner"):
        return None
    winner = end["winner"]
    name = m.seats[winner]
    was, now = m.standing["chips"][winner], standing["chips"][winner]
    target = getattr(rules, "target_chips", None)
    short, short_zh = (f"short of the {target}-chip target", f"不足 {target} 张的目标") if target else (
        "short of the target", "未达目标")
    return {"undone": True, "seat": winner, "player": name, "chips_before": was, "chips_after": now,
            "target": target,
            "message": f"This outcome undoes the table's end: {name} would hold {now} chips (was {was}), {short}; "
                       "the table would have played on.",
            "message_zh": f"该处理结果使本桌的结束不再成立：{name} 的筹码将为 {now}（原为 {was}），{short_zh}，"
                          "本桌本应继续。"}
