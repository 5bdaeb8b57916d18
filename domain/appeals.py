"""Appeals (docs/appeals.md): a dispute about a deal, a table's result, a ruling or a penalty, kept as an event
stream like a deal — filed, evidence, the director's (chief referee's) ruling, an appeal of it to the committee,
the committee's decision, withdrawal, closing — each event with who and when, hash-chained as deals are
(`digest`, domain/integrity.py; `fupan verify` recomputes it) and linked into the store-wide signed chain.

Outcomes never edit what was recorded: a ruling or a decision that changes a score is applied as compensating
`Tournament.Adjusted` events (kind `adjustment` or `penalty`, `refers_to.appeal_id` naming the appeal) saved in
the same transaction, which the projections already follow. A later outcome (the committee's, after the
director's) adds only the difference from what the appeal has applied so far, so the standings always show
the latest outcome, and every step is still in the log.

`AppealRules` is a tournament's appeal settings: the deadline in minutes after the table's last scored deal and
the referee tokens the organiser named chief referees.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any
from uuid import UUID, uuid4, uuid5

from eventsourcing.domain import Aggregate

from domain.aggregates import NAMESPACE, digest_payload
from domain.engine import PENALTY_LIMIT
from domain.errors import Forbidden, IllegalAction, listed
from domain.integrity import GENESIS, next_digest

CATEGORIES = ("rules_misapplied", "irregularity", "scoring_error", "conduct")
AGAINST = ("deal", "result", "ruling", "penalty")
OUTCOMES = ("stands", "assigned", "weighted", "void", "penalty")
SCORE_OUTCOMES = ("assigned", "weighted", "void")  # outcomes that replace the deal's score (one appeal per deal)
REPLACES = "replaces"  # a replacement deal's meta: the voided deal it replaces (and `appeal_id`)
DEFAULT_DEADLINE_MINUTES = 30
# filed → ruled → appealed → decided → closed; withdrawn ends it too.
OPEN, RULED, APPEALED, DECIDED, CLOSED, WITHDRAWN = "filed", "ruled", "appealed", "decided", "closed", "withdrawn"
VIEWPOINT_PREFIXES = ("seat:", "referee", "public")


def appeal_rules_id(tournament: UUID | str) -> UUID:
    return uuid5(NAMESPACE, f"appeal-rules:{tournament}")


def redeal_id(appeal: UUID | str) -> UUID:
    """The id of the deal that replaces an appeal's voided deal: one per appeal, so a resend finds it."""
    return uuid5(NAMESPACE, f"appeal-redeal:{appeal}")


def refuse(code: str, message: str, message_zh: str, **details: Any) -> IllegalAction:
    return IllegalAction(code, message, message_zh, details)


def is_chief(recorded_by: dict[str, Any], chief_tokens: list[str]) -> bool:
    """The chief referee: the organiser (or local code), or a referee token the organiser named chief."""
    role = recorded_by.get("role")
    return role in ("organiser", "local") or (role == "referee" and recorded_by.get("token_id") in chief_tokens)


def require_chief(recorded_by: dict[str, Any], chief_tokens: list[str], what: str, what_zh: str) -> None:
    if not is_chief(recorded_by, chief_tokens):
        raise Forbidden("not_chief_referee", f"Only the chief referee may {what}.", f"只有裁判长可以{what_zh}。",
                        {"role": recorded_by.get("role")})


# --- outcomes: pure arithmetic --------------------------------------------------------------------------


def exact_weight(value: Any) -> Fraction:
    """A weight given as a fraction "3/5", a decimal "0.6" or 0.6 (read as its decimal text), or "60%"."""
    try:
        if isinstance(value, bool):
            raise ValueError
        if isinstance(value, str) and value.strip().endswith("%"):
            weight = Fraction(value.strip()[:-1]) / 100
        else:
            weight = Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        raise refuse("bad_outcome", f"A weight is a fraction, a decimal or a percentage: {value!r}.",
                     f"权重必须是分数、小数或百分数：{value!r}。", weight=repr(value)) from None
    if not 0 < weight <= 1:
        raise refuse("bad_outcome", "Each weight is more than 0 and at most 1.", "每个权重必须大于 0 且不超过 1。",
                     weight=str(weight))
    return weight


def round_half_away(value: Fraction) -> int:
    """The whole point nearest `value`, halves away from zero (四舍五入): 2.5 → 3, −2.5 → −3."""
    whole, rest = divmod(abs(value), 1)
    magnitude = int(whole) + (1 if rest >= Fraction(1, 2) else 0)
    return magnitude if value >= 0 else -magnitude


def _seat_scores(scores: Any, seats: int) -> list[int]:
    if (not isinstance(scores, list) or len(scores) != seats
            or not all(type(s) is int and abs(s) <= PENALTY_LIMIT for s in scores)):
        raise refuse("bad_outcome", f"Scores are {seats} whole numbers (one a seat), each at most {PENALTY_LIMIT} "
                     "either way.", f"分数必须是 {seats} 个整数（每个座位一个），绝对值不超过 {PENALTY_LIMIT}。",
                     scores=scores)
    return list(scores)


def _line_scores(part: dict[str, Any], lines: list[dict[str, Any]]) -> Any:
    """A part's scores: given, or `line`: the index of one of the appeal's sandbox lines (its result's scores)."""
    if "line" not in part:
        return part.get("scores")
    index = part["line"]
    if type(index) is not int or not 0 <= index < len(lines):
        raise refuse("bad_outcome", f"No sandbox line {index!r}: the appeal has {len(lines)}.",
                     f"没有第 {index!r} 条推演：该申诉共有 {len(lines)} 条。", line=repr(index))
    return list(lines[index]["scores"])


def normalize_outcome(outcome: Any, seats: list[str] | None, players: set[str],
                      lines: list[dict[str, Any]] = ()) -> dict[str, Any]:  # type: ignore[assignment]
    """The stored form of an outcome, checked; `seats`: the disputed deal's players (None: no deal named or it
    has no result, so only `stands` and `penalty` are possible). A weighted outcome keeps each part's weight and
    every seat's exact score as fractions ("12/5") and the whole points the standings get (`scores`). A part
    (or an assigned score) may name one of the appeal's sandbox `lines` instead of its scores."""
    if not isinstance(outcome, dict) or outcome.get("kind") not in OUTCOMES:
        raise refuse("bad_outcome", f"An outcome's kind is one of {listed(OUTCOMES)}.",
                     f"处理结果的类型必须是 {listed(OUTCOMES, 'zh')} 之一。", outcome=outcome)
    kind = outcome["kind"]
    if kind == "stands":
        return {"kind": kind}
    if kind == "penalty":
        targets, points = outcome.get("player_ids"), outcome.get("points")
        if (not isinstance(targets, list) or not targets or not all(isinstance(p, str) for p in targets)
                or set(targets) - players or len(set(targets)) != len(targets)):
            raise refuse("bad_outcome", "A penalty names the registered players it falls on (a team: all of them).",
                         "罚分必须指明受罚的已登记选手（一队则列出全部队员）。", player_ids=targets)
        if type(points) is not int or not 0 < abs(points) <= PENALTY_LIMIT:
            raise refuse("bad_outcome", f"A penalty's points are a non-zero whole number, at most {PENALTY_LIMIT}.",
                         f"罚分必须是非零整数，绝对值不超过 {PENALTY_LIMIT}。", points=repr(points))
        return {"kind": kind, "player_ids": list(targets), "points": points}
    if seats is None:
        raise refuse("no_result_to_adjust", "This outcome changes a deal's score: the appeal must name a finished "
                     "deal.", "该处理结果改变牌局得分：申诉必须针对一副已结束的牌。", kind=kind)
    if kind == "void":
        return {"kind": kind, "scores": [0] * len(seats)}
    if kind == "assigned":
        return {"kind": kind, "scores": _seat_scores(_line_scores(outcome, list(lines)), len(seats)),
                **({"line": outcome["line"]} if "line" in outcome else {})}
    parts = outcome.get("parts")
    if not isinstance(parts, list) or not 2 <= len(parts) <= 6 or not all(isinstance(p, dict) for p in parts):
        raise refuse("bad_outcome", "A weighted score has 2–6 parts, each {weight, scores}.",
                     "加权调整分须有 2–6 个部分，每部分为 {weight, scores}。", parts=parts)
    weights = [exact_weight(part.get("weight")) for part in parts]
    if sum(weights) != 1:
        raise refuse("weights_not_one", f"The weights must sum to exactly 1 (they sum to {sum(weights)}).",
                     f"权重之和必须恰好为 1（现为 {sum(weights)}）。", total=str(sum(weights)))
    scored = [_seat_scores(_line_scores(part, list(lines)), len(seats)) for part in parts]
    exact = [sum((w * line[seat] for w, line in zip(weights, scored, strict=True)), Fraction(0))
             for seat in range(len(seats))]
    return {"kind": kind,
            "parts": [{"weight": str(w), "scores": line, "label": str(part.get("label", ""))[:200],
                       **({"line": part["line"]} if "line" in part else {})}
                      for w, line, part in zip(weights, scored, parts, strict=True)],
            "exact": [str(value) for value in exact], "scores": [round_half_away(value) for value in exact]}


def target_points(outcome: dict[str, Any], seats: list[str] | None, recorded: list[int] | None) -> dict[str, int]:
    """What the outcome moves each player's total by, against the deal's recorded scores."""
    moves: dict[str, int] = {}
    if outcome["kind"] == "penalty":
        for player in outcome["player_ids"]:
            moves[player] = outcome["points"]
    elif "scores" in outcome and seats is not None and recorded is not None:
        for player, wanted, was in zip(seats, outcome["scores"], recorded, strict=True):
            moves[player] = moves.get(player, 0) + wanted - was
    return moves


def compensation(target: dict[str, int], applied: dict[str, int]) -> list[tuple[str, int]]:
    """The adjustments still to record so that this appeal's total effect is `target`: (player, points ≠ 0)."""
    players = sorted(set(target) | set(applied))
    return [(p, target.get(p, 0) - applied.get(p, 0)) for p in players if target.get(p, 0) != applied.get(p, 0)]


# --- the aggregates -------------------------------------------------------------------------------------


class AppealRules(Aggregate):
    """A tournament's appeal settings (one per tournament): the deadline and the chief referees."""

    TOPIC = "fupan:AppealRules"

    class Event(Aggregate.Event):
        pass

    class Created(Event, Aggregate.Created):
        TOPIC = "fupan:AppealRules.Created"
        tournament_id: UUID
        deadline_minutes: int
        chief_referees: list[str]
        recorded_by: dict[str, Any]

    class Changed(Event):
        TOPIC = "fupan:AppealRules.Changed"
        deadline_minutes: int
        chief_referees: list[str]
        recorded_by: dict[str, Any]

        def apply(self, aggregate: AppealRules) -> None:
            aggregate.deadline_minutes = self.deadline_minutes
            aggregate.chief_referees = list(self.chief_referees)

    def __init__(self, tournament_id: UUID, deadline_minutes: int, chief_referees: list[str],
                 recorded_by: dict[str, Any]):
        self.tournament_id = tournament_id
        self.deadline_minutes = deadline_minutes
        self.chief_referees = list(chief_referees)

    @staticmethod
    def check(deadline_minutes: Any, chief_referees: Any) -> None:
        if type(deadline_minutes) is not int or not 0 <= deadline_minutes <= 24 * 60:
            raise refuse("bad_appeal_rules", "The deadline is 0–1440 minutes after the table's last deal.",
                         "申诉时限必须是该桌最后一副牌之后的 0–1440 分钟。", deadline_minutes=repr(deadline_minutes))
        if not isinstance(chief_referees, list) or not all(isinstance(t, str) for t in chief_referees):
            raise refuse("bad_appeal_rules", "Chief referees are a list of referee token ids.",
                         "裁判长必须是裁判令牌 id 的列表。", chief_referees=chief_referees)

    @classmethod
    def open(cls, tournament: UUID, deadline_minutes: int, chief_referees: list[str],
             recorded_by: dict[str, Any]) -> AppealRules:
        cls.check(deadline_minutes, chief_referees)
        return cls._create(cls.Created, id=appeal_rules_id(tournament), tournament_id=tournament,
                           deadline_minutes=deadline_minutes, chief_referees=list(chief_referees),
                           recorded_by=recorded_by)

    def change(self, deadline_minutes: int, chief_referees: list[str], recorded_by: dict[str, Any]) -> bool:
        self.check(deadline_minutes, chief_referees)
        if deadline_minutes == self.deadline_minutes and list(chief_referees) == self.chief_referees:
            return False
        self.trigger_event(self.Changed, deadline_minutes=deadline_minutes, chief_referees=list(chief_referees),
                           recorded_by=recorded_by)
        return True


def deadline_check(last_deal_at: datetime | None, minutes: int, now: datetime, next_round_started: bool
                   ) -> dict[str, Any]:
    """When the filing period ends and whether `now` is past it (seed 003 第六章; docs/appeals.md)."""
    until = None if last_deal_at is None else last_deal_at + timedelta(minutes=minutes)
    late = next_round_started or (until is not None and now > until)
    why = "next_round_paired" if next_round_started else ("deadline_passed" if late else None)
    return {"until": None if until is None else until.isoformat(), "minutes": minutes, "late": late, "why": why}


LATE_REASONS = {
    "next_round_paired": ("The next round has been paired: an appeal about this table is too late.",
                          "下一轮已经编排，对本桌的申诉已逾期。"),
    "deadline_passed": ("The filing period ended {until} ({minutes} minutes after the table's last deal).",
                        "申诉期限已于 {until} 截止（该桌最后一副牌之后 {minutes} 分钟）。"),
}


class Appeal(Aggregate):
    """One appeal: every step an event with who (`recorded_by`) and when (the event's timestamp), chained."""

    TOPIC = "fupan:Appeal"

    class Event(Aggregate.Event):
        def apply(self, aggregate: Appeal) -> None:
            aggregate.digest = self.digest  # type: ignore[attr-defined]  # read back from storage too
            self.effect(aggregate)

        def effect(self, aggregate: Appeal) -> None:
            pass

    class Created(Event, Aggregate.Created):
        """Filed."""

        TOPIC = "fupan:Appeal.Created"
        tournament_id: UUID
        match_id: UUID
        against: dict[str, Any]  # {kind, deal_id?, step?, version?}
        category: str
        statement: str
        on_behalf_of: list[str]
        deadline: dict[str, Any]  # deadline_check's answer at filing
        late_acceptance: dict[str, Any] | None  # {reason} when the chief referee accepted a late filing
        recorded_by: dict[str, Any]
        digest: str

    class EvidenceAdded(Event):
        TOPIC = "fupan:Appeal.EvidenceAdded"
        reference: dict[str, Any] | None  # {deal_id, step, viewpoint}
        note: str
        recorded_by: dict[str, Any]
        digest: str

        def effect(self, aggregate: Appeal) -> None:
            aggregate.evidence.append({"reference": self.reference, "note": self.note, "by": self.recorded_by,
                                       "at": self.timestamp.isoformat()})

    class LineAdded(Event):
        """A what-if line: from `from_step` of the disputed deal, these actions instead, played through the same
        rules engine to the end (a hypothesis attached to the appeal; the deal is never touched)."""

        TOPIC = "fupan:Appeal.LineAdded"
        deal_id: str
        from_step: int
        actions: list[dict[str, Any]]
        scores: list[int]
        label: str
        recorded_by: dict[str, Any]
        digest: str

        def effect(self, aggregate: Appeal) -> None:
            aggregate.lines.append({"index": len(aggregate.lines), "deal_id": self.deal_id,
                                    "from_step": self.from_step, "actions": self.actions, "scores": self.scores,
                                    "label": self.label, "by": self.recorded_by, "at": self.timestamp.isoformat()})

    class SolvedLineAdded(LineAdded):
        """A what-if line the solver completed: `actions[solver_from:]` are its best play (domain/analysis, as
        GET /api/deals/<id>/analysis gives it) after the actions given."""

        TOPIC = "fupan:Appeal.SolvedLineAdded"
        solver_from: int

        def effect(self, aggregate: Appeal) -> None:
            super().effect(aggregate)
            aggregate.lines[-1]["solver_from"] = self.solver_from

    class Ruled(Event):
        """The director's (chief referee's) ruling; `adjustments` are the Tournament.Adjusted it recorded."""

        TOPIC = "fupan:Appeal.Ruled"
        outcome: dict[str, Any]
        reason: str
        adjustments: list[dict[str, Any]]
        recorded_by: dict[str, Any]
        digest: str

        def effect(self, aggregate: Appeal) -> None:
            aggregate.status = RULED
            aggregate.ruling = {"outcome": self.outcome, "reason": self.reason, "by": self.recorded_by,
                                "at": self.timestamp.isoformat(), "adjustments": self.adjustments}
            aggregate.add_applied(self.adjustments)

    class Appealed(Event):
        """The ruling appealed to the committee."""

        TOPIC = "fupan:Appeal.Appealed"
        reason: str
        recorded_by: dict[str, Any]
        digest: str

        def effect(self, aggregate: Appeal) -> None:
            aggregate.status = APPEALED

    class Decided(Event):
        TOPIC = "fupan:Appeal.Decided"
        outcome: dict[str, Any]
        reason: str
        members: list[str]
        vote: dict[str, int]  # {for, against, abstain}
        adjustments: list[dict[str, Any]]
        recorded_by: dict[str, Any]
        digest: str

        def effect(self, aggregate: Appeal) -> None:
            aggregate.status = DECIDED
            aggregate.decision = {"outcome": self.outcome, "reason": self.reason, "members": self.members,
                                  "vote": self.vote, "by": self.recorded_by, "at": self.timestamp.isoformat(),
                                  "adjustments": self.adjustments}
            aggregate.add_applied(self.adjustments)

    class Redealt(Event):
        """The voided deal dealt again at the appeal's table (docs/appeals.md "A voided deal — who redeals"): the
        new deal `deal_id` replaces `replaces` in the standings while the appeal's outcome is `void`."""

        TOPIC = "fupan:Appeal.Redealt"
        deal_id: str
        replaces: str
        match_id: str
        number: int  # the voided deal's number at its table: the replacement is counted in its place
        recorded_by: dict[str, Any]
        digest: str

        def effect(self, aggregate: Appeal) -> None:
            aggregate.redeal = {"deal_id": self.deal_id, "replaces": self.replaces, "number": self.number,
                                "by": self.recorded_by, "at": self.timestamp.isoformat(), "scores": None}

    class RedealScored(Event):
        """The replacement deal ended: its scores, as a table's `Match.DealScored` scores its own deals (the
        replacement is not folded into the table's running standing; the standings count it)."""

        TOPIC = "fupan:Appeal.RedealScored"
        deal_id: str
        replaces: str
        match_id: str
        scores: list[int]
        recorded_by: dict[str, Any]
        digest: str

        def effect(self, aggregate: Appeal) -> None:
            assert aggregate.redeal is not None
            aggregate.redeal["scores"] = list(self.scores)

    class Withdrawn(Event):
        TOPIC = "fupan:Appeal.Withdrawn"
        reason: str
        recorded_by: dict[str, Any]
        digest: str

        def effect(self, aggregate: Appeal) -> None:
            aggregate.status = WITHDRAWN

    class Closed(Event):
        TOPIC = "fupan:Appeal.Closed"
        note: str
        recorded_by: dict[str, Any]
        digest: str

        def effect(self, aggregate: Appeal) -> None:
            aggregate.status = CLOSED

    def __init__(self, tournament_id: UUID, match_id: UUID, against: dict[str, Any], category: str,
                 statement: str, on_behalf_of: list[str], deadline: dict[str, Any],
                 late_acceptance: dict[str, Any] | None, recorded_by: dict[str, Any], digest: str):
        self.tournament_id = tournament_id
        self.match_id = match_id
        self.against = against
        self.category = category
        self.statement = statement
        self.on_behalf_of = list(on_behalf_of)
        self.deadline = deadline
        self.late_acceptance = late_acceptance
        self.filed_by = recorded_by
        self.digest = digest
        self.status = OPEN
        self.evidence: list[dict[str, Any]] = []
        self.lines: list[dict[str, Any]] = []
        self.ruling: dict[str, Any] | None = None
        self.decision: dict[str, Any] | None = None
        self.applied: dict[str, int] = {}  # player → points this appeal's adjustments moved so far
        self.redeal: dict[str, Any] | None = None  # the replacement of a voided deal (Redealt)

    def add_applied(self, adjustments: list[dict[str, Any]]) -> None:
        for adjustment in adjustments:
            player = adjustment["player_id"]
            self.applied[player] = self.applied.get(player, 0) + adjustment["points"]

    @classmethod
    def file(cls, tournament: UUID, match: UUID, against: dict[str, Any], category: str, statement: str,
             on_behalf_of: list[str], deadline: dict[str, Any], late_acceptance: dict[str, Any] | None,
             recorded_by: dict[str, Any]) -> Appeal:
        if category not in CATEGORIES:
            raise refuse("bad_appeal", f"An appeal's category is one of {listed(CATEGORIES)}.",
                         f"申诉类别必须是 {listed(CATEGORIES, 'zh')} 之一。", category=category)
        if not statement.strip():
            raise refuse("bad_appeal", "Say what is appealed: the statement is empty.", "请写明申诉内容。")
        fields = {"tournament_id": tournament, "match_id": match, "against": against, "category": category,
                  "statement": statement.strip(), "on_behalf_of": list(on_behalf_of), "deadline": deadline,
                  "late_acceptance": late_acceptance, "recorded_by": recorded_by}
        appeal_id = uuid4()
        timestamp = cls.Created.create_timestamp()
        digest = next_digest(GENESIS, digest_payload(cls.Created.TOPIC, appeal_id, 1, timestamp, fields))
        return cls._create(cls.Created, id=appeal_id, timestamp=timestamp, digest=digest, **fields)

    def _chained(self, event_class: type[Aggregate.Event], **fields: Any) -> None:
        timestamp = event_class.create_timestamp()
        payload = digest_payload(event_class.TOPIC, self.id, self.version + 1, timestamp, fields)
        self.trigger_event(event_class, timestamp=timestamp, digest=next_digest(self.digest, payload), **fields)

    @property
    def outcome(self) -> dict[str, Any] | None:
        """The outcome in effect: the committee's decision, else the chief referee's ruling (a withdrawal after
        a ruling leaves the ruling applied), else none yet."""
        step = self.decision or self.ruling
        return None if step is None else step["outcome"]

    @property
    def over(self) -> bool:
        return self.status in (CLOSED, WITHDRAWN)

    def _expect(self, allowed: tuple[str, ...], what: str, what_zh: str) -> None:
        if self.status not in allowed:
            raise refuse("appeal_state", f"This appeal is {self.status}: it cannot {what} now.",
                         f"该申诉当前状态为 {self.status}，现在不能{what_zh}。", status=self.status,
                         allowed=list(allowed))

    def add_evidence(self, reference: dict[str, Any] | None, note: str, recorded_by: dict[str, Any]) -> None:
        self._expect((OPEN, RULED, APPEALED), "take evidence", "补充证据")
        if reference is None and not note.strip():
            raise refuse("bad_evidence", "Evidence is a (deal, step, viewpoint) reference, a note, or both.",
                         "证据必须是（牌局、步数、视角）引用或说明，或两者兼有。")
        self._chained(self.EvidenceAdded, reference=reference, note=note.strip(), recorded_by=recorded_by)

    def add_line(self, deal_id: str, from_step: int, actions: list[dict[str, Any]], scores: list[int], label: str,
                 recorded_by: dict[str, Any], solver_from: int | None = None) -> None:
        """Keep a line that ends the deal; `solver_from`: where the solver's best play starts in `actions`."""
        self._expect((OPEN, RULED, APPEALED), "take a sandbox line", "添加推演")
        if len(self.lines) >= 20:
            raise refuse("too_many_lines", "An appeal keeps at most 20 sandbox lines.", "一个申诉最多保留 20 条推演。")
        fields = {"deal_id": deal_id, "from_step": from_step, "actions": actions, "scores": scores,
                  "label": label.strip()[:200], "recorded_by": recorded_by}
        if solver_from is None:
            self._chained(self.LineAdded, **fields)
        else:
            self._chained(self.SolvedLineAdded, **fields, solver_from=solver_from)

    def rule(self, outcome: dict[str, Any], reason: str, apply: Callable[[], list[dict[str, Any]]],
             recorded_by: dict[str, Any]) -> bool:
        """False: the same ruling again (nothing new is stored). `apply()` records the outcome's compensating
        adjustments once every check here passed, and names them."""
        if self.ruling is not None and self.ruling["outcome"] == outcome and self.ruling["reason"] == reason.strip():
            return False
        self._expect((OPEN,), "be ruled on", "裁决")
        _need_reason(reason)
        self._chained(self.Ruled, outcome=outcome, reason=reason.strip(), adjustments=apply(),
                      recorded_by=recorded_by)
        return True

    def check_redeal(self) -> None:
        """IllegalAction unless the voided deal may be dealt again now: the outcome in effect is `void`, once."""
        if (self.outcome or {}).get("kind") != "void":
            kind = (self.outcome or {}).get("kind")
            raise refuse("not_void", "Only a voided deal is dealt again: this appeal's outcome is "
                         f"{kind or 'not decided yet'}.", f"只有被判作废的牌局才能重新发牌：该申诉的处理结果为"
                         f"{kind or '尚未作出'}。", outcome=kind)
        if self.redeal is not None:
            raise refuse("already_redealt", "This voided deal has been dealt again already.", "该作废牌局已重新发牌。",
                         deal_id=self.redeal["deal_id"])

    def record_redeal(self, deal_id: str, replaces: str, number: int, recorded_by: dict[str, Any]) -> None:
        """The voided deal's replacement is dealt (`check_redeal` first)."""
        self.check_redeal()
        self._chained(self.Redealt, deal_id=deal_id, replaces=replaces, match_id=str(self.match_id), number=number,
                      recorded_by=recorded_by)

    def score_redeal(self, scores: list[int], recorded_by: dict[str, Any]) -> None:
        """The replacement deal ended (in whatever state the appeal is by then: the deal is recorded as any)."""
        assert self.redeal is not None and self.redeal["scores"] is None
        self._chained(self.RedealScored, deal_id=self.redeal["deal_id"], replaces=self.redeal["replaces"],
                      match_id=str(self.match_id),
                      scores=list(scores), recorded_by=recorded_by)

    def appeal(self, reason: str, recorded_by: dict[str, Any]) -> bool:
        if self.status == APPEALED:
            return False
        self._expect((RULED,), "go to the committee (it needs a ruling first)", "提交仲裁委员会（须先有裁决）")
        _need_reason(reason)
        self._chained(self.Appealed, reason=reason.strip(), recorded_by=recorded_by)
        return True

    def decide(self, outcome: dict[str, Any], reason: str, members: list[str], vote: dict[str, int],
               apply: Callable[[], list[dict[str, Any]]], recorded_by: dict[str, Any]) -> bool:
        if self.decision is not None and self.decision["outcome"] == outcome and self.decision["members"] == members:
            return False
        self._expect((APPEALED,), "be decided (the ruling was not appealed)", "作出仲裁决定（裁决未被申诉）")
        _need_reason(reason)
        check_committee(members, vote)
        self._chained(self.Decided, outcome=outcome, reason=reason.strip(), members=list(members), vote=dict(vote),
                      adjustments=apply(), recorded_by=recorded_by)
        return True

    def withdraw(self, reason: str, recorded_by: dict[str, Any]) -> bool:
        if self.status == WITHDRAWN:
            return False
        self._expect((OPEN, RULED, APPEALED), "be withdrawn", "撤回")
        self._chained(self.Withdrawn, reason=reason.strip(), recorded_by=recorded_by)
        return True

    def close(self, note: str, recorded_by: dict[str, Any]) -> bool:
        if self.status == CLOSED:
            return False
        self._expect((RULED, DECIDED), "be closed (it needs a ruling or a decision)", "结案（须有裁决或仲裁决定）")
        self._chained(self.Closed, note=note.strip(), recorded_by=recorded_by)
        return True


def _need_reason(reason: str) -> None:
    if not reason.strip():
        raise refuse("bad_appeal", "Give the reasons: they are part of the record.", "请写明理由：理由是记录的一部分。")


def check_committee(members: Any, vote: Any) -> None:
    """At least three members (an odd number decides), each named once; the vote counts every member once."""
    if (not isinstance(members, list) or len(members) < 3 or not all(isinstance(m, str) and m.strip() for m in members)
            or len(set(members)) != len(members)):
        raise refuse("bad_committee", "A committee has at least three members, each named once.",
                     "仲裁委员会至少三名成员，每人只列一次。", members=members)
    counts = [vote.get(k) if isinstance(vote, dict) else None for k in ("for", "against", "abstain")]
    if not all(type(c) is int and c >= 0 for c in counts) or sum(counts) != len(members) or set(vote) - {
            "for", "against", "abstain"}:
        raise refuse("bad_committee", "The vote counts {for, against, abstain} add up to the members.",
                     "表决票数 {for, against, abstain} 之和必须等于成员人数。", vote=vote)
    if counts[0] <= counts[1]:
        raise refuse("bad_committee", "A decision needs more votes for than against.",
                     "仲裁决定须赞成票多于反对票。", vote=vote)


def appeal_dict(a: Appeal, *, full: bool) -> dict[str, Any]:
    """An appeal as the API answers it. `full=False` (a reader without rights over a deal still being played):
    the statement and the evidence notes are withheld — they may name hidden cards — as a live deal's notes are."""
    def hide(text: str) -> str | None:
        return text if full else None

    return {
        "appeal_id": str(a.id), "tournament_id": str(a.tournament_id), "match_id": str(a.match_id),
        "version": a.version, "status": a.status, "against": a.against, "category": a.category,
        "statement": hide(a.statement), "on_behalf_of": a.on_behalf_of, "deadline": a.deadline,
        "late_acceptance": a.late_acceptance, "filed_by": a.filed_by, "filed_at": a.created_on.isoformat(),
        "evidence": [{**e, "note": hide(e["note"]), "viewer": viewer_link(e["reference"])} for e in a.evidence],
        # a line of a live deal was played from hidden hands: its actions and result are not the public's yet
        "lines": [{**line, "actions": line["actions"] if full else None, "scores": line["scores"] if full else None}
                  for line in a.lines],
        "ruling": a.ruling, "decision": a.decision, "applied": dict(a.applied), "redeal": a.redeal,
        "digest": a.digest,
        "withheld": [] if full else ["statement", "evidence.note", "lines.actions", "lines.scores"],
    }


def viewer_link(reference: dict[str, Any] | None) -> str | None:
    """Where the deal viewer shows a piece of evidence: the deal at that step from that viewpoint."""
    if reference is None:
        return None
    return f"/deals/{reference['deal_id']}?step={reference['step']}&view={reference['viewpoint']}"


def timeline(events: list[Any], *, full: bool) -> list[dict[str, Any]]:
    """Every stored event of an appeal: version, type, who, when (the appeal's page lists it)."""
    out = []
    for event in events:
        entry = {"version": event.originator_version, "type": type(event).TOPIC.removeprefix("fupan:"),
                 "recorded_by": event.recorded_by, "time": event.timestamp.isoformat(), "digest": event.digest}
        for name in ("reason", "note"):
            if hasattr(event, name):
                entry[name] = getattr(event, name) if full or name == "reason" else None
        out.append(entry)
    return out


# What a result-blind frame leaves out: the result and anything keyed by it, at any depth of a view.
BLIND_KEYS = frozenset({"result", "scores", "winner", "winners", "new_levels", "level_change"})


def _blind(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _blind(v) for k, v in value.items() if k not in BLIND_KEYS}
    if isinstance(value, list):
        return [_blind(v) for v in value]
    return value


def result_blind(folded: dict[str, Any]) -> dict[str, Any]:
    """The disputed deal up to the judged step for a reviewer who must not know how it ended: frames 0 … step
    only (so no later step and not how many there are), no result, no scores or winner in any view, no
    annotations (a commentator's words may say what happened later), no marks of later retractions, and a
    finished status shown only as `judged` (docs/appeals.md)."""
    out = []
    for frame in folded["frames"]:
        status = frame["status"]
        shown = {"step": frame["step"], "action": frame["action"], "view": _blind(frame["view"]),
                 "status": {"phase": "judged"} if status.get("finished") or status.get("phase") == "finished"
                 else _blind(status)}
        out.append(shown)
    return {"deal_id": folded["deal_id"], "viewpoint": folded["viewpoint"], "judged_step": out[-1]["step"],
            "frames": out}
