"""The tournament formats of this game (the data types: domain/kernel/formats.py); the first is the default."""

from __future__ import annotations

from domain.kernel.formats import LOTS, Criterion, Direction, Format, playoff

SHENGJI_S004 = Format(
    code="shengji.s004", game="shengji", zh="升级大分淘汰赛", en="Shengji knockout on big points",
    source="seed 004; digest §3.11–3.12",
    structure="knockout", table_size=4, advance=2, team_size=2,
    total=Criterion("big_points", "大分", "大分 (match points)", "sum", "big_points",
                    source="S004 三: ranking uses only the 大分 total"),
    tiebreaks=(
        Criterion("small_points", "小分", "小分 (card points as attackers)", "sum", "small_points",
                  source="S004: a tie is broken by 小分 [REC: card points captured as attackers]"),
        Criterion("level", "级别", "level reached", "max", "level", source="S004: at the time cap the higher level"),
        playoff("won", "加赛", "play-off deal", "[REC]"),
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
    code="shengji.s001", game="shengji", zh="升级打到5级", en="Shengji race to level 5",
    source="seed 001; digest §3.11",
    structure="knockout", table_size=4, advance=2, team_size=2,
    total=Criterion("level", "级别", "level reached", "max", "level",
                    source="S001: first to level 5, or the higher level at the 1-hour cap"),
    tiebreaks=(
        Criterion("extra_deal", "加赛", "extra deal (加赛)", "sum", "extra_deal",
                  source="S001: equal levels at the 1-hour cap → one 加赛 deal from scratch, at the table"),
        playoff("won", "附加赛", "play-off round", "[REC]: a play-off round the organiser adds"),
        LOTS,
    ),
    default_tiebreaks=("extra_deal", "playoff", "lots"),
    facts={"level": "the table's standing.levels[team] after the deal (without one: result.new_levels[team])",
           "extra_deal": "1 for the team that won the table's 加赛 (standing.end.by = extra_deal)",
           "won": "result.winner_team == team", "team": "seat % 2"},
    adjusted_facts={"won": "won"},
)

FORMATS = (SHENGJI_S004, SHENGJI_S001)
