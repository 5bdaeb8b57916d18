"""Tables (matches): opening one, misdeals, the clock, closing, and score slips — a deal recorded by its result
alone (domain/records/slips.py)."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any
from uuid import UUID

from domain.games import seat_namer
from domain.kernel.engine import DealSetup
from domain.kernel.errors import Conflict, IllegalAction, Refusal
from domain.model.deal import Deal
from domain.model.ids import LOCAL_RECORDER, deal_id_in_match
from domain.model.match import Match
from domain.model.tournament import Tournament
from domain.records.slips import score as score_slip
from domain.services.presenters import deal_dict, match_dict, match_summary
from domain.services.seat_names import names_seats
from domain.services.service import Service, same_kind
from domain.services.tournaments import Tournaments
from domain.store.units import command


class Tables(Service):
    """The tables of the tournaments and what is recorded at them besides the play."""

    tournaments: Tournaments

    @command
    def open(
        self, tournament: UUID | str, table: str, seats: list[str], first: int = 0,
        options: dict[str, Any] | None = None, recorded_by: dict[str, Any] = LOCAL_RECORDER, round: int | None = None,
    ) -> tuple[dict[str, Any], bool]:
        """(match, created): a table of the tournament, named by `table` (idempotent), in `round` (default:
        the current round)."""
        t = self.store.load(Tournament, tournament, "tournament")
        try:
            match = Match.open(t, table, seats, first, options or {}, recorded_by)
        except Refusal as refused:  # a `first` none of the seats: named by the players being seated
            if refused.mentions_seats and isinstance(seats, list):
                refused.name_seats(seat_namer(t.game, [t.players.get(s, str(s)) for s in seats]))
            raise
        existing = self.store.find(match.id)
        if existing is not None:
            same_kind(existing, Match, table).check_same(match)
            return match_dict(existing, t), False
        t.open_match(match.id, table, recorded_by, round)
        self.store.commit(t, match)
        return match_dict(match, t), True

    def of_tournament(self, tournament: UUID | str) -> list[dict[str, Any]]:
        return [self.get(entry["id"]) for entry in self.tournaments.get(tournament)["matches"]]

    @command
    def get(self, match: UUID | str) -> dict[str, Any]:
        m = self.store.load(Match, match, "match")
        return match_dict(m, self.store.load(Tournament, m.tournament_id, "tournament"))

    @names_seats("match")
    @command
    def record_misdeal(self, match: UUID | str, seat: int, note: str = "",
                       recorded_by: dict[str, Any] = LOCAL_RECORDER) -> dict[str, Any]:
        """Record a misdeal by `seat` before the deal is recorded; it is dealt again (Match.record_misdeal)."""
        m = self.store.load(Match, match, "match")
        m.record_misdeal(seat, note, recorded_by)
        self.store.commit(m)
        return self.get(m.id)

    @command
    def close(self, match: UUID | str, reason: str, recorded_by: dict[str, Any] = LOCAL_RECORDER) -> dict[str, Any]:
        """End a table by the organiser's decision, with the reason (Match.close)."""
        m = self.store.load(Match, match, "match")
        m.close(reason, recorded_by)
        self.store.commit(m)
        return self.get(m.id)

    @command
    def reopen(self, match: UUID | str, reason: str, recorded_by: dict[str, Any] = LOCAL_RECORDER) -> dict[str, Any]:
        """Undo a close, with the reason (Match.reopen) — only while the table's round is the tournament's last:
        a later round was paired from this table's result, so it stands (a correction or an appeal changes it)."""
        m = self.store.load(Match, match, "match")
        t = self.store.load(Tournament, m.tournament_id, "tournament")
        here = next((entry["round"] for entry in t.matches if entry["id"] == m.id), t.current_round)
        if here != t.current_round:
            raise IllegalAction("round_moved_on", f"Round {t.current_round} has started: round {here}'s tables stand "
                                "as they were when it was paired.",
                                f"第 {t.current_round} 轮已开始：第 {here} 轮各桌的结果已用于编排，不能重新开放。",
                                {"round": here, "current_round": t.current_round})
        m.reopen(reason, recorded_by)
        self.store.commit(m)
        return self.get(m.id)

    @command
    def record_clock(self, match: UUID | str, minutes: int, note: str = "",
                     recorded_by: dict[str, Any] = LOCAL_RECORDER) -> dict[str, Any]:
        """Record the match clock (minutes played). A reading at or past the game's time limit calls time:
        the time cap then decides the match, at once or after the deal in play (domain/kernel/table.py)."""
        m = self.store.load(Match, match, "match")
        m.record_clock(minutes, note, recorded_by)
        self.store.commit(m)
        return self.get(m.id)

    # --- score slips (domain/records/slips.py) ------------------------------------------------------------

    @names_seats("match")
    @command
    def preview_slip(self, match: UUID | str, facts: Any, number: int | None = None) -> dict[str, Any]:
        """What a score slip for the table's next deal would score, and the table after it; stores nothing."""
        m = self.store.load(Match, match, "match")
        setup, number, stored, result = _slip(m, facts, number)
        standing = m.rules.after_deal(m.standing, m.options, result)
        return {"match_id": str(m.id), "number": number, "first": setup.first, "context": setup.context,
                "facts": stored, "result": result, "standing": standing}

    @names_seats("match")
    @command
    def enter_slip(self, match: UUID | str, facts: Any, number: int | None = None,
                   recorded_by: dict[str, Any] = LOCAL_RECORDER) -> dict[str, Any]:
        """Store the table's next deal from a score slip: a result-only deal, scored into the match like any."""
        m = self.store.load(Match, match, "match")
        setup, number, stored, result = _slip(m, facts, number)
        deal = Deal.from_slip(deal_id_in_match(m.id, number), setup, stored, result, match=m.id, number=number,
                              recorded_by=recorded_by)
        m.start_deal(deal.id, number, setup.first, recorded_by)
        m.score_deal(deal.id, number, result, recorded_by)
        self.store.commit(m, deal)
        return {**deal_dict(deal, full=True), "match": match_summary(m)}

    # --- corrections (更正, docs/corrections.md) --------------------------------------------------------------

    @names_seats("match")
    @command
    def preview_correction(self, match: UUID | str, number: Any, facts: Any) -> dict[str, Any]:
        """What correcting deal `number` to these facts scores, and the table after it; stores nothing."""
        m = self.store.load(Match, match, "match")
        deal, result, later = self._correction(m, number, facts)
        probe = copy.deepcopy(m)  # the stored table is the cached object: the correction is tried on a copy
        probe.correct_deal(deal.number or 0, result[0], result[1], later, "preview", LOCAL_RECORDER)
        return {"match_id": str(m.id), "number": deal.number, "deal_id": str(deal.id), "facts": result[0],
                "result": result[1], "was": list(m.deals[(deal.number or 1) - 1]["scores"] or []),
                "standing": probe.standing}

    @names_seats("match")
    @command
    def correct(self, match: UUID | str, number: Any, facts: Any, reason: Any,
                recorded_by: dict[str, Any] = LOCAL_RECORDER) -> dict[str, Any]:
        """Correct a scored deal's facts (更正, not an appeal): a new `Match.DealCorrected` with the reason; the
        deal's scores and the table's standing follow it on every page, in the standings and in pairing."""
        m = self.store.load(Match, match, "match")
        deal, (stored, result), later = self._correction(m, number, facts)
        m.correct_deal(deal.number or 0, stored, result, later, reason if isinstance(reason, str) else "",
                       recorded_by)
        self.store.commit(m)
        return self.get(m.id)

    def _correction(self, m: Match, number: Any, facts: Any
                    ) -> tuple[Deal, tuple[dict[str, Any], dict[str, Any]], list[dict[str, Any]]]:
        """(the deal, (its facts as stored, the result they score), each later scored deal's result and context)."""
        if not m.deals:
            raise IllegalAction("not_scored", "This table has no scored deal to correct yet.",
                                "本桌还没有可以更正的已计分牌局。", {"number": number})
        if type(number) is not int or not 1 <= number <= len(m.deals):
            raise IllegalAction("bad_deal_number", f"Name a deal of this table, 1–{len(m.deals)}.",
                                f"请指明本桌的牌局（第 1–{len(m.deals)} 局）。", {"number": number})
        entry = m.deals[number - 1]
        deal = self.store.load(Deal, entry["deal_id"], "deal")
        setup = DealSetup(deal.setup.game, deal.setup.options, list(deal.setup.seats), deal.setup.first, [], [],
                          dict(deal.setup.context))
        scored = score_slip(setup, facts)
        later = []
        for after in m.deals[number:]:
            if after["status"] != "finished":
                break
            played = self.store.load(Deal, after["deal_id"], "deal")
            corrected = after.get("corrected")
            later.append({"result": corrected["result"] if corrected else played.result,
                          "context": played.setup.context})
        return deal, scored, later


def _slip(m: Match, facts: Any, expected: int | None) -> tuple[DealSetup, int, dict[str, Any], dict]:
    """(setup, number, facts as stored, result) of a slip for the table's next deal (409 unless it is deal
    `expected`, when given); nothing changes."""
    m.check_next_deal()
    number = len(m.deals) + 1
    if expected is not None and expected != number:
        raise Conflict("conflict", f"The table's next deal is {number}, not {expected}; nothing was written.",
                       f"本桌下一局是第 {number} 局，不是第 {expected} 局；本次未写入。",
                       {"expected_number": expected, "number": number})
    setup = DealSetup(m.game, m.options, list(m.seats), m.default_first(number), [], [],
                      m.context_for_next_deal(None))
    stored, result = score_slip(setup, facts)
    if "first" in stored:  # who bid first, as the referee entered it (挖坑): the deal's first seat
        setup = dataclasses.replace(setup, first=stored["first"])
    return setup, number, stored, result
