"""The tournament formats of this game (the data types: domain/kernel/formats.py); the first is the default."""

from __future__ import annotations

from domain.kernel.formats import LOTS, Criterion, Format

SANDAYI_S002 = Format(
    code="sandayi.s002", game="sandayi", zh="快乐三打一淘汰赛", en="San Da Yi knockout",
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

FORMATS = (SANDAYI_S002,)
