"""The tournament formats of this game (the data types: domain/kernel/formats.py); the first is the default."""

from __future__ import annotations

from domain.kernel.formats import LOTS, Criterion, Format, playoff

DAGUAI_S000 = Format(
    code="daguai.s000", game="daguai", zh="大怪路子团体淘汰赛", en="Da Guai Lu Zi team knockout",
    source="seed 000; digest A8, A10.9",
    structure="knockout", table_size=6, advance=3, team_size=3,
    total=Criterion("team_points", "团队积分", "team points", "sum", "score",
                    source="S000: the team with the higher total points advances"),
    tiebreaks=(
        Criterion("first_finishes", "跑头家次数", "deals with the first finisher", "count", "first_finisher",
                  source="S000 tiebreak 1: more 跑头家 deals"),
        playoff("first_finisher", "加赛跑头家", "play-off deal first finisher",
                 "S000 tiebreak 2: one extra deal, the team that 跑头家 advances"),
        LOTS,
    ),
    default_tiebreaks=("first_finishes", "playoff", "lots"),
    facts={"score": "result.scores[seat] (the team's points, repeated per seat)",
           "first_finisher": "1 if seat's team had the deal's first finisher", "team": "seat's team"},
    # Seed 000 五.3: 4 deals a round, 6 in the semi-final and final; 五.4: the first dealer is drawn (by cards;
    # here by lot from the recorded seed).
    stage_options={"semifinal": {"dg.tableDeals": 6}, "final": {"dg.tableDeals": 6}},
    stage_defaults={"dg.tableDeals": 4}, first_by_lot=True,
)

FORMATS = (DAGUAI_S000,)
