"""升级's declarations (亮主, §3.4) and the kitty (§3.5): who may declare or overcall with which cards, the round
after the last card, the trump the kitty names when nobody declared, and the dealer's burying."""

from __future__ import annotations

from domain.games.shengji.cards import LEVEL_RANK, NO_TRUMP, order_for
from domain.games.shengji.state import DEAL_CARDS, HAND_SIZE, KITTY_SIZE, SEATS, Declaration, ShengjiState
from domain.kernel.cards import JOKERS, cards_text, remove_from
from domain.kernel.errors import IllegalAction, illegal, seat_ref


class Declaring:
    """The declaring and burying phases, mixed into ShengjiEngine."""

    def declaration_kind(self, state: ShengjiState, cards: list[str]) -> tuple[int, str]:
        """(strength, trump) of the cards shown, or IllegalAction('bad_declaration')."""
        level_rank = LEVEL_RANK[state.level]
        if len(cards) == 1 and cards[0] not in JOKERS and cards[0][1:] == level_rank:
            return 1, cards[0][0]
        if len(cards) == 2:
            a, b = cards
            if a == b and a in JOKERS:
                return 3, NO_TRUMP
            if a == b and a[1:] == level_rank:
                return 2, a[0]
            if {a, b} == set(JOKERS) and state.options["sj.mixedJokerNoTrump"]:
                return 3, NO_TRUMP
        raise illegal(
            "bad_declaration",
            f"A declaration shows one level card ({level_rank}), two identical level cards, or a pair of identical "
            f"jokers (§3.4); {cards_text(cards)} is none of these.",
            f"亮主只能亮一张级牌（{level_rank}）、两张相同的级牌，或一对相同的王；{cards_text(cards)} 都不是。",
            cards=cards, level=state.level,
        )

    def _overcall_problem(self, state: ShengjiState, seat: int, strength: int, cards: list[str], suit: str
                          ) -> IllegalAction | None:
        if not state.declarations:
            if strength == 3:
                return illegal("no_trump_needs_overcall",
                                "No-trump cannot be declared first: a joker pair only overcalls (§3.14a.6).",
                                "不能直接亮无主：一对王只能用来反无主。")
            return None
        current = state.declarations[-1]
        if strength == 3:
            if current.strength < 3:
                return None  # 反无主 beats 1 or 2, the declarer's own included (§3.14a.5)
            if (state.options["sj.bigJokerPairOvercall"] and cards == ["BJ", "BJ"]
                    and current.cards != ["BJ", "BJ"]):
                return None
            return illegal("overcall_too_weak", "No-trump is final (§3.4).", "反无主后不能再反。",
                            current=current.as_json())
        if strength == 2 and current.strength == 1:
            if current.seat == seat and current.suit != suit and not state.options["sj.selfOvercall"]:
                return illegal("self_overcall_not_allowed",
                                "自反 (overcalling your own declaration with a pair of another suit) is off "
                                "(S004: only other players overcall).",
                                "本规则不允许自反（S004：只有其他玩家可以反主）。", current=current.as_json())
            return None  # 自保 (same seat, same suit), 反主 or an allowed 自反
        return illegal("overcall_too_weak", "An overcall needs a strictly stronger declaration (§3.4).",
                        "反主必须比当前亮主更强。", current=current.as_json(), strength=strength)

    def _declare(self, state: ShengjiState, seat: int, cards: list[str], received: int | None) -> None:
        strength, suit = self.declaration_kind(state, cards)
        if state.phase == "dealing" and received is not None:
            offset = (seat - state.first) % SEATS
            # The seat's n-th card is card 4(n−1)+offset+1 of the deal; it holds `received` cards from then
            # until its next card arrives.
            earliest = 0 if received == 0 else SEATS * (received - 1) + offset + 1
            latest = DEAL_CARDS if received == HAND_SIZE else SEATS * received + offset
            moment = max(state.dealt, earliest)
            if moment > latest:
                raise illegal(
                    "declaration_out_of_order",
                    f"{seat_ref(seat)} held {received} cards only until card {latest} of the deal, but the record is "
                    f"already past card {state.dealt}: declarations must be in the order they were made.",
                    f"{seat_ref(seat)} 只在发到第 {latest} 张牌之前持有 {received} 张牌，"
                    f"而记录已到第 {state.dealt} 张之后："
                    "亮主必须按发生顺序记录。", received=received, dealt=state.dealt,
                )
            try:
                remove_from(state.dealt_hands[seat][:received], cards, seat)
            except IllegalAction:
                raise illegal("not_yet_received", f"{seat_ref(seat)} had not received {cards_text(cards)} among its "
                               f"first {received} cards.",
                               f"{seat_ref(seat)} 的前 {received} 张牌中没有 {cards_text(cards)}。",
                               cards=cards, received=received) from None
            problem = self._overcall_problem(state, seat, strength, cards, suit)
            if problem:
                raise problem
            state.dealt = moment
            state.declarations.append(Declaration(seat, list(cards), strength, suit, received))
            return
        if received is not None and received != HAND_SIZE:
            raise illegal("bad_action", "After the last card every seat holds 25 cards.",
                           "发牌结束后每家都有 25 张牌。", received=received)
        self._final_round(state, seat, (cards, strength, suit))

    def _final_round(self, state: ShengjiState, seat: int, declaration: tuple[list[str], int, str] | None) -> None:
        """The round after the last card: each seat from `first` declares or passes once (§3.4 [REC])."""
        expected = (state.first + state.final_turns) % SEATS
        if seat != expected:
            raise illegal(
                "not_your_turn",
                f"After the last card each seat gets one more chance in turn from {seat_ref(state.first)}: "
                f"now {seat_ref(expected)}.",
                f"发牌结束后从{seat_ref(state.first)}起每家依次还有一次亮主机会：现在轮到{seat_ref(expected)}。",
                to_act=expected, seat=seat,
            )
        if declaration is not None:
            cards, strength, suit = declaration
            remove_from(state.hands[seat], cards, seat)
            problem = self._overcall_problem(state, seat, strength, cards, suit)
            if problem:
                raise problem
            state.declarations.append(Declaration(seat, list(cards), strength, suit, None))
        state.phase = "declaring"
        state.dealt = DEAL_CARDS
        state.final_turns += 1
        state.to_act = (state.first + state.final_turns) % SEATS
        if state.final_turns == SEATS:
            self._close_declarations(state)

    def _close_declarations(self, state: ShengjiState) -> None:
        if state.declarations:
            if state.dealer is None:
                state.dealer = state.declarations[0].seat  # 抢庄: the first declarer deals (§3.4; vector 15)
            trump = state.declarations[-1].suit
        elif state.dealer is None:
            state.phase, state.ended_by, state.to_act = "finished", "redeal", None  # deal 1: redeal [REC; EXT-GR]
            return
        else:
            trump = self._kitty_trump(state)
        state.trump = trump
        state.order = order_for(state.level, trump)
        state.hands[state.dealer] = state.hands[state.dealer] + state.kitty
        state.phase = "burying"
        state.to_act = state.dealer

    def _kitty_trump(self, state: ShengjiState) -> str:
        """Nobody declared: the kitty's 3rd (S001) or 1st (S004) card names the trump (§3.4; §3.14a.7)."""
        position = 2 if state.options["sj.kittyTrumpCard"] == "third" else 0
        # A joker there means no-trump, or (`nextCard`) the next card: 4 jokers in 8 cards always leave one.
        for code in state.kitty[position:]:
            state.kitty_shown.append(code)
            if code not in JOKERS or state.options["sj.kittyJoker"] == "noTrump":
                break
        last = state.kitty_shown[-1]
        return NO_TRUMP if last in JOKERS else last[0]

    # -- kitty (§3.5) ---------------------------------------------------------------------------------------

    def _bury(self, state: ShengjiState, seat: int, cards: list[str]) -> None:
        if seat != state.dealer:
            raise illegal("not_dealer", f"Only the dealer ({seat_ref(state.dealer)}) buries the kitty.",
                           f"只有庄家（{seat_ref(state.dealer)}）扣底。", dealer=state.dealer)
        if len(cards) != KITTY_SIZE:
            raise illegal("wrong_card_count", f"The dealer buries exactly 8 cards, not {len(cards)}.",
                           f"庄家必须扣 8 张底牌，不是 {len(cards)} 张。", expected=KITTY_SIZE, got=len(cards))
        rest = remove_from(state.hands[seat], cards, seat)
        assert state.order is not None
        state.hands[seat] = rest
        state.buried = list(cards)
        suit_of = state.order.suit
        state.counts = []
        for hand in state.hands:
            counts = [0] * 5
            for code in hand:
                counts[suit_of[code]] += 1
            state.counts.append(counts)
        state.phase = "playing"
        state.to_act = seat

    def declarations_from(self, state: ShengjiState, seat: int, pool: list[str]) -> list[list[str]]:
        """Every declaration `seat` could make now with cards from `pool` (its hand, or the cards received so far)."""
        level_rank = LEVEL_RANK[state.level]
        candidates: list[list[str]] = []
        for code in sorted(set(pool)):
            if code in JOKERS or code[1:] == level_rank:
                if code not in JOKERS:
                    candidates.append([code])
                if pool.count(code) == 2:
                    candidates.append([code, code])
        if state.options["sj.mixedJokerNoTrump"] and set(JOKERS) <= set(pool):
            candidates.append(list(JOKERS))
        out = []
        for cards in candidates:
            strength, suit = self.declaration_kind(state, cards)
            if self._overcall_problem(state, seat, strength, cards, suit) is None:
                out.append(cards)
        return out
