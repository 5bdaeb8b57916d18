"""升级's play (§3.6–3.9): a lead (single, pair, tractor, throw; a failed throw plays its forced part), the follow
obligations, who wins a trick, the last trick's 抠底, and the lowest legal play a timeout makes."""

from __future__ import annotations

from typing import Any

from domain.games.shengji.cards import (
    POINTS,
    TRUMP,
    Shape,
    beats_component,
    decompose,
    follow_problem,
    forced_component,
    lowest_tractor_set,
    pair_counts,
    principal,
    shape_of,
)
from domain.games.shengji.scoring import kitty_factor, throw_penalty
from domain.games.shengji.state import SEATS, ShengjiState
from domain.kernel.cards import cards_text, remove_from
from domain.kernel.engine import check_turn, seats_text, team_of
from domain.kernel.errors import IllegalAction, illegal


class Tricks:
    """The playing phase, mixed into ShengjiEngine."""

    def _play(self, state: ShengjiState, seat: int, cards: list[str], forced: list[str] | None) -> None:
        if state.phase != "playing":
            raise illegal("not_playing", "Play starts after the dealer has buried the kitty.",
                           "庄家扣底之后才开始出牌。", phase=state.phase)
        check_turn(state, seat)
        rest = remove_from(state.hands[seat], cards, seat)
        if not state.trick:
            self._lead(state, seat, cards, forced, rest)
            return
        if forced is not None:
            raise illegal("bad_action", "Only a lead can be a failed throw.", "只有首家的出牌才会是甩牌失败。")
        problem = self.follow_obligation(state, seat, cards)
        if problem is not None:
            raise self._follow_error(state, problem, cards, adjudicate=state.options["sj.illegalPlay"] == "adjudicate")
        self._commit_follow(state, seat, cards, rest, {"seat": seat, "cards": cards})

    def _lead(self, state: ShengjiState, seat: int, cards: list[str], forced: list[str] | None, rest: list[str]
              ) -> None:
        order = state.order
        assert order is not None
        suit_of, value = order.suit, order.value
        suit = suit_of[cards[0]]
        if any(suit_of[c] != suit for c in cards):
            raise illegal("mixed_suit_lead", "A lead is one effective suit: jokers and level cards are trumps (§3.6).",
                           "首家出牌必须是同一门（王和级牌都算主牌）。", cards=cards)
        entry: dict[str, Any] = {"seat": seat, "cards": cards}
        penalty = 0
        if len(cards) == 1:
            shape = Shape(suit, 1, (), 0, 0)
            top = value[cards[0]]
        else:
            components = decompose(cards, value)
            shape = shape_of(components, suit)
            lead_top = principal(cards, shape, value)
            assert lead_top is not None  # a lead always matches its own format
            top = lead_top
            if len(components) > 1:
                holdings = [[c for c in state.hands[s] if suit_of[c] == suit] for s in range(SEATS) if s != seat]
                others = [s for s in range(SEATS) if s != seat]
                beaten = [c for c in components if any(beats_component(c, h, value) for h in holdings)]
                if beaten:
                    part = forced_component(components, beaten)
                    blockers = [s for s, h in zip(others, holdings, strict=True) if beats_component(part, h, value)]
                    played = list(part.cards)
                    rest = remove_from(state.hands[seat], played, seat)
                    shape = shape_of([part], suit)
                    top = part.top
                    penalty = throw_penalty(len(cards) - len(played), state.options["sj.throwPenalty"])
                    entry = {"seat": seat, "cards": played, "attempted": cards, "failed_throw": True,
                             "blockers": blockers}
        if forced is not None and "attempted" not in entry:
            raise illegal("throw_not_failed", "Recorded as a failed throw, but nobody can beat any part of this lead.",
                           "记录为甩牌失败，但没有人能管住这手甩牌的任何部分。", cards=cards)
        if forced is not None and sorted(forced) != sorted(entry["cards"]):
            raise illegal("forced_mismatch", f"This failed throw must play {cards_text(entry['cards'])}, not "
                           f"{cards_text(forced)} (§3.6).", f"甩牌失败应当出 {cards_text(entry['cards'])}，不是 "
                           f"{cards_text(forced)}。", forced=entry["cards"], given=forced)
        # Commit.
        if penalty:
            self._penalize(state, seat, "failed_throw", penalty, {"attempted": cards, "played": entry["cards"]})
            entry["penalty"] = penalty
        state.hands[seat] = rest
        counts = state.counts[seat]
        for code in entry["cards"]:
            counts[suit_of[code]] -= 1
        state.shape = shape
        state.best_key = top + 16
        state.best_seat = seat
        state.trick = [entry]
        state.to_act = (seat + 1) % SEATS

    def follow_obligation(self, state: ShengjiState, seat: int, cards: list[str]) -> str | None:
        """The obligation a follow breaks (§3.7): must_follow_suit, must_play_tractor, must_play_pair — or None.

        A wrong number of cards is refused here outright: it is never a playable follow.
        """
        shape = state.shape
        order = state.order
        assert shape is not None and order is not None
        size = shape.size
        if len(cards) != size:
            lead = state.trick[0]
            if "attempted" in lead:
                raise illegal(
                    "wrong_card_count",
                    f"The throw {cards_text(lead['attempted'])} failed ({seats_text(lead['blockers'])} can "
                    f"beat part of it), so only {cards_text(lead['cards'])} was led: follow with exactly {size} "
                    "card(s) (§3.6).",
                    f"甩牌 {cards_text(lead['attempted'])} 失败（{seats_text(lead['blockers'])} "
                    f"能管住其中一部分），实际只出了 {cards_text(lead['cards'])}：跟牌必须正好 {size} 张。",
                    expected=size, got=len(cards), failed_throw=lead["attempted"])
            raise illegal("wrong_card_count", f"Follow with exactly {size} card(s), as many as were led (§3.7).",
                           f"跟牌必须正好 {size} 张，与首家相同。", expected=size, got=len(cards))
        suit_of = order.suit
        suit = shape.suit
        holding = state.counts[seat][suit]
        if size == 1:
            return "must_follow_suit" if holding and suit_of[cards[0]] != suit else None
        in_suit = [c for c in cards if suit_of[c] == suit]
        if len(in_suit) < min(size, holding):
            return "must_follow_suit"
        if shape.pairs and holding > size:
            hand_suit = [c for c in state.hands[seat] if suit_of[c] == suit]
            return follow_problem(hand_suit, in_suit, shape, order.value, state.options["sj.preferShorterTractor"])
        return None

    @staticmethod
    def _follow_error(state: ShengjiState, problem: str, cards: list[str], adjudicate: bool) -> IllegalAction:
        shape = state.shape
        assert shape is not None
        hint_en = " Under these rules the referee records it as an irregularity (违规)." if adjudicate else ""
        hint_zh = "裁判判罚模式下应由裁判记录为违规（irregularity）。" if adjudicate else ""
        if problem == "must_follow_suit":
            return illegal("must_follow_suit", "You hold cards of the led suit: play them first (§3.7.1)." + hint_en,
                            "你有首家出的这门牌，必须先跟这门牌。" + hint_zh, cards=cards)
        if problem == "must_play_tractor":
            return illegal("must_play_tractor", "You hold a tractor in the led suit: play it (§3.7.2)." + hint_en,
                            "你在这门有拖拉机，必须跟拖拉机。" + hint_zh, cards=cards, tractors=list(shape.tractors))
        return illegal("must_play_pair", "You hold pairs in the led suit: play as many as the lead has (§3.7.2)."
                        + hint_en, "你在这门有对牌，必须按首家的对数跟对。" + hint_zh, cards=cards, pairs=shape.pairs)

    def _commit_follow(self, state: ShengjiState, seat: int, cards: list[str], rest: list[str],
                       entry: dict[str, Any]) -> None:
        order = state.order
        shape = state.shape
        assert order is not None and shape is not None
        suit_of = order.suit
        suit = shape.suit
        key = -1
        if shape.size == 1:
            card_suit = suit_of[cards[0]]
            if card_suit == suit:
                key = order.value[cards[0]] + 16
            elif card_suit == TRUMP:
                key = order.value[cards[0]] + 32
        else:
            first = suit_of[cards[0]]
            if first in (suit, TRUMP) and all(suit_of[c] == first for c in cards):
                # All in the led suit, or all trumps from a player void in it (§3.8).
                top = principal(cards, shape, order.value)
                if top is not None:
                    key = top + (16 if first == suit else 32)
        state.hands[seat] = rest
        counts = state.counts[seat]
        for code in cards:
            counts[suit_of[code]] -= 1
        if key > state.best_key:  # equal cards: the one played first wins (§3.2)
            state.best_key, state.best_seat = key, seat
        state.trick.append(entry)
        if len(state.trick) < SEATS:
            state.to_act = (seat + 1) % SEATS
            return
        self._close_trick(state)

    def _close_trick(self, state: ShengjiState) -> None:
        winner = state.best_seat
        points = sum(POINTS[c] for play in state.trick for c in play["cards"])
        state.captured[team_of(winner)] += points
        state.tricks.append({"leader": state.trick[0]["seat"], "plays": state.trick, "winner": winner,
                             "points": points})
        state.trick = []
        state.to_act = winner
        if state.hands[winner]:
            return
        # The last trick: 抠底 when the attackers win it (§3.9).
        assert state.dealer is not None and state.order is not None and state.shape is not None
        if team_of(winner) != team_of(state.dealer):
            if state.options["sj.kittyBasis"] == "leadFormat":
                pairs = state.shape.largest
            else:
                won_with = next(p["cards"] for p in state.tricks[-1]["plays"] if p["seat"] == winner)
                pairs = max(c.pairs for c in decompose(won_with, state.order.value))
            state.kitty_multiplier = kitty_factor(pairs, state.options["sj.kittyMultiplier"])
            state.kitty_bonus = sum(POINTS[c] for c in state.buried) * state.kitty_multiplier
        self._finish(state, "play")

    @staticmethod
    def _finish(state: ShengjiState, ended_by: str, offender: int | None = None) -> None:
        state.phase, state.to_act, state.ended_by, state.offender = "finished", None, ended_by, offender

    def _penalize(self, state: ShengjiState, seat: int, reason: str, points: int, extra: dict[str, Any]) -> None:
        """Penalty points: an attacker's lower the attackers' P, a dealer-team player's raise it (§3.13 [EXT-RBT])."""
        attacker = state.dealer is not None and team_of(seat) != team_of(state.dealer)
        state.penalties.append({"at": state.actions, "seat": seat, "reason": reason, "points": points,
                                "effect": -points if attacker else points, **extra})

    def lowest_play(self, state: ShengjiState, seat: int) -> list[str]:
        """The play a timeout makes: leading, the lowest card; following, the lowest legal cards (§3.7)."""
        order = state.order
        assert order is not None
        hand = sorted(state.hands[seat], key=lambda c: (order.suit[c] == TRUMP, order.value[c], c))
        if not state.trick:
            return [hand[0]]
        shape = state.shape
        assert shape is not None
        in_suit = [c for c in hand if order.suit[c] == shape.suit]
        if len(in_suit) <= shape.size:
            return in_suit + [c for c in hand if order.suit[c] != shape.suit][: shape.size - len(in_suit)]
        chosen: list[str] = []
        if shape.pairs:
            counts = pair_counts(in_suit, order.value)
            pairs_by_value: dict[int, list[str]] = {}
            seen: set[str] = set()
            for code in in_suit:
                if code in seen:
                    pairs_by_value.setdefault(order.value[code], []).append(code)
                seen.add(code)
            placements = lowest_tractor_set(counts, shape.tractors, state.options["sj.preferShorterTractor"])
            for top, size in placements:
                for v in range(top - size + 1, top + 1):
                    code = pairs_by_value[v].pop(0)
                    chosen += [code, code]
            spare = sorted((code for codes in pairs_by_value.values() for code in codes), key=order.value.__getitem__)
            for code in spare[: min(shape.pairs, sum(counts.values())) - len(chosen) // 2]:
                chosen += [code, code]
        rest = remove_from(in_suit, chosen)
        return chosen + rest[: shape.size - len(chosen)]
