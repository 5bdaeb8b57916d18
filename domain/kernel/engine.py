"""The rules kernel: the skeleton every game's rules engine extends (`Engine`), and what all of them share.

An engine is pure and deterministic: no I/O, no clock, no randomness. The recording path, the replay
viewer, `fupan check` and the projections only ever talk to a game through `Engine`, so adding a game
means adding its package under domain/games/, never a special case elsewhere.

State objects are owned by one caller at a time. `apply` validates the action completely first and only
then mutates the state, so a refused action (IllegalAction) leaves the state exactly as it was.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from domain.kernel.cards import check_complete, normalize_all
from domain.kernel.errors import IllegalAction, illegal, not_a_player, seat_ref, seats_ref
from domain.kernel.options import OptionsResolver
from domain.kernel.values import DealResult, ViewHead

Action = dict[str, Any]


@dataclass(frozen=True)
class DealSetup:
    """Everything a deal starts from: the head of a `fupan.deal/1` record."""

    game: str
    options: dict[str, Any]
    seats: list[str]
    first: int
    hands: list[list[str]]
    kitty: list[str]
    context: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Viewpoint:
    """Who is looking (docs/SECURITY.md §4): `referee` sees all, `seat:N` what seat N could know, `public` the table."""

    kind: str  # "referee" | "seat" | "public"
    seat: int | None = None

    @classmethod
    def parse(cls, text: str, seat_count: int) -> Viewpoint:
        if text in ("referee", "public"):
            return cls(text)
        if text.startswith("seat:"):
            number = text[5:]
            # Exactly as written here: a few ASCII digits, no leading zero, read only once short (int() of
            # thousands of digits fails past Python's limit, and a long one is work for nothing).
            if (0 < len(number) <= 3 and number.isascii() and number.isdigit()  # not "²", which int() refuses
                    and str(int(number)) == number and int(number) < seat_count):
                return cls("seat", int(number))
        raise IllegalAction(
            "bad_viewpoint",
            f"Viewpoint must be 'referee', 'public' or 'seat:N' with N in 0..{seat_count - 1}.",
            f"视角必须是 referee（裁判）、public（公开）或 seat:N（N 为 0..{seat_count - 1}）。",
            {"viewpoint": text[:40]},
        )

    def __str__(self) -> str:
        return f"seat:{self.seat}" if self.kind == "seat" else self.kind

    def sees_hand(self, seat: int, exposed: bool) -> bool:
        return self.kind == "referee" or exposed or (self.kind == "seat" and self.seat == seat)


@dataclass(kw_only=True)
class DealState:
    """The part of every game's deal state that the skeleton keeps: the referee's fouls (each with `at`, the
    action's index) and the number of actions applied. A game's state dataclass extends it."""

    fouls: list[dict[str, Any]] = field(default_factory=list)
    actions: int = 0


def checked_deal(engine: Engine, setup: DealSetup, kitty_size: int, source: str
                 ) -> tuple[list[list[str]], list[str]]:
    """The setup's hands and kitty, normalised, once the parts every game checks alike hold: one name and one
    hand per seat, `first` a seat (a whole number, not a boolean), the game's hand and kitty sizes (as `source`
    states them) and a complete deck."""
    seats = engine.seat_count
    if len(setup.seats) != seats:  # said alone: a server-dealt deal was given seats, not hands
        raise illegal("bad_setup", f"{engine.name_en} is played by exactly {seats} seats, not {len(setup.seats)}.",
                      f"{engine.name_zh}须有 {seats} 个座位，不是 {len(setup.seats)} 个。", seats=len(setup.seats))
    if len(setup.hands) != seats:
        raise illegal("bad_setup", f"{engine.name_en} deals one hand to each of its {seats} seats, not "
                      f"{len(setup.hands)} hands.", f"{engine.name_zh}每个座位一手牌，共 {seats} 手，不是 "
                      f"{len(setup.hands)} 手。", hands=len(setup.hands))
    if type(setup.first) is not int or not 0 <= setup.first < seats:
        raise not_a_player("bad_setup", "The first to act", "先出的人", seats, first=repr(setup.first))
    hands = [normalize_all(hand) for hand in setup.hands]
    kitty = normalize_all(setup.kitty)
    if any(len(hand) != engine.hand_size for hand in hands) or len(kitty) != kitty_size:
        raise illegal("bad_deal", f"{engine.name_en} deals {engine.hand_size} cards to each seat and {kitty_size} to "
                      f"the kitty [{source}].", f"{engine.name_zh}每人 {engine.hand_size} 张，底牌 {kitty_size} 张"
                      f" [{source}]。", sizes=[len(h) for h in hands], kitty=len(kitty))
    check_complete(hands, kitty, decks=engine.decks, jokers=engine.jokers)
    return hands, kitty


def action_head(engine: Engine, action: Action, kinds: Iterable[str]) -> Action:
    """`{"seat", "type"}` of an action (an object: `Engine.normalize_action` asks), checked alike for every
    game: a type of the game (`kinds`), a seat of its table. The rest is the game's to check; fields no type
    uses are dropped, not refused (records from other tools carry extras such as timestamps). The API leaves all
    of it to this check."""
    kind = action.get("type")
    if kind not in kinds:
        raise illegal("unknown_action", f"Unknown action type {kind!r} for {engine.name_en}.",
                      f"{engine.name_zh}没有动作类型 {kind!r}。", type=repr(kind), known=sorted(kinds))
    seat, last = action.get("seat"), engine.seat_count - 1
    if type(seat) is not int or not 0 <= seat <= last:
        raise not_a_player("bad_seat", "Who acts", "出手的人", last + 1, seat=repr(seat))
    return {"seat": seat, "type": kind}


# The most points or chips one penalty or adjustment may move: far beyond any table's stakes, so that a typing
# slip (10³⁰) is refused instead of recorded for ever.
PENALTY_LIMIT = 1000
FOUL_CODE_LIMIT, FOUL_NOTE_LIMIT = 40, 500  # characters of a foul's code and note (docs/SECURITY.md §6b)


def foul_fields(action: Action, penalty_unit: tuple[str, str]) -> Action:
    """The checked fields of a `foul` (common to all games, docs/record-format.md "Every game"): `code`, `note`,
    and a `penalty` in the game's unit (`penalty_unit` = (en, zh), e.g. chips / 筹码) when there is one."""
    code, note, penalty = action.get("code"), action.get("note", ""), action.get("penalty", 0)
    if not isinstance(code, str) or not code or not isinstance(note, str):
        raise illegal("bad_action", "A foul needs its kind and a note in words.", "犯规需要写明犯规类型和文字说明。")
    if len(code) > FOUL_CODE_LIMIT or len(note) > FOUL_NOTE_LIMIT:  # shown on every page of the deal
        raise illegal("bad_action", f"A foul's kind is at most {FOUL_CODE_LIMIT} characters, its note at most "
                      f"{FOUL_NOTE_LIMIT}.", f"犯规类型最多 {FOUL_CODE_LIMIT} 个字符，说明最多 "
                      f"{FOUL_NOTE_LIMIT} 个字符。", code_limit=FOUL_CODE_LIMIT, note_limit=FOUL_NOTE_LIMIT)
    if type(penalty) is not int or not 0 <= penalty <= PENALTY_LIMIT:
        raise illegal("bad_action", f"A foul's penalty is a whole number of {penalty_unit[0]}, 0 to {PENALTY_LIMIT}.",
                      f"犯规的罚分是 0 到 {PENALTY_LIMIT} 的整数{penalty_unit[1]}。", limit=PENALTY_LIMIT)
    return {"code": code, "note": note, **({"penalty": penalty} if penalty else {})}


def team_of(seat: int) -> int:
    """The team of a seat in the partnership games, which seat teams alternately: team 0 = seats 0, 2 (, 4),
    team 1 = seats 1, 3 (, 5) (升级, 大怪路子; docs/record-format.md)."""
    return seat % 2


def seat_no(seat: int | None) -> str:
    """A seat as a message names it: a reference the service of its match reads as the player's name
    (domain/kernel/errors.py `seat_ref`; "座位 N" only where nobody's name is known); `details` count from 0."""
    return seat_ref(seat)


def seats_text(seats: list[int]) -> str:
    """Seats as a message lists them: "张伟、李娜" once named."""
    return seats_ref(seats)


def check_turn(state: Any, seat: int) -> None:
    """Refuse `seat` acting when `state.to_act` (an engine's deal state) names another seat."""
    if state.to_act != seat:
        now, asked = seat_no(state.to_act), seat_no(seat)  # read as names by the service; `details` from 0
        raise illegal("not_your_turn", f"It is {now}'s turn, not {asked}'s.",
                      f"现在轮到{now}，不是{asked}。", to_act=state.to_act, seat=seat)


def record_after_the_end(state: Any, action: Action) -> None:
    """Once `state` (an engine's deal state: `phase`, `fouls`, `actions`) is finished, record what may still be
    recorded: a referee's `foul`, which docs/record-format.md allows "at any point" — the last card does not end
    the referee's duty. It carries no penalty: the result is final by then (a chip or point penalty is then an
    adjustment of the standings). Anything else: `deal_finished`."""
    if action["type"] != "foul":
        raise illegal("deal_finished", "The deal is over: only a referee's foul can still be recorded.",
                      "本局已结束，只能再记录裁判判定的犯规。")
    if action.get("penalty"):
        raise illegal("penalty_after_end",
                      "The deal is over and its result is final: record the penalty as an adjustment of the "
                      "standings, and the foul here without one.",
                      "本局已结束，结果不能再改变：处罚请作为积分调整记录，这里只记录犯规本身（不带罚分）。")
    state.fouls.append({"at": state.actions, **action})
    state.actions += 1


def played_cards(action: Action) -> list[str]:
    """The normalised `cards` of an action that carries cards (a play, a declaration, a bury): at least one."""
    cards = normalize_all(action.get("cards"))
    if not cards:
        raise illegal("bad_cards", "At least one card is needed (to pass, choose 不出 / pass).",
                      "至少需要一张牌（不出请用 pass）。")
    return cards


def pointless_foul(action: Action, rule_en: str, rule_zh: str) -> Action:
    """The fields of a `foul` in a game whose fouls carry no points of their own (`rule_*` says what they do
    instead): a `penalty` is refused."""
    out = foul_fields(action, ("points", "分"))
    if "penalty" in out:
        raise illegal("bad_action", f"Fouls carry no points here: {rule_en}", f"本项目犯规不另计分：{rule_zh}")
    return out


def bid_value(action: Action, top: int) -> int:
    """A `bid`'s `value`: a whole number 1…top (declining is the `pass` action)."""
    value = action.get("value")
    if type(value) is not int or not 1 <= value <= top:
        raise illegal("bad_bid", f"A bid is a whole number 1–{top}; not bidding is 不叫 (pass).",
                      f"叫分只能是 1–{top} 的整数（不叫用 pass）。", value=repr(value))
    return value


class Engine:
    """The skeleton every game's engine extends: what is the same in every game is written once here.

    A game states its table (`seat_count`, `hand_size`, `kitty_size`, `decks`, `jokers`), its options schema
    (`options`), its action types and their fields (`action_fields`), which types carry cards (`carded`) and
    which carry fields of the game's own (`fielded`), and how a foul scores (`foul_unit`: a penalty in chips or
    points; or None, with `foul_rule` saying what a foul does instead). It writes `act` (every action but a
    foul, once normalised) and, where it needs them, the hooks `normalize_fields`, `record_foul`, `first_actor`
    and `public_action`.
    """

    game: str
    name_zh: str
    name_en: str
    seat_count: int
    hand_size: int
    kitty_size: int
    decks: int
    jokers: bool
    source: str  # the seed the deal sizes come from, quoted in a refusal
    options: OptionsResolver
    action_fields: dict[str, set[str]]
    carded: frozenset[str] = frozenset({"play"})
    # The types whose fields of the game's own `normalize_fields` checks: only these pay for the call, which every
    # action of every deal checked would. None (the default): every type.
    fielded: frozenset[str] | None = None
    foul_unit: tuple[str, str] | None = None  # (en, zh) of a foul's `penalty`; None: fouls carry no points
    foul_rule: tuple[str, str] = ("", "")  # what a foul does instead of points (when `foul_unit` is None)
    # The fouls a recorder picks from, (code, 中文, English), as the game's rules list them (docs/pad.md). A
    # record may carry any code; these are what the pad offers.
    foul_codes: tuple[tuple[str, str, str], ...] = (("talking", "说话", "talking"),
                                                    ("signalling", "暗号或示意", "signalling"),
                                                    ("other", "其他", "other"))
    play_phase = "play"  # the phase in which the seat to act plays cards

    def __init__(self) -> None:
        # What `normalize_action` reads for every action of every deal, set on the engine itself: Python 3.11 reads
        # an object's own attribute in one specialised step, its class's through the whole lookup (~2× the work).
        self.action_fields, self.seat_count = self.action_fields, self.seat_count
        self.carded, self.fielded = self.carded, self.fielded

    def resolve_options(self, options: dict[str, Any]) -> dict[str, Any]:
        return self.options.resolve(options)

    def checked_setup(self, setup: DealSetup) -> tuple[list[list[str]], list[str]]:
        return checked_deal(self, setup, self.kitty_size, self.source)

    def first_actor(self, hands: list[list[str]], first: int) -> int:
        """The seat that acts first in a deal of these hands dealt from `first` (most games: `first`)."""
        return first

    def public_action(self, action: Action) -> Action:
        """What everyone at the table sees of an action while the deal is live: most games act openly."""
        return dict(action)

    def normalize_action(self, action: object) -> Action:
        """The canonical stored form: seat and type checked once, cards normalised, a foul's fields checked."""
        if not isinstance(action, dict):
            raise illegal("bad_action", "An action must be an object.", "动作必须是对象。")
        out = action_head(self, action, self.action_fields)
        kind = out["type"]
        if kind in self.carded:
            out["cards"] = played_cards(action)
        if kind == "foul":
            if self.foul_unit is None:
                out.update(pointless_foul(action, *self.foul_rule))
            else:
                out.update(foul_fields(action, self.foul_unit))
        if self.fielded is None or kind in self.fielded:
            self.normalize_fields(kind, action, out)
        return out

    def normalize_fields(self, kind: str, action: Action, out: Action) -> None:
        """The game's own fields of `action` (a type of `fielded`) into `out`, checked; nothing by default."""

    def apply(self, state: Any, action: object) -> Action:
        """Normalise `action`, then apply it; returns the stored form. A refusal leaves `state` untouched."""
        normal = self.normalize_action(action)
        self.apply_normalized(state, normal)
        return normal

    def apply_normalized(self, state: Any, action: Action) -> None:
        """Apply an action already in its stored form (a stored event, or `normalize_action`'s answer)."""
        if state.phase == "finished":  # asked here, so that a live deal's action costs no call for it
            record_after_the_end(state, action)
            return
        if action["type"] == "foul":
            self.record_foul(state, action)
        else:
            self.act(state, action)
        state.actions += 1

    def record_foul(self, state: Any, action: Action) -> None:
        """A referee's foul against `action["seat"]`, at any point of the deal; the game adds its consequence."""
        state.fouls.append({"at": state.actions, **action})

    def act(self, state: Any, action: Action) -> None:
        """Every action but a foul, in its stored form: validate completely, then change `state`."""
        raise NotImplementedError

    def new_deal(self, setup: DealSetup) -> Any:
        """The state before the first action; checks seats, sizes and the deck (`checked_setup`)."""
        raise NotImplementedError

    def status(self, state: Any) -> dict[str, Any]:
        """{'phase': str, 'to_act': seat | None, 'finished': bool[, 'first': seat]}.

        `first` is given when the rules can move the first actor away from the setup's (斗地主: the first pre-bid
        明牌 player bids first); an exported record names that seat as its `first`.
        """
        raise NotImplementedError

    def legal_actions(self, state: Any, seat: int) -> list[Action]:
        """The enumerable choices of `seat` now (bids, passes); plays are checked by `apply`."""
        raise NotImplementedError

    def offered_actions(self, state: Any, seat: int) -> list[Action]:
        """What a recorder may offer `seat` now besides a foul (docs/pad.md): `legal_actions`, a timeout of the
        seat to act, and in the play phase its play. An action carrying `cards` offers a choice of those cards
        (the recorder selects them); a field set to None is typed by the recorder. The pad checks each
        offer without cards or typed fields by applying it to a copy of the state, so an offer may be wider than
        what is legal; a game adds the actions its `legal_actions` does not enumerate."""
        offered = list(self.legal_actions(state, seat))
        if state.phase != "finished" and state.to_act == seat:
            offered.append({"seat": seat, "type": "timeout"})
            if state.phase == self.play_phase:
                offered.append({"seat": seat, "type": "play", "cards": list(state.hands[seat])})
        return offered

    def reading(self, state: Any, action: Action) -> dict[str, Any] | None:
        """How the rules read `action`, just applied to `state`: {kind, zh, en} of its pattern, or None. The
        shedding games' views carry each play's pattern with its names (domain/games/shedding.py `rounds_view`):
        the last play of `action`'s seat in the round, or in the round it closed."""
        if action["type"] != "play":
            return None
        view = self.view(state, Viewpoint("referee"))
        rounds = view.get("round", {}).get("plays") or view.get("last_round") or []
        play = next((p for p in reversed(rounds) if p.get("seat") == action["seat"] and "pattern" in p), None)
        if play is None:
            return None
        return {key: play["pattern"][key] for key in ("kind", "zh", "en")}

    def view(self, state: Any, viewpoint: Viewpoint) -> dict[str, Any]:
        """A JSON-ready picture of the table as `viewpoint` may see it; hidden cards are absent, not masked.
        It starts with `view_head`."""
        raise NotImplementedError

    def view_head(self, state: Any, viewpoint: Viewpoint) -> ViewHead:
        """What every game's view begins with: the game, who looks, the phase, the seat to act, the first seat."""
        return {"game": self.game, "viewpoint": str(viewpoint), "phase": state.phase, "to_act": state.to_act,
                "first": state.first}

    def result(self, state: Any) -> DealResult | None:
        """None while the deal is live; else the game's result: `scores` and the facts the tables, projections and
        tiebreaks need (the game's `DealResult`, domain/kernel/values.py)."""
        raise NotImplementedError
