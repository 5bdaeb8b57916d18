"""The viewer's 分析 panel in Chromium (templates/analysis.html, static/analysis.js; docs/analysis.md): opened at a
late step of a finished demo 斗地主 deal, its verdicts — the side's, and 胜/负 for every play of the seat to act —
and its line are those `fupan analyse --json` gives for the deal's record cut at that step; nothing is asked
before the panel is opened; at the bidding step it says "not in play"; on a phone and a tablet it fits.

One page load; steps are changed in the page with the viewer's own slider."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import viewer_support
from conftest import LiveServer
from test_viewer_browser import Offline, pytestmark  # noqa: F401  (skipped without chromium, as its neighbours)
from viewer_support import DemoSite, go_to, open_viewer, shot

from domain.records.format import fold, parse_record
from domain.services.analysis import analyse_actions
from domain.solver.search import Budget
from fixtures import DEMO_RECORDER, demo_document

PHONE, TABLET = {"width": 390, "height": 844}, {"width": 768, "height": 1024}



def start_site(db_path: Path) -> DemoSite:
    """The first deals of the demo 斗地主 tournament's first table, recorded as fupan serve --demo records them
    (fixtures.load_demo), without the rest of the demo: loading all of it takes most of a minute here."""
    live = LiveServer(db_path).start()
    service = live.service
    assert service is not None
    document = demo_document("doudizhu_tournament.json")
    head = document["tournament"]
    tournament, _ = service.tournaments.create(head["name"], head["game"], head["options"], recorded_by=DEMO_RECORDER,
                                               format=head["format"], tiebreaks=head["tiebreaks"],
                                               lots_seed=head["lots_seed"])
    for name in document["players"]:
        service.tournaments.register_player(tournament["id"], name, recorded_by=DEMO_RECORDER)
    stage = document["rounds"][0]
    service.tournaments.start_round(tournament["id"], stage["label"], stage["kind"], recorded_by=DEMO_RECORDER)
    table = stage["tables"][0]
    match, _ = service.tables.open(tournament["id"], str(table["table"]), table["seats"],
                                   first=table.get("first", table["deals"][0]["first"]), recorded_by=DEMO_RECORDER)
    for record in table["deals"][:DEALS]:
        deal, _ = service.deals.start(match=match["id"], first=record["first"], hands=record["hands"],
                                      kitty=record["kitty"], context=record["context"], recorded_by=DEMO_RECORDER)
        for action in record["actions"]:
            service.deals.record(deal["id"], action, recorded_by=DEMO_RECORDER)
    match = service.tables.of_tournament(tournament["id"])[0]
    return DemoSite(live, tournament, match, list(match["deals"]))


DEALS = 5  # demo deal 5 ends with every hand at two or three cards
SMALL = 6
site = viewer_support.site_fixture(start_site, "analysis-browser")


def fupan_analyse(record: dict[str, Any], tmp: Path) -> dict[str, Any]:
    """The real console script's answer for a record."""
    path = tmp / "cut.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    command = shutil.which("fupan") or str(Path(sys.executable).with_name("fupan"))
    done = subprocess.run([command, "analyse", str(path), "--json", "--limit-ms", "20000"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout)


def late_step(record: dict[str, Any]) -> int | None:
    """A late step of the deal, every hand at most SMALL cards (solved at once), where the seat to act has two
    plays or more — the last at which some play wins and another loses, if any; None when the deal has none."""
    setup, actions, _ = parse_record(record)
    found = None
    for step in range(len(actions), 0, -1):
        _, state = fold(setup, actions[:step])
        if state.phase != "play" or state.to_act is None or max(len(hand) for hand in state.hands) > SMALL:
            continue
        verdicts = {move["wins"] for move in analyse_actions(setup, actions[:step], Budget())["moves"]}
        if len(verdicts) == 2:
            return step
        found = found or (step if len(verdicts) >= 1 and len(state.hands[state.to_act]) >= 2 else None)
    return found


def panel_state(page: Any, step: int, timeout_ms: int = 60_000) -> str:
    """Poll from Python (the pages' CSP forbids the string evaluation wait_for_function would do) until the panel
    has answered for `step`."""
    for _ in range(timeout_ms // 50):
        state = page.get_attribute("#analysis", "data-state")
        if page.get_attribute("#analysis", "data-step") == str(step) and state not in (None, "loading"):
            return state
        page.wait_for_timeout(50)
    raise AssertionError(f"the panel did not answer for step {step}")


SHOWN = """() => {
  const cards = (li) => li.dataset.cards ? li.dataset.cards.split(" ") : [];
  const moves = [...document.querySelectorAll("#analysis li[data-move]")].map((li) => ({
    type: li.dataset.type, cards: cards(li), wins: li.dataset.wins === "true",
    drawn: [...li.querySelectorAll("[data-card]")].map((card) => card.dataset.card),
    label: li.querySelector(".verdict").textContent}));
  const line = [...document.querySelectorAll("#analysis li[data-line]")].map((li) => ({
    seat: Number(li.dataset.seat), cards: cards(li)}));
  const verdict = document.querySelector("#analysis .analysis-verdict");
  return {moves, line, side: verdict.dataset.side, sideWins: verdict.dataset.sideWins === "true",
          text: verdict.textContent};
}"""

FITS = """() => {
  const width = document.documentElement.clientWidth;
  const lost = [...document.querySelectorAll("#analysis [data-card], #analysis li")]
    .map((el) => el.getBoundingClientRect()).filter((box) => box.left < -0.5 || box.right > width + 0.5);
  return {lost: lost.length, scroll: document.documentElement.scrollWidth, width};
}"""


def test_the_panel_marks_each_play_as_fupan_analyse_does(browser: Any, site: Any, tmp_path: Path) -> None:
    for entry in reversed(site.deals):  # the last deal with a small endgame: demo deal 5
        response = site.live.get(f"/api/deals/{entry['deal_id']}/record")  # a finished deal's record is public
        assert response.status_code == 200, response.text[:300]
        record = response.json()
        step = late_step(record)
        if step is not None:
            deal = entry["deal_id"]
            break
    else:
        raise AssertionError("no demo deal ends in a small endgame")
    assert record["game"] == "doudizhu" and record.get("result")  # finished
    cut = {key: value for key, value in record.items() if key != "result"}
    cut["actions"] = record["actions"][:step]
    expected = fupan_analyse(cut, tmp_path)
    assert "moves" in expected and len(expected["moves"]) >= 2, expected

    offline = Offline(browser, site, PHONE)
    try:
        page = offline.page()
        open_viewer(page, site, deal=deal)
        go_to(page, step)
        # Lazy: nothing asked before opening. The panel marks itself loading before it asks (static/analysis.js), at
        # once on each step change: unmarked, it has asked nothing.
        assert page.get_attribute("#analysis", "data-state") is None
        assert not any("/analysis?" in url for url in offline.requested)
        page.click("#analysis > summary")
        assert panel_state(page, step) == "answer"
        shown = page.evaluate(SHOWN)
        assert shown["side"] == expected["side"] and shown["sideWins"] == expected["side_wins"]
        assert ("必胜" if expected["side_wins"] else "必败") in shown["text"]  # Chinese first
        assert [(m["type"], m["cards"], m["wins"]) for m in shown["moves"]] == \
            [(m["action"]["type"], m["action"].get("cards", []), m["wins"]) for m in expected["moves"]]
        for move in shown["moves"]:  # each play drawn as its cards, marked 胜 or 负
            assert move["drawn"] == move["cards"] and move["label"] == ("胜" if move["wins"] else "负")
        assert shown["line"] == [{"seat": a["seat"], "cards": a.get("cards", [])} for a in expected["line"]]
        for size in (PHONE, TABLET):
            page.set_viewport_size(size)
            fits = page.evaluate(FITS)
            assert fits["lost"] == 0 and fits["scroll"] <= fits["width"], (size, fits)
            assert page.is_visible("#analysis li[data-move]")
            page.locator("#analysis").scroll_into_view_if_needed()
            shot(page, f"analysis-panel-{size['width']}")

        go_to(page, 0)  # before any card is played: said plainly, no moves
        assert panel_state(page, 0) == "not-in-play"
        assert "出牌阶段" in page.inner_text("#analysis-body")
        assert page.query_selector("#analysis li[data-move]") is None
        go_to(page, step)  # kept: shown again without asking twice
        assert panel_state(page, step) == "answer"
        assert sum(f"/analysis?step={step}" in url for url in offline.requested) == 1
        assert offline.errors == []
    finally:
        offline.context.close()
    assert offline.left == []
