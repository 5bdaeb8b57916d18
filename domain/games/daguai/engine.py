"""大怪路子 (6 players in two teams of 3, three decks with jokers, 27 each) — docs/rules/daguai.md, seed 000.

Seats alternate teams (A1): team 0 = seats 0, 2, 4 and team 1 = seats 1, 3, 5. The dealer (`first`) leads the first
play; each player in turn plays a greater play of the same size or passes, and a pass does not shut a player out
(A5). A round ends when every other active player has passed since the last play (A10.5); its player leads again,
or, if that player has gone out, the next active player (接风, A5.5). Players who empty their hands finish in
order; the first is the 头家, and the deal ends as soon as one team's three players are all out (A10.8). Only the
头家's team scores (A6). Fouls are recorded per team; a side with two or more in the deal is scored as caught
three (A7, A10.7). Hand sizes are public exactly when ≤ 10, else ">10" (A7 [REC]).
Section numbers are docs/rules/daguai.md's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any

from marshmallow import Schema, validate

from domain.games.daguai.patterns import Pattern, beats, card_value, describe, parse
from domain.games.shedding import rounds_view
from domain.kernel.cards import cards_text, remove_from
from domain.kernel.engine import Action, DealSetup, DealState, Engine, Viewpoint, check_turn, team_of
from domain.kernel.errors import illegal
from domain.kernel.options import OptionsResolver, switch, whole
from domain.kernel.values import DealResult, Doc

SEATS = 6
HAND_SIZE = 27
TEAM_SIZE = 3
PUBLIC_COUNT_LIMIT = 10
FOULS_TO_LOSE = 2
CATCH_POINTS = {3: 8, 2: 5, 1: 3}  # 抓对方 k 家 (A6)
CAUGHT_POINTS = {1: 1, 2: 0}  # 本家被关 k 家
FOUL_POINTS = 8  # a side with ≥ 2 fouls "按照被抓三家计分" (A7)



class DaguaiOptions(Schema):
    """Read by the match layer (DaguaiTable): deals per table. S000: 4 per round, 6 in the semifinal and final."""

    table_deals = whole(data_key="dg.tableDeals", load_default=4, validate=validate.OneOf([4, 6]))
    # Part C row 3: the seed plays "until everyone is out", but the score is fixed once a team is out, so by
    # default the deal ends there (A10.8); with this switch the others play on, for the record, to the last.
    play_out_remaining = switch(data_key="dg.playOutRemaining", load_default=False)


OPTIONS = OptionsResolver(DaguaiOptions())

ACTION_FIELDS: dict[str, set[str]] = {"play": {"cards"}, "pass": set(), "foul": {"code", "note"}, "timeout": set()}


@dataclass
class DaguaiState(DealState):
    options: dict[str, Any]
    seats: list[str]
    first: int  # the dealer, who leads
    hands: list[list[str]]
    phase: str = "play"  # play | finished
    to_act: int | None = None
    leader: int | None = None
    last_seat: int | None = None
    last_pattern: Pattern | None = None
    passed: set[int] = field(default_factory=set)  # active seats that passed since the last play
    current_round: list[dict[str, Any]] = field(default_factory=list)
    rounds: list[list[dict[str, Any]]] = field(default_factory=list)
    played: list[list[str]] = field(default_factory=lambda: [[] for _ in range(SEATS)])
    finished: list[int] = field(default_factory=list)  # seats in the order they went out
    decided: list[int] | None = None  # the finishing order when the first team was all out: what scores
    team_fouls: list[int] = field(default_factory=lambda: [0, 0])  # while the deal was in progress

class DaguaiResult(DealResult, total=False):
    """A 大怪路子 deal's result (docs/rules/daguai.md A6–A7): the finishing order and each team's points."""

    team_points: Annotated[list[int], Doc("each team's points")]
    finish_order: Annotated[list[int], Doc("the seats in the order they went out")]
    deciding_order: Annotated[list[int], Doc("the finishing order that decided the deal")]
    first_finisher: Annotated[int, Doc("跑头家: the first seat out")]
    head_team: Annotated[int, Doc("the first finisher's team")]
    outcome: Annotated[str, Doc("catch or caught")]
    k: Annotated[int, Doc("how many of the other team were caught")]
    fouls_by_team: Annotated[list[int], Doc("fouls per team")]
    decided_by_fouls: Annotated[bool, Doc("a team's second foul decided the deal")]



class DaguaiEngine(Engine):
    """Plays, passes (a knock on the table) and fouls are all seen by the table."""

    game, name_zh, name_en = "daguai", "大怪路子", "Daguai Luzi"
    seat_count, hand_size, kitty_size, decks, jokers = SEATS, HAND_SIZE, 0, 3, True
    source, options, action_fields = "S000", OPTIONS, ACTION_FIELDS
    fielded: frozenset[str] = frozenset()  # no fields of its own
    # A7, S000 犯规(一)–(三), its eight fouls in its order: (一) counts — volunteering one's own, asking out of turn,
    # answering without "张"; (二) talking, saying "不要" instead of knocking, urging; (三) peeking, gestures. Each
    # counts alike for its side (罚则: a side's second foul in a deal), so they differ only by name.
    foul_codes = (("count_volunteered", "自动报牌", "volunteered a count"),
                  ("count_asked", "不在自己回合询问张数", "asked a count out of turn"),
                  ("count_word", "报牌量词不用“张”", "gave a count without its measure word"),
                  ("talking", "说话", "talking"),
                  ("pass_spoken", "说“不要”而非敲台子", "said “no” instead of knocking to pass"),
                  ("urging", "催促出牌", "urging"), ("peeking", "偷看他人牌", "peeking"),
                  ("gesture", "暗示动作", "suggestive gesture"), ("other", "其他", "other"))
    foul_rule = ("a side's second foul in a deal scores it as caught three (A7).",
                 "同一方一局两次犯规按被抓三家计分（A7）。")

    # -- setup ---------------------------------------------------------------------------------------------

    def new_deal(self, setup: DealSetup) -> DaguaiState:
        hands, _ = self.checked_setup(setup)
        return DaguaiState(self.resolve_options(setup.options), list(setup.seats), setup.first, hands,
                           to_act=setup.first, leader=setup.first)

    # -- actions -------------------------------------------------------------------------------------------

    def record_foul(self, state: DaguaiState, action: Action) -> None:
        super().record_foul(state, action)
        state.team_fouls[team_of(action["seat"])] += 1  # any seat, out or not: counted per team (A10.7)

    def act(self, state: DaguaiState, action: Action) -> None:
        kind, seat = action["type"], action["seat"]
        check_turn(state, seat)
        leading = state.last_seat is None
        if kind == "timeout":
            if leading:
                self._lead_passes_on(state, seat)  # "放弃出牌权利": the next active seat leads (A10.6)
            else:
                self._pass(state, seat)
        elif kind == "pass":
            if leading:
                raise illegal("must_lead", "The leader must play (A5.1); a pass is only for following.",
                              "首家必须出牌，不能不出。")
            self._pass(state, seat)
        else:
            self._play(state, seat, action["cards"])

    def _active(self, state: DaguaiState) -> list[int]:
        return [s for s in range(SEATS) if state.hands[s]]

    def _next_active(self, state: DaguaiState, seat: int) -> int:
        for step in range(1, SEATS + 1):
            candidate = (seat + step) % SEATS
            if state.hands[candidate]:
                return candidate
        raise AssertionError("no active seat")  # the deal ends before that

    def _lead_passes_on(self, state: DaguaiState, seat: int) -> None:
        state.current_round.append({"seat": seat, "type": "timeout"})
        state.rounds.append(state.current_round)
        state.current_round = []
        state.to_act = state.leader = self._next_active(state, seat)

    def _pass(self, state: DaguaiState, seat: int) -> None:
        state.current_round.append({"seat": seat, "type": "pass"})
        state.passed.add(seat)
        self._after_turn(state, seat)

    def _play(self, state: DaguaiState, seat: int, cards: list[str]) -> None:
        rest = remove_from(state.hands[seat], cards, seat)
        pattern = parse(cards)
        if pattern is None:
            named = cards_text(cards)  # as a message prints them: ♣4 ♠4 (only on a refusal)
            raise illegal("not_a_pattern", f"{named} is not a 大怪路子 play (1, 2, 3 or 5 cards, A3).",
                          f"{named} 不是合法牌型（只能出 1、2、3 或 5 张）。", cards=cards)
        if state.last_pattern is not None and not beats(pattern, state.last_pattern):
            named = cards_text(cards)  # as a message prints them: ♣4 ♠4 (only on a refusal)
            raise illegal("does_not_beat", f"{named} does not beat the last play: the same number of cards, strictly "
                          "greater (A3).", f"{named} 管不上上一手牌：须张数相同且更大。", cards=cards,
                          last=describe(state.last_pattern))
        state.hands[seat] = rest
        state.played[seat].extend(cards)
        if not state.current_round:
            state.leader = seat
        state.current_round.append({"seat": seat, "type": "play", "cards": cards, "pattern": pattern})
        state.last_seat, state.last_pattern = seat, pattern
        state.passed = set()
        if not rest:
            state.finished.append(seat)
            if state.decided is None and self._team_out(state.finished) is not None:
                state.decided = list(state.finished)  # a team is out: the result is fixed (A10.8)
            if state.decided is not None and (not state.options["dg.playOutRemaining"]
                                              or len(self._active(state)) <= 1):
                state.rounds.append(state.current_round)
                state.current_round = []
                state.phase, state.to_act = "finished", None
                return
        self._after_turn(state, seat)

    def _after_turn(self, state: DaguaiState, seat: int) -> None:
        """Next to act, or a new round when every other active seat has passed since the last play (A10.5)."""
        last = state.last_seat
        assert last is not None
        others = [s for s in self._active(state) if s != last]
        if all(s in state.passed for s in others):
            state.rounds.append(state.current_round)
            state.current_round = []
            state.passed = set()
            state.last_seat, state.last_pattern = None, None
            # The player of the last play leads; one who has gone out hands it on (接风, A5.5).
            state.to_act = state.leader = last if state.hands[last] else self._next_active(state, last)
            return
        state.to_act = self._next_active(state, seat)

    @staticmethod
    def _team_out(order: list[int]) -> int | None:
        for team in (0, 1):
            if sum(1 for s in order if team_of(s) == team) == TEAM_SIZE:
                return team
        return None

    # -- queries -------------------------------------------------------------------------------------------

    def status(self, state: DaguaiState) -> dict[str, Any]:
        return {"phase": state.phase, "to_act": state.to_act, "finished": state.phase == "finished"}

    def legal_actions(self, state: DaguaiState, seat: int) -> list[Action]:
        if state.phase == "finished" or state.to_act != seat or state.last_seat is None:
            return []
        return [{"seat": seat, "type": "pass"}]

    def result(self, state: DaguaiState) -> DaguaiResult | None:
        if state.phase != "finished":
            return None
        order = state.decided
        assert order is not None
        head = order[0]
        head_team = team_of(head)
        if self._team_out(order) == head_team:
            third = len(order)  # position of the 头家 team's third finisher
            outcome, k = "catch", SEATS - third
            natural = CATCH_POINTS[k]
        else:
            outcome, k = "caught", TEAM_SIZE - sum(1 for s in order if team_of(s) == head_team)
            natural = CAUGHT_POINTS[k]
        team_points = [natural if team == head_team else 0 for team in (0, 1)]
        fouls = list(state.team_fouls)
        fouled = [team for team in (0, 1) if fouls[team] >= FOULS_TO_LOSE]
        if len(fouled) == 2:
            team_points = [0, 0]  # both sides fouled twice: both score 0 [REC]
        elif fouled:
            team_points = [FOUL_POINTS if team != fouled[0] else 0 for team in (0, 1)]
        return {
            "scores": [team_points[team_of(s)] for s in range(SEATS)],
            "team_points": team_points,
            "finish_order": list(state.finished),
            "deciding_order": list(order),
            "first_finisher": head,
            "head_team": head_team,
            "outcome": outcome,
            "k": k,
            "fouls_by_team": fouls,
            "decided_by_fouls": bool(fouled),
            "seat_facts": {"team": [team_of(s) for s in range(SEATS)],
                           "first_finisher": [int(team_of(s) == head_team) for s in range(SEATS)]},
        }

    def view(self, state: DaguaiState, viewpoint: Viewpoint) -> dict[str, Any]:
        seats = []
        for s in range(SEATS):
            count = len(state.hands[s])
            visible = viewpoint.sees_hand(s, False)
            seat_view: dict[str, Any] = {
                "seat": s, "name": state.seats[s], "team": team_of(s),
                # Counts are told only when ≤ 10, above that "不报" (A7 [REC]); whoever sees the hand knows it.
                "count": count if visible or count <= PUBLIC_COUNT_LIMIT else f">{PUBLIC_COUNT_LIMIT}",
                "place": state.finished.index(s) + 1 if s in state.finished else None,
                "played": list(state.played[s]),
            }
            if visible:
                seat_view["hand"] = sorted(state.hands[s], key=card_value, reverse=True)
            seats.append(seat_view)
        return {
            **self.view_head(state, viewpoint), "seats": seats, "finish_order": list(state.finished),
            **rounds_view(state, describe),
            "fouls": list(state.fouls), "fouls_by_team": list(state.team_fouls),
            "result": self.result(state),
        }

