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
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any

from marshmallow import Schema, fields, validate

from domain.games.shengji.cards import (
    LEVEL_RANK,
    NO_TRUMP,
    POINTS,
    TRUMP,
    Order,
    Shape,
    beats_component,
    decompose,
    follow_problem,
    forced_component,
    order_for,
    pair_counts,
    principal,
    shape_of,
    tractor_match,
    wrong_card_count,
)
from domain.kernel.cards import JOKERS, cards_text, normalize_all, remove_from
from domain.kernel.engine import Action, DealSetup, DealState, Engine, Viewpoint, check_turn, seats_text, team_of
from domain.kernel.errors import IllegalAction, illegal, listed, seat_ref, seats_ref
from domain.kernel.options import OptionsResolver, switch, whole
from domain.kernel.values import DealResult, Doc

SEATS = 4
HAND_SIZE = 25
KITTY_SIZE = 8
DEAL_CARDS = SEATS * HAND_SIZE
TOP_LEVEL = 14  # A: a team's level never goes past it (§3.14a.10)

SUIT_TEXT = {"S": ("黑桃", "spades"), "H": ("红桃", "hearts"), "C": ("梅花", "clubs"), "D": ("方块", "diamonds"),
             NO_TRUMP: ("无主", "no-trump")}

# Options that differ between the seeds: a preset fills those the caller left out (§3.4, §3.10, §3.11, §3.13).
PRESETS: dict[str, dict[str, Any]] = {
    "s001": {
        "sj.selfOvercall": True,
        "sj.kittyTrumpCard": "third",
        "sj.kittyJoker": "noTrump",
        "sj.throwPenalty": "none",
        "sj.levelTable": "s001",
        "sj.goalLevel": 5,
        "sj.timeLimitMinutes": 60,
        "sj.equalLevels": "extraDeal",
    },
    "s004": {
        "sj.selfOvercall": False,
        "sj.kittyTrumpCard": "first",
        "sj.kittyJoker": "nextCard",
        "sj.throwPenalty": "perRetractedCard",
        "sj.levelTable": "s004",
        "sj.goalLevel": 11,
        "sj.timeLimitMinutes": 180,
        "sj.equalLevels": "bigPoints",
    },
}


class ShengjiOptions(Schema):
    """Ruleset switches of §3.4–3.14a. `None` defaults are filled from `sj.preset`."""

    preset = fields.String(data_key="sj.preset", load_default="s004", validate=validate.OneOf(sorted(PRESETS)))
    self_overcall = switch(data_key="sj.selfOvercall", load_default=None)
    big_joker_pair_overcall = switch(data_key="sj.bigJokerPairOvercall", load_default=False)
    mixed_joker_no_trump = switch(data_key="sj.mixedJokerNoTrump", load_default=False)
    kitty_trump_card = fields.String(data_key="sj.kittyTrumpCard", load_default=None,
                                     validate=validate.OneOf(["first", "third"]))
    kitty_joker = fields.String(data_key="sj.kittyJoker", load_default=None,
                                validate=validate.OneOf(["nextCard", "noTrump"]))
    prefer_shorter_tractor = switch(data_key="sj.preferShorterTractor", load_default=False)
    kitty_multiplier = fields.String(data_key="sj.kittyMultiplier", load_default="doubling",
                                     validate=validate.OneOf(["doubling", "linear"]))
    kitty_basis = fields.String(data_key="sj.kittyBasis", load_default="winnerCards",
                                validate=validate.OneOf(["winnerCards", "leadFormat"]))
    throw_penalty = fields.String(data_key="sj.throwPenalty", load_default=None,
                                  validate=validate.OneOf(["perRetractedCard", "flat10", "none"]))
    level_table = fields.String(data_key="sj.levelTable", load_default=None, validate=validate.OneOf(["s001", "s004"]))
    illegal_play = fields.String(data_key="sj.illegalPlay", load_default="reject",
                                 validate=validate.OneOf(["reject", "adjudicate"]))
    revoke_ends_match = switch(data_key="sj.revokeEndsMatch", load_default=False)
    trick_review = fields.String(data_key="sj.trickReview", load_default="lastTrickOnly",
                                 validate=validate.OneOf(["lastTrickOnly", "none", "all"]))
    goal_level = whole(data_key="sj.goalLevel", load_default=None, validate=validate.Range(3, 15))
    time_limit = whole(data_key="sj.timeLimitMinutes", load_default=None, validate=validate.Range(0))
    equal_levels = fields.String(data_key="sj.equalLevels", load_default=None,
                                 validate=validate.OneOf(["extraDeal", "bigPoints"]))



ACTION_FIELDS = ("declare", "pass", "bury", "play", "irregularity", "foul", "timeout")
IRREGULARITIES = ("revoke", "wrong_follow", "miscount", "kitty_mishandled")
IRREGULARITY_TEXT = {
    "revoke": ("花色错误（有该门花色却错吃、错跟或错垫）", "suit error (revoke)"),
    "wrong_follow": ("出错牌（吃错、跟错、垫错，非花色错误）", "wrong follow (not a suit error)"),
    "miscount": ("多牌或少牌", "wrong number of cards"),
    "kitty_mishandled": ("庄家未守住底牌或扣底数目不对", "kitty mishandled by the dealer"),
}


def _apply_preset(resolved: dict[str, Any]) -> None:
    """Options the caller left open take the named preset's value (`sj.preset`: s001 | s004)."""
    for name, value in PRESETS[resolved["sj.preset"]].items():
        if resolved[name] is None:
            resolved[name] = value


OPTIONS = OptionsResolver(ShengjiOptions(), _apply_preset)



def level_change(points: int, table: str) -> tuple[bool, int]:
    """(attackers take over, levels gained) for attacker points P (§3.10; vector 11)."""
    if points < 80:
        return False, 3 if points == 0 else 2 if points < 40 else 1
    if table == "s001":
        return True, (points - 40) // 40  # +1 at 80, then +1 per 40, uncapped [S001]
    return True, min(3, (points - 80) // 40)  # +0 at 80 … +3 cap [S004 rule 14]


def big_points(points: int) -> tuple[int, int]:
    """S004 大分 (dealer team, attackers) for attacker points P; the bonuses do not stack (§3.12 [REC])."""
    if points < 80:
        return (6 if points == 0 else 4 if points < 40 else 2), 0
    return 0, 10 if points >= 200 else 6 if points >= 160 else 4 if points >= 120 else 2


def throw_penalty(retracted: int, rule: str) -> int:
    """The points a failed throw (甩牌失败) costs, `retracted` cards taken back, under `sj.throwPenalty` (§3.13)."""
    return 10 * retracted if rule == "perRetractedCard" else 10 if rule == "flat10" else 0


def kitty_factor(pairs: int, rule: str) -> int:
    """抠底 multiplier for a largest component of `pairs` pairs (0 = single) (§3.9; vector 10)."""
    if rule == "linear":
        return 2 if pairs == 0 else 4 * pairs  # S004 "2•2n" read as 2·2·n
    return 2 << pairs  # 2 × 2^n


@dataclass
class Declaration:
    seat: int
    cards: list[str]
    strength: int  # 1 single L card, 2 identical L pair, 3 joker pair (no-trump) (§3.4)
    suit: str  # S/H/C/D or NT
    received: int | None  # None: made in the round after the last card

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "cards": list(self.cards), "strength": self.strength,
                               "trump": self.suit}
        if self.received is not None:
            out["received"] = self.received
        return out


@dataclass
class ShengjiState(DealState):
    options: dict[str, Any]
    seats: list[str]
    first: int
    dealt_hands: list[list[str]]  # as recorded, in the order received
    hands: list[list[str]]
    kitty: list[str]
    levels: list[int]
    dealer: int | None
    deal_number: int
    level: int
    phase: str = "dealing"
    to_act: int | None = None
    dealt: int = 0  # cards dealt so far, as far as the declarations show (§3.4 timing)
    declarations: list[Declaration] = field(default_factory=list)
    final_turns: int = 0
    order: Order | None = None
    trump: str | None = None
    kitty_shown: list[str] = field(default_factory=list)  # kitty cards turned up to fix the trump (§3.4)
    buried: list[str] = field(default_factory=list)
    counts: list[list[int]] = field(default_factory=list)  # cards per seat per effective suit, during play
    trick: list[dict[str, Any]] = field(default_factory=list)
    shape: Shape | None = None
    best_key: int = -1
    best_seat: int = -1
    tricks: list[dict[str, Any]] = field(default_factory=list)
    captured: list[int] = field(default_factory=lambda: [0, 0])  # card points won in tricks, by team
    kitty_bonus: int = 0
    kitty_multiplier: int = 0
    penalties: list[dict[str, Any]] = field(default_factory=list)
    irregularities: list[dict[str, Any]] = field(default_factory=list)
    ended_by: str | None = None  # play | revoke | miscount | kitty_mishandled | redeal
    offender: int | None = None

class ShengjiResult(DealResult, total=False):
    """A 升级 deal's result (docs/rules/shengji.md §3.9–3.12): points, the level change, 大分 and 小分."""

    deal_number: Annotated[int, Doc("the deal's number in its match")]
    dealer: Annotated[int, Doc("the dealer's seat")]
    dealer_team: Annotated[int, Doc("the dealer's team (seat % 2)")]
    declarer: Annotated[int | None, Doc("the seat whose declaration set the trump")]
    trump: Annotated[str | None, Doc("the trump suit (none: no-trump)")]
    level: Annotated[int, Doc("the level played")]
    levels: Annotated[list[int], Doc("both teams' levels before the deal")]
    ended_by: Annotated[str, Doc("how the deal ended: cards, revoke, miscount, kitty_mishandled, redeal")]
    offender: Annotated[int | None, Doc("the seat whose irregularity ended the deal")]
    points: Annotated[dict[str, Any], Doc("the attackers' points: cards, kitty cards and bonus, penalties, total")]
    attacker_points: Annotated[int, Doc("the attackers' points after penalties (never below 0)")]
    dealer_team_points: Annotated[int, Doc("the card points the dealer's team took")]
    winner_team: Annotated[int, Doc("the team that won the deal")]
    takeover: Annotated[bool, Doc("the attackers become the dealers")]
    level_change: Annotated[dict[str, int], Doc("`team` and `steps` it moves up")]
    new_levels: Annotated[list[int], Doc("both teams' levels after the deal")]
    next_dealer: Annotated[int, Doc("the next deal's dealer")]
    big_points: Annotated[list[int], Doc("大分 per team (S004)")]
    small_points: Annotated[list[int], Doc("小分 per team (S004)")]
    match_winner: Annotated[int | None, Doc("the team whose deal ended the match (reaching the goal level, passing A)")]
    penalties: Annotated[list[dict[str, Any]], Doc("the point penalties applied, each with its effect")]
    irregularities: Annotated[list[dict[str, Any]], Doc("the irregularities the referee recorded")]



class ShengjiEngine(Engine):
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

    # -- declarations (§3.4) --------------------------------------------------------------------------------

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

    # -- play (§3.6–3.9) ------------------------------------------------------------------------------------


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

    # -- referee records ------------------------------------------------------------------------------------

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
            placements = tractor_match(counts, shape.tractors, state.options["sj.preferShorterTractor"])[1]
            for top, size in placements:
                for v in range(top - size + 1, top + 1):
                    code = pairs_by_value[v].pop(0)
                    chosen += [code, code]
            spare = sorted((code for codes in pairs_by_value.values() for code in codes), key=order.value.__getitem__)
            for code in spare[: min(shape.pairs, sum(counts.values())) - len(chosen) // 2]:
                chosen += [code, code]
        rest = remove_from(in_suit, chosen)
        return chosen + rest[: shape.size - len(chosen)]

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
                shown = " ".join(play["cards"])
                return {"kind": "failed_throw", "zh": f"甩牌失败：只出 {shown}", "en": f"failed throw: only {shown}"}
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

    def result(self, state: ShengjiState) -> ShengjiResult | None:
        if state.phase != "finished":
            return None
        if state.ended_by == "redeal":
            return {"redeal": True, "scores": [0] * SEATS, "deal_number": state.deal_number,
                    "levels": list(state.levels)}
        dealer = state.dealer
        assert dealer is not None
        options = state.options
        table = options["sj.levelTable"]
        dealer_team = team_of(dealer)
        attackers = 1 - dealer_team
        effect = sum(p["effect"] for p in state.penalties)
        card_points = state.captured[attackers]
        points = max(0, card_points + state.kitty_bonus + effect)  # P < 0 counts as 0 [REC]
        ended_by = state.ended_by
        if ended_by in ("revoke", "miscount"):
            # 0 : 2 — the non-offending side wins the deal minimally (§3.13 [REC]).
            assert state.offender is not None
            winner = 1 - team_of(state.offender)
            takeover = winner == attackers
            steps = (0 if table == "s004" else 1) if takeover else 1
            big = [0, 0]
            big[winner] = max(2, big_points(points)[1]) if takeover else 2
        else:
            if ended_by == "kitty_mishandled":
                points = 80  # "自动下台，对方上台" → scored as P = 80 [REC]
            takeover, steps = level_change(points, table)
            dealer_big, attacker_big = big_points(points)
            big = [0, 0]
            big[dealer_team], big[attackers] = dealer_big, attacker_big
            winner = attackers if takeover else dealer_team
        gaining = attackers if takeover else dealer_team
        new_levels = list(state.levels)
        passed_ace = new_levels[gaining] + steps > TOP_LEVEL
        new_levels[gaining] = min(TOP_LEVEL, new_levels[gaining] + steps)
        match_winner = None
        if passed_ace or state.levels[gaining] < options["sj.goalLevel"] <= new_levels[gaining]:
            match_winner = gaining  # passing A, or reaching the goal level (§3.11, §3.14a.10)
        elif ended_by in ("revoke", "miscount") and options["sj.revokeEndsMatch"]:
            match_winner = winner
        small = [0, 0]
        small[attackers] = points
        return {
            "scores": [steps if team_of(s) == gaining else 0 for s in range(SEATS)],
            "deal_number": state.deal_number,
            "dealer": dealer,
            "dealer_team": dealer_team,
            "declarer": state.declarations[-1].seat if state.declarations else None,
            "trump": state.trump,
            "level": state.level,
            "levels": list(state.levels),
            "ended_by": ended_by,
            "offender": state.offender,
            "points": {
                "cards": card_points,
                "kitty_cards": sum(POINTS[c] for c in state.buried),
                "kitty_multiplier": state.kitty_multiplier,
                "kitty_bonus": state.kitty_bonus,
                "penalties": effect,
                "total": points,
            },
            "attacker_points": points,
            "dealer_team_points": state.captured[dealer_team],
            "winner_team": winner,
            "takeover": takeover,
            "level_change": {"team": gaining, "steps": steps},
            "new_levels": new_levels,
            "next_dealer": (dealer + 1) % SEATS if takeover else (dealer + 2) % SEATS,
            "big_points": big,
            "small_points": small,
            "match_winner": match_winner,
            "penalties": [dict(p) for p in state.penalties],
            "irregularities": [dict(i) for i in state.irregularities],
        }

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

