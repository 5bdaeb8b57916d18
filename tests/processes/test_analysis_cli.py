"""`fupan analyse FILE [--json] [--limit-ms N]` as docs/analysis.md documents it: the real console script, on
records of random legal deals."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from domain.kernel.engine import team_of
from domain.records.format import fold
from domain.services.analysis import analyse_actions
from domain.solver.search import Budget
from fixtures.positions import real_endgame


def fupan(*args: str) -> subprocess.CompletedProcess:
    command = shutil.which("fupan") or str(Path(sys.executable).with_name("fupan"))
    return subprocess.run([command, *args], capture_output=True, text=True, timeout=120)


def record_of(setup, actions) -> dict[str, Any]:
    return {"format": "fupan.deal/1", "game": setup.game, "options": setup.options, "seats": setup.seats,
            "first": setup.first, "hands": setup.hands, "kitty": setup.kitty, "context": setup.context,
            "actions": list(actions)}


@pytest.fixture(scope="module")
def doudizhu_endgame(tmp_path_factory):
    found = real_endgame("doudizhu", random.Random(11), 6)
    assert found is not None
    setup, actions, _ = found
    path = tmp_path_factory.mktemp("analyse") / "endgame.json"
    path.write_text(json.dumps(record_of(setup, actions), ensure_ascii=False), encoding="utf-8")
    return setup, actions, path


def side_of(game: str, state: Any, seat: int) -> Any:
    if game == "shengji":
        return team_of(seat)
    return seat == getattr(state, {"doudizhu": "landlord", "sandayi": "dealer", "wakeng": "digger"}[game])


def test_the_json_answer_names_every_play_and_each_verdict_holds_one_step_on(doudizhu_endgame, tmp_path):
    setup, actions, path = doudizhu_endgame
    done = fupan("analyse", str(path), "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert list(answer) == ["to_act", "side", "side_wins", "moves", "line", "nodes", "ms"]
    engine, state = fold(setup, actions)
    assert answer["to_act"] == state.to_act
    assert answer["side"] == ("landlord" if state.to_act == state.landlord else "farmers")
    assert answer["side_wins"] == any(move["wins"] for move in answer["moves"])
    assert answer["line"][0] in [move["action"] for move in answer["moves"] if move["wins"] == answer["side_wins"]]
    # Each move's verdict is the verdict, for the mover's side, of the position one action later.
    for move in answer["moves"]:
        assert set(move) == {"action", "wins"}
        after = [*actions, move["action"]]
        _, next_state = fold(setup, after)
        if next_state.phase == "finished":
            assert move["wins"] == (side_of("doudizhu", state, next_state.winner)
                                    == side_of("doudizhu", state, state.to_act))
            continue
        deeper = analyse_actions(setup, after, Budget(limit_ms=20_000))
        same_side = side_of("doudizhu", state, next_state.to_act) == side_of("doudizhu", state, state.to_act)
        assert move["wins"] == (deeper["side_wins"] if same_side else not deeper["side_wins"])
    # The line is a legal end of the deal: the record completed by it passes `fupan check`.
    complete = tmp_path / "complete.json"
    complete.write_text(json.dumps(record_of(setup, [*actions, *answer["line"]]), ensure_ascii=False))
    checked = fupan("check", "--json", str(complete))
    assert json.loads(checked.stdout)["ok"] is True, checked.stdout
    engine, final = fold(setup, [*actions, *answer["line"]])
    assert side_of("doudizhu", state, final.winner) == side_of("doudizhu", state, state.to_act) \
        or not answer["side_wins"]


def test_a_plain_summary_in_chinese_first(doudizhu_endgame):
    done = fupan("analyse", str(doudizhu_endgame[2]))
    assert done.returncode == 0
    assert "胜" in done.stdout or "负" in done.stdout
    assert "最佳线路" in done.stdout
    # the seat to act and every seat of the line by its player's name, never a seat number (issue 23, defect 10)
    setup = doudizhu_endgame[0]
    assert done.stdout.split("（", 1)[0] in setup.seats and "座位" not in done.stdout and "seat " not in done.stdout
    line = done.stdout.split("最佳线路 line: ", 1)[1].split("\n", 1)[0]
    assert all(step.split(":", 1)[0] in setup.seats for step in line.split("；"))


def test_a_shengji_endgame_answers_points_per_move(tmp_path):
    found = real_endgame("shengji", random.Random(5), 3)
    assert found is not None
    setup, actions, _ = found
    path = tmp_path / "sj.json"
    path.write_text(json.dumps(record_of(setup, actions), ensure_ascii=False))
    done = fupan("analyse", str(path), "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert all(set(move) == {"action", "points"} for move in answer["moves"])
    engine, state = fold(setup, actions)
    attackers = team_of(answer["to_act"]) != team_of(state.dealer)
    best = (max if attackers else min)(move["points"] for move in answer["moves"])
    assert answer["points"] == best
    _, final = fold(setup, [*actions, *answer["line"]])
    assert engine.result(final)["attacker_points"] == best  # the line makes exactly the value


def test_too_large_unreadable_and_illegal(tmp_path):
    found = real_endgame("doudizhu", random.Random(2), 20)
    assert found is not None
    setup, actions, _ = found  # the landlord's first lead: far too large for 5 ms
    path = tmp_path / "start.json"
    path.write_text(json.dumps(record_of(setup, actions), ensure_ascii=False))
    done = fupan("analyse", str(path), "--json", "--limit-ms", "5")
    assert done.returncode == 0
    answer = json.loads(done.stdout)
    assert {"too_large", "nodes", "ms"} <= set(answer) <= {"too_large", "nodes", "ms", "moves", "unproven"}
    assert answer["too_large"] is True and answer["ms"] < 2000
    # What was proven by then (docs/analysis.md): plays shown to lose only — a winning one would be the verdict.
    assert not any(move["wins"] for move in answer.get("moves", []))

    wrong = record_of(setup, [*actions, {"seat": (actions[-1]["seat"] + 2) % 3, "type": "pass"}])
    path.write_text(json.dumps(wrong, ensure_ascii=False))
    refused, checked = fupan("analyse", str(path), "--json"), fupan("check", "--json", str(path))
    assert refused.returncode == 1 and refused.stdout == checked.stdout
    assert json.loads(refused.stdout)["action"] == len(actions)
    path.write_text("{not json")
    refused = fupan("analyse", str(path))
    assert refused.returncode == 1 and refused.stdout.startswith("record 0: bad_json")
