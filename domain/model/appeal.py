"""The Appeal aggregate (docs/appeals.md): a dispute about a deal, a table's result, a ruling or a penalty, kept as an
event stream like a deal — filed, evidence, the director's (chief referee's) ruling, an appeal of it to the committee,
the committee's decision, withdrawal, closing — each event with who and when, hash-chained as deals are
(`digest`, domain/model/chain.py; `fupan verify` recomputes it) and linked into the store-wide signed chain.

Outcomes never edit what was recorded: a ruling or a decision that changes a score is applied as compensating
`Tournament.Adjusted` events (kind `adjustment` or `penalty`, `refers_to.appeal_id` naming the appeal) saved in
the same transaction, which the projections already follow. A later outcome (the committee's, after the
director's) adds only the difference from what the appeal has applied so far, so the standings always show
the latest outcome, and every step is still in the log.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID, uuid4

from eventsourcing.domain import Aggregate

from domain.kernel.errors import listed
from domain.kernel.integrity import GENESIS, next_digest
from domain.model.appeal_rules import (
    APPEALED,
    CATEGORIES,
    CLOSED,
    DECIDED,
    OPEN,
    RULED,
    WITHDRAWN,
    check_committee,
    need_reason,
    refuse,
)
from domain.model.chain import digest_payload

MAX_EVIDENCE = 100  # pieces of evidence one appeal keeps (docs/SECURITY.md §6b)
MAX_RESPONSES = 20  # statements of the other side one appeal keeps (one per player of a side of six, and more)


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

    class ResponseRecorded(Event):
        """The other side's statement (defect 19 of issue 23): what the players the appeal is against say, written
        down by the committee or a referee of the table. A fact of its own: the filing's statement is never
        edited, and evidence notes stay evidence."""

        TOPIC = "fupan:Appeal.ResponseRecorded"
        statement: str
        on_behalf_of: list[str]  # the players who say it (none named: the other side as a whole)
        recorded_by: dict[str, Any]
        digest: str

        def effect(self, aggregate: Appeal) -> None:
            aggregate.responses.append({"statement": self.statement, "on_behalf_of": list(self.on_behalf_of),
                                        "by": self.recorded_by, "at": self.timestamp.isoformat()})

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
        """A what-if line the solver completed: `actions[solver_from:]` are its best play (domain/solver, as
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
        self.responses: list[dict[str, Any]] = []  # the other side's statements (ResponseRecorded)
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
        if len(self.evidence) >= MAX_EVIDENCE:  # each piece is on every reader's page of the appeal
            raise refuse("too_much_evidence", f"An appeal keeps at most {MAX_EVIDENCE} pieces of evidence.",
                         f"一个申诉最多保留 {MAX_EVIDENCE} 条证据。", limit=MAX_EVIDENCE)
        if reference is None and not note.strip():
            raise refuse("bad_evidence", "Evidence is a (deal, step, viewpoint) reference, a note, or both.",
                         "证据必须是（牌局、步数、视角）引用或说明，或两者兼有。")
        self._chained(self.EvidenceAdded, reference=reference, note=note.strip(), recorded_by=recorded_by)

    def record_response(self, statement: str, on_behalf_of: list[str], recorded_by: dict[str, Any]) -> None:
        """The other side's statement, while the appeal is still being heard."""
        self._expect((OPEN, RULED, APPEALED), "take the other side's statement", "记录对方陈述")
        if len(self.responses) >= MAX_RESPONSES:
            raise refuse("too_many_responses", f"An appeal keeps at most {MAX_RESPONSES} statements of the other "
                         "side.", f"一个申诉最多保留 {MAX_RESPONSES} 条对方陈述。", limit=MAX_RESPONSES)
        if not statement.strip():
            raise refuse("bad_response", "Write what the other side says: the statement is empty.",
                         "请写明对方的陈述。")
        taken = set(on_behalf_of) & set(self.on_behalf_of)
        if taken:
            raise refuse("bad_response", f"{listed(sorted(taken))} filed the appeal: the other side's statement is "
                         "not theirs.", f"{listed(sorted(taken), 'zh')}是申诉方：对方陈述不能以其名义记录。",
                         players=sorted(taken))
        self._chained(self.ResponseRecorded, statement=statement.strip(), on_behalf_of=list(on_behalf_of),
                      recorded_by=recorded_by)

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
        need_reason(reason)
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
        need_reason(reason)
        self._chained(self.Appealed, reason=reason.strip(), recorded_by=recorded_by)
        return True

    def decide(self, outcome: dict[str, Any], reason: str, members: list[str], vote: dict[str, int],
               apply: Callable[[], list[dict[str, Any]]], recorded_by: dict[str, Any]) -> bool:
        if self.decision is not None and self.decision["outcome"] == outcome and self.decision["members"] == members:
            return False
        self._expect((APPEALED,), "be decided (the ruling was not appealed)", "作出仲裁决定（裁决未被申诉）")
        need_reason(reason)
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
