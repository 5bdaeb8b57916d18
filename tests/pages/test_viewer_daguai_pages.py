"""The 大怪路子 pages and notation over real HTTP, without a browser: the match page's team totals chart data,
standing and deal table, the tournament page's standing, the printable record in Chinese and English notation,
and the deal viewer's frames for the seats of a finished deal and of one in play.

The data is recorded here as a referee would record it, through the application on a real SQLite file: a
tournament of game `daguai`, six players in two alternating teams of three, and three tables:

- table 1, four deals decided on points: a 抓 with a 五同 or 同花顺 played and a timed-out lead handed on, a 被关,
  a deal one side loses by fouling twice (scored as caught three), and one with a single foul that decides
  nothing;
- table 2, level after four deals on points (8 : 8, both by fouls) and on 跑头家 (2 : 2), so a play-off deal
  decides;
- table 3, a deal left in play.

Each deal is dealt from a seed by the dealer the table's rules name and played by the random legal players of
fixtures/random_play/daguai.py (searched until it shows the wanted feature); fouls are recorded by hand in the
middle of a deal. `DaguaiSite` is shared with tests/pages/test_viewer_daguai_browser.py.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import viewer_support
from viewer_support import GameSite, chart_of, page_of, quoted_cards

from domain.games import get_table
from domain.games.daguai.engine import DaguaiEngine, DaguaiState
from domain.kernel.dealing import deal_from_seed
from domain.kernel.engine import DealSetup
from fixtures.random_play.daguai import play_out
from replay_ui.shared.cards import cards_text

ENGINE = DaguaiEngine()
RULES = get_table("daguai")
# Teams alternate round the table: 甲 in seats 0, 2, 4 and 乙 in seats 1, 3, 5.
PLAYERS = ["张伟", "王磊", "李娜", "刘洋", "陈静", "杨帆"]
TEAM_A = "张伟·李娜·陈静"
TEAM_B = "王磊·刘洋·杨帆"
TALKING = {"code": "talking", "note": "出牌时说话 / spoke during play"}
Record = dict[str, Any]
Check = Callable[[DaguaiState, list[Record]], bool]


# --- recording the data --------------------------------------------------------------------------------------


def plays_of(state: DaguaiState) -> list[dict[str, Any]]:
    return [p for rounds in state.rounds for p in rounds if p["type"] == "play"]


def strong_five(state: DaguaiState, actions: list[Record]) -> bool:
    return any(p["pattern"].kind in ("five", "straight_flush") for p in plays_of(state))


def lead_timeout(state: DaguaiState, actions: list[Record]) -> bool:
    return any(r and r[0]["type"] == "timeout" for r in state.rounds)


def jiefeng(state: DaguaiState, actions: list[Record]) -> bool:
    """A round won by a play that emptied its player's hand, the deal going on: the next seat leads (接风)."""
    last_play = {p["seat"]: id(p) for p in plays_of(state)}
    for closed in state.rounds[:-1]:
        plays = [p for p in closed if p["type"] == "play"]
        if plays and plays[-1]["seat"] in state.finished and last_play[plays[-1]["seat"]] == id(plays[-1]):
            return True
    return False


def outcome(kind: str, head_team: int | None = None) -> Check:
    def check(state: DaguaiState, actions: list[Record]) -> bool:
        result = ENGINE.result(state) or {}
        return result.get("outcome") == kind and head_team in (None, result["head_team"])
    return check


def both(*checks: Check) -> Check:
    return lambda state, actions: all(check(state, actions) for check in checks)


def new_state(first: int, seed: str) -> tuple[DaguaiState, list[list[str]], list[str]]:
    hands, kitty = deal_from_seed(seed, ENGINE, first)
    setup = DealSetup("daguai", ENGINE.resolve_options({}), list(PLAYERS), first, hands, kitty, {})
    return ENGINE.new_deal(setup), hands, kitty


def find_deal(first: int, wanted: Check, rng: random.Random, name: str, fouls: tuple[int, ...] = (),
              timeout_rate: float = 0.0) -> tuple[list[list[str]], list[Record]]:
    """Hands and actions of a legal deal led by `first` that shows `wanted`; a referee's foul by each seat in
    `fouls` is recorded in the middle of it."""
    for attempt in range(4000):
        state, hands, _ = new_state(first, f"daguai-viewer-{name}-{attempt}")
        actions: list[Record] = []
        play_out(state, rng, actions, timeout_rate=timeout_rate)
        if not wanted(state, actions):
            continue
        for index, seat in enumerate(fouls):
            actions.insert((index + 1) * len(actions) // (len(fouls) + 2), {"seat": seat, "type": "foul", **TALKING})
        return hands, actions
    raise AssertionError(f"no deal {name} for dealer {first}")


def record_deal(service: Any, match: str, hands: list[list[str]], actions: list[Record]) -> dict[str, Any]:
    deal, _ = service.deals.start(match=match, hands=hands, kitty=[])
    for action in actions:
        service.deals.record(deal["id"], action)
    return service.deals.get(deal["id"])


# Table 1: (what the deal must show, fouls recorded by seat, timeout rate).
TABLE_1: list[tuple[str, Check, tuple[int, ...], float]] = [
    ("catch", both(outcome("catch"), strong_five, lead_timeout), (), 0.03),
    ("caught", both(outcome("caught"), jiefeng), (), 0.0),
    ("fouled", outcome("catch", head_team=0), (1, 3), 0.0),  # 乙 fouls twice: 甲 8, 乙 0
    ("one_foul", outcome("catch"), (2,), 0.0),  # one foul decides nothing
]
# Table 2: the head's team wanted and the fouls that level the points (8 : 8) and the 跑头家 (2 : 2).
TABLE_2: list[tuple[int, tuple[int, ...]]] = [(0, (0, 2)), (1, (1, 5)), (0, (0, 1, 2, 3)), (1, (3, 4, 5, 0))]


@dataclass(kw_only=True)
class DaguaiSite(GameSite):
    """A live server with a 大怪路子 tournament: table 1 decided on points, table 2 by a play-off, table 3 in play
    (`live_hidden`: codes none of whose copies anyone at the table has seen in the deal in play)."""

    playoff_match: dict[str, Any]
    playoff_deals: list[dict[str, Any]] = field(default_factory=list)


def start_daguai_site(db_path: Path) -> DaguaiSite:
    live, service, tournament = viewer_support.open_game_tournament(
        db_path, "大怪路子复盘测试赛", "daguai", PLAYERS, format="daguai.s000",
        tiebreaks=["first_finishes", "playoff", "lots"], lots_seed="daguai-viewer")
    rng = random.Random(2018)
    match, _ = service.tables.open(tournament["id"], "1", PLAYERS, first=0)
    deals = []
    for number, (name, wanted, fouls, rate) in enumerate(TABLE_1, start=1):
        first = RULES.first_seat(service.tables.get(match["id"])["standing"], 0, number, 6)
        hands, actions = find_deal(first, wanted, rng, f"1-{name}", fouls, rate)
        deals.append(record_deal(service, match["id"], hands, actions))
    match = service.tables.get(match["id"])
    assert match["status"] == "over" and match["standing"]["end"]["by"] == "points", match["standing"]
    playoff, _ = service.tables.open(tournament["id"], "2", PLAYERS, first=3)
    playoff_deals = []
    for number, (head, fouls) in enumerate([*TABLE_2, (None, ())], start=1):
        first = RULES.first_seat(service.tables.get(playoff["id"])["standing"], 3, number, 6)
        hands, actions = find_deal(first, outcome("catch", head) if head is not None else outcome("catch"), rng,
                                   f"2-{number}", fouls)
        playoff_deals.append(record_deal(service, playoff["id"], hands, actions))
    playoff = service.tables.get(playoff["id"])
    assert playoff["standing"]["end"]["by"] == "playoff", playoff["standing"]
    # Table 3: a deal left in play after a few rounds, everyone still above 10 cards.
    live_match, _ = service.tables.open(tournament["id"], "3", PLAYERS, first=2)
    state, hands, _ = new_state(2, "daguai-viewer-live")
    actions: list[Record] = []
    play_out(state, random.Random(7), actions)
    cut = [i for i, a in enumerate(actions) if a["type"] == "play"][8] + 1
    deal, _ = service.deals.start(match=live_match["id"], hands=hands, kitty=[])
    for action in actions[:cut]:
        service.deals.record(deal["id"], action)
    seen = {card for action in actions[:cut] for card in action.get("cards", [])}
    live_hidden = {card for hand in hands for card in hand} - seen
    return DaguaiSite(live, service.tournaments.get(tournament["id"]), match, service.tables.get(live_match["id"]),
                      deal["id"], live_hidden, deals, playoff_match=playoff, playoff_deals=playoff_deals)


# --- the tests ---------------------------------------------------------------------------------------------


site = viewer_support.site_fixture(start_daguai_site, "viewer-daguai-pages")


def cells(row: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]


def test_the_recorded_tables_show_every_wanted_feature(site: DaguaiSite) -> None:
    results = [deal["result"] for deal in site.deals]
    assert [r["outcome"] for r in results] == ["catch", "caught", "catch", "catch"]
    assert results[2]["decided_by_fouls"] and results[2]["team_points"] == [8, 0]
    assert results[2]["fouls_by_team"] == [0, 2]
    assert results[3]["fouls_by_team"] == [1, 0] and not results[3]["decided_by_fouls"]
    standing = site.playoff_match["standing"]
    assert standing["deals"] == 5 and standing["end"]["by"] == "playoff"
    after_four = site.playoff_match["deals"][3]["standing"]
    assert after_four["points"] == [8, 8] and after_four["first_finishes"] == [2, 2] and after_four["playoff"]
    assert any(d["result"]["fouls_by_team"] == [2, 2] and d["result"]["team_points"] == [0, 0]
               for d in site.playoff_deals)


def test_the_match_page_charts_team_totals_and_lists_every_deal(site: DaguaiSite) -> None:
    html = page_of(site, f"/matches/{site.match['id']}")
    chart = chart_of(html)
    assert chart["names"] == [TEAM_A, TEAM_B] and chart["target"] is None
    assert chart["title"] == "match.chart.teamPoints" and chart["y_title"] == "chart.teamPoints"
    assert chart["numbers"] == [0, 1, 2, 3, 4]
    for team in (0, 1):
        assert chart["series"][team] == [0, *(e["standing"]["points"][team] for e in site.match["deals"])]
        assert chart["series"][team][-1] == site.match["standing"]["points"][team]
    assert "每局后的团队累计积分" in html and "Team points after each deal" in html
    assert "打满本桌局数，积分多者胜" in html and "all deals played: more team points" in html
    winner = site.match["standing"]["end"]["winner"]
    assert re.search(r'class="badge winner">.*?' + "·".join(PLAYERS[s] for s in range(winner, 6, 2)), html)
    rows = re.findall(r'<tr data-deal="(\d+)">(.*?)</tr>', html, re.S)
    assert [int(n) for n, _ in rows] == [1, 2, 3, 4]
    running = [0, 0]
    heads = [0, 0]
    for (_, row), deal in zip(rows, site.deals, strict=True):
        result = deal["result"]
        values = cells(row)
        assert values[1].startswith(PLAYERS[deal["first"]])  # the dealer, who led
        head = PLAYERS[result["first_finisher"]]
        assert values[2].startswith(head) and ("甲" if result["head_team"] == 0 else "乙") in values[2]
        order = re.findall(r'<li class="team-(\d)">(.*?)</li>', row)
        assert [(int(t), n) for t, n in order] == [(s % 2, PLAYERS[s]) for s in result["finish_order"]]
        running = [running[t] + result["team_points"][t] for t in (0, 1)]
        heads[result["head_team"]] += 1
        numbers = [int(v) for v in values[5:13]]
        assert numbers == [*result["fouls_by_team"], *result["team_points"], *running, *heads]
    assert "抓 " in rows[0][1] and "catch " in rows[0][1]
    assert f"被关 {site.deals[1]['result']['k']} 家" in rows[1][1]
    assert f"{site.deals[1]['result']['k']} shut in" in rows[1][1]
    assert "犯规判定" in rows[2][1] and "by fouls" in rows[2][1] and 'class="num dg-lost">2<' in rows[2][1]
    assert "犯规判定" not in rows[3][1]
    # The sides by their players, never 甲队 / 乙队 (issue 23): in the legend, the standing's head, every outcome.
    assert f"两队：{TEAM_A} 对 {TEAM_B}" in html and f"Sides: {TEAM_A} vs {TEAM_B}" in html
    assert "甲队" not in html and "乙队" not in html and "Team A" not in html
    assert f'<span class="team-name">{TEAM_A}</span>' in html
    head = site.deals[0]["result"]["head_team"]
    assert f'{(TEAM_A, TEAM_B)[head]} <span class="zh" lang="zh-CN">抓 ' in rows[0][1]
    assert chart_of(html)["names"] == [TEAM_A, TEAM_B]
    standing = re.search(r'<table class="data compact dg-standing".*?</table>', html, re.S)
    assert standing is not None
    points = re.search(r'<tr data-row="points">(.*?)</tr>', standing.group(0), re.S)
    assert points is not None and [int(v) for v in cells(points.group(1))] == site.match["standing"]["points"]
    firsts = re.search(r'<tr data-row="heads">(.*?)</tr>', standing.group(0), re.S)
    assert firsts is not None and [int(v) for v in cells(firsts.group(1))] == site.match["standing"]["first_finishes"]


def test_the_playoff_table_marks_the_playoff_deal_and_how_it_ended(site: DaguaiSite) -> None:
    html = page_of(site, f"/matches/{site.playoff_match['id']}")
    rows = re.findall(r'<tr data-deal="(\d+)">(.*?)</tr>', html, re.S)
    assert len(rows) == 5
    assert all("加赛" not in row for _, row in rows[:4]) and "加赛" in rows[4][1] and "play-off" in rows[4][1]
    assert "积分、跑头家次数均相同，加赛一局决胜" in html and "decided by the play-off deal" in html
    assert chart_of(html)["series"][0][4] == chart_of(html)["series"][1][4] == 8
    both = next(row for _, row in rows if cells(row)[5:7] == ["2", "2"])
    assert "犯规判定" in both and cells(both)[7:9] == ["0", "0"]


def test_the_tournament_page_shows_each_tables_team_totals_and_first_finishes(site: DaguaiSite) -> None:
    html = page_of(site, f"/tournaments/{site.tournament['id']}")
    standing = site.match["standing"]
    points, heads = standing["points"], standing["first_finishes"]
    assert f"{TEAM_A} {points[0]} : {points[1]} {TEAM_B} · " in html
    assert f"跑头家 {heads[0]} : {heads[1]}" in html and f"first out {heads[0]} : {heads[1]}" in html
    after = site.playoff_match["standing"]  # the play-off table: 5 deals counted of its 4
    assert f"{TEAM_A} {after['points'][0]} : {after['points'][1]} {TEAM_B} · " in html and " · 5/4" in html
    assert f"{TEAM_A} 0 : 0 {TEAM_B} · " in html and "0/4" in html  # table 3: its deal is still in play
    assert "大怪路子" in html


def test_the_record_page_writes_a_deal_in_both_languages(site: DaguaiSite) -> None:
    deal = site.deals[0]
    result = deal["result"]
    html = page_of(site, f"/deals/{deal['id']}/record")
    assert f"两队：{TEAM_A} 对 {TEAM_B}" in html and f"Sides: {TEAM_A} vs {TEAM_B}" in html
    assert "甲队" not in html and "乙队" not in html and "Team A" not in html and "Team B" not in html
    dealer = PLAYERS[deal["first"]]
    assert f"庄家（首出）：{dealer}" in html and f"Dealer (leads): {dealer}" in html
    dealt = site.viewer_frames(deal["id"], "public")[0][0]["notation"]
    assert dealt["zh"] == f"发牌完毕，{dealer} 坐庄首出" and dealt["en"] == f"Cards dealt; {dealer} deals and leads"
    head = PLAYERS[result["first_finisher"]]
    assert f"{head} 出完，头家" in html and f"{head} is out: Head" in html
    team = TEAM_A if result["head_team"] == 0 else TEAM_B
    assert f"{team}抓 {result['k']} 家（头家 {head}）：{result['team_points'][result['head_team']]} 分" in html
    assert "五同" in html or "同花顺" in html
    assert "放弃首出" in html and "gives up the lead" in html
    assert "敲桌不出" in html and "knocks: pass" in html
    assert "得牌权" in html and "wins the round and leads" in html
    order = "，".join(f"{i}. {PLAYERS[s]}（{'甲' if s % 2 == 0 else '乙'}）"
                     for i, s in enumerate(result["finish_order"], start=1))
    assert f"出完顺序：{order}" in html
    assert f"本局积分 {TEAM_A} {result['team_points'][0]} : {result['team_points'][1]} {TEAM_B}" in html
    assert deal["digest"] in html
    caught = page_of(site, f"/deals/{site.deals[1]['id']}/record")
    assert "接风首出" in caught and "takes over the lead" in caught
    assert f"被关 {site.deals[1]['result']['k']} 家" in caught
    fouled = page_of(site, f"/deals/{site.deals[2]['id']}/record")
    assert f"{TEAM_B}本局第 2 次犯规，按被抓三家计分" in fouled and "#2 this deal: scored as caught three" in fouled
    assert f"{TEAM_B}本局犯规 2 次，按被抓三家计分：{TEAM_A} 8 分，{TEAM_B} 0 分" in fouled
    assert "，但按犯规计分" in fouled and "but the fouls decide the score" in fouled
    one = page_of(site, f"/deals/{site.deals[3]['id']}/record")
    assert "本局第 1 次" in one and "甲队" not in one and "本局第 2 次" not in one  # one foul decides nothing


def test_a_seats_frames_show_its_own_hand_and_only_counts_of_the_others(site: DaguaiSite) -> None:
    deal = site.deals[1]
    seat = 3
    frames, text = site.viewer_frames(deal["id"], f"seat:{seat}")
    referee = site.frames(deal["id"], "referee")
    exact = 0
    for frame, full in zip(frames, referee, strict=True):
        for other in frame["view"]["seats"]:
            if other["seat"] == seat:
                assert other["hand"] == full["view"]["seats"][seat]["hand"] and len(other["hand"]) == other["count"]
                continue
            assert "hand" not in other
            real = len(full["view"]["seats"][other["seat"]]["hand"])
            assert other["count"] == (real if real <= 10 else ">10"), (frame["step"], other)
            exact += isinstance(other["count"], int) and other["count"] > 0
    assert exact, "some other seat came down to 10 cards or fewer"
    # Every card code a frame carries is in the seat's own dealt hand or has been played by then.
    own = set(referee[0]["view"]["seats"][seat]["hand"])
    for frame, full in zip(frames, referee, strict=True):
        played = {c for s in full["view"]["seats"] for c in s["played"]}
        assert quoted_cards(json.dumps(frame, ensure_ascii=False)) <= own | played, frame["step"]
    never = {c for s in referee[-1]["view"]["seats"] if s["seat"] != seat for c in s["hand"]} - own - \
        {c for s in referee[-1]["view"]["seats"] for c in s["played"]}
    assert not quoted_cards(text) & never


def test_a_deal_in_play_shows_the_public_no_hand_and_refuses_the_seat_views(site: DaguaiSite) -> None:
    for frame in viewer_support.public_frames_in_play(site, "daguai"):
        assert all("hand" not in seat for seat in frame["view"]["seats"])
        assert all(seat["count"] == ">10" for seat in frame["view"]["seats"])
    assert len(viewer_support.organisers_seat_view(site)["hand"]) > 10


def test_the_notation_names_every_plays_pattern_in_both_languages(site: DaguaiSite) -> None:
    kinds: set[str] = set()
    for deal in site.deals + site.playoff_deals:
        frames, _ = site.viewer_frames(deal["id"], "public")
        for frame in frames:
            action = frame["action"]
            if not action or action["type"] != "play":
                continue
            view = frame["view"]
            entry = view["round"]["plays"][-1] if view["round"]["plays"] else \
                next(p for p in reversed(view["last_round"]) if p["seat"] == action["seat"])
            pattern = entry["pattern"]
            kinds.add(pattern["kind"])
            words = frame["notation"]
            assert f"{cards_text(action['cards'], 'zh')}（{pattern['zh']}）" in words["zh"], words
            assert f"{cards_text(action['cards'], 'en')} ({pattern['en']})" in words["en"], words
    assert {"single", "pair", "triple"} <= kinds and kinds & {"five", "straight_flush"}
    assert len(kinds & {"straight", "flush", "full_house", "four_one"}) >= 2
