"""The Match aggregate: one table's session of deals, chained by the game's table rules (`MatchRules`).

Every event class has an explicit, stable TOPIC, so stored events never depend on Python module paths.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate

from domain.games import get_engine, get_table
from domain.kernel.errors import Conflict, IllegalAction, listed, not_a_player
from domain.kernel.table import MatchRules, Standing
from domain.model.ids import match_id
from domain.model.tournament import Tournament


class Match(Aggregate):
    """One table's session of deals. How its deals chain — where each starts, with which context, how a
    result moves the standing, when the match ends and what the time cap means — is its game's `MatchRules`
    (domain/kernel/table.py); the aggregate only records what they decide."""

    TOPIC = "fupan:Match"

    class Event(Aggregate.Event):
        pass

    class Created(Event, Aggregate.Created):
        TOPIC = "fupan:Match.Created"
        tournament_id: UUID
        table: str
        game: str
        options: dict[str, Any]
        seats: list[str]
        first: int
        start_chips: int | None  # None: the game keeps no chips (升级)
        recorded_by: dict[str, Any]

    class DealStarted(Event):
        TOPIC = "fupan:Match.DealStarted"
        deal_id: UUID
        number: int
        first: int
        recorded_by: dict[str, Any]

        def apply(self, aggregate: Match) -> None:
            aggregate.deals.append(
                {"number": self.number, "deal_id": self.deal_id, "first": self.first, "status": "live",
                 "scores": None, "chips": None, "standing": None}
            )

    class DealScored(Event):
        """v2 carries the standing after the deal (domain/kernel/table.py); `winner` is the side that won the match
        with this deal, if it did."""

        TOPIC = "fupan:Match.DealScored"
        class_version = 2
        deal_id: UUID
        number: int
        scores: list[int]
        chips: list[int] | None  # the standing's chips, for a chip game
        winner: int | None
        standing: dict[str, Any]
        recorded_by: dict[str, Any]

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> None:
            # Before v2 only 斗地主 chip tables were scored: their standing is the chips.
            winner = state["winner"]
            state["standing"] = {"chips": state["chips"],
                                 "end": None if winner is None else {"winner": winner, "by": "chips"}}

        def apply(self, aggregate: Match) -> None:
            entry = aggregate.deals[self.number - 1]
            entry.update(status="finished", scores=self.scores, chips=self.chips, standing=self.standing)
            aggregate.standing = self.standing

    class DealCorrected(Event):
        """A correction (更正, not an appeal): the organiser or the table's referee put right a scored deal's
        facts — a mistyped slip, a recorded deal's scoring fact — with the reason. `facts` are the deal's facts as
        corrected (the game's slip facts: domain/records/slips.py), `result` what they score, `was` the scores it
        replaces; `standings` the table's standing after this deal and each later one, chained again from the
        corrected result (docs/corrections.md). The deal's own record is unchanged: this is the table's word."""

        TOPIC = "fupan:Match.DealCorrected"
        deal_id: UUID
        number: int
        facts: dict[str, Any]
        result: dict[str, Any]
        scores: list[int]
        was: list[int]
        reason: str
        standings: list[dict[str, Any]]
        recorded_by: dict[str, Any]

        def apply(self, aggregate: Match) -> None:
            for offset, standing in enumerate(self.standings):
                aggregate.deals[self.number - 1 + offset].update(standing=standing, chips=standing.get("chips"))
            entry = aggregate.deals[self.number - 1]
            entry.update(scores=list(self.scores), corrected={
                "reason": self.reason, "was": list(self.was), "facts": self.facts, "result": self.result,
                "by": self.recorded_by, "at": self.timestamp.isoformat(),
                "count": entry.get("corrected", {}).get("count", 0) + 1})
            if self.number - 1 + len(self.standings) == len(aggregate.deals):  # the table's last deal's standing
                aggregate.standing = self.standings[-1]

    class ClockRecorded(Event):
        """A reading of the match clock (minutes played) by the referee; one at or past the game's time limit
        calls time, and the standing then says what the time cap decided."""

        TOPIC = "fupan:Match.ClockRecorded"
        minutes: int
        note: str
        time_up: bool
        standing: dict[str, Any]
        recorded_by: dict[str, Any]

        def apply(self, aggregate: Match) -> None:
            aggregate.clock.append({"minutes": self.minutes, "note": self.note, "time_up": self.time_up,
                                    "after_deal": len(aggregate.deals)})
            aggregate.standing = self.standing

    class MisdealRecorded(Event):
        """A wrong number of cards found while dealing, by the seat that dealt: the deal is dealt again (no deal
        was recorded for it) and the game's match rules may count it against that seat's side (升级: §3.13,
        more than three disqualify the side)."""

        TOPIC = "fupan:Match.MisdealRecorded"
        seat: int
        note: str
        standing: dict[str, Any]
        recorded_by: dict[str, Any]

        def apply(self, aggregate: Match) -> None:
            aggregate.misdeals.append({"seat": self.seat, "note": self.note, "before_deal": len(aggregate.deals) + 1})
            aggregate.standing = self.standing

    class Closed(Event):
        """The organiser ended the table before its own end rule did, for the reason given — e.g. a play-off
        table of extra deals once they have separated the tied players (S001 §2.6 [REC]), which no chip
        target ends. The standing's end is `{"winner": None, "by": "closed", "reason": …}`: the table's
        ranking (chips, then the declared tiebreaks) places its players."""

        TOPIC = "fupan:Match.Closed"
        reason: str
        standing: dict[str, Any]
        recorded_by: dict[str, Any]

        def apply(self, aggregate: Match) -> None:
            aggregate.standing = self.standing

    class Reopened(Event):
        """The organiser undid a close (`Closed`), with the reason — a table closed by mistake, or one whose
        remaining boards are to be recorded after all — while its round is still the tournament's last. The
        standing is the one before the close (end None): the table takes deals again until its own end rule,
        or another close, ends it."""

        TOPIC = "fupan:Match.Reopened"
        reason: str
        standing: dict[str, Any]
        recorded_by: dict[str, Any]

        def apply(self, aggregate: Match) -> None:
            aggregate.standing = self.standing

    class Ended(Event):
        """The match is over: the side that won (None: a draw), its seats, and why. The aggregate's own state
        follows from the standing recorded with the event before it; this one is for readers of the log."""

        TOPIC = "fupan:Match.Ended"
        winner: int | None
        winners: list[int]
        by: str
        time_up: bool
        recorded_by: dict[str, Any]

    def __init__(
        self, tournament_id: UUID, table: str, game: str, options: dict[str, Any], seats: list[str], first: int,
        start_chips: int | None, recorded_by: dict[str, Any],
    ):
        self.tournament_id = tournament_id
        self.table = table
        self.game = game
        self.options = options
        self.seats = seats
        self.first = first
        self.start_chips = start_chips
        self.standing: Standing = self.rules.start(options, len(seats))
        self.deals: list[dict[str, Any]] = []
        self.clock: list[dict[str, Any]] = []
        self.misdeals: list[dict[str, Any]] = []

    @classmethod
    def open(
        cls, tournament: Tournament, table: str, seats: list[str], first: int, options: dict[str, Any],
        recorded_by: dict[str, Any],
    ) -> Match:
        engine = get_engine(tournament.game)
        rules = get_table(engine.game)
        if len(seats) != engine.seat_count or len(set(seats)) != len(seats):
            raise IllegalAction(
                "bad_seats", f"{engine.name_en} needs {engine.seat_count} different players.",
                f"{engine.name_zh}需要 {engine.seat_count} 名不同的选手。", {"seats": seats},
            )
        unknown = [seat for seat in seats if seat not in tournament.players]
        if unknown:
            raise IllegalAction(
                "unknown_player", f"Not registered in this tournament: {listed(unknown)}.",
                f"未在本赛事登记的选手：{listed(unknown, 'zh')}。", {"players": unknown},
            )
        if not 0 <= first < engine.seat_count:
            raise not_a_player("bad_setup", "The first to act", "先出的人", engine.seat_count, first=first)
        merged = {**tournament.options, **options}
        return cls._create(
            cls.Created, id=match_id(tournament.id, table), tournament_id=tournament.id, table=table,
            game=engine.game, options=engine.resolve_options(merged), seats=list(seats), first=first,
            start_chips=rules.start_chips, recorded_by=recorded_by,
        )

    @property
    def rules(self) -> MatchRules:
        return get_table(self.game)

    def check_same(self, other: Match) -> None:
        """Conflict unless `other` (a create of the same table) re-submits this one."""
        if (self.seats, self.first, self.options) != (other.seats, other.first, other.options):
            raise Conflict("already_exists", f"Table {self.table!r} already exists with other settings.",
                           f"桌 {self.table!r} 已存在且设置不同。", {"id": str(self.id)})

    @property
    def chips(self) -> list[int] | None:
        return self.standing.get("chips")

    @property
    def over(self) -> bool:
        return self.standing["end"] is not None

    @property
    def winner(self) -> int | None:
        """The side that won (a seat at a 斗地主 table, a team in 升级); None while live or for a draw."""
        return self.standing["end"]["winner"] if self.over else None

    @property
    def winners(self) -> list[int]:
        return [] if self.winner is None else self.rules.side_seats(self.winner, len(self.seats))

    @property
    def time_limit(self) -> int | None:
        return self.rules.time_limit(self.options)

    @property
    def time_up(self) -> bool:
        return any(reading["time_up"] for reading in self.clock)

    @property
    def live_deal(self) -> dict[str, Any] | None:
        return self.deals[-1] if self.deals and self.deals[-1]["status"] == "live" else None

    def default_first(self, number: int) -> int:
        """The `first` seat of deal `number` (1-based), as the game's match rules place it."""
        return self.rules.first_seat(self.standing, self.first, number, len(self.seats))

    def next_context(self) -> dict[str, Any]:
        """The `context` the next deal is set up with (levels and dealer in 升级; nothing at a chip table)."""
        return self.rules.context(self.standing)

    def context_for_next_deal(self, given: dict[str, Any] | None) -> dict[str, Any]:
        """The next deal's context, which comes from the match: a caller may repeat it, never choose another."""
        expected = self.next_context()
        if given is not None and given != expected:
            raise IllegalAction("context_from_match", "In a match the deal's context comes from the match "
                                f"(the levels and dealer so far): {expected}.",
                                f"对局中牌局的 context 由对局决定（目前的级数和庄家）：{expected}。",
                                {"expected": expected, "given": given})
        return expected

    def started_deal(self, number: int | None) -> int | None:
        """The number of an already-started deal that a create naming deal `number` re-submits, if it is one."""
        if number is None:
            return None
        if number > len(self.deals) + 1 or number < 1:
            raise IllegalAction("bad_deal_number", f"The next deal of this table is {len(self.deals) + 1}.",
                                f"本桌下一局是第 {len(self.deals) + 1} 局。", {"next": len(self.deals) + 1})
        return number if number <= len(self.deals) else None

    def _refuse_if_over(self) -> None:
        if self.over:
            raise IllegalAction(
                "match_over", "This table is over: no more deals, clock readings or misdeals.",
                "本桌比赛已结束，不能再开新局、记录比赛时间或发牌错误。",
                {"winner": self.winner, "standing": self.standing},
            )

    def _refuse_if_live(self, message: str, message_zh: str) -> None:
        live = self.live_deal
        if live is not None:
            raise IllegalAction("deal_in_progress", message.format(n=live["number"]),
                                message_zh.format(n=live["number"]), {"deal_id": str(live["deal_id"])})

    def check_next_deal(self) -> None:
        """IllegalAction unless a next deal may start now (the table is not over, no deal is in play)."""
        self._refuse_if_over()
        self._refuse_if_live("Deal {n} is still being played.", "第 {n} 局尚未结束。")

    def start_deal(self, deal: UUID, number: int, first: int, recorded_by: dict[str, Any]) -> None:
        self.check_next_deal()
        self.trigger_event(self.DealStarted, deal_id=deal, number=number, first=first, recorded_by=recorded_by)

    def score_deal(self, deal: UUID, number: int, result: dict[str, Any], recorded_by: dict[str, Any]) -> None:
        """Fold a finished deal's result into the standing; when time was called during it, apply the cap."""
        rules = self.rules
        standing = rules.after_deal(self.standing, self.options, result)
        if self.time_up:
            standing = rules.time_up(standing, self.options)
        end = standing["end"]
        self.trigger_event(self.DealScored, deal_id=deal, number=number, scores=list(result["scores"]),
                           chips=standing.get("chips"), winner=end["winner"] if end else None, standing=standing,
                           recorded_by=recorded_by)
        self._ended(recorded_by)

    def correct_deal(self, number: int, facts: dict[str, Any], result: dict[str, Any], later: list[dict[str, Any]],
                     reason: str, recorded_by: dict[str, Any]) -> None:
        """Correct deal `number`'s facts (更正): its new `result`, and the table's standing chained again through
        the `later` deals' results (in order). Refused while a deal is in play, when the table's time or
        misdeals after it weigh on the standing, when the later deals were dealt from another standing (升级's
        dealer and levels), or when the table would have ended otherwise: those are the committee's (an appeal)."""
        reason = reason.strip() if isinstance(reason, str) else ""
        if not reason or len(reason) > 500:
            raise IllegalAction("bad_reason", "Say why the deal is corrected (1–500 characters).",
                                "请写明更正的理由（1–500 个字符）。", {"length": len(reason)})
        if not 1 <= number <= len(self.deals) or self.deals[number - 1]["status"] != "finished":
            raise IllegalAction("not_scored", f"Deal {number} of this table is not scored: only a scored deal is "
                                "corrected.", f"本桌第 {number} 局尚未计分：只有已计分的牌局可以更正。",
                                {"number": number})
        self._refuse_if_live("Deal {n} is still being played: finish it first.", "第 {n} 局尚未结束，请先打完这一局。")
        if self.time_up or any(misdeal["before_deal"] > number for misdeal in self.misdeals):
            raise _not_correctable("time was called, or a misdeal counted, after this deal",
                                   "本局之后已叫停时间或记录了发牌错误", number)
        entry = self.deals[number - 1]
        before = self.deals[number - 2]["standing"] if number > 1 else self.rules.start(self.options, len(self.seats))
        standings, standing = [], before
        for offset, played in enumerate([{"result": result}, *later]):
            if offset and self.rules.context(standing) != played["context"]:
                raise _not_correctable(f"deal {number + offset} was dealt from the standing before the correction",
                                       f"第 {number + offset} 局是按更正前的局势发牌的", number)
            standing = self.rules.after_deal(standing, self.options, played["result"])
            last = number + offset == len(self.deals)
            if standing["end"] is not None and not last:
                raise _not_correctable("the table would have ended earlier", "本桌会提前结束", number)
            standings.append(standing)
        ended = self.standing["end"]
        if ended is not None and ended["by"] == "closed":
            standings[-1] = {**standings[-1], "end": ended}  # the organiser's close still ends it
        elif (standings[-1]["end"] or {}).get("winner") != (ended or {}).get("winner") \
                or (standings[-1]["end"] is None) != (ended is None):
            raise _not_correctable("it changes how the table ended", "它会改变本桌的结局", number)
        self.trigger_event(self.DealCorrected, deal_id=entry["deal_id"], number=number, facts=facts, result=result,
                           scores=list(result["scores"]), was=list(entry["scores"]), reason=reason,
                           standings=standings, recorded_by=recorded_by)

    def record_clock(self, minutes: int, note: str, recorded_by: dict[str, Any]) -> None:
        """Record a reading of the match clock. At or past the time limit time is called: with no deal in
        play the time cap decides now, else after the deal in play (MatchRules.time_up)."""
        self._refuse_if_over()
        if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes < 0:
            raise IllegalAction("bad_clock", "The clock reads the whole minutes played (0 or more).",
                                "比赛时间是已进行的整数分钟数（0 或以上）。", {"minutes": minutes})
        last = self.clock[-1]["minutes"] if self.clock else 0
        if minutes < last:
            raise IllegalAction("clock_backwards", f"The clock read {last} minutes before; it cannot go back.",
                                f"上次记录的比赛时间是 {last} 分钟，时间不能倒退。", {"minutes": minutes, "last": last})
        limit = self.time_limit
        time_up = limit is not None and minutes >= limit
        standing = self.standing
        if time_up and self.live_deal is None:
            standing = self.rules.time_up(standing, self.options)
        self.trigger_event(self.ClockRecorded, minutes=minutes, note=note, time_up=time_up, standing=standing,
                           recorded_by=recorded_by)
        self._ended(recorded_by)

    def record_misdeal(self, seat: int, note: str, recorded_by: dict[str, Any]) -> None:
        """Record that `seat` misdealt (found while dealing, before the deal is recorded); it is dealt again."""
        self._refuse_if_over()
        self._refuse_if_live("The misdeal belongs before the deal: deal {n} is already being recorded.",
                             "发牌错误应在开局前记录：第 {n} 局已在记录中。")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise not_a_player("bad_seat", "Who misdealt", "发错牌的人", len(self.seats), seat=seat)
        standing = self.rules.misdeal(self.standing, seat, len(self.seats))
        self.trigger_event(self.MisdealRecorded, seat=seat, note=note, standing=standing, recorded_by=recorded_by)
        self._ended(recorded_by)

    def close(self, reason: str, recorded_by: dict[str, Any]) -> None:
        """End the table now (the organiser's decision, with its reason); never while a deal is in play."""
        self._refuse_if_over()
        self._refuse_if_live("Deal {n} is still being played: finish it first.", "第 {n} 局尚未结束，请先打完这一局。")
        reason = reason.strip()
        if not reason or len(reason) > 500:
            raise IllegalAction("bad_reason", "Say why the table ends (1–500 characters).",
                                "请写明结束本桌的理由（1–500 个字符）。", {"length": len(reason)})
        standing = {**self.standing, "end": {"winner": None, "by": "closed", "reason": reason}}
        self.trigger_event(self.Closed, reason=reason, standing=standing, recorded_by=recorded_by)
        self._ended(recorded_by)

    def reopen(self, reason: str, recorded_by: dict[str, Any]) -> None:
        """Undo the organiser's close, with the reason; only a table that `close` ended (its own end rule — a
        chip target, its boards all played, time — is a result, which a correction or an appeal changes)."""
        end = self.standing["end"]
        if end is None or end.get("by") != "closed":
            raise IllegalAction("not_closed", "Only a table the organiser closed can be reopened.",
                                "只有组织者提前结束的桌才能重新开放。", {"end": end})
        reason = reason.strip()
        if not reason or len(reason) > 500:
            raise IllegalAction("bad_reason", "Say why the table is reopened (1–500 characters).",
                                "请写明重新开放本桌的理由（1–500 个字符）。", {"length": len(reason)})
        self.trigger_event(self.Reopened, reason=reason, standing={**self.standing, "end": None},
                           recorded_by=recorded_by)

    def _ended(self, recorded_by: dict[str, Any]) -> None:
        if self.over:
            self.trigger_event(self.Ended, winner=self.winner, winners=self.winners, by=self.standing["end"]["by"],
                               time_up=self.time_up, recorded_by=recorded_by)


def _not_correctable(why: str, why_zh: str, number: int) -> IllegalAction:
    return IllegalAction("not_correctable", f"Deal {number} cannot be corrected here: {why}. That is for the "
                         "committee: file an appeal.",
                         f"第 {number} 局不能在此更正：{why_zh}。请提出申诉，由仲裁决定。", {"number": number})
