"""Swiss pairing of 挖坑 rounds (瑞士移位法; docs/rules/wakeng.md B8, B11.8–B11.11) through `fupan pair` on hand-built
histories (docs/pairing.md), and the pure function under it checked against an exhaustive search."""

from __future__ import annotations

import hashlib
import itertools
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from paths import ROOT

from cli.main import main
from domain.kernel.errors import IllegalAction
from projections.pairing import (
    export_history,
    fewest_repeats,
    history_facts,
    pair,
    ranking,
    read_history,
    seat,
    seat_counts,
)
from projections.standings import Standings

NINE = [f"p{i}" for i in range(1, 10)]


def table(seats: list[str], *boards: list[int]) -> dict[str, Any]:
    return {"seats": seats, "results": [list(b) for b in boards]}


def run_pair(tmp_path: Path, capsys: pytest.CaptureFixture[str], history: dict[str, Any], round_number: int
             ) -> tuple[int, Any, str]:
    """`fupan pair --history FILE --round R --json` in-process: (exit status, stdout parsed as JSON, stderr)."""
    path = tmp_path / "history.json"
    path.write_text(json.dumps(history, ensure_ascii=False), encoding="utf-8")
    status = main(["pair", "--history", str(path), "--round", str(round_number), "--json"])
    out, err = capsys.readouterr()
    return status, json.loads(out) if out.strip() else None, err


def paired(tmp_path: Path, capsys: pytest.CaptureFixture[str], history: dict[str, Any], round_number: int
           ) -> dict[str, Any]:
    status, out, err = run_pair(tmp_path, capsys, history, round_number)
    assert status == 0 and err == "", err
    assert set(out) == {"round", "tables", "byes"} and out["round"] == round_number
    return out


def met_before(history: dict[str, Any]) -> Counter[frozenset[str]]:
    return Counter(frozenset(p) for r in history["rounds"] for t in r["tables"]
                   for p in itertools.combinations(t["seats"], 2))


def repeat_cost(tables: list[list[str]], met: Counter[frozenset[str]]) -> int:
    return sum(met[frozenset(p)] for t in tables for p in itertools.combinations(t, 2))


# Round 1 of nine, one board. Duplicate scoring compares each seat across the tables (B7): seat 0 scored 6, 4, 2
# (p1, p4, p7), seat 1 −3, −2, −1 (p2, p5, p8), seat 2 the same (p3, p6, p9). Rates 1: p1, p8, p9; ½: p4, p5, p6;
# 0: p7, p2, p3; then MP, raw score (p1's 6 above p8's −1), deals won, and p8 = p9 on all of them: the previous
# position, here the registration order (B11.8).
RANKED_1 = ["p1", "p8", "p9", "p4", "p5", "p6", "p7", "p2", "p3"]
ROUND_1 = {"round": 1, "tables": [table(["p1", "p2", "p3"], [6, -3, -3]), table(["p4", "p5", "p6"], [4, -2, -2]),
                                  table(["p7", "p8", "p9"], [2, -1, -1])], "byes": []}


def test_repeats_are_avoided_top_down_at_no_cost(tmp_path, capsys):
    history = {"players": NINE, "seed": "s", "rounds": [ROUND_1]}
    assert ranking(read_history(history)) == RANKED_1
    out = paired(tmp_path, capsys, history, 2)
    # p1 takes the best-ranked pair it has not met that leaves the rest a repeat-free pairing: p8 and p4 (p8 and
    # p9 met); then p9 with p5 and p2 (p9 met p7; p5 met p6); p6, p7, p3 have not met.
    assert sorted(map(sorted, out["tables"])) == [["p1", "p4", "p8"], ["p2", "p5", "p9"], ["p3", "p6", "p7"]]
    assert repeat_cost(out["tables"], met_before(history)) == 0 and out["byes"] == []


def test_repeats_only_when_no_partition_avoids_them(tmp_path, capsys):
    # Six players after two rounds: every partition into two tables repeats at least one pair per table.
    six = NINE[:6]
    history = {"players": six, "seed": "s", "rounds": [
        {"round": 1, "tables": [table(["p1", "p2", "p3"], [4, -2, -2]), table(["p4", "p5", "p6"], [2, -1, -1])]},
        {"round": 2, "tables": [table(["p1", "p4", "p5"], [4, -2, -2]), table(["p2", "p3", "p6"], [2, -1, -1])]}]}
    out = paired(tmp_path, capsys, history, 3)
    met = met_before(history)
    least = min(repeat_cost([list(a), [p for p in six if p not in a]], met) for a in itertools.combinations(six, 3))
    assert repeat_cost(out["tables"], met) == least > 0


def test_no_inversion_an_exchange_could_fix(tmp_path, capsys):
    # Consecutive groups p1 p8 p9 / p4 p5 p6 / p7 p2 p3 would repeat p8–p9, p4–p5–p6 and p2–p3; the pairing moves
    # players down only as far as needed, so no exchange of a better player into a higher table keeps the cost.
    history = {"players": NINE, "seed": "s", "rounds": [ROUND_1]}
    out = paired(tmp_path, capsys, history, 2)
    assert_no_fixable_inversion([sorted(t, key=RANKED_1.index) for t in out["tables"]], RANKED_1,
                                met_before(history))


def assert_no_fixable_inversion(tables: list[list[str]], ranked: list[str], met: Counter[frozenset[str]]) -> None:
    """No two players of different tables, the better one at the lower table, whose exchange keeps the cost."""
    cost = repeat_cost(tables, met)
    top = {ranked.index(t[0]): t for t in tables}
    order = [top[k] for k in sorted(top)]
    for upper, lower in itertools.combinations(range(len(order)), 2):
        for x in order[upper]:
            for y in order[lower]:
                if ranked.index(y) < ranked.index(x):  # an inversion: y ranks above x but sits lower
                    swapped = [list(t) for t in order]
                    swapped[upper][swapped[upper].index(x)] = y
                    swapped[lower][swapped[lower].index(y)] = x
                    assert repeat_cost(swapped, met) > cost, (x, y, tables)


def test_byes_go_to_the_lowest_ranked_among_the_fewest_byes(tmp_path, capsys):
    seven = NINE[:7]
    out = paired(tmp_path, capsys, {"players": seven, "seed": "s", "rounds": []}, 1)
    assert out["byes"] == ["p7"]  # before round 1 the ranking is the registration order
    assert sorted(p for t in out["tables"] for p in t) == sorted(seven[:6])
    r1 = {"round": 1, "tables": [table(["p1", "p2", "p3"], [4, -2, -2]), table(["p4", "p5", "p6"], [-4, 2, 2])],
          "byes": ["p7"]}
    history = {"players": seven, "seed": "s", "rounds": [r1]}
    rows = {row["player_id"]: row for row in Standings(history_facts(read_history(history))).rows}
    # B11.9: the bye's board counts rate ½ and MP = tables − 1 = 1, raw 0, not won
    assert rows["p7"]["total"] == 0.5 and rows["p7"]["tiebreak_values"][:3] == [1, 0, 0]
    assert rows["p7"]["status"] == "bye"
    out = paired(tmp_path, capsys, history, 2)
    # Rates 1: p1 (raw 4), p5, p6 (raw 2; registration order); ½: p7's bye; 0: p2, p3 (raw −2), p4 (raw −4)
    assert ranking(read_history(history)) == ["p1", "p5", "p6", "p7", "p2", "p3", "p4"]
    assert out["byes"] == ["p4"] and "p7" in {p for t in out["tables"] for p in t}
    r2 = {"round": 2, "tables": [table(t, [2, -1, -1]) for t in out["tables"]], "byes": out["byes"]}
    out = paired(tmp_path, capsys, {**history, "rounds": [r1, r2]}, 3)
    assert out["byes"] and set(out["byes"]).isdisjoint({"p7", *r2["byes"]})
    eight = paired(tmp_path, capsys, {"players": NINE[:8], "seed": "s", "rounds": []}, 1)
    assert eight["byes"] == ["p7", "p8"]  # 8 mod 3 = 2 byes, in rank order


def test_seats_balance_counts_then_squares_then_lot():
    counts = {"A": Counter({0: 2, 1: 2}), "B": Counter({2: 3, 1: 1}), "C": Counter({1: 3, 0: 1})}
    # (C, B, A) and (B, A, C) both repeat 2 sittings; the first spreads them (1 + 1), the second doubles one (2)
    assert seat(["A", "B", "C"], counts, "s", 5) == ["C", "B", "A"]
    fresh = {p: Counter() for p in "ABC"}
    lots = {s: seat(["A", "B", "C"], fresh, s, 1) for s in ("s1", "s2", "s3", "s4", "s5")}
    for s, seating in lots.items():  # every seating ties, so the lot decides, from the seed alone
        expected = min(itertools.permutations("ABC"),
                       key=lambda order: hashlib.sha256(f"{s}:seats:1:{'|'.join(order)}".encode()).hexdigest())
        assert seating == list(expected) == seat(["A", "B", "C"], fresh, s, 1)
    assert len({tuple(v) for v in lots.values()}) > 1


def test_ties_go_to_lot_from_the_seed(tmp_path, capsys):
    twelve = [f"選手{i}" for i in range(1, 13)]
    first = paired(tmp_path, capsys, {"players": twelve, "seed": "甲", "rounds": []}, 1)
    again = paired(tmp_path, capsys, {"players": twelve, "seed": "甲", "rounds": []}, 1)
    other = paired(tmp_path, capsys, {"players": twelve, "seed": "乙", "rounds": []}, 1)
    assert first == again and first != other  # the draw is the seed's, not the moment's
    drawn = sorted(twelve, key=lambda p: hashlib.sha256(f"甲:draw:1:{p}".encode()).hexdigest())
    assert [sorted(t) for t in first["tables"]] == [sorted(drawn[i:i + 3]) for i in range(0, 12, 3)]
    # Equal on every figure after a round → the previous position (registration order), never a lot
    r1 = {"round": 1, "tables": [table(t, [0, 0, 0]) for t in first["tables"]]}
    history = {"players": twelve, "seed": "甲", "rounds": [r1]}
    assert ranking(read_history(history)) == twelve
    out = paired(tmp_path, capsys, history, 2)
    top = next(t for t in out["tables"] if "選手1" in t)
    met = met_before(history)
    partners = next(pair for pair in itertools.combinations(twelve[1:], 2)
                    if repeat_cost([["選手1", *pair]], met) == 0)  # the best-ranked pair, in registration order
    assert sorted(top) == sorted(["選手1", *partners])


@settings(max_examples=25, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(min_value=1, max_value=4))
def test_fewest_repeats_is_the_exhaustive_optimum(rng, rounds):
    """Against every partition of nine ranked players: minimum repeat cost, then the lexicographically first."""
    met: Counter[frozenset[str]] = Counter()
    for _ in range(rounds):
        shuffled = rng.sample(NINE, 9)
        for t in range(3):
            met.update(frozenset(p) for p in itertools.combinations(shuffled[3 * t:3 * t + 3], 2))
    ranked = rng.sample(NINE, 9)

    def partitions(players: list[str]) -> Any:
        if not players:
            yield []
            return
        top, rest = players[0], players[1:]
        for a, b in itertools.combinations(rest, 2):
            for tail in partitions([p for p in rest if p not in (a, b)]):
                yield [[top, a, b], *tail]

    every = list(partitions(ranked))  # generated in lexicographic order of rank indices
    assert len(every) == 280
    best = min(repeat_cost(p, met) for p in every)
    chosen = fewest_repeats(ranked, met)
    assert repeat_cost(chosen, met) == best
    assert chosen == next(p for p in every if repeat_cost(p, met) == best)
    assert_no_fixable_inversion(chosen, ranked, met)


# --- refused histories: a clear message on stderr, no traceback, exit status 1 ------------------------------------


def refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], history: Any, round_number: int, words: str) -> str:
    status, out, err = run_pair(tmp_path, capsys, history, round_number)
    assert status == 1 and out is None
    assert err.startswith("fupan pair: ") and "Traceback" not in err and words in err, err
    return err


def test_refused_a_player_twice_in_a_round(tmp_path, capsys):
    r1 = {"round": 1, "tables": [table(["p1", "p2", "p3"]), table(["p4", "p5", "p1"])], "byes": []}
    refused(tmp_path, capsys, {"players": NINE[:6], "seed": "s", "rounds": [r1]}, 2, "more than once")
    r1 = {"round": 1, "tables": [table(["p1", "p2", "p3"])], "byes": ["p3"]}
    err = refused(tmp_path, capsys, {"players": NINE[:4], "seed": "s", "rounds": [r1]}, 2, "p3 appear")
    assert "['p3']" not in err  # names, never a Python list
    refused(tmp_path, capsys, {"players": ["p1", "p1", "p2"], "seed": "s", "rounds": []}, 1, "listed twice")


def test_refused_a_table_not_of_three(tmp_path, capsys):
    r1 = {"round": 1, "tables": [table(["p1", "p2", "p3", "p4"])]}
    err = refused(tmp_path, capsys, {"players": NINE[:4], "seed": "s", "rounds": [r1]}, 2, "seats 4 players, not 3")
    assert "不是 3 人" in err


def test_a_table_closed_early_ranks_its_players_by_the_mean_over_the_boards_they_played(tmp_path, capsys):
    # Table 1 was closed after board 1 (issue 23, defect 4): 平均得分率 is the mean of the rates over the deals
    # played (B7), so its players are ranked, and the round paired, with no rate for the board they missed;
    # board 2 is compared between the two tables that played it.
    r1 = {"round": 1, "tables": [table(["p1", "p2", "p3"], [2, -1, -1]),
                                 table(["p4", "p5", "p6"], [2, -1, -1], [-2, 1, 1]),
                                 table(["p7", "p8", "p9"], [-1, 2, -1], [2, -1, -1])]}
    history = read_history({"players": NINE, "seed": "s", "rounds": [r1]})
    standings = Standings(history_facts(history))
    rows = {row["name"]: row for row in standings.rows}
    assert rows["p1"]["total"] == 0.75 and rows["p1"]["tiebreak_values"][0] == 3  # 3 of 4 MP on one board
    assert rows["p8"]["total"] == 0.5 and rows["p8"]["tiebreak_values"][0] == 4  # more MP, over two boards
    order = ranking(history)
    assert order.index("p1") < order.index("p8")  # the rate first, the MP only a tiebreak
    status, out, err = run_pair(tmp_path, capsys, {"players": NINE, "seed": "s", "rounds": [r1]}, 2)
    assert status == 0 and err == "" and sorted(p for t in out["tables"] for p in t) == sorted(NINE)


def test_refused_an_unknown_name(tmp_path, capsys):
    r1 = {"round": 1, "tables": [table(["p1", "p2", "陌生人"])]}
    refused(tmp_path, capsys, {"players": NINE[:3], "seed": "s", "rounds": [r1]}, 2, "陌生人")
    refused(tmp_path, capsys, {"players": NINE[:3], "seed": "s", "rounds": [], "withdrawn": ["x"]}, 1, "withdrawn")
    refused(tmp_path, capsys, {"players": NINE[:3], "seed": "s", "rounds": [],
                               "adjustments": [{"player": "x", "mp": -2, "reason": "迟到"}]}, 1, "adjustments")


def test_refused_a_round_that_is_not_the_next(tmp_path, capsys):
    history = {"players": NINE, "seed": "s", "rounds": [ROUND_1]}
    refused(tmp_path, capsys, history, 3, "the next is 2")
    refused(tmp_path, capsys, history, 1, "the next is 2")
    skipped = {**history, "rounds": [{**ROUND_1, "round": 2}]}
    refused(tmp_path, capsys, skipped, 2, "not round 1")


def test_refused_unreadable_files_and_the_exit_status_of_the_real_command(tmp_path, capsys):
    refused(tmp_path, capsys, ["not", "an", "object"], 1, "JSON object")
    assert main(["pair", "--history", str(tmp_path / "missing.json"), "--round", "1", "--json"]) == 1
    assert "cannot read" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{nope", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "cli", "pair", "--history", str(bad), "--round", "1", "--json"],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 1 and done.stdout == "" and "not valid JSON" in done.stderr
    assert "Traceback" not in done.stderr


def test_withdrawn_players_are_not_paired_and_adjustments_move_the_ranking(tmp_path, capsys):
    history = {"players": NINE, "seed": "s", "rounds": [ROUND_1], "withdrawn": ["p9"]}
    out = paired(tmp_path, capsys, history, 2)
    assert "p9" not in {p for t in out["tables"] for p in t} and len(out["byes"]) == 2
    penalised = {**history, "withdrawn": [], "adjustments": [{"player": "p1", "mp": -4, "reason": "迟到"}]}
    rows = Standings(history_facts(read_history(penalised))).rows
    p1 = next(row for row in rows if row["player_id"] == "p1")
    assert p1["tiebreak_values"][0] == 0 and p1["total"] == 0  # 4 MP of the 4 possible taken away
    assert ranking(read_history(penalised))[:3] == ["p8", "p9", "p4"] and paired(tmp_path, capsys, penalised, 2)


def seating_cost(order: Any, counts: dict[str, Counter[int]]) -> tuple[int, int]:
    already = [counts[p][i] for i, p in enumerate(order)]
    return sum(already), sum(c * c for c in already)


@settings(max_examples=30, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(min_value=3, max_value=17), st.integers(min_value=0, max_value=4))
def test_every_pairing_seats_everyone_once_with_the_byes_and_seats_the_rules_say(rng, n, rounds):
    """Random histories through pair() round after round: each active player once (a table of 3 or a bye), N mod 3
    byes among the fewest byes so far, each table's seating the least by counts then squares (B11.9, B11.11)."""
    players = [f"选手{i}" for i in range(n)]
    withdrawn = set(rng.sample(players, 1)) if n > 6 and rng.random() < 0.3 else set()
    history: dict[str, Any] = {"players": players, "seed": str(rng.random()), "rounds": [],
                               "withdrawn": sorted(withdrawn)}
    for number in range(1, rounds + 2):
        parsed = read_history(history)
        out = pair(parsed, number)
        active = [p for p in players if p not in withdrawn]
        seated = [p for t in out["tables"] for p in t]
        assert sorted(seated + out["byes"]) == sorted(active) and all(len(t) == 3 for t in out["tables"])
        assert len(out["byes"]) == len(active) % 3
        had = Counter(p for r in history["rounds"] for p in r.get("byes", []))
        assert all(had[b] <= min(had[p] for p in seated) for b in out["byes"])
        # how often each already sat in each seat, counted from the history file itself (not by the module)
        counts = {p: Counter(i for r in history["rounds"] for t in r["tables"] for i, q in enumerate(t["seats"])
                             if q == p) for p in players}
        for seats in out["tables"]:
            assert seating_cost(seats, counts) == min(seating_cost(order, counts)
                                                      for order in itertools.permutations(seats))
        boards = rng.randint(1, 2)
        tables = [table(seats, *([rng.choice([2, -4, 6]), 0, 0] for _ in range(boards))) for seats in out["tables"]]
        for t in tables:
            for board in t["results"]:
                board[1] = -board[0] // 2
                board[2] = -board[0] - board[1]
        history["rounds"].append({"round": number, "tables": tables, "byes": out["byes"]})


# --- the organiser's override, checked against the rules (issue 23, defect 4) --------------------------------


def test_an_override_is_checked_rule_by_rule_in_plain_words():
    from projections.pairing import check_override

    ten = [f"p{i}" for i in range(1, 11)]  # one bye a round
    r1 = {"round": 1, "tables": [table(["p1", "p2", "p3"], [2, -1, -1]), table(["p4", "p5", "p6"], [2, -1, -1]),
                                 table(["p7", "p8", "p9"], [2, -1, -1])], "byes": ["p10"]}
    history = read_history({"players": ten, "seed": "s", "rounds": [r1]})
    proposal = pair(history, 2)

    def codes(tables: list[list[str]], byes: list[str]) -> list[str]:
        return [problem["code"] for problem in check_override(history, 2, tables, byes)]

    assert codes(proposal["tables"], proposal["byes"]) == []  # the rules' own pairing breaks none of them
    (bye,) = proposal["byes"]
    # p1, p2 and p3 together again: two more repeat meetings than needed
    rest = sorted(set(ten) - {"p1", "p2", "p3", bye})
    assert codes([["p1", "p2", "p3"], rest[:3], rest[3:]], [bye])[0] == "repeat_opponents"  # (and the same seats)
    # p10 had round 1's bye: another one, while others who had none play
    swapped = [[bye if name == "p10" else name for name in t] for t in proposal["tables"]]
    problems = check_override(history, 2, swapped, ["p10"])
    assert [p["code"] for p in problems][:1] == ["bye_twice"] and problems[0]["players"] == ["p10"]
    assert "p10" in problems[0]["zh"] and "轮空" in problems[0]["zh"] and "[" not in problems[0]["en"]
    # A table seated so that players sit where they sat in round 1, although another seating avoids it (B11.11)
    counts = seat_counts(history)

    def repeats(order: tuple[str, ...]) -> tuple[int, int]:
        already = [counts[name][index] for index, name in enumerate(order)]
        return sum(already), sum(n * n for n in already)

    index, worse = next((i, order) for i, t in enumerate(proposal["tables"])
                        for order in itertools.permutations(t) if repeats(order) > min(map(repeats,
                                                                                          itertools.permutations(t))))
    turned = [list(worse) if i == index else t for i, t in enumerate(proposal["tables"])]
    assert codes(turned, proposal["byes"]) == ["seat_balance"]
    # Refused: a player left out, one placed twice, a stranger, a table of two
    assert codes(proposal["tables"], []) == ["missing"]
    assert codes([*proposal["tables"][:-1], [bye, *proposal["tables"][-1][1:]]], [bye])[0] == "twice"
    assert codes([["p1", "p2", "陌生人"], *proposal["tables"][1:]], proposal["byes"])[0] == "unknown"
    assert "table_size" in codes([proposal["tables"][0][:2], *proposal["tables"][1:]],
                                 [bye, proposal["tables"][0][2]])


def test_an_appeals_weighted_score_pairs_as_the_standings_count_it():
    """A board an appeal weighted (⅔ of one result, ⅓ of another) is matchpointed part by part by the standings
    (projections/matchpoints.py); the exported history keeps the parts, so the pairing ranks the players as the
    standings do — with the whole points alone p1 (−1 as a whole, +1 on ⅔ of it) would fall below p4."""
    history = {"players": NINE, "seed": "weighted", "rounds": [{"round": 1, "tables": [
        table(NINE[0:3], [-1, 2, -1]), table(NINE[3:6], [0, 1, -1]), table(NINE[6:9], [2, -1, -1])]}]}
    facts = history_facts(read_history(history))
    weighted = {"kind": "weighted", "scores": [-1, 2, -1], "exact": ["-1", "5/3", "-2/3"],
                "parts": [{"weight": "2/3", "scores": [1, 1, -2], "label": ""},
                          {"weight": "1/3", "scores": [-5, 4, 1], "label": ""}]}
    facts.appeals.append({"appeal_id": "a1", "deal_id": "r1t1b1", "outcome": weighted, "outcome_nid": 1})
    standings = Standings(facts)
    on_screen = sorted(NINE, key=lambda name: tuple(-v for v in standings.keys[name]))

    exported = export_history(facts)
    board = exported["rounds"][0]["tables"][0]["results"][0]
    assert board == {"scores": [-1, 2, -1], "parts": [{"weight": "2/3", "scores": [1, 1, -2]},
                                                      {"weight": "1/3", "scores": [-5, 4, 1]}]}
    json.loads(json.dumps(exported))  # the file stays plain JSON: weights as "2/3"
    paired = ranking(read_history(exported))
    assert paired.index("p1") < paired.index("p4")
    assert [standings.keys[name] for name in paired] == [standings.keys[name] for name in on_screen]

    # A weighted board whose parts do not add up to one is refused in words.
    broken = {**history, "rounds": [{"round": 1, "tables": [
        {"seats": NINE[0:3], "results": [{"scores": [-1, 2, -1], "parts": [{"weight": "1/3", "scores": [1, 1, -2]}]}]},
        *history["rounds"][0]["tables"][1:]]}]}
    with pytest.raises(IllegalAction) as refused:
        read_history(broken)
    assert refused.value.code == "bad_results" and "`" not in refused.value.message + refused.value.message_zh
