"""Tournament formats and tiebreaks as data: what ranks players, and in which order ties are broken.

A tournament declares a format code and an ordered list of tiebreak codes when it is created (FIDE-style:
published before play starts, shown on every standings page). The standings code (projections/standings.py)
knows no game and no format: it reads a `Format` and its `Criterion`s and evaluates them over per-seat facts
of finished deals (projections/facts.py). Adding a game's format means adding an entry here.

A criterion is a measure (`sum`, `count`, `mean`, `max` of one per-seat fact, or `lots`) over a scope of deals:
`ranking` — the deals that rank the player (knockout: the tables of the deepest round they reached;
cumulative: every round), or `playoff` — the deals of play-off rounds after them.

What each format needs from its game's `result()` is listed in `Format.facts` (and docs/ARCHITECTURE.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from domain.games import get_engine
from domain.kernel.errors import IllegalAction

MEASURES = ("sum", "count", "mean", "max", "lots")
SCOPES = ("ranking", "playoff")


@dataclass(frozen=True)
class Criterion:
    """One figure of a standings row: the total, or a tiebreak."""

    code: str
    zh: str
    en: str
    measure: str
    fact: str = ""  # the per-seat fact measured (not used by `lots`)
    scope: str = "ranking"
    higher_wins: bool = True
    source: str = ""  # where the rule comes from: a seed, a digest section, or [REC] (a project decision)

    def __post_init__(self) -> None:
        assert self.measure in MEASURES and self.scope in SCOPES, self
        assert (self.measure == "lots") == (not self.fact), self

    def describe(self) -> dict[str, Any]:
        return {"code": self.code, "zh": self.zh, "en": self.en, "measure": self.measure, "fact": self.fact,
                "scope": self.scope, "higher_wins": self.higher_wins, "source": self.source}


@dataclass(frozen=True)
class Direction:
    """Seats that form one direction of the table (E-W, N-S): a format with directions also ranks the pairs of
    each direction among themselves."""

    code: str
    zh: str
    en: str
    seats: tuple[int, ...]

    def describe(self) -> dict[str, Any]:
        return {"code": self.code, "zh": self.zh, "en": self.en, "seats": list(self.seats)}


@dataclass(frozen=True)
class Format:
    """How one kind of tournament ranks its players.

    `structure`: `knockout` — players are ranked first by the round they reached (advancing from a finished
    table counts as reaching the next round), then within it; `cumulative` — every round counts (Swiss).
    `advance`: how many of each finished table go on (knockout). `team_size` > 1: partners share their team's
    figures and draw one lot together. `start_chips`: the total starts from the table's starting chips (a chip
    table). `duplicate`: the comparison group of duplicate scoring (deal facts `mp` and `mp_rate`).
    `directions`: the pairs of each direction are also ranked among themselves (S004's E-W and N-S awards).
    """

    code: str
    game: str
    zh: str
    en: str
    source: str
    structure: str
    table_size: int
    total: Criterion
    tiebreaks: tuple[Criterion, ...]
    default_tiebreaks: tuple[str, ...]
    facts: dict[str, str]  # per-seat fact → what the game's result must say for it
    advance: int | None = None
    team_size: int = 1
    start_chips: bool = False
    duplicate: tuple[str, ...] = ()
    directions: tuple[Direction, ...] = ()
    notes: tuple[str, ...] = field(default=())
    # Under an appeal's assigned or weighted score (docs/appeals.md): the facts that follow the adjusted score,
    # fact → "won" (1 if the seat's adjusted score is positive) or a role fact (its value if so, else 0).
    adjusted_facts: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        menu = {c.code for c in self.tiebreaks}
        assert self.structure in ("knockout", "cumulative"), self.code
        assert set(self.default_tiebreaks) <= menu, self.code
        assert (self.advance is not None) == (self.structure == "knockout"), self.code

    def tiebreak(self, code: str) -> Criterion:
        for criterion in self.tiebreaks:
            if criterion.code == code:
                return criterion
        raise KeyError(code)

    def describe(self) -> dict[str, Any]:
        return {
            "code": self.code, "game": self.game, "zh": self.zh, "en": self.en, "source": self.source,
            "structure": self.structure, "table_size": self.table_size, "advance": self.advance,
            "team_size": self.team_size, "start_chips": self.start_chips, "duplicate": list(self.duplicate),
            "directions": [d.describe() for d in self.directions],
            "total": self.total.describe(), "tiebreaks": [c.describe() for c in self.tiebreaks],
            "default_tiebreaks": list(self.default_tiebreaks), "facts": dict(self.facts), "notes": list(self.notes),
        }


LOTS = Criterion("lots", "抽签", "drawing of lots", "lots", higher_wins=False,  # lot 1 is drawn first
                 source="seeded draw: the tournament's recorded lots seed (digest §1.10a.10)")


def _playoff(fact: str, zh: str, en: str, source: str) -> Criterion:
    return Criterion("playoff", zh, en, "sum", fact, scope="playoff", source=source)


DOUDIZHU_S001 = Format(
    code="doudizhu.s001", game="doudizhu", zh="斗地主筹码淘汰赛", en="斗地主 chip-table knockout",
    source="seed 001; digest §2.5–2.6",
    structure="knockout", table_size=3, advance=1, start_chips=True,
    total=Criterion("chips", "筹码", "chips held", "sum", "score",
                    source="S001: 10 chips each, the table ends per ddz.tableTarget, places by chips held"),
    tiebreaks=(
        _playoff("score", "加赛得分", "extra deals", "S001 §2.6: equal chips → extra deals [REC: a play-off round]"),
        Criterion("deals_won", "胜局数", "deals won", "count", "won", source="[REC]"),
        Criterion("landlord_wins", "地主胜局", "deals won as landlord", "count", "landlord_won", source="[REC]"),
        Criterion("penalties", "犯规罚筹", "chips lost to fouls", "sum", "penalty", higher_wins=False,
                  source="[REC]"),
        LOTS,
    ),
    default_tiebreaks=("playoff", "deals_won", "landlord_wins", "lots"),
    facts={"score": "result.scores[seat] (chips won or lost, fouls included)",
           "won": "seat's side won: result.landlord + result.landlord_won",
           "landlord_won": "seat was the landlord and won", "penalty": "−result.penalties[seat]"},
    notes=("Entrants are numbered; consecutive numbers form tables of 3 (seating is the organiser's).",
           "Table winners go on; the last three winners play the final; places by chips remaining."),
    adjusted_facts={"won": "won", "landlord_won": "landlord"},
)

SHENGJI_S004 = Format(
    code="shengji.s004", game="shengji", zh="升级大分淘汰赛", en="升级 knockout on 大分",
    source="seed 004; digest §3.11–3.12",
    structure="knockout", table_size=4, advance=2, team_size=2,
    total=Criterion("big_points", "大分", "大分 (match points)", "sum", "big_points",
                    source="S004 三: ranking uses only the 大分 total"),
    tiebreaks=(
        Criterion("small_points", "小分", "小分 (card points as attackers)", "sum", "small_points",
                  source="S004: a tie is broken by 小分 [REC: card points captured as attackers]"),
        Criterion("level", "级别", "level reached", "max", "level", source="S004: at the time cap the higher level"),
        _playoff("won", "加赛", "play-off deal", "[REC]"),
        LOTS,
    ),
    default_tiebreaks=("small_points", "lots"),
    facts={"big_points": "result.big_points[team]", "small_points": "result.small_points[team]",
           "level": "the table's standing.levels[team] after the deal (without one: result.new_levels[team])",
           "won": "result.winner_team == team", "team": "seat % 2"},
    # The seats are named 东 南 西 北 in playing order, so team 0 (seats 0, 2) sits East-West.
    directions=(Direction("ew", "东西", "E-W", (0, 2)), Direction("ns", "南北", "N-S", (1, 3))),
    notes=("Pairs (E-W, N-S) are the unit: partners share every figure.",
           "S004 三: awards rank the E-W and the N-S pairs separately (top 8 each)."),
    adjusted_facts={"won": "won"},
)

SHENGJI_S001 = Format(
    code="shengji.s001", game="shengji", zh="升级打到5级", en="升级 race to level 5", source="seed 001; digest §3.11",
    structure="knockout", table_size=4, advance=2, team_size=2,
    total=Criterion("level", "级别", "level reached", "max", "level",
                    source="S001: first to level 5, or the higher level at the 1-hour cap"),
    tiebreaks=(
        Criterion("extra_deal", "加赛", "extra deal (加赛)", "sum", "extra_deal",
                  source="S001: equal levels at the 1-hour cap → one 加赛 deal from scratch, at the table"),
        _playoff("won", "附加赛", "play-off round", "[REC]: a play-off round the organiser adds"),
        LOTS,
    ),
    default_tiebreaks=("extra_deal", "playoff", "lots"),
    facts={"level": "the table's standing.levels[team] after the deal (without one: result.new_levels[team])",
           "extra_deal": "1 for the team that won the table's 加赛 (standing.end.by = extra_deal)",
           "won": "result.winner_team == team", "team": "seat % 2"},
    adjusted_facts={"won": "won"},
)

SANDAYI_S002 = Format(
    code="sandayi.s002", game="sandayi", zh="快乐三打一淘汰赛", en="快乐三打一 knockout",
    source="seeds 000/002; digest §1.9, §1.10a.10",
    structure="knockout", table_size=4, advance=2,
    total=Criterion("score", "总分", "total score", "sum", "score", source="S000/S002: table ranking by total score"),
    tiebreaks=(
        Criterion("dealer_count", "庄家数量", "deals as dealer", "count", "dealer",
                  source="S000/S002 庄家数量 [REC: more ranks higher]"),
        Criterion("dealer_difficulty", "庄家难度", "dealer difficulty", "sum", "dealer_bid",
                  source="S000/S002 庄家难度 [REC: sum of winning bids as dealer, 头撂 = 3]"),
        # docs/rules/sandayi.md §1.9's other readings (`sdy.tiebreak.*`), declared as this tournament's tiebreaks:
        Criterion("dealer_count_fewer", "庄家数量（少者优先）", "fewer deals as dealer", "count", "dealer",
                  higher_wins=False, source="§1.9 sdy.tiebreak.dealerCount = fewer"),
        Criterion("dealer_difficulty_max", "庄家难度（最高叫分）", "highest bid as dealer", "max", "dealer_bid",
                  source="§1.9 sdy.tiebreak.difficulty = maxBid"),
        Criterion("dealer_difficulty_won", "庄家难度（胜局叫分）", "bids of deals won as dealer", "sum",
                  "dealer_won_bid", source="§1.9 sdy.tiebreak.difficulty = sumBidOfWonDeals"),
        LOTS,
    ),
    default_tiebreaks=("dealer_count", "dealer_difficulty", "lots"),
    facts={"score": "result.scores[seat]", "dealer": "1 if seat was the dealer",
           "dealer_bid": "the winning bid if seat was the dealer (头撂 counts 3), else 0",
           "dealer_won_bid": "the winning bid if seat was the dealer and won, else 0",
           "won": "1 if seat's side won the deal"},
    notes=("The top 2 of each 4-player table advance.",),
    adjusted_facts={"won": "won", "dealer_won_bid": "dealer_bid"},
)

DAGUAI_S000 = Format(
    code="daguai.s000", game="daguai", zh="大怪路子团体淘汰赛", en="大怪路子 team knockout",
    source="seed 000; digest A8, A10.9",
    structure="knockout", table_size=6, advance=3, team_size=3,
    total=Criterion("team_points", "团队积分", "team points", "sum", "score",
                    source="S000: the team with the higher total points advances"),
    tiebreaks=(
        Criterion("first_finishes", "跑头家次数", "deals with the first finisher", "count", "first_finisher",
                  source="S000 tiebreak 1: more 跑头家 deals"),
        _playoff("first_finisher", "加赛跑头家", "play-off deal first finisher",
                 "S000 tiebreak 2: one extra deal, the team that 跑头家 advances"),
        LOTS,
    ),
    default_tiebreaks=("first_finishes", "playoff", "lots"),
    facts={"score": "result.scores[seat] (the team's points, repeated per seat)",
           "first_finisher": "1 if seat's team had the deal's first finisher", "team": "seat's team"},
)

WAKENG_S003 = Format(
    code="wakeng.s003", game="wakeng", zh="竞技挖坑复式瑞士移位赛", en="挖坑 duplicate, Swiss rounds",
    source="seed 003; digest B7–B8, B11.8",
    structure="cumulative", table_size=3, duplicate=("round", "board", "seat"),
    total=Criterion("rate", "平均得分率", "average score rate", "mean", "mp_rate",
                    source="S003: ranked by 平均得分率 [REC: matchpoints per board and seat]"),
    tiebreaks=(
        Criterion("matchpoints", "总比赛分", "total matchpoints", "sum", "mp", source="digest B7 [REC]"),
        Criterion("raw_score", "原始总分", "total raw score", "sum", "score", source="digest B7 [REC]"),
        Criterion("deals_won", "胜局数", "deals won", "count", "won", source="digest B7 [REC]"),
        LOTS,
    ),
    default_tiebreaks=("matchpoints", "raw_score", "deals_won", "lots"),
    facts={"score": "result.scores[seat]", "won": "1 if seat's side won the deal",
           "board": "deal context `board`: the duplicate board every table of the round plays"},
    notes=("Swiss pairing by projections/pairing.py (digest B8, B11.8–B11.11; docs/pairing.md).",
           "A bye board counts rate ½, MP = tables − 1, raw 0, not won (B11.9); adjustments are in MP."),
    adjusted_facts={"won": "won"},
)

FORMATS: dict[str, Format] = {f.code: f for f in (DOUDIZHU_S001, SHENGJI_S004, SHENGJI_S001, SANDAYI_S002,
                                                  DAGUAI_S000, WAKENG_S003)}
DEFAULT_FORMAT = {"doudizhu": "doudizhu.s001", "shengji": "shengji.s004", "sandayi": "sandayi.s002",
                  "daguai": "daguai.s000", "wakeng": "wakeng.s003"}


def resolve(game: str, format_code: str, tiebreaks: list[str]) -> tuple[Format, list[Criterion]]:
    """The format and the tiebreaks in force; "" and [] mean the game's defaults. IllegalAction if unknown."""
    code = format_code or DEFAULT_FORMAT.get(game, "")
    found = FORMATS.get(code)
    if found is None or found.game != game:
        known = sorted(c for c, f in FORMATS.items() if f.game == game)
        raise IllegalAction("unknown_format", f"No format {code!r} for {game}; known: {known}.",
                            f"{game} 没有赛制 {code!r}；可用：{known}。",
                            {"format": code, "game": game, "known": known})
    codes = list(tiebreaks) or list(found.default_tiebreaks)
    menu = [c.code for c in found.tiebreaks]
    unknown = [c for c in codes if c not in menu]
    if unknown or len(set(codes)) != len(codes):
        raise IllegalAction("unknown_tiebreak", f"Tiebreaks of {code} are distinct codes among {menu}.",
                            f"{code} 的破同分规则必须是 {menu} 中互不相同的代码。",
                            {"tiebreaks": codes, "known": menu, "unknown": unknown})
    return found, [found.tiebreak(c) for c in codes]


def declare(game: str, format_code: str = "", tiebreaks: list[str] | None = None) -> tuple[str, list[str]]:
    """What a new tournament records: the format code and its full tiebreak list, defaults written out."""
    get_engine(game)  # an unknown game is refused as such, not as a missing format
    found, criteria = resolve(game, format_code, list(tiebreaks or []))
    return found.code, [c.code for c in criteria]
