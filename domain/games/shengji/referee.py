"""升级's referee records (§3.13): fouls with their point penalties, the irregularities a referee records where
illegal plays are adjudicated (revoke, wrong follow, miscount, kitty mishandled), and a timeout."""

from __future__ import annotations

from domain.games.shengji.cards import wrong_card_count
from domain.games.shengji.declaring import Declaring
from domain.games.shengji.state import KITTY_SIZE, ShengjiState
from domain.games.shengji.tricks import Tricks
from domain.kernel.cards import remove_from
from domain.kernel.engine import Action, check_turn
from domain.kernel.errors import illegal

IRREGULARITIES = ("revoke", "wrong_follow", "miscount", "kitty_mishandled")
IRREGULARITY_TEXT = {
    "revoke": ("花色错误（有该门花色却错吃、错跟或错垫）", "suit error (revoke)"),
    "wrong_follow": ("出错牌（吃错、跟错、垫错，非花色错误）", "wrong follow (not a suit error)"),
    "miscount": ("多牌或少牌", "wrong number of cards"),
    "kitty_mishandled": ("庄家未守住底牌或扣底数目不对", "kitty mishandled by the dealer"),
}


class RefereeRecords(Declaring, Tricks):
    """Fouls, irregularities and timeouts, mixed into ShengjiEngine: they end, penalise or play through the phases'
    own steps."""

    def record_foul(self, state: ShengjiState, action: Action) -> None:
        penalty = action.get("penalty", 0)
        if penalty and state.dealer is None:
            raise illegal("no_dealer_yet", "A point penalty needs a dealer: its sign depends on the offender's side.",
                           "罚分需要先有庄家：罚分方向取决于犯规者属于哪一方。")
        super().record_foul(state, action)
        if penalty:
            self._penalize(state, action["seat"], "foul", penalty, {"code": action["code"]})

    def _irregularity(self, state: ShengjiState, seat: int, action: Action) -> None:
        if state.options["sj.illegalPlay"] != "adjudicate":
            raise illegal("irregularity_not_allowed",
                           "Irregularities are recorded only where the referee adjudicates illegal plays; under "
                           "these rules they are refused.",
                           "只有裁判判罚违规出牌的规则下才记录违规；本规则直接拒绝违规出牌。")
        kind = action["kind"]
        record = {"at": state.actions, "seat": seat, "kind": kind, **({"note": action["note"]} if "note" in action
                                                                       else {})}
        if kind == "kitty_mishandled":
            if state.dealer is None or seat != state.dealer:
                raise illegal("not_dealer", "Only the dealer can mishandle the kitty.", "只有庄家会出现底牌错误。",
                               dealer=state.dealer)
            state.irregularities.append(record)
            self._finish(state, kind, seat)  # the dealer steps down, the opponents take over (S004 rule 12)
            return
        if state.phase != "playing":
            raise illegal("not_playing", "Revokes, wrong follows and miscounts are found during play.",
                           "花色错误、出错牌和多牌少牌都是在出牌阶段发现的。", phase=state.phase)
        if kind == "miscount":
            state.irregularities.append(record)
            self._finish(state, kind, seat)  # 多牌少牌 found in play: 0 : 2 (S004 注意事项 1)
            return
        cards = action["cards"]
        check_turn(state, seat)
        if not state.trick:
            raise illegal("not_a_follow", "Revokes and wrong follows are follows; a lead is never one.",
                           "花色错误和出错牌都是跟牌时发生的，首家出牌不算。")
        rest = remove_from(state.hands[seat], cards, seat)
        problem = self.follow_obligation(state, seat, cards)
        if kind == "revoke":
            if problem != "must_follow_suit":
                raise illegal("not_a_revoke", "This play follows suit: it is not a revoke.",
                               "这手牌没有花色错误，不是错吃错跟错垫花色。", cards=cards)
            record["cards"] = cards
            state.irregularities.append(record)
            state.hands[seat] = rest
            state.trick.append({"seat": seat, "cards": cards, "irregularity": kind})
            self._finish(state, kind, seat)  # "比赛立即结束" (S004 注意事项 2a; §3.13)
            return
        if problem is None:
            raise illegal("not_irregular", "This follow is legal: record it as a play.",
                           "这手跟牌合法，应记录为出牌。", cards=cards)
        if problem == "must_follow_suit":
            raise illegal("is_a_revoke", "This play breaks the suit obligation: record it as a revoke.",
                           "这手牌是花色错误，应记录为 revoke。", cards=cards)
        shape, order = state.shape, state.order
        assert shape is not None and order is not None
        hand_suit = [c for c in state.hands[seat] if order.suit[c] == shape.suit]
        in_suit = [c for c in cards if order.suit[c] == shape.suit]
        wrong = wrong_card_count(hand_suit, in_suit, shape, order.value, state.options["sj.preferShorterTractor"])
        record.update(cards=cards, wrong_cards=wrong)
        state.irregularities.append(record)
        self._penalize(state, seat, "wrong_follow", 10 * wrong, {"cards": cards})  # 10 × n (S004 rule 10)
        self._commit_follow(state, seat, cards, rest, {"seat": seat, "cards": cards, "irregularity": kind,
                                                       "penalty": 10 * wrong})

    def _timeout(self, state: ShengjiState, seat: int) -> None:
        """Timeout [REC]: a pass in the last declaration round; the kitty buried as taken; the lowest legal play."""
        if state.phase in ("dealing", "declaring"):
            self._final_round(state, seat, None)  # nobody is on the clock before the round after the last card
            return
        check_turn(state, seat)
        if state.phase == "burying":
            self._bury(state, seat, state.hands[seat][-KITTY_SIZE:])
        else:
            self._play(state, seat, self.lowest_play(state, seat), None)
