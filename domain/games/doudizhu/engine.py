"""斗地主 (3 players, one deck) — docs/rules/doudizhu.md and seed 001.

Phases: `bidding` (叫地主 round, then the 抢地主 round) → `play` → `finished`. 明牌 (`reveal`) happens at
three stages: 明牌开始 and 发牌明牌 before bidding (any seat), 明牌 after the kitty (landlord only, before the
landlord's first play). Fouls are referee-recorded actions with a note and an optional chip penalty.
Section numbers are docs/rules/doudizhu.md's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any

from marshmallow import Schema, fields, validate

from domain.games.doudizhu.patterns import PATTERN_NAMES, Pattern, answers, is_bomb, lead_reading, parses
from domain.games.shedding import SheddingState, card_value, following, pass_turn, rounds_view, take_play
from domain.kernel.cards import cards_text, remove_from
from domain.kernel.engine import Action, DealSetup, Engine, Viewpoint, check_turn
from domain.kernel.errors import illegal
from domain.kernel.options import OptionsResolver, switch
from domain.kernel.values import DealResult, Doc

SEATS = 3
HAND_SIZE = 17

# 明牌 factors [REC, §2.4 table; clarification §2.7a.1].
REVEAL_START_FACTOR = 5
REVEAL_AFTER_KITTY_FACTOR = 2


def reveal_deal_factor(received: int) -> int:
    """发牌明牌 with 0–6 cards received ×4, 7–12 ×3, 13–17 ×2 (§2.7a.1)."""
    return 4 if received <= 6 else 3 if received <= 12 else 2


class DoudizhuOptions(Schema):
    """Ruleset switches of §2.4–2.5 with their defaults."""

    payout = fields.String(
        data_key="ddz.payout", load_default="literal31", validate=validate.OneOf(["literal31", "zeroSum21"])
    )
    chip_multiplier = switch(data_key="ddz.chipMultiplier", load_default=True)
    bomb_spring = switch(data_key="ddz.bombSpringMultipliers", load_default=True)
    table_target = fields.String(
        data_key="ddz.tableTarget", load_default="hold20", validate=validate.OneOf(["hold20", "net20"])
    )


OPTIONS = OptionsResolver(DoudizhuOptions())

ACTION_FIELDS: dict[str, set[str]] = {
    "call": set(),
    "rob": set(),
    "pass": set(),
    "play": {"cards"},
    "reveal": {"stage", "received"},
    "foul": {"code", "note", "penalty"},
    "timeout": set(),
}


@dataclass
class DoudizhuState(SheddingState):
    options: dict[str, Any]
    seats: list[str]
    first: int  # the first bidder; the first pre-bid 明牌 player takes it over (§2.7a.2)
    hands: list[list[str]]
    kitty: list[str]
    phase: str = "bidding"  # bidding | play | finished
    to_act: int | None = None
    bids: list[tuple[int, str]] = field(default_factory=list)  # (seat, call|pass|rob) in order
    caller: int | None = None
    rob_queue: list[int] = field(default_factory=list)  # seats still to answer in the rob round
    robs: int = 0
    landlord: int | None = None
    reveals: list[dict[str, Any]] = field(default_factory=list)  # {seat, stage, factor[, received]}
    exposed: list[bool] = field(default_factory=lambda: [False] * SEATS)
    last_readings: list[Pattern] = field(default_factory=list)
    bombs: int = 0
    winner: int | None = None
    redeal: bool = False


def pattern_json(pattern: Pattern) -> dict[str, Any]:
    zh, en = PATTERN_NAMES[pattern.kind]
    return {"kind": pattern.kind, "size": pattern.size, "key": pattern.key, "zh": zh, "en": en}


class DoudizhuResult(DealResult, total=False):
    """A 斗地主 deal's result (docs/rules/doudizhu.md §2.4–2.5): who was landlord, whether they won, the multipliers."""

    landlord: Annotated[int, Doc("the landlord's seat")]
    landlord_won: Annotated[bool, Doc("the landlord went out first")]
    multipliers: Annotated[dict[str, Any], Doc("each doubling (bids, 抢地主, bombs, rocket, 春天 …) and their `total`")]
    robs: Annotated[int, Doc("times the landlord was robbed (抢地主)")]
    bombs: Annotated[int, Doc("bombs and rockets played")]
    spring: Annotated[bool, Doc("春天: the farmers never played")]
    anti_spring: Annotated[bool, Doc("反春天: the landlord made only the opening lead")]
    penalties: Annotated[list[int], Doc("each seat's chip penalties for fouls (negative), already part of `scores`")]



class DoudizhuEngine(Engine):
    """Every 斗地主 action, fouls included, is announced at the table: all public."""

    game, name_zh, name_en = "doudizhu", "斗地主", "Dou Dizhu"
    seat_count, hand_size, kitty_size, decks, jokers = SEATS, HAND_SIZE, 3, 1, True
    source, options, action_fields = "S001", OPTIONS, ACTION_FIELDS
    foul_unit = ("chips", "筹码")
    fielded = frozenset({"reveal"})
    # docs/rules/doudizhu.md "Fouls" (S001 sets no list): conduct at the table; disqualification is the organiser's.
    foul_codes = (("talking", "说话", "talking"), ("signalling", "暗号或示意", "signalling"),
                  ("peeking", "偷看他人牌", "peeking at another hand"), ("other", "其他", "other"))

    def new_deal(self, setup: DealSetup) -> DoudizhuState:
        hands, kitty = self.checked_setup(setup)
        options = self.resolve_options(setup.options)
        return DoudizhuState(options, list(setup.seats), setup.first, hands, kitty, to_act=setup.first)

    # -- actions -------------------------------------------------------------------------------------------

    def normalize_fields(self, kind: str, action: Action, out: Action) -> None:
        if kind != "reveal":
            return
        stage = action.get("stage")
        if stage not in ("start", "deal", "after_kitty"):
            raise illegal("bad_action", "A 明牌 is made at the start, while dealing, or after the kitty.",
                          "明牌只能在开始时（明牌开始）、发牌中（发牌明牌）或拿底牌后（明牌）。")
        out["stage"] = stage
        if stage == "deal":
            received = action.get("received")
            if not isinstance(received, int) or isinstance(received, bool) or not 0 <= received <= HAND_SIZE:
                raise illegal("bad_action", "发牌明牌 says how many cards had been received, 0 to 17.",
                              "发牌明牌需要写明已收到的牌数（0 到 17）。")
            out["received"] = received
        elif "received" in action:
            raise illegal("bad_action", "Only a 发牌明牌 says how many cards had been received.",
                          "只有发牌明牌写明已收到的牌数。")

    def act(self, state: DoudizhuState, action: Action) -> None:
        kind, seat = action["type"], action["seat"]
        if kind == "reveal":
            self._reveal(state, seat, action)
        elif kind == "timeout":
            self._timeout(state, seat)
        elif state.phase == "bidding":
            self._bid(state, seat, kind)
        else:
            self._play_phase(state, seat, kind, action.get("cards"))

    def _timeout(self, state: DoudizhuState, seat: int) -> None:
        """Timeout [REC]: in bidding and when following it is a pass; a leader's time-out plays the lowest single."""
        check_turn(state, seat)
        if state.phase == "bidding":
            self._bid(state, seat, "pass")
        elif state.last_seat is None or state.last_seat == seat:
            lowest = min(state.hands[seat], key=card_value)
            self._play_phase(state, seat, "play", [lowest])
        else:
            self._play_phase(state, seat, "pass", None)


    def _reveal(self, state: DoudizhuState, seat: int, action: Action) -> None:
        stage = action["stage"]
        if any(r["seat"] == seat for r in state.reveals):
            raise illegal("already_revealed", "A player reveals at most once (§2.7a.3).", "每位玩家只能明牌一次。")
        if stage == "after_kitty":
            if state.phase != "play" or seat != state.landlord or state.plays_by_seat[seat] > 0:
                raise illegal(
                    "reveal_not_allowed", "明牌 after the kitty: only the landlord, before the landlord's first play.",
                    "收底牌后明牌：只有地主可以，并且要在地主第一次出牌之前。",
                )
            state.reveals.append({"seat": seat, "stage": stage, "factor": REVEAL_AFTER_KITTY_FACTOR})
            state.exposed[seat] = True
            return
        if state.bids or state.phase != "bidding":
            raise illegal("reveal_too_late", "明牌开始/发牌明牌 must come before any bid.",
                           "明牌开始和发牌明牌必须在叫牌之前。")
        # 明牌开始 precedes every 发牌明牌, which come in increasing `received` (§2.7a.1).
        last = state.reveals[-1] if state.reveals else None
        if stage == "start":
            if last is not None and last["stage"] == "deal":
                raise illegal("reveal_order", "明牌开始 happens before any card is dealt, so before every 发牌明牌.",
                               "明牌开始在发牌前，必须早于所有发牌明牌。")
            state.reveals.append({"seat": seat, "stage": stage, "factor": REVEAL_START_FACTOR})
        else:
            received = action["received"]
            if last is not None and last["stage"] == "deal" and received < last["received"]:
                raise illegal("reveal_order", "发牌明牌 reveals come in the order of the cards received.",
                               "发牌明牌按已收到牌数递增记录。")
            state.reveals.append(
                {"seat": seat, "stage": stage, "received": received, "factor": reveal_deal_factor(received)}
            )
        if len(state.reveals) == 1:
            # The first pre-bid 明牌 player bids first [S001 (3); §2.7a.2].
            state.first = seat
            state.to_act = seat
        state.exposed[seat] = True

    def _bid(self, state: DoudizhuState, seat: int, kind: str) -> None:
        check_turn(state, seat)
        if state.caller is None:  # 叫地主 round
            if kind not in ("call", "pass"):
                raise illegal("bad_bid", "In the call round say 叫地主 (call) or 不叫 (pass).",
                               "叫地主阶段只能叫地主（call）或不叫（pass）。")
            state.bids.append((seat, kind))
            if kind == "call":
                state.caller = seat
                # Candidates: the players after the caller who have not said 不叫 (§2.3.4).
                state.rob_queue = [s for s in ((seat + 1) % SEATS, (seat + 2) % SEATS)
                                   if (s, "pass") not in state.bids]
                self._next_bidder(state)
            elif len(state.bids) == SEATS:
                self._all_passed(state)
            else:
                state.to_act = (seat + 1) % SEATS
            return
        if kind not in ("rob", "pass"):
            raise illegal("bad_bid", "In the rob round say 抢地主 (rob) or 不抢 (pass).",
                           "抢地主阶段只能抢地主（rob）或不抢（pass）。")
        state.bids.append((seat, kind))
        if kind == "rob":
            state.robs += 1
        self._next_bidder(state)

    def _next_bidder(self, state: DoudizhuState) -> None:
        if state.rob_queue:
            state.to_act = state.rob_queue.pop(0)
            return
        caller = state.caller
        rob_round = [(s, k) for s, k in state.bids if k == "rob"]
        answered_by_caller = sum(1 for s, _ in state.bids if s == caller) > 1
        if rob_round and not answered_by_caller:
            state.to_act = caller  # the caller's single counter-rob (§2.7a.4)
            return
        # The last player to 叫 or 抢 becomes landlord [S001 (4)].
        last = [s for s, k in state.bids if k in ("call", "rob")][-1]
        self._make_landlord(state, last)

    def _all_passed(self, state: DoudizhuState) -> None:
        pre_bid = [r["seat"] for r in state.reveals if r["stage"] != "after_kitty"]
        if pre_bid:
            self._make_landlord(state, pre_bid[0])  # [S001 (3)]: the first 明牌 player becomes landlord
        else:
            state.redeal = True
            state.phase = "finished"
            state.to_act = None

    def _make_landlord(self, state: DoudizhuState, seat: int) -> None:
        state.landlord = seat
        state.hands[seat] = state.hands[seat] + state.kitty  # the kitty is shown to all and given to the landlord
        state.phase = "play"
        state.to_act = seat
        state.leader = seat

    def _play_phase(self, state: DoudizhuState, seat: int, kind: str, cards: list[str] | None) -> None:
        if kind in ("call", "rob"):
            raise illegal("bidding_over", "Bidding is over.", "叫牌已经结束。")
        check_turn(state, seat)
        if kind == "pass":
            if pass_turn(state, seat, SEATS):  # both others passed: the last player leads a new round
                state.last_readings = []
            return
        assert cards is not None
        rest = remove_from(state.hands[seat], cards, seat)
        readings = parses(cards)
        if not readings:
            named = cards_text(cards)  # as a message prints them: ♣4 ♠4 (only on a refusal)
            raise illegal("not_a_pattern", f"{named} is not a 斗地主 pattern.", f"{named} 不是合法牌型。", cards=cards)
        if following(state, seat):
            readings = answers(readings, state.last_readings)
            if not readings:
                named = cards_text(cards)  # as a message prints them: ♣4 ♠4 (only on a refusal)
                raise illegal(
                    "does_not_beat", f"{named} does not beat the last play.", f"{named} 管不上上一手牌。",
                    cards=cards, last=pattern_json(lead_reading(state.last_readings)),
                )
        shown = lead_reading(readings)
        # Commit: every check passed.
        if is_bomb(shown):
            state.bombs += 1  # every bomb or rocket played counts (§2.7a.6)
        state.last_readings = readings
        if take_play(state, seat, cards, rest, shown, SEATS):
            state.winner, state.phase, state.to_act = seat, "finished", None

    # -- queries -------------------------------------------------------------------------------------------

    def status(self, state: DoudizhuState) -> dict[str, Any]:
        # `first` moves to the first pre-bid 明牌 player (§2.7a.2); records are written with the moved one.
        return {"phase": state.phase, "to_act": state.to_act, "finished": state.phase == "finished",
                "first": state.first}

    def legal_actions(self, state: DoudizhuState, seat: int) -> list[Action]:
        if state.phase == "finished" or state.to_act != seat:
            return []
        if state.phase == "bidding":
            kinds = ("call", "pass") if state.caller is None else ("rob", "pass")
            return [{"seat": seat, "type": k} for k in kinds]
        return [{"seat": seat, "type": "pass"}] if following(state, seat) else []

    def offered_actions(self, state: DoudizhuState, seat: int) -> list[Action]:
        """Besides the turn's choices, 明牌 (§2.7a.1): before any bid any seat may show (明牌开始, or 发牌明牌 with the
        cards received so far, which the recorder types); after the kitty the landlord, before its first play."""
        offered = super().offered_actions(state, seat)
        if any(r["seat"] == seat for r in state.reveals):
            return offered
        if state.phase == "bidding" and not state.bids:
            offered += [{"seat": seat, "type": "reveal", "stage": "start"},
                        {"seat": seat, "type": "reveal", "stage": "deal", "received": None}]
        elif state.phase == "play" and seat == state.landlord and not state.plays_by_seat[seat]:
            offered.append({"seat": seat, "type": "reveal", "stage": "after_kitty"})
        return offered

    def multipliers(self, state: DoudizhuState) -> dict[str, int]:
        """M = rob × 明牌 × bomb × spring (§2.4); the last two only with `ddz.bombSpringMultipliers`."""
        reveal = max((r["factor"] for r in state.reveals), default=1)
        bomb = spring = 1
        if state.options["ddz.bombSpringMultipliers"]:
            bomb = 2 ** state.bombs
            spring = 2 if (self._spring(state) or self._anti_spring(state)) else 1
        rob = 2 ** state.robs
        return {"rob": rob, "reveal": reveal, "bomb": bomb, "spring": spring, "total": rob * reveal * bomb * spring}

    @staticmethod
    def _spring(state: DoudizhuState) -> bool:
        """春天: the landlord goes out and neither farmer made a play (§2.7a.7)."""
        landlord = state.landlord
        return state.winner is not None and state.winner == landlord and all(
            state.plays_by_seat[s] == 0 for s in range(SEATS) if s != landlord
        )

    @staticmethod
    def _anti_spring(state: DoudizhuState) -> bool:
        """反春天: the farmers win and the landlord made exactly one play, the opening lead (§2.7a.7)."""
        return (state.winner is not None and state.landlord is not None and state.winner != state.landlord
                and state.plays_by_seat[state.landlord] == 1)

    def result(self, state: DoudizhuState) -> DoudizhuResult | None:
        if state.phase != "finished":
            return None
        penalties = [0] * SEATS
        for foul in state.fouls:
            penalties[foul["seat"]] -= foul.get("penalty", 0)
        if state.redeal:
            return {"redeal": True, "scores": penalties, "penalties": penalties}
        landlord = state.landlord
        assert landlord is not None and state.winner is not None
        m = self.multipliers(state)
        factor = m["total"] if state.options["ddz.chipMultiplier"] else 1
        per_farmer = factor
        landlord_share = (3 if state.options["ddz.payout"] == "literal31" else 2) * factor  # [S001 (8)]
        won = state.winner == landlord
        scores = [
            (landlord_share if won else -landlord_share) if s == landlord else (-per_farmer if won else per_farmer)
            for s in range(SEATS)
        ]
        return {
            "scores": [score + penalty for score, penalty in zip(scores, penalties, strict=True)],
            "landlord": landlord,
            "winner": state.winner,
            "landlord_won": won,
            "multipliers": m,
            "robs": state.robs,
            "bombs": state.bombs,
            "spring": self._spring(state),
            "anti_spring": self._anti_spring(state),
            "penalties": penalties,
        }

    def view(self, state: DoudizhuState, viewpoint: Viewpoint) -> dict[str, Any]:
        finished = state.phase == "finished"
        seats = []
        for s in range(SEATS):
            seat_view: dict[str, Any] = {
                "seat": s,
                "name": state.seats[s],
                "count": len(state.hands[s]),
                "exposed": state.exposed[s],
                "role": None if state.landlord is None else ("landlord" if s == state.landlord else "farmer"),
                "played": list(state.played[s]),
            }
            if viewpoint.sees_hand(s, state.exposed[s]):
                seat_view["hand"] = sorted(state.hands[s], key=card_value, reverse=True)
            seats.append(seat_view)
        kitty_visible = viewpoint.kind == "referee" or state.landlord is not None
        return {
            **self.view_head(state, viewpoint),
            "seats": seats,
            "kitty": list(state.kitty) if kitty_visible else None,
            "landlord": state.landlord,
            "bidding": [{"seat": s, "type": k} for s, k in state.bids],
            "reveals": [dict(r) for r in state.reveals],
            **rounds_view(state, pattern_json),
            "multipliers": self.multipliers(state),
            "fouls": list(state.fouls),
            "result": self.result(state) if finished else None,
        }
