"""The 快乐三打一 pages and notation over real HTTP, without a browser: the match page's running totals chart
data, standing and deal table, the tournament page's standing, the printable record in Chinese and English
notation, and the deal viewer's frames for the seats of a deal in play and of a finished one.

The data is recorded here as a referee would record it, through the application on a real SQLite file: a
tournament of game `sandayi`, four players, a table of 8 counted deals (with a 头撂 and 摊打, a voided deal
redealt with the same first bidder, a 报到, a deal decided by a defender's second foul, a defender who used
up its bomb allowance, 天王炸弹), and a second table with a deal left in play. Each deal is dealt from a seed and played
by the random legal players of fixtures/random_play/sandayi.py, searched until it shows the wanted feature.
`SandayiSite` is shared with tests/pages/test_viewer_sandayi_browser.py.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import viewer_support
from viewer_support import GameSite, chart_of, page_of

from domain.games import get_table
from domain.games.sandayi.engine import SandayiEngine, SandayiState
from domain.kernel.dealing import deal_from_seed
from domain.kernel.engine import DealSetup
from fixtures.random_play.sandayi import candidate_plays, play_out
from replay_ui.shared.cards import cards_text

ENGINE = SandayiEngine()
RULES = get_table("sandayi")
PLAYERS = ["周立新", "钱美玲", "孙浩", "李雪梅"]
TALKING = {"code": "talking", "note": "出牌时说话 / spoke during play"}
# Table 1, deal by deal: what each deal must show. `void` and `foul` are recorded by hand (a second foul).
PLAN = ["tanda", "void", "baodao", "foul", "bomb_spent", "plain", "king_bomb", "plain", "plain"]
Record = dict[str, Any]


# --- recording the data --------------------------------------------------------------------------------------


def shown(state: SandayiState) -> set[str]:
    """What a played-out deal shows: its declarations, 天王炸弹, a defender who used up a bomb allowance."""
    found = set(state.declared)
    plays = [p for rounds in state.rounds for p in rounds if p["type"] == "play"]
    if any(p["pattern"].kind == "king_bomb" for p in plays):
        found.add("king_bomb")
    if any(s != state.dealer and state.allowance[s] is not None and state.bombs_by_seat[s] == state.allowance[s]
           for s in range(4)):
        found.add("bomb_spent")
    if not state.declared:
        found.add("plain")
    return found


def new_state(first: int, seed: str) -> tuple[SandayiState, list[list[str]], list[str]]:
    hands, kitty = deal_from_seed(seed, ENGINE, first)
    setup = DealSetup("sandayi", ENGINE.resolve_options({}), list(PLAYERS), first, hands, kitty, {})
    return ENGINE.new_deal(setup), hands, kitty


def find_deal(first: int, wanted: str, rng: random.Random, number: int
              ) -> tuple[list[list[str]], list[str], list[Record]]:
    """Hands, kitty and actions of a legal deal with `first` as first bidder that shows `wanted`."""
    for attempt in range(3000):
        state, hands, kitty = new_state(first, f"sandayi-viewer-{number}-{attempt}")
        actions: list[Record] = []
        if wanted == "void":  # the first bidder talks twice before bidding: void, dealt again (§1.10a.8)
            actions = [{"seat": first, "type": "foul", **TALKING}, {"seat": first, "type": "foul", **TALKING}]
        elif wanted == "foul":  # a defender's second foul after the lead: the dealer wins (§1.8)
            while state.phase == "bidding":
                action = rng.choice(ENGINE.legal_actions(state, state.to_act))  # type: ignore[arg-type]
                ENGINE.apply(state, action)
                actions.append(action)
            dealer = state.dealer
            assert dealer is not None
            lead = {"seat": dealer, "type": "play", "cards": min(candidate_plays(state.hands[dealer], None), key=len)}
            defender = (dealer + 1) % 4
            actions += [lead, {"seat": defender, "type": "foul", **TALKING}, {"seat": defender, "type": "pass"},
                        {"seat": defender, "type": "foul", **TALKING}]
        else:
            play_out(state, rng, actions, declare_rate=1.0 if wanted != "plain" else 0.0)
            if wanted not in shown(state) or (wanted == "plain" and len(actions) < 20):
                continue
        return hands, kitty, actions
    raise AssertionError(f"no deal with {wanted} for first bidder {first}")


@dataclass
class SandayiSite(GameSite):
    """A live server with a 快乐三打一 tournament: table 1 played out (PLAN), table 2 with a deal in play."""

    def deal_with(self, test: Any) -> dict[str, Any]:
        return next(deal for deal in self.deals if deal["result"] and test(deal["result"]))


def start_sandayi_site(db_path: Path) -> SandayiSite:
    live, service, tournament = viewer_support.open_game_tournament(
        db_path, "三打一复盘测试赛", "sandayi", PLAYERS, format="sandayi.s002",
        tiebreaks=["dealer_count", "dealer_difficulty", "lots"], lots_seed="sandayi-viewer")
    rng = random.Random(2019)
    match, _ = service.tables.open(tournament["id"], "1", PLAYERS, first=0)
    for number, wanted in enumerate(PLAN, start=1):
        standing = service.tables.get(match["id"])["standing"]
        first = RULES.first_seat(standing, 0, number, 4)
        hands, kitty, actions = find_deal(first, wanted, rng, number)
        deal, _ = service.deals.start(match=match["id"], hands=hands, kitty=kitty)
        assert deal["first"] == first
        for action in actions:
            service.deals.record(deal["id"], action)
        assert service.deals.get(deal["id"])["finished"], (number, wanted)
    match = service.tables.get(match["id"])
    assert match["status"] == "over" and match["standing"]["deals"] == 8
    # Table 2: a deal left in play after the bidding and a few plays.
    live_match, _ = service.tables.open(tournament["id"], "2", PLAYERS, first=1)
    state, hands, kitty = new_state(1, "sandayi-viewer-live")
    actions: list[Record] = []
    play_out(state, random.Random(7), actions, declare_rate=0.0)
    played = [a for a in actions if a["type"] == "play"]
    cut = actions.index(played[3]) + 1
    deal, _ = service.deals.start(match=live_match["id"], hands=hands, kitty=kitty)
    for action in actions[:cut]:
        service.deals.record(deal["id"], action)
    seen = {card for action in actions[:cut] for card in action.get("cards", [])}
    codes: dict[str, int] = {}
    for card in [c for hand in hands for c in hand] + kitty:
        codes[card] = codes.get(card, 0) + 1
    live_hidden = {code for code in codes if code not in seen}
    deals = [service.deals.get(entry["deal_id"]) for entry in match["deals"]]
    return SandayiSite(live, service.tournaments.get(tournament["id"]), match, service.tables.get(live_match["id"]),
                       deal["id"], live_hidden, deals)


# --- the tests ---------------------------------------------------------------------------------------------


site = viewer_support.site_fixture(start_sandayi_site, "viewer-sandayi-pages")


def test_the_recorded_table_shows_every_wanted_feature(site: SandayiSite) -> None:
    results = [deal["result"] for deal in site.deals]
    assert len(results) == len(PLAN) == 9
    assert results[0]["toulu"] and results[0]["declared"] == ["tanda"] and results[0]["stake"] in (3, 4)
    assert results[1].get("redeal") and site.deals[1]["first"] == site.deals[2]["first"]  # the same first bidder
    assert "baodao" in results[2]["declared"]
    assert results[3]["ending"] == "foul" and results[3]["dealer_won"]
    assert site.deals[6]["result"]["bombs"] and sum(results[6]["bombs"]) >= 1


def test_the_match_page_charts_running_totals_and_lists_every_deal(site: SandayiSite) -> None:
    html = page_of(site, f"/matches/{site.match['id']}")
    viewer_support.assert_running_totals(chart_of(html), site.match, PLAYERS)
    assert html.count('class="links"') == len(site.deals) == 9
    rows = re.findall(r'<tr data-deal="(\d+)">(.*?)</tr>', html, re.S)
    assert [int(number) for number, _ in rows] == list(range(1, 10))
    first = rows[0][1]
    assert "头撂" in first and "摊打" in first and "Toulu" in first and "Tanda" in first
    assert "作废重发" in rows[1][1] and "void, dealt again" in rows[1][1]
    assert "报到" in rows[2][1]
    offender = PLAYERS[site.deals[3]["result"]["offender"]]
    assert f"{offender} 二次犯规" in rows[3][1] and "庄家胜" in rows[3][1] and f"{offender} fouled twice" in rows[3][1]
    winner = site.deals[4]["result"]["winner"]
    assert f"{PLAYERS[winner]} 出完" in rows[4][1]
    # The last deal's running totals are the table's totals; the standing table ranks by them.
    assert viewer_support.last_totals(rows[-1][1], 4) == site.match["standing"]["scores"]
    standing = re.search(r'<table class="data compact sdy-standing".*?</table>', html, re.S)
    assert standing is not None
    assert "庄家数量" in standing.group(0) and "庄家难度" in standing.group(0)
    assert viewer_support.row_figures(html, "sdy-standing", "dealt") == site.match["standing"]["dealt"]
    assert sum(site.match["standing"]["dealt"]) == 8  # the void deal had no dealer
    wins = [sum(1 for d in site.deals if d["result"].get("dealer") == seat and d["result"].get("dealer_won"))
            for seat in range(4)]
    assert viewer_support.row_figures(html, "sdy-standing", "won") == wins
    assert "每桌 8 局" in html and "8 deals a table" in html


def test_the_tournament_page_shows_each_tables_totals_and_deals_counted(site: SandayiSite) -> None:
    html = page_of(site, f"/tournaments/{site.tournament['id']}")
    scores = site.match["standing"]["scores"]
    expected = viewer_support.signed_totals(scores) + " · 8/8"
    assert expected in html
    assert "0 / 0 / 0 / 0 · 0/8" in html  # table 2: its deal is still in play
    assert "快乐三打一" in html


def test_the_record_page_writes_a_deal_in_both_languages(site: SandayiSite) -> None:
    tanda = site.deals[0]
    html = page_of(site, f"/deals/{tanda['id']}/record")
    dealer = PLAYERS[tanda["result"]["dealer"]]
    assert f"{dealer} 首叫直接叫 3 分（头撂）" in html and f"{dealer} opens with 3 (toulu)" in html
    assert f"{dealer} 以 3 分坐庄，收底牌" in html and f"{dealer} deals at 3 and takes the kitty" in html
    assert f"{dealer} 摊打：亮出手牌打（×2）" in html and f"{dealer} declares tanda" in html
    assert f"庄家：{dealer}，头撂" in html and "庄家宣布：摊打" in html
    result = tanda["result"]
    assert f"底分 {result['stake']} × 倍数 {result['multipliers']['total']}" in html
    assert f"Stake {result['stake']} × multiplier {result['multipliers']['total']}" in html
    assert "（单牌）" in html or "（对牌）" in html or "（单顺）" in html
    assert tanda["digest"] in html
    void = page_of(site, f"/deals/{site.deals[1]['id']}/record")
    assert "本局作废" in void and "the deal is void" in void
    foul = page_of(site, f"/deals/{site.deals[3]['id']}/record")
    offender = PLAYERS[site.deals[3]["result"]["offender"]]
    assert f"{offender} 第二次犯规（说话）" in foul and f"{offender} fouled twice and loses the deal" in foul


def test_a_seats_frames_show_its_own_hand_and_only_counts_of_the_others(site: SandayiSite) -> None:
    deal = site.deal_with(lambda r: r.get("ending") == "out" and not r["declared"])
    dealer = deal["result"]["dealer"]
    seat = (dealer + 1) % 4
    frames, _ = site.viewer_frames(deal["id"], f"seat:{seat}")
    small = 0
    for frame in frames:
        for other in frame["view"]["seats"]:
            if other["seat"] == seat:
                assert len(other["hand"]) == other["count"]
                continue
            assert "hand" not in other
            count = other["count"]
            assert count == ">10" or (isinstance(count, int) and 0 <= count <= 10), count
            small += isinstance(count, int)
        assert frame["view"]["kitty"] is None
    assert small, "some seat came down to 10 cards or fewer"
    taken = next(f for f in frames if f["view"]["dealer"] is not None)
    assert "收底牌 8 张" in taken["notation"]["zh"] and "8-card kitty" in taken["notation"]["en"]
    own, _ = site.viewer_frames(deal["id"], f"seat:{dealer}")
    kitty = site.service.deals.replay_all(deal["id"], "referee")["frames"][0]["view"]["kitty"]
    assert any(f["view"]["kitty"] == kitty for f in own)
    words = next(f for f in own if f["view"]["dealer"] is not None)["notation"]
    assert f"收底牌 {cards_text(kitty, 'zh')}" in words["zh"]
    assert f"takes the kitty {cards_text(kitty, 'en')}" in words["en"]


def test_a_deal_in_play_shows_the_public_no_hand_and_refuses_the_seat_views(site: SandayiSite) -> None:
    for frame in viewer_support.public_frames_in_play(site, "sandayi"):
        assert all("hand" not in seat for seat in frame["view"]["seats"]) and frame["view"]["kitty"] is None
    assert "hand" in viewer_support.organisers_seat_view(site)
