"""竞技挖坑 (3 players, one deck without jokers, 16 each + a 4-card kitty) — docs/rules/wakeng.md, seed 003.

Phases (B4, clarifications B11.1–4): `reveal` (pre-bid 明牌: each player once, in bidding order, `reveal` or
`pass`) → `bidding` (each once: `pass` or a `bid` above the highest; a 3 ends it; all pass → 烂挖, the first
bidder digs at 1) → the digger takes the kitty, shown to all → `post_reveal` (the digger alone: `reveal` or
`pass`; skipped when it already showed) → `doubling` (each once, digger first: `double` or `pass`) → `play`
(the ♥4 holder leads; two passes end a round; the first player out ends the deal) → `finished`.

The first bidder is the holder of the lowest heart among the 48 dealt cards (4 < 5 < … < A < 2 < 3), so a
record's `first` must name that seat (B11.1). The software of the seed blocks every illegal action, so there
are no rule fouls; a referee's `foul` (discipline, B9) is recorded without points: a penalty is an adjustment
of the standings. Scores are the [REC] stakes of B6, B11.7. Section numbers are docs/rules/wakeng.md's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any

from marshmallow import Schema, validate

from domain.games.shedding import SheddingState, following, pass_turn, rounds_view, take_play
from domain.games.wakeng.patterns import Pattern, beats, card_order, card_value, describe, parse
from domain.kernel.cards import cards_text, normalize_all, remove_from
from domain.kernel.engine import Action, DealSetup, Engine, Viewpoint, bid_value, check_turn
from domain.kernel.errors import illegal, seat_ref
from domain.kernel.options import OptionsResolver, switch, whole
from domain.kernel.values import DealResult, Doc

SEATS = 3
HAND_SIZE = 16
KITTY_SIZE = 4
TOP_BID = 3
LEAD_CARD = "H4"  # the ♥4 holder leads (B5.1)


class WakengOptions(Schema):
    """Ruleset switches of B3–B6 with their defaults."""

    quad_is_bomb = switch(data_key="wk.quadIsBomb", load_default=False)
    must_dig = switch(data_key="wk.mustDig", load_default=False)
    global_doubling = switch(data_key="wk.globalDoubling", load_default=False)
    # B6's showFactor and doubleFactor: 附录一 is lost, so the factors are [REC] switches with B6's defaults.
    show_factor = whole(data_key="wk.showFactor", load_default=2, validate=validate.Range(min=1, max=10))
    double_factor = whole(data_key="wk.doubleFactor", load_default=2, validate=validate.Range(min=1, max=10))
    # Read by the match layer (WakengTable): the boards each table plays in a round. The seed's figure is lost
    # (附录二), so it is the organiser's [REC].
    table_deals = whole(data_key="wk.tableDeals", load_default=6, validate=validate.Range(min=1, max=99))


OPTIONS = OptionsResolver(WakengOptions())

ACTION_FIELDS: dict[str, set[str]] = {
    "reveal": set(),
    "bid": {"value"},
    "double": set(),
    "pass": set(),
    "play": {"cards"},
    "foul": {"code", "note"},
    "timeout": set(),
}


def first_bidder(hands: list[list[str]]) -> int:
    """The seat holding the lowest heart dealt (B4.1, B11.1): ♥4, or ♥5 when ♥4 is in the kitty, and so on."""
    hearts = [(card_value(c), seat) for seat, hand in enumerate(hands) for c in hand if c[0] == "H"]
    return min(hearts)[1]


def must_dig(hand: list[str]) -> bool:
    """`wk.mustDig` (S-WK1 必挖场, off by default): a hand with 333, or with 33 and 22, must bid 3 (B4.8)."""
    threes = sum(1 for c in hand if c[1:] == "3")
    twos = sum(1 for c in hand if c[1:] == "2")
    return threes >= 3 or (threes >= 2 and twos >= 2)


@dataclass
class WakengState(SheddingState):
    options: dict[str, Any]
    seats: list[str]
    first: int
    hands: list[list[str]]
    kitty: list[str]
    board: Any = None  # the duplicate board (context), carried into the result
    phase: str = "reveal"  # reveal | bidding | post_reveal | doubling | play | finished
    to_act: int | None = None
    decisions: list[dict[str, Any]] = field(default_factory=list)  # every reveal / bid / double decision in order
    revealed: list[int] = field(default_factory=list)  # seats that showed their hand, in order
    bids: list[tuple[int, int | None]] = field(default_factory=list)
    bid: int = 0
    digger: int | None = None
    lanwa: bool = False  # 烂挖: everyone passed, the first bidder digs at 1
    doubled: list[int] = field(default_factory=list)
    doubling_done: list[int] = field(default_factory=list)
    last_pattern: Pattern | None = None
    winner: int | None = None

class WakengResult(DealResult, total=False):
    """A 竞技挖坑 deal's result (docs/rules/wakeng.md B6–B7): the digger, the bid and each seat's stake."""

    digger: Annotated[int, Doc("the digger's seat")]
    bid: Annotated[int, Doc("the winning bid")]
    lanwa: Annotated[bool, Doc("烂挖: the digger had no bid to beat")]
    revealed: Annotated[list[int], Doc("the seats that showed their hand (明牌)")]
    doubled: Annotated[list[int], Doc("the seats that doubled (加倍)")]
    stakes: Annotated[list[int], Doc("each seat's stake against the digger")]
    digger_won: Annotated[bool, Doc("the digger went out first")]
    board: Annotated[int, Doc("the duplicate board played (B7, B11.8)")]



class WakengEngine(Engine):
    """Every decision and play is shown to all three players by the software."""

    game, name_zh, name_en = "wakeng", "竞技挖坑", "Wakeng"
    seat_count, hand_size, kitty_size, decks, jokers = SEATS, HAND_SIZE, KITTY_SIZE, 1, False
    source, options, action_fields = "S003", OPTIONS, ACTION_FIELDS
    fielded = frozenset({"bid"})
    # B9: the software forbids illegal play; what remains is discipline (S-WK3 第十六–十七条).
    foul_codes = (("talking", "说话", "talking"), ("left_seat", "未经允许离座", "left the seat without leave"),
                  ("smoking", "吸烟", "smoking"), ("other", "其他", "other"))
    foul_rule = ("a penalty is an adjustment of the standings (B9).", "处罚作为积分调整记录（B9）。")

    # -- setup ---------------------------------------------------------------------------------------------

    def first_actor(self, hands: list[list[str]], first: int) -> int:
        """The first bidder follows from the cards (the lowest heart); `first` only said where dealing started."""
        return first_bidder([normalize_all(hand) for hand in hands])

    def new_deal(self, setup: DealSetup) -> WakengState:
        hands, kitty = self.checked_setup(setup)
        first = first_bidder(hands)
        if setup.first != first:
            raise illegal("bad_setup", f"The first bidder holds the lowest heart dealt: {seat_ref(first)}, not "
                          f"{seat_ref(setup.first)} (B4.1).",
                          f"首叫是手中红心最小的玩家：{seat_ref(first)}，不是{seat_ref(setup.first)}。",
                          first=first)
        unknown = set(setup.context) - {"board"}
        if unknown:
            raise illegal("bad_setup", "A 挖坑 deal's context holds only its duplicate board number.",
                          "挖坑牌局的背景只含复式的牌号。", fields=sorted(unknown))
        return WakengState(self.resolve_options(setup.options), list(setup.seats), first, hands, kitty,
                           board=setup.context.get("board"), to_act=first)

    # -- actions -------------------------------------------------------------------------------------------

    def normalize_fields(self, kind: str, action: Action, out: Action) -> None:
        if kind == "bid":
            out["value"] = bid_value(action, TOP_BID)

    def act(self, state: WakengState, action: Action) -> None:
        kind, seat = action["type"], action["seat"]
        check_turn(state, seat)
        if kind == "timeout":
            action = self._timeout_action(state, seat)
            kind = action["type"]
        {"reveal": self._reveal_phase, "bidding": self._bid, "post_reveal": self._post_reveal,
         "doubling": self._double, "play": self._play}[state.phase](state, seat, kind, action)

    @staticmethod
    def _wrong_phase(state: WakengState, allowed: str, allowed_zh: str) -> None:
        raise illegal("wrong_phase", f"Now ({state.phase}) the choice is {allowed}.", f"现在只能{allowed_zh}。",
                      phase=state.phase)

    def _timeout_action(self, state: WakengState, seat: int) -> Action:
        """Timeouts (B11.6): 明牌 and 加倍 → no, bidding → 不叫 (a 必挖 hand bids 3, its only call), following →
        pass, leading → the single lowest card (lowest rank; ties ♦ < ♣ < ♥ < ♠)."""
        if state.phase == "bidding" and state.options["wk.mustDig"] and must_dig(state.hands[seat]):
            return {"seat": seat, "type": "bid", "value": TOP_BID}
        if state.phase == "play" and (state.last_seat is None or state.last_seat == seat):
            return {"seat": seat, "type": "play", "cards": [min(state.hands[seat], key=card_order)]}
        return {"seat": seat, "type": "pass"}

    def _next(self, seat: int) -> int:
        return (seat + 1) % SEATS

    def _reveal_phase(self, state: WakengState, seat: int, kind: str, action: Action) -> None:
        if kind not in ("reveal", "pass"):
            self._wrong_phase(state, "to show the hand (reveal) or not (pass), before bidding",
                              "在叫分前决定是否明牌（reveal 或 pass）")
        self._decide_reveal(state, seat, kind, "reveal")
        state.to_act = self._next(seat)
        if len(state.decisions) == SEATS:
            state.phase = "bidding"

    def _bid(self, state: WakengState, seat: int, kind: str, action: Action) -> None:
        if kind not in ("bid", "pass"):
            self._wrong_phase(state, "a bid of 1–3 or 不叫 (pass)", "叫分（1–3）或不叫（pass）")
        value = action.get("value") if kind == "bid" else None
        if state.options["wk.mustDig"] and must_dig(state.hands[seat]) and value != TOP_BID:
            raise illegal("must_dig", "必挖: a hand with 333, or with 33 and 22, must bid 3 (wk.mustDig).",
                          "必挖：有三个 3，或两个 3 加两个 2 的手牌必须叫 3 分。")
        if value is not None and value <= state.bid:
            raise illegal("bid_too_low", f"A bid must be higher than {state.bid}.", f"叫分必须高于 {state.bid} 分。",
                          highest=state.bid, value=value)
        state.bids.append((seat, value))
        state.decisions.append({"seat": seat, "type": kind, "phase": "bidding", **({"value": value} if value else {})})
        if value is not None:
            state.bid, state.digger = value, seat
        if state.bid == TOP_BID or len(state.bids) == SEATS:
            if state.digger is None:  # 烂挖: the system bids 1 for the first bidder (B4.4)
                state.digger, state.bid, state.lanwa = state.first, 1, True
            self._take_kitty(state)
        else:
            state.to_act = self._next(seat)

    def _take_kitty(self, state: WakengState) -> None:
        digger = state.digger
        assert digger is not None
        state.hands[digger] = state.hands[digger] + state.kitty  # shown face up to all three (B4.5)
        if digger in state.revealed:
            self._start_doubling(state)
        else:
            state.phase, state.to_act = "post_reveal", digger

    def _post_reveal(self, state: WakengState, seat: int, kind: str, action: Action) -> None:
        if kind not in ("reveal", "pass"):
            self._wrong_phase(state, "the digger's 明牌 after the kitty (reveal) or not (pass)",
                              "庄家决定收底后是否明牌（reveal 或 pass）")
        self._decide_reveal(state, seat, kind, "post_reveal")
        self._start_doubling(state)

    def _decide_reveal(self, state: WakengState, seat: int, kind: str, phase: str) -> None:
        """Note a seat's choice to show its hand (`reveal`) or not (`pass`) in `phase`."""
        state.decisions.append({"seat": seat, "type": kind, "phase": phase})
        if kind == "reveal":
            state.revealed.append(seat)

    def _start_doubling(self, state: WakengState) -> None:
        state.phase, state.to_act = "doubling", state.digger

    def _double(self, state: WakengState, seat: int, kind: str, action: Action) -> None:
        if kind not in ("double", "pass"):
            self._wrong_phase(state, "to double (double) or not (pass)", "决定是否加倍（double 或 pass）")
        state.decisions.append({"seat": seat, "type": kind, "phase": "doubling"})
        state.doubling_done.append(seat)
        if kind == "double":
            state.doubled.append(seat)
        if len(state.doubling_done) < SEATS:
            state.to_act = self._next(seat)
            return
        leader = next(s for s in range(SEATS) if LEAD_CARD in state.hands[s])  # B5.1, after the kitty
        state.phase, state.to_act, state.leader = "play", leader, leader

    def _play(self, state: WakengState, seat: int, kind: str, action: Action) -> None:
        if kind not in ("play", "pass"):
            self._wrong_phase(state, "a play or a pass (过牌)", "出牌或过牌（pass）")
        if kind == "pass":
            if pass_turn(state, seat, SEATS):  # two passes: the last player leads (B5.3)
                state.last_pattern = None
            return
        cards = action["cards"]
        rest = remove_from(state.hands[seat], cards, seat)
        pattern = parse(cards)
        if pattern is None:
            named = cards_text(cards)  # as a message prints them: ♣4 ♠4 (only on a refusal)
            raise illegal("not_a_pattern", f"{named} is not a 挖坑 pattern.", f"{named} 不是合法牌型。", cards=cards)
        if following(state, seat):
            assert state.last_pattern is not None
            if not beats(pattern, state.last_pattern, state.options["wk.quadIsBomb"]):
                named = cards_text(cards)  # as a message prints them: ♣4 ♠4 (only on a refusal)
                raise illegal("does_not_beat", f"{named} does not beat the last play: same pattern, same size, "
                              "higher (B3).", f"{named} 管不上上一手牌：须同牌型、同张数、更大。", cards=cards,
                              last=describe(state.last_pattern))
        state.last_pattern = pattern
        if take_play(state, seat, cards, rest, pattern, SEATS):  # the first player out ends the deal (B5.4)
            state.phase, state.to_act, state.winner = "finished", None, seat

    # -- queries -------------------------------------------------------------------------------------------

    def status(self, state: WakengState) -> dict[str, Any]:
        return {"phase": state.phase, "to_act": state.to_act, "finished": state.phase == "finished"}

    def legal_actions(self, state: WakengState, seat: int) -> list[Action]:
        if state.phase == "finished" or state.to_act != seat:
            return []
        if state.phase in ("reveal", "post_reveal"):
            return [{"seat": seat, "type": "reveal"}, {"seat": seat, "type": "pass"}]
        if state.phase == "bidding":
            bids = [{"seat": seat, "type": "bid", "value": v} for v in range(state.bid + 1, TOP_BID + 1)]
            if state.options["wk.mustDig"] and must_dig(state.hands[seat]):
                return bids[-1:]
            return [{"seat": seat, "type": "pass"}, *bids]
        if state.phase == "doubling":
            return [{"seat": seat, "type": "double"}, {"seat": seat, "type": "pass"}]
        return [{"seat": seat, "type": "pass"}] if following(state, seat) else []

    def stakes(self, state: WakengState) -> list[int]:
        """s_i, the stake between the digger and each seat (0 for the digger's own): b · m · d_digger · d_i, with
        m = showFactor^(players who showed) and d = doubleFactor for a player who doubled (B6, B11.7; both 2);
        `wk.globalDoubling` takes doubleFactor^(doubles) on every stake instead."""
        digger = state.digger
        if digger is None:
            return [0] * SEATS
        show, double = state.options["wk.showFactor"], state.options["wk.doubleFactor"]
        shown = show ** len(set(state.revealed))
        if state.options["wk.globalDoubling"]:
            doubles = double ** len(state.doubled)
            return [0 if s == digger else state.bid * shown * doubles for s in range(SEATS)]
        own = double if digger in state.doubled else 1
        return [0 if s == digger else state.bid * shown * own * (double if s in state.doubled else 1)
                for s in range(SEATS)]

    def result(self, state: WakengState) -> WakengResult | None:
        if state.phase != "finished":
            return None
        digger = state.digger
        assert digger is not None and state.winner is not None
        won = state.winner == digger
        stakes = self.stakes(state)
        sign = 1 if won else -1
        scores = [sign * sum(stakes) if s == digger else -sign * stakes[s] for s in range(SEATS)]
        result: WakengResult = {
            "scores": scores, "digger": digger, "bid": state.bid, "lanwa": state.lanwa,
            "revealed": list(state.revealed), "doubled": list(state.doubled), "stakes": stakes,
            "winner": state.winner, "digger_won": won,
            "seat_facts": {"won": [int(won == (s == digger)) for s in range(SEATS)],
                           "digger": [int(s == digger) for s in range(SEATS)]},
        }
        if state.board is not None:
            result["board"] = state.board  # duplicate scoring compares the same board and seat (B7, B11.8)
        return result

    def view(self, state: WakengState, viewpoint: Viewpoint) -> dict[str, Any]:
        seats = []
        for s in range(SEATS):
            shown = s in state.revealed
            seat_view: dict[str, Any] = {
                "seat": s, "name": state.seats[s], "count": len(state.hands[s]), "exposed": shown,
                "role": None if state.digger is None or state.phase in ("reveal", "bidding")
                else ("digger" if s == state.digger else "defender"),
                "doubled": s in state.doubled, "played": list(state.played[s]),
            }
            if viewpoint.sees_hand(s, shown):
                seat_view["hand"] = sorted(state.hands[s], key=card_order, reverse=True)
            seats.append(seat_view)
        kitty_public = state.phase not in ("reveal", "bidding")
        return {
            **self.view_head(state, viewpoint), "board": state.board, "seats": seats,
            "kitty": list(state.kitty) if kitty_public or viewpoint.kind == "referee" else None,
            "digger": state.digger if kitty_public else None, "bid": state.bid, "lanwa": state.lanwa,
            "decisions": [dict(d) for d in state.decisions], "revealed": list(state.revealed),
            "doubled": list(state.doubled), "stakes": self.stakes(state) if kitty_public else None,
            **rounds_view(state, describe),
            "fouls": list(state.fouls),
            "result": self.result(state),
        }

