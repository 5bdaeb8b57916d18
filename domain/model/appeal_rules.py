"""What an appeal may say and how its outcome scores (docs/appeals.md): categories, outcomes, weighted scores
exact to the fraction, the deadline, chief referees, and `AppealRules`, a tournament's appeal settings: the
deadline in minutes after the table's last scored deal and the referee tokens the organiser named chief referees.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate

from domain.kernel.engine import PENALTY_LIMIT, Viewpoint
from domain.kernel.errors import Forbidden, IllegalAction, listed
from domain.model.ids import NAMESPACE

CATEGORIES = ("rules_misapplied", "irregularity", "scoring_error", "conduct")


AGAINST = ("deal", "result", "ruling", "penalty")


OUTCOMES = ("stands", "assigned", "weighted", "void", "penalty")


SCORE_OUTCOMES = ("assigned", "weighted", "void")  # outcomes that replace the deal's score (one appeal per deal)


REPLACES = "replaces"  # a replacement deal's meta: the voided deal it replaces (and `appeal_id`)


DEFAULT_DEADLINE_MINUTES = 30
APPEALS_PER_TABLE = 30  # appeals one table may have filed about it (docs/SECURITY.md §6b)


# filed → ruled → appealed → decided → closed; withdrawn ends it too.
# An appeal's status.
OPEN, RULED, APPEALED, DECIDED, CLOSED, WITHDRAWN = "filed", "ruled", "appealed", "decided", "closed", "withdrawn"


VIEWPOINT_PREFIXES = ("seat:", "referee", "public")  # kept for callers; a viewpoint is checked by `is_viewpoint`


def is_viewpoint(text: Any, seats: int) -> bool:
    """Exactly a viewpoint of a deal of `seats` seats (`referee`, `public`, `seat:N`), as the viewer reads it
    (Viewpoint.parse): a prefix is not enough — `seat:99`, `publicXYZ` stored as evidence would break the
    appeal's report for everyone."""
    if not isinstance(text, str):
        return False
    try:
        Viewpoint.parse(text, seats)
    except IllegalAction:
        return False
    return True


def appeal_rules_id(tournament: UUID | str) -> UUID:
    return uuid5(NAMESPACE, f"appeal-rules:{tournament}")


def redeal_id(appeal: UUID | str) -> UUID:
    """The id of the deal that replaces an appeal's voided deal: one per appeal, so a resend finds it."""
    return uuid5(NAMESPACE, f"appeal-redeal:{appeal}")


def refuse(code: str, message: str, message_zh: str, **details: Any) -> IllegalAction:
    return IllegalAction(code, message, message_zh, details)


def refuse_all(errors: list[IllegalAction]) -> None:
    """Every problem found, at once (issue 23): one refusal with the code of the first, each problem's words in
    turn, and all of them in `details.errors`. Nothing when there is none; a single one as it is."""
    if len(errors) == 1:
        raise errors[0]
    # a refusal that already says several problems is taken apart, so each is listed once
    errors = [part for refused in errors for part in _parts(refused)]
    if errors:
        raise IllegalAction(errors[0].code, " ".join(e.message for e in errors), "".join(e.message_zh for e in errors),
                            {"errors": [{"code": e.code, "message": e.message, "message_zh": e.message_zh,
                                         **e.details} for e in errors]})


def _parts(refused: IllegalAction) -> list[IllegalAction]:
    if "errors" not in refused.details:
        return [refused]
    return [IllegalAction(e["code"], e["message"], e["message_zh"],
                          {k: v for k, v in e.items() if k not in ("code", "message", "message_zh")})
            for e in refused.details["errors"]]


def collect(*checks: Callable[[], Any]) -> list[Any]:
    """Run every check, keep what each returns (None for a refused one) and refuse with all the refusals."""
    found, errors = [], []
    for check in checks:
        try:
            found.append(check())
        except IllegalAction as refused:
            errors.append(refused)
            found.append(None)
    refuse_all(errors)
    return found


def is_chief(recorded_by: dict[str, Any], chief_tokens: list[str]) -> bool:
    """The chief referee: the organiser (or local code), or a referee token the organiser named chief."""
    role = recorded_by.get("role")
    return role in ("organiser", "local") or (role == "referee" and recorded_by.get("token_id") in chief_tokens)


def require_chief(recorded_by: dict[str, Any], chief_tokens: list[str], what: str, what_zh: str) -> None:
    if not is_chief(recorded_by, chief_tokens):
        raise Forbidden("not_chief_referee", f"Only the chief referee may {what}.", f"只有裁判长可以{what_zh}。",
                        {"role": recorded_by.get("role")})


# A weight's text, read only in these shapes and lengths: Fraction("1e10000000") would build a ten-million-digit
# number (seconds of one core, under the process's lock) and str() of a long one fails (issue 27).
WEIGHT_TEXT = re.compile(r"(?:[0-9]{1,6}/[0-9]{1,6}|[0-9]{1,6}(?:\.[0-9]{1,6})?%?|\.[0-9]{1,6}%?)")


def exact_weight(value: Any) -> Fraction:
    """A weight given as a fraction "3/5", a decimal "0.6" or 0.6 (read as its decimal text), or "60%"; each
    number at most six digits either side of the point, no exponent."""
    try:
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise ValueError
        if not WEIGHT_TEXT.fullmatch(str(value).strip()):
            raise ValueError
        if isinstance(value, str) and value.strip().endswith("%"):
            weight = Fraction(value.strip()[:-1]) / 100
        else:
            weight = Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        raise refuse("bad_outcome", "A weight is a fraction (3/5), a decimal (0.6) or a percentage (60%), "
                     f"not “{str(value)[:40]}”.", f"权重必须是分数（3/5）、小数（0.6）或百分数（60%），"
                     f"而不是“{str(value)[:40]}”。", weight=str(value)[:40]) from None
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
    if type(index) is not int:  # people number the lines from 1 (推演 1), the request from 0
        raise refuse("bad_outcome", f"Choose one of the appeal's {len(lines)} sandbox lines.",
                     f"请从该申诉的 {len(lines)} 条推演中选一条。", line=str(index))
    if not 0 <= index < len(lines):
        raise refuse("bad_outcome", f"There is no line {index + 1}: the appeal has {len(lines)} sandbox lines.",
                     f"没有推演 {index + 1}：该申诉共有 {len(lines)} 条推演。", line=index)
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
        raise refuse("bad_outcome", "A weighted score has 2 to 6 parts, each with a weight and scores (or a line).",
                     "加权调整分须有 2 至 6 个部分，每部分有权重和分数（或一条推演）。", parts=parts)
    # Every problem of every part at once: the weights, their sum (once each weight reads), the scores or lines.
    errors: list[IllegalAction] = []
    weights, scored = [], []
    for part in parts:
        try:
            weights.append(exact_weight(part.get("weight")))
        except IllegalAction as refused:
            errors.append(refused)
    if len(weights) == len(parts) and sum(weights) != 1:
        errors.append(refuse("weights_not_one", f"The weights must sum to exactly 1 (they sum to {sum(weights)}).",
                             f"权重之和必须恰好为 1（现为 {sum(weights)}）。", total=str(sum(weights))))
    for part in parts:
        try:
            scored.append(_seat_scores(_line_scores(part, list(lines)), len(seats)))
        except IllegalAction as refused:
            errors.append(refused)
    refuse_all(errors)
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


def need_reason(reason: str) -> None:
    if not reason.strip():
        raise refuse("bad_appeal", "Give the reasons: they are part of the record.", "请写明理由：理由是记录的一部分。")


def check_committee(members: Any, vote: Any) -> None:
    """At least three members (an odd number decides), each named once; the vote counts every member once; more
    for than against. Every problem at once."""
    errors = []
    if (not isinstance(members, list) or len(members) < 3 or not all(isinstance(m, str) and m.strip() for m in members)
            or len(set(members)) != len(members)):
        errors.append(refuse("bad_committee", "A committee has at least three members, each named once.",
                             "仲裁委员会至少三名成员，每人只列一次。", members=members))
    counts = [vote.get(k) if isinstance(vote, dict) else None for k in ("for", "against", "abstain")]
    if not isinstance(vote, dict) or not all(type(c) is int and c >= 0 for c in counts) or set(vote) - {
            "for", "against", "abstain"}:
        errors.append(refuse("bad_committee", "The votes for, against and abstaining are whole numbers, 0 or more.",
                             "赞成、反对、弃权票数必须是 0 或正整数。", vote=vote))
    else:
        if isinstance(members, list) and sum(counts) != len(members):
            errors.append(refuse("bad_committee", f"The votes for, against and abstaining add up to {sum(counts)}, "
                                 f"not to the {len(members)} members.",
                                 f"赞成、反对、弃权票数之和为 {sum(counts)}，必须等于成员人数 {len(members)}。",
                                 vote=vote))
        if counts[0] <= counts[1]:
            errors.append(refuse("bad_committee", "A decision needs more votes for than against.",
                                 "仲裁决定须赞成票多于反对票。", vote=vote))
    refuse_all(errors)
