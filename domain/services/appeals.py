"""Appeals (domain/model/appeal.py, docs/appeals.md), from filing to closing: the tournament's appeal rules, the
filing and its deadline, evidence, what-if lines of the disputed deal, appealing the ruling, withdrawing and
closing, reading an appeal back (its timeline, the result-blind review). Rulings and decisions are
domain/services/rulings.py."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from domain.kernel.engine import Action, Viewpoint
from domain.kernel.errors import IllegalAction, listed
from domain.model.appeal import Appeal
from domain.model.appeal_rules import AGAINST as APPEAL_AGAINST
from domain.model.appeal_rules import (
    APPEALS_PER_TABLE,
    DEFAULT_DEADLINE_MINUTES,
    LATE_REASONS,
    AppealRules,
    appeal_rules_id,
    deadline_check,
    is_viewpoint,
    require_chief,
)
from domain.model.deal import Deal
from domain.model.ids import LOCAL_RECORDER
from domain.model.match import Match
from domain.model.token import PUBLIC, AccessToken, Principal
from domain.model.tournament import Tournament
from domain.records.retraction import standing_state
from domain.services.analysis import analyse_state, play_forced, play_variation, plays, solved_line
from domain.services.appeal_views import appeal_deals, appeal_dict, result_blind, timeline
from domain.services.long_work import beside_the_loop
from domain.services.pad import choices
from domain.services.replay import frames
from domain.services.seat_names import names_seats
from domain.services.service import Service
from domain.services.visibility import may_see_all, published
from domain.solver.search import DEFAULT_LIMIT_MS, Budget
from domain.store.event_store import Store
from domain.store.units import command


class Appeals(Service):
    """An appeal's life, except the outcomes (domain/services/rulings.py)."""

    @command
    def rules(self, tournament: UUID | str) -> dict[str, Any]:
        t = self.store.load(Tournament, tournament, "tournament")
        rules = appeal_rules(self.store, t)
        return {"tournament_id": str(t.id),
                "deadline_minutes": DEFAULT_DEADLINE_MINUTES if rules is None else rules.deadline_minutes,
                "chief_referees": [] if rules is None else list(rules.chief_referees)}

    @command
    def set_rules(self, tournament: UUID | str, deadline_minutes: int, chief_referees: list[str],
                  recorded_by: dict[str, Any] = LOCAL_RECORDER) -> dict[str, Any]:
        """The organiser's appeal settings: the deadline and the referee tokens named chief referees."""
        t = self.store.load(Tournament, tournament, "tournament")
        for token in chief_referees:
            found = self.store.find(token)
            if not isinstance(found, AccessToken) or found.role != "referee":
                raise IllegalAction("bad_appeal_rules", f"Not a referee token: {token!r}.",
                                    f"不是裁判令牌：{token!r}。", {"token_id": token})
        rules = appeal_rules(self.store, t)
        if rules is None:
            self.store.commit(AppealRules.open(t.id, deadline_minutes, chief_referees, recorded_by))
        elif rules.change(deadline_minutes, chief_referees, recorded_by):
            self.store.commit(rules)
        return self.rules(t.id)

    def _against(self, m: Match, t: Tournament, against: Any) -> dict[str, Any]:
        """The checked form of what is appealed: {kind, deal_id?, step?, version?}."""
        if not isinstance(against, dict) or against.get("kind") not in APPEAL_AGAINST:
            raise IllegalAction("bad_appeal", "Say what is appealed: a deal, a table's result, a ruling or a penalty.",
                                "请指明申诉对象：牌局、桌的结果、判罚或罚分。", {"against": against})
        kind, out = against["kind"], {"kind": against["kind"]}
        if against.get("deal_id") is not None or kind in ("deal", "ruling"):
            d = disputed_deal(self.store, m, against.get("deal_id"))
            out["deal_id"] = str(d.id)
            steps = sum(1 for _ in d.actions)
            step, version = against.get("step"), against.get("version")
            if step is not None:
                if type(step) is not int or not 0 <= step <= steps:
                    raise IllegalAction("bad_appeal", f"The step is one of the deal's steps, 0 to {steps}.",
                                        f"步数必须是该牌局中的一步（0 至 {steps}）。", {"step": step})
                out["step"] = step
            if kind == "ruling":  # the deal event recording the ruling (a foul, an irregularity)
                if type(version) is not int or not 1 <= version <= d.version:
                    raise IllegalAction("bad_appeal", "An appeal of a ruling names its deal event (version).",
                                        "对判罚的申诉必须指明其牌局事件（编号）。", {"version": version})
                out["version"] = version
        if kind == "penalty":
            version = against.get("adjustment_version")
            adjusted = (list(self.store.events.get(t.id, gt=version - 1, lte=version))
                        if type(version) is int and 1 <= version <= t.version else [])
            if not adjusted or not isinstance(adjusted[0], Tournament.Adjusted):
                raise IllegalAction("bad_appeal", "An appeal of a penalty names its Tournament.Adjusted version.",
                                    "对罚分的申诉必须指明其赛事调整事件的版本。", {"adjustment_version": version})
            out["adjustment_version"] = version
        return out

    @command
    def file(self, match: UUID | str, against: Any, category: str, statement: str, on_behalf_of: list[str] = (),
             accept_late: str | None = None, recorded_by: dict[str, Any] = LOCAL_RECORDER) -> dict[str, Any]:
        """File an appeal about this table; refused as late (nothing stored) unless the chief referee accepts
        it with a reason (`accept_late`)."""
        m = self.store.load(Match, match, "match")
        t = self.store.load(Tournament, m.tournament_id, "tournament")
        checked = self._against(m, t, against)
        # Bounded (docs/SECURITY.md §6b): a referee token must not grow the tournament's appeals without end. A scan
        # of the appeals (cached aggregates); filing is rare, and a venue's appeals are tens, not thousands.
        filed = sum(1 for uid in self.store.ids_by_topic(Appeal.Created.TOPIC)
                    if self.store.load(Appeal, uid, "appeal").match_id == m.id)
        if filed >= APPEALS_PER_TABLE:
            raise IllegalAction("too_many_appeals", f"A table may have at most {APPEALS_PER_TABLE} appeals filed about "
                                "it: ask the chief referee to rule on the ones filed.",
                                f"一桌最多可提交 {APPEALS_PER_TABLE} 项申诉：请裁判长先处理已提交的申诉。",
                                {"limit": APPEALS_PER_TABLE})
        unknown = [p for p in on_behalf_of if p not in t.players]
        if unknown:
            raise IllegalAction("unknown_player", f"Not registered in this tournament: {listed(unknown)}.",
                                f"未在本赛事登记的选手：{listed(unknown, 'zh')}。", {"on_behalf_of": unknown})
        rules = self.rules(t.id)
        table_round = next(e["round"] for e in t.matches if e["id"] == m.id)
        scored = [e.timestamp for e in self.store.events.get(m.id) if isinstance(e, Match.DealScored)]
        last = None if m.live_deal is not None or not scored else scored[-1]
        deadline = deadline_check(last, rules["deadline_minutes"], datetime.now(UTC),
                                  any(r["round"] > table_round for r in t.rounds))
        acceptance = None
        if deadline["late"]:
            if accept_late is None or not accept_late.strip():
                message, message_zh = LATE_REASONS[deadline["why"]]
                raise IllegalAction("late_appeal", message.format(**deadline), message_zh.format(**deadline),
                                    {"deadline": deadline})
            require_chief(recorded_by, rules["chief_referees"], "accept a late appeal", "受理逾期申诉")
            acceptance = {"reason": accept_late.strip()}
        appeal = Appeal.file(t.id, m.id, checked, category, statement, list(on_behalf_of), deadline, acceptance,
                             recorded_by)
        self.store.commit(appeal)
        return appeal_dict(appeal, full=True)

    @command
    def match_of(self, appeal: UUID | str) -> str:
        """The table an appeal is about (what a referee token's scope is checked against)."""
        return str(self.store.load(Appeal, appeal, "appeal").match_id)

    @names_seats("appeal")
    @command
    def add_evidence(self, appeal: UUID | str, reference: dict[str, Any] | None, note: str = "",
                     recorded_by: dict[str, Any] = LOCAL_RECORDER) -> dict[str, Any]:
        """Evidence: a (deal, step, viewpoint) reference into the viewer, a note, or both."""
        a, m, _ = load_appeal(self.store, appeal)
        if reference is not None:
            d = disputed_deal(self.store, m, reference.get("deal_id") if isinstance(reference, dict) else None)
            step, viewpoint = reference.get("step"), reference.get("viewpoint", "referee")
            if (type(step) is not int or not 0 <= step <= len(d.actions)
                    or not is_viewpoint(viewpoint, len(d.setup.seats))):
                raise IllegalAction("bad_evidence", "A reference is {deal_id, step, viewpoint} of this table's deal.",
                                    "证据引用必须是本桌牌局的 {deal_id, step, viewpoint}。", {"reference": reference})
            reference = {"deal_id": str(d.id), "step": step, "viewpoint": viewpoint}
        a.add_evidence(reference, note, recorded_by)
        self.store.commit(a)
        return appeal_dict(a, full=True)

    @command
    def record_response(self, appeal: UUID | str, statement: str, on_behalf_of: list[str] = (),
                        recorded_by: dict[str, Any] = LOCAL_RECORDER) -> dict[str, Any]:
        """The other side's statement (the players the appeal is against), written down by the committee or a
        referee of the table: shown on the appeal and in its printed report beside the appellant's."""
        a, m, t = load_appeal(self.store, appeal)
        unknown = [p for p in on_behalf_of if p not in t.players]
        if unknown:
            raise IllegalAction("unknown_player", f"Not registered in this tournament: {listed(unknown)}.",
                                f"未在本赛事登记的选手：{listed(unknown, 'zh')}。", {"on_behalf_of": unknown})
        a.record_response(statement, list(on_behalf_of), recorded_by)
        self.store.commit(a)
        return appeal_dict(a, full=True)

    # --- what-if lines of the disputed deal ----------------------------------------------------------------

    def _line_state(self, m: Match, a: Appeal, from_step: int, actions: list[Action]
                    ) -> tuple[Deal, Any, Any, list[Action]]:
        """A what-if line played on a state of its own: the disputed deal's entries up to `from_step`, then
        `actions` through the same rules engine (422 `illegal_line` naming the first refused action). Returns
        (the deal, its engine, the state after the line, the actions' stored forms); the deal is untouched."""
        d = disputed_deal(self.store, m, a.against.get("deal_id"))
        if d.result_only:
            raise IllegalAction("no_replay", "A score slip's deal has no cards to play a line from.",
                                "成绩单录入的牌局没有牌，无法推演。", {"deal_id": str(d.id)})
        if type(from_step) is not int or not 0 <= from_step <= len(d.actions):
            # Not the deal's length: a result-blind reader would learn it (issue 23).
            raise IllegalAction("bad_line", "The line starts at a step of the deal (0 or more, not past its end).",
                                "推演的起点必须是该牌局中的一步（从 0 起，不超过牌局的最后一步）。",
                                {"from_step": from_step})
        engine = d.engine
        state = standing_state(engine, d.setup, d.actions[:from_step])
        played = play_variation(engine, state, actions)  # refusals counted from 1, `index` 0-based
        return d, engine, state, played

    @names_seats("appeal")
    @command
    def add_line(self, appeal: UUID | str, from_step: int, actions: list[Action], label: str = "",
                 recorded_by: dict[str, Any] = LOCAL_RECORDER, complete: bool = False) -> dict[str, Any]:
        """A what-if line of the disputed deal: its actions up to `from_step`, then `actions` instead, through the
        same rules engine to the deal's end (422 `illegal_line` naming the first refused action, `line_unfinished`
        when they do not end it); kept on the appeal, the deal untouched. `complete`: the solver's best play
        (domain/solver, as the deal's analysis gives it) finishes the line after `actions`."""
        a, m, _ = load_appeal(self.store, appeal)
        d, engine, state, played = self._line_state(m, a, from_step, actions)
        solver_from = None
        if complete and engine.result(state) is None:
            solver_from = len(played)
            with self.store.outside_lock():  # seconds of search on the line's own state: the process's others go on
                played += beside_the_loop(lambda: solved_line(engine, state, Budget(limit_ms=DEFAULT_LIMIT_MS)))
        result = engine.result(state)
        if result is None:
            raise IllegalAction("line_unfinished", "The line does not end the deal: play it to the end.",
                                "推演没有打完这副牌：请推演到结束。", {"to_act": engine.status(state).get("to_act")})
        a.add_line(str(d.id), from_step, played, list(result["scores"]), label, recorded_by, solver_from)
        self.store.commit(a)
        return appeal_dict(a, full=True)

    @names_seats("appeal")
    @command
    def sandbox(self, appeal: UUID | str, from_step: int, actions: list[Action],
                forced: bool = False, list_plays: bool = False) -> dict[str, Any]:
        """A line being built on the appeal's page (nothing stored): the state after it, from the referee's
        viewpoint, and what the seat to act may do now — the recording pad's choices (domain/services/pad.py: the
        engine's offered actions, each kept only if the engine accepts it) — or the line's result once it ends.
        `list_plays`: `plays`, every distinct play of the seat to act as the analysis lists them (the board of
        variations; seconds for a large hand, so only when asked);
        `forced`: the passes nobody can avoid after the line are played too (`forced` in the answer: how many of
        the line's last actions were)."""
        a, m, _ = load_appeal(self.store, appeal)
        d, engine, state, played = self._line_state(m, a, from_step, actions)
        auto = play_forced(engine, state) if forced else []
        played += auto
        result = engine.result(state)
        status = engine.status(state)
        to_act = status.get("to_act")
        offered = [] if result is not None else [c for c in choices(engine, state)
                                                 if c["seat"] == to_act and c["action"].get("type") != "foul"]
        return {"appeal_id": str(a.id), "deal_id": str(d.id), "from_step": from_step, "actions": played,
                "status": status, "view": engine.view(state, Viewpoint("referee")), "choices": offered,
                "scores": None if result is None else list(result["scores"]), "forced": len(auto),
                "plays": None if result is not None or not list_plays
                else beside_the_loop(lambda: plays(engine, state))}

    @names_seats("appeal")
    def analyse(self, appeal: UUID | str, from_step: int, actions: list[Action],
                limit_ms: float = DEFAULT_LIMIT_MS) -> dict[str, Any]:
        """The analysis (docs/analysis.md) of a node of the appeal's board: the disputed deal's entries up to
        `from_step`, then `actions`; as GET /api/deals/<id>/analysis answers, naming the appeal, not the deal
        (the result-blind board carries no deal address). Nothing stored."""
        with self.unit():
            a, m, _ = load_appeal(self.store, appeal)
            _, engine, state, played = self._line_state(m, a, from_step, actions)
        with self.store.outside_lock():  # seconds of search on the line's own state: the process's others go on
            answer = beside_the_loop(lambda: analyse_state(engine, state, Budget(limit_ms=limit_ms)))
        return {"appeal_id": str(a.id), "from_step": from_step, "actions": played, **answer}

    # --- withdrawing and closing ----------------------------------------------------------------------------

    # --- the filing side's steps after the ruling, and closing ---------------------------------------------

    @command
    def appeal_ruling(self, appeal: UUID | str, reason: str,
                      recorded_by: dict[str, Any] = LOCAL_RECORDER) -> tuple[dict[str, Any], bool]:
        """The chief referee's ruling appealed to the committee (the outcomes: domain/services/rulings.py)."""
        a = self.store.load(Appeal, appeal, "appeal")
        return self._saved_if_changed(a, a.appeal(reason, recorded_by))

    @command
    def withdraw(self, appeal: UUID | str, reason: str = "",
                 recorded_by: dict[str, Any] = LOCAL_RECORDER) -> tuple[dict[str, Any], bool]:
        a = self.store.load(Appeal, appeal, "appeal")
        return self._saved_if_changed(a, a.withdraw(reason, recorded_by))

    @command
    def close(self, appeal: UUID | str, note: str = "",
              recorded_by: dict[str, Any] = LOCAL_RECORDER) -> tuple[dict[str, Any], bool]:
        a, _, t = load_appeal(self.store, appeal)
        require_chief(recorded_by, chief_tokens(self.store, t), "close an appeal", "结案")
        return self._saved_if_changed(a, a.close(note, recorded_by))

    def _saved_if_changed(self, a: Appeal, changed: bool) -> tuple[dict[str, Any], bool]:
        """(the appeal, changed now): a step sent again changes nothing and stores nothing."""
        if changed:
            self.store.commit(a)
        return appeal_dict(a, full=True), changed

    # --- reading an appeal back -----------------------------------------------------------------------------

    def _full(self, a: Appeal, reader: Principal) -> bool:
        deals = [self.store.find(deal) for deal in appeal_deals(a)]  # the disputed deal, and those its evidence names
        deals_closed = all(not isinstance(d, Deal) or published(d, self._released(d)) for d in deals)
        return may_see_all(deals_closed, a.match_id, reader)

    @command
    def get(self, appeal: UUID | str, reader: Principal = PUBLIC) -> dict[str, Any]:
        """The appeal and its timeline; while the disputed deal is live, its words only for those with rights."""
        a = self.store.load(Appeal, appeal, "appeal")
        full = self._full(a, reader)
        return {**appeal_dict(a, full=full), "timeline": timeline(self.store.stored_events(a), full=full)}

    def of_tournament(self, tournament: UUID | str, reader: Principal = PUBLIC) -> list[dict[str, Any]]:
        """A tournament's appeals in filing order."""
        with self.unit():
            key = str(self.store.load(Tournament, tournament, "tournament").id)
        found = []
        for uid in self.store.ids_by_topic(Appeal.Created.TOPIC):
            with self.unit():
                a = self.store.load(Appeal, uid, "appeal")
                if str(a.tournament_id) == key:
                    found.append(appeal_dict(a, full=self._full(a, reader)))
        return found

    def review(self, appeal: UUID | str, viewpoint: str = "referee", reader: Principal = PUBLIC,
               reveal: bool = False) -> dict[str, Any]:
        """The disputed deal for review: result-blind (up to the judged step; no result, no later steps, no
        scores) unless `reveal`; the viewpoint's secrecy as the viewer's (domain/services/visibility.py)."""
        with self.unit():
            a = self.store.load(Appeal, appeal, "appeal")
            if "deal_id" not in a.against:
                raise IllegalAction("no_deal", "This appeal names no deal to review.", "该申诉未指向任何牌局。",
                                    {"appeal_id": str(a.id)})
            deal_id, step = a.against["deal_id"], a.against.get("step")
        events, horizon = self._deal_reading(deal_id)  # the public delay (docs/SECURITY.md §4b) holds here too
        if reveal:
            return {"appeal_id": str(appeal), "blind": False, **frames(events, viewpoint, None, reader, horizon)}
        total = sum(isinstance(e, Deal.ActionRecorded | Deal.Retracted) for e in events)
        judged = total if step is None else step
        if horizon is not None and not may_see_all(False, events[0].match_id, reader):
            judged = min(judged, horizon)  # a reader without rights sees no further than the delay shows
        return {"appeal_id": str(appeal), "blind": True,
                **result_blind(frames(events, viewpoint, range(0, judged + 1), reader, horizon))}


# --- what the appeal services look up (called inside their units) ----------------------------------------


def appeal_rules(store: Store, t: Tournament) -> AppealRules | None:
    found = store.find(appeal_rules_id(t.id))
    return found if isinstance(found, AppealRules) else None


def chief_tokens(store: Store, t: Tournament) -> list[str]:
    rules = appeal_rules(store, t)
    return [] if rules is None else rules.chief_referees


def disputed_deal(store: Store, m: Match, deal_id: Any) -> Deal:
    d = store.find(deal_id) if isinstance(deal_id, str | UUID) else None
    if not isinstance(d, Deal) or d.match_id != m.id:
        raise IllegalAction("bad_appeal", "The appeal must name a deal of this table.",
                            "申诉必须指向本桌的一副牌。", {"deal_id": deal_id})
    return d


def load_appeal(store: Store, appeal: UUID | str) -> tuple[Appeal, Match, Tournament]:
    a = store.load(Appeal, appeal, "appeal")
    return a, store.load(Match, a.match_id, "match"), store.load(Tournament, a.tournament_id, "tournament")
