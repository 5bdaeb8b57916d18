"""升级 / 拖拉机 / 80分 (4 players, two decks) — docs/rules/shengji.md, seeds 001 and 004.

Phases:

- `dealing`: the cards are being dealt; any seat may `declare` (亮主) with `received` = the cards it holds so far
  (hands are recorded in the order received, dealt one at a time from seat `first` round the table);
- `declaring`: after the last card each seat, from `first`, gets one more chance: `declare` or `pass` (§3.4 [REC]);
- `burying`: the dealer has taken the kitty and buries 8 (`bury`);
- `playing`: 25 tricks; the dealer leads the first (§3.5);
- `finished`: scored, or a redeal when nobody declared in a deal without a dealer (§3.4).

Enforcement (`sj.illegalPlay`): `reject` refuses every play that breaks an obligation; `adjudicate` also
refuses it as a `play`, but lets a referee record it as an `irregularity` (revoke, wrong_follow, miscount,
kitty_mishandled) whose seed-004 penalty then follows automatically (§3.13).

A failed throw is recorded as the `play` the player attempted; the engine plays the forced part (§3.6). The
optional `forced` field states that part and is then checked. docs/record-format.md has the details.
Section numbers are docs/rules/shengji.md's.

The engine is assembled from its parts, each a module of this folder: state.py (the deal state), options.py (the
switches and presets), declaring.py (亮主 and the kitty), tricks.py (leads, follows, throws, tricks), referee.py
(fouls, irregularities, timeouts) and scoring.py (the level change, 大分, 抠底 and the result).
"""

from __future__ import annotations

from typing import Any

from domain.games.shengji.cards import LEVEL_RANK, NO_TRUMP, TRUMP, decompose, order_for
from domain.games.shengji.options import OPTIONS
from domain.games.shengji.referee import IRREGULARITIES, RefereeRecords
from domain.games.shengji.scoring import ShengjiResult, deal_result
from domain.games.shengji.state import HAND_SIZE, KITTY_SIZE, SEATS, SUIT_TEXT, TOP_LEVEL, ShengjiState
from domain.kernel.cards import cards_text, normalize_all
from domain.kernel.engine import Action, DealSetup, Engine, Viewpoint, team_of
from domain.kernel.errors import illegal, listed, named_seats, seats_ref

ACTION_FIELDS = ("declare", "pass", "bury", "play", "irregularity", "foul", "timeout")


class ShengjiEngine(RefereeRecords, Engine):
    game, name_zh, name_en = "shengji", "升级", "Shengji (Tractor)"
    seat_count, hand_size, kitty_size, decks, jokers = SEATS, HAND_SIZE, KITTY_SIZE, 2, True
    source, options, action_fields = "S001; S004 rule 1", OPTIONS, ACTION_FIELDS
    carded = frozenset({"declare", "bury", "play"})
    fielded = frozenset({"declare", "play", "irregularity"})
    foul_unit = ("points", "分")
    play_phase = "playing"
    # §3.13 and S004 注意事项: 暗号 and 查牌 are the seeds' conduct fouls (disqualification is the organiser's).
    foul_codes = (("signalling", "暗号", "signalling"), ("reviewing", "查牌", "reviewing played tricks"),
                  ("talking", "说话", "talking"), ("other", "其他", "other"))

    # -- setup ---------------------------------------------------------------------------------------------

    def new_deal(self, setup: DealSetup) -> ShengjiState:
        hands, kitty = self.checked_setup(setup)
        levels, dealer, deal_number = self._context(setup.context)
        options = self.resolve_options(setup.options)
        level = levels[0] if dealer is None else levels[team_of(dealer)]
        return ShengjiState(options, list(setup.seats), setup.first, [list(h) for h in hands], hands, kitty,
                            levels, dealer, deal_number, level)

    @staticmethod
    def _context(context: dict[str, Any]) -> tuple[list[int], int | None, int]:
        """`{"levels": [team {0,2}, team {1,3}], "dealer": seat | null, "deal_number": n}`; levels 2–14 (A = 14)."""
        levels = context.get("levels", [2, 2])
        dealer = context.get("dealer")
        number = context.get("deal_number", 1)
        if not (isinstance(levels, list) and len(levels) == 2
                and all(type(v) is int and 2 <= v <= TOP_LEVEL for v in levels)):
            raise illegal("bad_context", "The two teams' levels must be 2 to 14 (J 11, Q 12, K 13, A 14).",
                           "两队的级数必须是 2 到 14（J=11，Q=12，K=13，A=14）。", levels=repr(levels))
        if dealer is not None and (type(dealer) is not int or not 0 <= dealer < SEATS):
            players = seats_ref(range(SEATS))
            raise illegal("bad_context", f"The dealer must be one of the table's players: {players}; or none (抢庄).",
                           f"庄家必须是本桌的一位玩家：{players}；或不指定（抢庄）。", dealer=repr(dealer))
        if dealer is None and levels[0] != levels[1]:
            raise illegal("bad_context", "Without a dealer (抢庄) both teams must be at the same level.",
                           "没有庄家（抢庄）时两队级数必须相同。", levels=levels)
        if type(number) is not int or number < 1:
            raise illegal("bad_context", "The deal's number must be a whole number, 1 or more.",
                           "牌局序号必须是不小于 1 的整数。")
        return list(levels), dealer, number

    # -- actions -------------------------------------------------------------------------------------------

    def public_action(self, action: Action) -> Action:
        """What the table sees of an action: all of it, except the cards the dealer buries (§3.5)."""
        if action.get("type") == "bury":
            return {"seat": action["seat"], "type": "bury", "count": len(action.get("cards", []))}
        return dict(action)

    def normalize_fields(self, kind: str, action: Action, out: Action) -> None:
        if kind == "declare":
            received = action.get("received")
            if received is not None:
                if type(received) is not int or not 0 <= received <= HAND_SIZE:
                    raise illegal("bad_action", "A declaration says how many cards had been received, 0 to 25.",
                                   "亮主须写明当时已收到的牌数（0 到 25）。")
                out["received"] = received
        elif kind == "play" and action.get("forced") is not None:
            forced = normalize_all(action["forced"])
            if not forced:
                raise illegal("bad_cards", "A failed throw lists the part of it that was played.",
                               "甩牌失败须列出实际打出的部分。")
            out["forced"] = forced
        elif kind == "irregularity":
            what, note = action.get("kind"), action.get("note", "")
            if what not in IRREGULARITIES or not isinstance(note, str):
                raise illegal("bad_action",
                               f"An irregularity needs its kind ({listed(IRREGULARITIES)}) and a note in words.",
                               f"违规记录需要写明类型（{'、'.join(IRREGULARITIES)}）和文字说明。")
            out["kind"] = what
            if what in ("revoke", "wrong_follow"):
                out["cards"] = normalize_all(action.get("cards"))
                if not out["cards"]:
                    raise illegal("bad_cards", "A revoke or wrong follow lists the cards actually played.",
                                   "花色错误或出错牌必须列出实际打出的牌。")
            if note:
                out["note"] = note

    def act(self, state: ShengjiState, action: Action) -> None:
        kind, seat = action["type"], action["seat"]
        if kind == "play":
            self._play(state, seat, action["cards"], action.get("forced"))
        elif kind == "irregularity":
            self._irregularity(state, seat, action)
        elif kind == "timeout":
            self._timeout(state, seat)
        elif state.phase in ("dealing", "declaring"):
            if kind == "declare":
                self._declare(state, seat, action["cards"], action.get("received"))
            elif kind == "pass":
                self._final_round(state, seat, None)
            else:
                raise illegal("bury_too_early", "The kitty is taken only after the declarations.",
                               "亮主结束后庄家才能扣底。")
        elif state.phase == "burying":
            if kind != "bury":
                raise illegal("declaring_over", "Declarations are over; the dealer buries 8 cards.",
                               "亮主已结束，庄家扣 8 张底牌。")
            self._bury(state, seat, action["cards"])
        else:
            raise illegal("play_phase", "In the play phase only plays (and referee records) are possible.",
                           "出牌阶段只能出牌（及裁判记录）。", type=kind)

    # -- queries -------------------------------------------------------------------------------------------

    def status(self, state: ShengjiState) -> dict[str, Any]:
        return {"phase": state.phase, "to_act": state.to_act, "finished": state.phase == "finished"}

    def legal_actions(self, state: ShengjiState, seat: int) -> list[Action]:
        """In the round after the last card: pass and every declaration the seat could make now."""
        if state.phase not in ("dealing", "declaring") or (state.first + state.final_turns) % SEATS != seat:
            return []
        return [{"seat": seat, "type": "pass"}] + [
            {"seat": seat, "type": "declare", "cards": cards} for cards in self.declarations_from(state, seat,
                                                                                                state.hands[seat])
        ]

    def offered_actions(self, state: ShengjiState, seat: int) -> list[Action]:
        """Besides the turn's choices: while the cards are dealt any seat may declare with the cards it holds
        (the recorder types `received`, §3.4), the seat whose turn it is after the last card may time out, the
        dealer buries 8, and in `adjudicate` mode the referee records irregularities (§3.13)."""
        offered = super().offered_actions(state, seat)
        if state.phase == "dealing":
            declarable = self.declarations_from(state, seat, state.dealt_hands[seat])
            usable = sorted({c for cards in declarable for c in cards})
            if usable:
                offered.append({"seat": seat, "type": "declare", "cards": usable, "received": None})
        if state.phase in ("dealing", "declaring") and (state.first + state.final_turns) % SEATS == seat:
            offered.append({"seat": seat, "type": "timeout"})
        if state.phase == "burying" and seat == state.dealer:
            offered.append({"seat": seat, "type": "bury", "cards": list(state.hands[seat])})
        if state.options["sj.illegalPlay"] != "adjudicate" or state.phase == "finished":
            return offered
        if state.phase == "playing":
            if seat == state.to_act and state.trick:
                offered += [{"seat": seat, "type": "irregularity", "kind": kind, "cards": list(state.hands[seat]),
                             "note": None} for kind in ("revoke", "wrong_follow")]
            offered.append({"seat": seat, "type": "irregularity", "kind": "miscount", "note": None})
        if state.dealer == seat:
            offered.append({"seat": seat, "type": "irregularity", "kind": "kitty_mishandled", "note": None})
        return offered

    def reading(self, state: ShengjiState, action: Action) -> dict[str, Any] | None:
        """How a play was read (§3.6–3.8): a lead as a single, pair, tractor or throw (a failed throw names the
        part played); a follow as following suit, trumping or discarding."""
        if action["type"] != "play" or state.order is None:
            return None
        plays = state.trick or (state.tricks[-1]["plays"] if state.tricks else [])
        play = next((p for p in reversed(plays) if p["seat"] == action["seat"]), None)
        if play is None:
            return None
        order = state.order
        if play is plays[0]:
            if play.get("failed_throw"):
                shown = cards_text(play["cards"])  # as a person reads them: ♥3, 小王 / Little Joker
                return {"kind": "failed_throw", "zh": named_seats(f"甩牌失败：只出 {shown}", "zh"),
                        "en": named_seats(f"failed throw: only {shown}", "en")}
            components = decompose(play["cards"], order.value)
            if len(play["cards"]) == 1:
                return {"kind": "single", "zh": "单张", "en": "single"}
            if len(components) > 1:
                return {"kind": "throw", "zh": "甩牌", "en": "throw"}
            pairs = components[0].pairs
            return ({"kind": "pair", "zh": "对子", "en": "pair"} if pairs == 1
                    else {"kind": "tractor", "zh": "拖拉机", "en": "tractor"})
        led = order.suit[plays[0]["cards"][0]]
        suits = {order.suit[c] for c in play["cards"]}
        if suits == {led}:
            return {"kind": "follow", "zh": "跟牌", "en": "follows suit"}
        if suits == {TRUMP}:
            return {"kind": "trump", "zh": "毙牌（主牌）", "en": "trumps"}
        return {"kind": "discard", "zh": "垫牌", "en": "discards"}

    def result(self, state: ShengjiState) -> ShengjiResult | None:
        return deal_result(state)

    def view(self, state: ShengjiState, viewpoint: Viewpoint) -> dict[str, Any]:
        finished = state.phase == "finished"
        order = state.order or order_for(state.level, NO_TRUMP)
        referee = viewpoint.kind == "referee"
        seats = []
        for s in range(SEATS):
            if state.phase == "dealing":
                offset = (s - state.first) % SEATS
                received = max(0, min(HAND_SIZE, (state.dealt - offset + SEATS - 1) // SEATS))
                hand = state.dealt_hands[s][:received]
            else:
                received = HAND_SIZE
                hand = state.hands[s]
            seat_view: dict[str, Any] = {
                "seat": s, "name": state.seats[s], "team": team_of(s), "received": received, "count": len(hand),
                "role": None if state.dealer is None else (
                    "dealer" if s == state.dealer else "dealer_team" if team_of(s) == team_of(state.dealer)
                    else "attacker"),
            }
            if viewpoint.sees_hand(s, False):
                seat_view["hand"] = sorted(hand, key=order.sort_key, reverse=True)
            seats.append(seat_view)
        dealer_sees = viewpoint.kind == "seat" and viewpoint.seat == state.dealer and state.phase not in (
            "dealing", "declaring")
        kitty_visible = referee or dealer_sees or finished
        review = state.options["sj.trickReview"]
        attackers = None if state.dealer is None else 1 - team_of(state.dealer)
        view: dict[str, Any] = {
            **self.view_head(state, viewpoint),
            "deal_number": state.deal_number,
            "levels": list(state.levels),
            "level": state.level,
            "level_rank": LEVEL_RANK[state.level],
            "dealer": state.dealer,
            "trump": state.trump,
            "trump_zh": SUIT_TEXT[state.trump][0] if state.trump else None,
            "trump_en": SUIT_TEXT[state.trump][1] if state.trump else None,
            "dealt": state.dealt,
            "declarations": [d.as_json() for d in state.declarations],
            "seats": seats,
            "kitty": list(state.kitty) if kitty_visible else None,
            "kitty_shown": list(state.kitty_shown),
            "buried": list(state.buried) if kitty_visible and state.buried else None,
            "trick": {"leader": state.trick[0]["seat"] if state.trick else state.to_act,
                      "plays": [dict(p) for p in state.trick],
                      "winning": state.best_seat if state.trick else None},
            "tricks_played": len(state.tricks),
            "last_trick": dict(state.tricks[-1]) if state.tricks and (review != "none" or referee or finished)
            else None,
            "attacker_points": None if attackers is None else state.captured[attackers],
            "penalties": [dict(p) for p in state.penalties],
            "irregularities": [dict(i) for i in state.irregularities],
            "fouls": [dict(f) for f in state.fouls],
            "result": self.result(state) if finished else None,
        }
        if referee or finished or review == "all":
            view["tricks"] = [dict(t) for t in state.tricks]
        return view
