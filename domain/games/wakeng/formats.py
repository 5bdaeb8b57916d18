"""The tournament formats of this game (the data types: domain/kernel/formats.py); the first is the default."""

from __future__ import annotations

from domain.kernel.formats import LOTS, Criterion, Format

WAKENG_S003 = Format(
    code="wakeng.s003", game="wakeng", zh="竞技挖坑复式瑞士移位赛", en="Wa Keng duplicate, Swiss rounds",
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
    pairing="swiss",
)

FORMATS = (WAKENG_S003,)
