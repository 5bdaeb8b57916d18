"""The tournament formats of this game (the data types: domain/kernel/formats.py); the first is the default."""

from __future__ import annotations

from domain.kernel.formats import LOTS, Criterion, Format, playoff

DOUDIZHU_S001 = Format(
    code="doudizhu.s001", game="doudizhu", zh="斗地主筹码淘汰赛", en="Dou Dizhu chip-table knockout",
    source="seed 001; digest §2.5–2.6",
    structure="knockout", table_size=3, advance=1, start_chips=True,
    total=Criterion("chips", "筹码", "chips held", "sum", "score",
                    source="S001: 10 chips each, the table ends per ddz.tableTarget, places by chips held"),
    tiebreaks=(
        playoff("score", "加赛得分", "extra deals", "S001 §2.6: equal chips → extra deals [REC: a play-off round]"),
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

FORMATS = (DOUDIZHU_S001,)
