"""The 竞技挖坑 pages and notation over real HTTP, without a browser: the match page's running raw totals chart
data, standing and board table, the wording of a finished table (no winner of its own, not a draw), the
tournament page's standing, the printable record in Chinese and English notation, and the deal viewer's frames
for the seats of a finished deal and of one in play (a hand shown by 明牌 is everyone's from that step).

The data is recorded here as a referee would record it, through the application on a real SQLite file: a
tournament of game `wakeng` (format wakeng.s003), three players, one Swiss round, table 1 with its 6 duplicate
boards played out (a plain deal, 烂挖, a defender's 明牌 before bidding and a defender's 加倍, the digger's 明牌
after the kitty with both the digger and a defender doubling — B6's stakes with every factor —, timeouts and a
referee's foul, a bid of 3 that ends the bidding after two players showed) and table 2 with a deal left in play
after one player showed. The decisions are scripted per board; the play is the random legal play of
fixtures/random_play/wakeng.py. `WakengSite` is shared with tests/pages/test_viewer_wakeng_browser.py.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import viewer_support
from viewer_support import GameSite, chart_of, page_of, quoted_cards

from domain.games.wakeng.engine import WakengEngine, WakengState, first_bidder
from domain.kernel.dealing import deal_from_seed
from domain.kernel.engine import DealSetup
from fixtures.random_play.wakeng import play_out
from replay_ui.shared.cards import cards_text

ENGINE = WakengEngine()
PLAYERS = ["赵一鸣", "钱晓红", "孙立国"]
FOUL = {"code": "left_seat", "note": "未经允许离座 / left the seat without leave"}
Record = dict[str, Any]

# What each board's decisions are, seat by seat in bidding order (0 = the first bidder, 1 = next, 2 = last):
# `reveal` the pre-bid 明牌 (True shows), `bids` the calls (None = 不叫; a 3 ends bidding), `post` the digger's
# 明牌 after the kitty, `double` who doubles, by offset from the digger (0 = the digger). "timeout" stands for a
# timeout at that decision (明牌, 叫分 and 加倍 time out as no: B11.6; ["timeout"]: the digger's 加倍 times out),
# "foul" for a referee's foul on that player before it declines.
PLAN: list[dict[str, Any]] = [
    {"name": "plain", "reveal": [False, False, False], "bids": [1, 2, None], "post": False, "double": []},
    {"name": "lanwa", "reveal": [False, False, False], "bids": [None, None, None], "post": False, "double": []},
    {"name": "shown", "reveal": [False, False, True], "bids": [2, None, None], "post": False, "double": [1]},
    {"name": "after", "reveal": [False, False, False], "bids": [None, 3], "post": True, "double": [0, 1]},
    {"name": "foul", "reveal": ["timeout", "foul", False], "bids": ["timeout", 1, "timeout"], "post": "timeout",
     "double": ["timeout"], "lead": "timeout"},
    {"name": "top", "reveal": [True, True, False], "bids": [3], "post": None, "double": []},
]
BOARDS = len(PLAN)  # the format's default `wk.tableDeals` (6)


# --- recording the data --------------------------------------------------------------------------------------


def new_state(seed: str) -> tuple[WakengState, list[list[str]], list[str]]:
    hands, kitty = deal_from_seed(seed, ENGINE, 0)
    setup = DealSetup("wakeng", ENGINE.resolve_options({}), list(PLAYERS), first_bidder(hands), hands, kitty,
                      {"board": 1})
    return ENGINE.new_deal(setup), hands, kitty


def scripted(state: WakengState, plan: dict[str, Any], rng: random.Random) -> list[Record]:
    """The board's decisions as PLAN says, then random legal play to the end."""
    actions: list[Record] = []

    def act(action: Record) -> None:
        ENGINE.apply(state, action)
        actions.append(action)

    def decide(seat: int, choice: Any, yes: Record) -> None:
        if choice == "timeout":
            act({"seat": seat, "type": "timeout"})
        elif choice == "foul":  # a referee's foul (B9, no points), then the player declines
            act({"seat": seat, "type": "foul", **FOUL})
            act({"seat": seat, "type": "pass"})
        else:
            act(yes if choice else {"seat": seat, "type": "pass"})

    first = state.first
    for offset, choice in enumerate(plan["reveal"]):
        seat = (first + offset) % 3
        decide(seat, choice, {"seat": seat, "type": "reveal"})
    for offset, bid in enumerate(plan["bids"]):
        seat = (first + offset) % 3
        decide(seat, bid, {"seat": seat, "type": "bid", "value": bid})
    assert state.digger is not None
    digger = state.digger
    if state.phase == "post_reveal":
        decide(digger, plan["post"], {"seat": digger, "type": "reveal"})
    for offset in range(3):  # the digger first (B4.7)
        seat = (digger + offset) % 3
        choice = ("timeout" if offset == 0 else False) if plan["double"] == ["timeout"] else offset in plan["double"]
        decide(seat, choice, {"seat": seat, "type": "double"})
    assert state.phase == "play"
    if plan.get("lead") == "timeout":
        act({"seat": state.to_act, "type": "timeout"})  # the leader's lowest single
    play_out(state, rng, actions)
    return actions


@dataclass(kw_only=True)
class WakengSite(GameSite):
    """A live server with a 竞技挖坑 tournament: table 1's boards played out (PLAN), table 2 with a deal in play."""

    live_shown: int  # the seat that showed its hand in the deal in play

    def board(self, name: str) -> dict[str, Any]:
        return self.deals[[p["name"] for p in PLAN].index(name)]


def start_wakeng_site(db_path: Path) -> WakengSite:
    live, service, tournament = viewer_support.open_game_tournament(
        db_path, "挖坑复盘测试赛", "wakeng", PLAYERS, format="wakeng.s003", lots_seed="wakeng-viewer")
    rng = random.Random(2003)
    match, _ = service.tables.open(tournament["id"], "1", PLAYERS, first=0)
    for number, plan in enumerate(PLAN, start=1):
        for attempt in range(50):
            state, hands, kitty = new_state(f"wakeng-viewer-{number}-{attempt}")
            actions = scripted(state, plan, rng)
            if len([a for a in actions if a["type"] == "play"]) >= 8:  # a deal with some play to look at
                break
        deal, _ = service.deals.start(match=match["id"], hands=hands, kitty=kitty)
        assert deal["first"] == state.first and deal["context"] == {"board": number}
        for action in actions:
            service.deals.record(deal["id"], action)
        assert service.deals.get(deal["id"])["finished"], (number, plan["name"])
    match = service.tables.get(match["id"])
    assert match["status"] == "over" and match["ended_by"] == "boards" and match["winners"] == []
    # Table 2, in round 2 (its board 1 is another deal: in one round every table plays the same boards): a deal
    # left in play after one player showed before bidding, the bidding and a few plays.
    service.tournaments.start_round(tournament["id"], "第2轮", "tables")
    live_match, _ = service.tables.open(tournament["id"], "2", PLAYERS, first=0)
    state, hands, kitty = new_state("wakeng-viewer-live")
    actions = scripted(state, {"name": "live", "reveal": [False, True, False], "bids": [1, None, 2], "post": False,
                               "double": []}, random.Random(7))
    played = [a for a in actions if a["type"] == "play"]
    cut = actions.index(played[3]) + 1
    deal, _ = service.deals.start(match=live_match["id"], hands=hands, kitty=kitty)
    for action in actions[:cut]:
        service.deals.record(deal["id"], action)
    shown = (state.first + 1) % 3
    seen = {card for action in actions[:cut] for card in action.get("cards", [])} | set(kitty) | set(hands[shown])
    live_hidden = {card for hand in hands for card in hand} - seen
    deals = [service.deals.get(entry["deal_id"]) for entry in match["deals"]]
    return WakengSite(live, service.tournaments.get(tournament["id"]), match, service.tables.get(live_match["id"]),
                      deal["id"], live_hidden, deals, live_shown=shown)


# --- the tests ---------------------------------------------------------------------------------------------


site = viewer_support.site_fixture(start_wakeng_site, "viewer-wakeng-pages")


def visible(html: str) -> str:
    """The page's words without its tags and without the embedded i18n table (which names every string)."""
    html = re.sub(r"<script\b.*?</script>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_recorded_table_shows_every_wanted_feature(site: WakengSite) -> None:
    results = {plan["name"]: site.board(plan["name"])["result"] for plan in PLAN}
    assert [deal["context"]["board"] for deal in site.deals] == list(range(1, BOARDS + 1))
    assert results["lanwa"]["lanwa"] and results["lanwa"]["bid"] == 1
    assert results["lanwa"]["digger"] == site.board("lanwa")["first"]
    shown = results["shown"]
    assert len(shown["revealed"]) == 1 and shown["revealed"][0] != shown["digger"] and len(shown["doubled"]) == 1
    after = results["after"]  # B6 with every factor (B11.7): bid 3, the digger shows after the kitty, two doubles
    digger = after["digger"]
    assert after["bid"] == 3 and after["revealed"] == [digger] and after["doubled"] == [digger, (digger + 1) % 3]
    assert sorted(after["stakes"]) == [0, 12, 24]
    assert site.board("foul")["actions"] > 0 and not results["foul"]["revealed"]
    assert len(results["top"]["revealed"]) == 2 and results["top"]["bid"] == 3
    for result in results.values():
        assert sum(result["scores"]) == 0


def test_the_match_page_charts_raw_totals_and_lists_every_board(site: WakengSite) -> None:
    html = page_of(site, f"/matches/{site.match['id']}")
    chart = chart_of(html)
    viewer_support.assert_running_totals(chart, site.match, PLAYERS)
    assert chart["numbers"] == list(range(BOARDS + 1))  # every board scored
    rows = re.findall(r'<tr data-deal="(\d+)" data-board="(\d+)">(.*?)</tr>', html, re.S)
    assert [(int(n), int(b)) for n, b, _ in rows] == [(k, k) for k in range(1, BOARDS + 1)]
    cells = {plan["name"]: row for plan, (_, _, row) in zip(PLAN, rows, strict=True)}
    assert "烂挖" in cells["lanwa"] and "Lanwa" in cells["lanwa"] and "烂挖" not in cells["plain"]
    after = site.board("after")["result"]
    digger = PLAYERS[after["digger"]]
    assert re.search(rf'<span class="tag reveal">{digger}</span>', cells["after"])
    assert len(re.findall(r'<span class="tag double">', cells["after"])) == 2
    stakes = " · ".join(f"{PLAYERS[s]} {after['stakes'][s]}" for s in range(3) if s != after["digger"])
    assert stakes in cells["after"]
    for plan in PLAN:
        result = site.board(plan["name"])["result"]
        side = ("庄家胜", "Digger wins") if result["digger_won"] else ("闲家胜", "Defenders win")
        assert side[0] in cells[plan["name"]] and side[1] in cells[plan["name"]]
        assert f"{PLAYERS[result['winner']]} 出完" in cells[plan["name"]]
    # The last board's running totals are the table's raw totals.
    assert viewer_support.last_totals(rows[-1][2], 3) == site.match["standing"]["scores"]
    assert viewer_support.row_figures(html, "wk-standing", "digger") == \
        [sum(1 for d in site.deals if d["result"]["digger"] == seat) for seat in range(3)]
    assert viewer_support.row_figures(html, "wk-standing", "won") == \
        [sum(d["result"]["seat_facts"]["won"][seat] for d in site.deals) for seat in range(3)]
    assert "每桌打 6 副复式牌" in html and "6 duplicate boards a table" in html
    # A finished 挖坑 table has no winner of its own, and it is not a draw: the standings rank it.
    words = visible(html)
    assert "平局" not in words and "Drawn" not in words
    assert "本轮牌局已打完 · 按复式得分率排名" in words
    assert "all boards played · ranked by duplicate score rate" in words
    assert "桌内不分胜负" in words


def test_the_tournament_page_shows_each_tables_raw_totals_and_boards_played(site: WakengSite) -> None:
    html = page_of(site, f"/tournaments/{site.tournament['id']}")
    scores = site.match["standing"]["scores"]
    expected = viewer_support.signed_totals(scores) + f" · {BOARDS}/{BOARDS}"
    assert expected in html
    assert f"0 / 0 / 0 · 0/{BOARDS}" in html  # table 2: its deal is still in play
    words = visible(html)
    assert "竞技挖坑" in words and "本轮牌局已打完" in words and "ranked by duplicate score rate" in words
    assert "平局" not in words and "Drawn" not in words


def test_the_record_page_writes_a_deal_in_both_languages(site: WakengSite) -> None:
    after = site.board("after")
    result = after["result"]
    digger = PLAYERS[result["digger"]]
    html = page_of(site, f"/deals/{after['id']}/record")
    kitty = site.frames(after["id"], "referee")[0]["view"]["kitty"]
    assert f"{digger} 叫 3 分；{digger} 以 3 分挖坑，底牌 {cards_text(kitty, 'zh')} 亮给三家" in html
    assert f"{digger} digs at 3; the kitty {cards_text(kitty, 'en')} is shown to all" in html
    assert f"{digger} 收底后明牌：亮出手牌（×2）" in html and f"{digger} shows the hand after the kitty (×2)" in html
    assert f"{digger} 加倍" in html and f"{digger} doubles" in html
    stakes = {PLAYERS[s]: result["stakes"][s] for s in range(3) if s != result["digger"]}
    zh = "，".join(f"{who} {n}" for who, n in stakes.items())
    assert f"赌注：{zh}" in html and "Stakes: " + ", ".join(f"{who} {n}" for who, n in stakes.items()) in html
    assert "持红桃4首出" in html and "holds the four of hearts and leads" in html
    assert f"庄家：{digger}，叫 3 分" in html and f"明牌：{digger}" in html
    assert "叫分 3 × 明牌 ×2，加倍逐对计算" in html and "bid 3 × open hands ×2, doubles pair by pair" in html
    assert "复式第 4 副" in html and "Duplicate board 4" in html
    assert "（对子）" in html or "（单张）" in html or "（连牌）" in html
    assert after["digest"] in html
    lanwa = site.board("lanwa")
    first = PLAYERS[lanwa["first"]]
    html = page_of(site, f"/deals/{lanwa['id']}/record")
    assert f"三家都不叫：烂挖，首叫 {first} 以 1 分挖坑" in html
    assert f"lanwa, the first bidder {first} digs at 1" in html
    assert f"庄家：{first}，烂挖" in html and f"Digger: {first}, lanwa" in html
    foul = site.board("foul")
    first = PLAYERS[foul["first"]]
    html = page_of(site, f"/deals/{foul['id']}/record")
    assert f"{first} 超时，视为不明牌" in html and f"{first} times out: counted as no open hand" in html
    assert f"{first} 超时，视为不叫" in html and f"{first} times out: counted as no bid" in html
    offender = PLAYERS[(foul["first"] + 1) % 3]
    assert f"{offender} 犯规（未经允许离座）" in html and f"{offender} foul (left the seat without leave)" in html
    assert "超时，视为不加倍" in html and "超时，自动出" in html


def test_a_seats_frames_show_its_own_hand_and_only_shown_hands_of_the_others(site: WakengSite) -> None:
    deal = site.board("shown")
    result = deal["result"]
    shown = result["revealed"][0]
    seat = next(s for s in range(3) if s not in (shown, result["digger"]))
    frames, text = site.viewer_frames(deal["id"], f"seat:{seat}")
    at = next(f["step"] for f in frames if f["action"] and f["action"]["type"] == "reveal")
    referee = site.frames(deal["id"], "referee")
    for frame in frames:
        view = frame["view"]
        for other in view["seats"]:
            if other["seat"] == seat:
                assert len(other["hand"]) == other["count"]
            elif other["seat"] == shown and frame["step"] >= at:
                assert other["exposed"] and other["hand"] == referee[frame["step"]]["view"]["seats"][shown]["hand"]
            else:
                assert "hand" not in other, (frame["step"], other["seat"])
        assert (view["kitty"] is None) == (view["phase"] in ("reveal", "bidding"))
    assert "明牌：叫分前亮出手牌" in frames[at]["notation"]["zh"] and "reveal" in frames[at]["notation"]["tags"]
    taken = next(f for f in frames if f["view"]["digger"] is not None)
    kitty = referee[0]["view"]["kitty"]
    assert taken["view"]["kitty"] == kitty and f"底牌 {cards_text(kitty, 'zh')}" in taken["notation"]["zh"]
    # The data of the seat's frames names no card of the other closed hand before it is played.
    closed = next(s for s in range(3) if s not in (seat, shown))
    never = set(referee[0]["view"]["seats"][closed]["hand"]) - set(referee[-1]["view"]["seats"][closed]["played"])
    never -= set(kitty)
    assert never and not quoted_cards(text) & never


def test_a_deal_in_play_shows_the_public_only_the_shown_hand_and_refuses_the_seat_views(site: WakengSite) -> None:
    frames = viewer_support.public_frames_in_play(site, "wakeng")
    last = frames[-1]["view"]
    assert [("hand" in s) for s in last["seats"]] == [s["seat"] == site.live_shown for s in last["seats"]]
    assert last["kitty"] is not None and last["phase"] == "play"
    assert all(f["view"]["kitty"] is None for f in frames if f["view"]["phase"] in ("reveal", "bidding"))
    assert "hand" in viewer_support.organisers_seat_view(site)
