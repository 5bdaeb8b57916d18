"""The viewer on a phone, a tablet and a laptop, for every deal of the demo (tests/pages/test_viewer_browser.py's
headless Chromium, network cut off).

Every card of every hand drawn must lie inside the viewport's width and inside every ancestor that hides
overflow, and no page may scroll sideways — at each deal's first dealt step, the step where a hand holds the most
cards (the landlord with the kitty, the 升级 dealer before burying) and its last step, from every viewpoint the
public may open. Cheap by construction: one browser page, one load per deal; viewpoints and steps are changed
in the page by the viewer's own script (window.fupanViewer.load / go), each screen size by resizing the page,
and every card's box is measured in one evaluate per viewpoint and size.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
import viewer_support
from test_viewer_browser import Offline, pytestmark  # noqa: F401  (skipped without chromium, as its neighbours)
from viewer_support import DemoSite, open_viewer, start_demo_site

from domain.games import get_engine

SCREENS = {"phone": {"width": 390, "height": 844}, "tablet": {"width": 768, "height": 1024},
           "laptop": {"width": 1366, "height": 900}}

COMPASS = ["东", "南", "西", "北"]  # 升级's seats 0–3: the pairs are 东西 and 南北

site = viewer_support.site_fixture(start_demo_site, "viewer-screens")

# In the page: for each step asked for, show it and measure every card of every hand (faces and backs). A card
# is lost when its box leaves the viewport's width or the box of an ancestor whose overflow is not visible.
MEASURE = """async ([view, steps]) => {
  const viewer = window.fupanViewer;
  if (viewer.state.view !== view || !viewer.state.data) await viewer.load(view, steps[0][0]);
  if (!viewer.state.data) return {refused: true};
  const width = document.documentElement.clientWidth;
  const table = document.getElementById("table");
  const lost = [];
  for (const [step, cards] of steps) {
    viewer.go(step);
    // What hides overflow: the table's ancestors and anything inside it, looked at once a step.
    const clipping = [];
    for (let up = table; up && up !== document.documentElement; up = up.parentElement) clipping.push(up);
    table.querySelectorAll("*").forEach((element) => clipping.push(element));
    const boxes = clipping
      .filter((element) => {
        const style = getComputedStyle(element);
        return style.overflowX !== "visible" || style.overflowY !== "visible";
      })
      .map((element) => [element, element.getBoundingClientRect()]);
    const drawn = table.querySelectorAll(".hand .card");
    drawn.forEach((card) => {
      const box = card.getBoundingClientRect();
      const name = `${step}:${card.closest("[data-seat]")?.dataset.seat}:${card.dataset.card || "back"}`;
      if (box.left < -0.5 || box.right > width + 0.5) { lost.push(`${name} outside the viewport`); return; }
      const clip = boxes.find(([element, edge]) => element.contains(card) && (box.left < edge.left - 0.5 ||
        box.right > edge.right + 0.5 || box.top < edge.top - 0.5 || box.bottom > edge.bottom + 0.5));
      if (clip) lost.push(`${name} clipped by .${clip[0].className}`);
    });
    // The round's caption in the middle of the table reads as a phrase, not a character a line (首 / 出).
    table.querySelectorAll(".caption").forEach((caption) => {
      const line = parseFloat(getComputedStyle(caption).lineHeight);
      const lines = Math.round(caption.getBoundingClientRect().height / line);
      if (lines > 3 || (lines > 1 && caption.textContent.length / lines < 4)) {
        lost.push(`${step}: the caption "${caption.textContent}" takes ${lines} lines`);
      }
    });
    const scroll = document.documentElement.scrollWidth;
    if (scroll > width) lost.push(`${step}: the page scrolls sideways (${scroll} > ${width})`);
    if (cards && !drawn.length) lost.push(`${step}: no hand drawn`);
  }
  const marks = [...table.querySelectorAll(".seat[data-seat]")].map((seat) =>
    [Number(seat.dataset.seat), seat.querySelector(".seat-no").textContent]);
  return {refused: false, lost, marks};
}"""


def steps_to_check(frames: list[dict[str, Any]]) -> list[tuple[int, bool]]:
    """The first step at which a hand holds cards, the step where one holds the most, and the last step; each
    with whether any hand then holds a card (the referee's counts, which every viewpoint shares)."""
    def most(frame: dict[str, Any]) -> int:
        return max(seat["count"] for seat in frame["view"]["seats"])

    dealt = next(frame["step"] for frame in frames if most(frame) > 0)
    fullest = max(frames, key=most)["step"]
    return [(step, most(frames[step]) > 0) for step in sorted({dealt, fullest, frames[-1]["step"]})]


def demo_deals(site: DemoSite) -> list[tuple[str, str]]:
    """Every deal of every demo tournament, with its game."""
    service = site.live.service
    assert service is not None
    return [(tournament["game"], entry["deal_id"]) for tournament in service.tournaments.all()
            for match in service.tables.of_tournament(tournament["id"]) for entry in match["deals"]]


def deals_of_each_table(site: DemoSite) -> list[tuple[str, str]]:
    """Each demo table's first, middle and last deal, with its game: a table's deals share its players' names and
    its game's hand sizes, which are what a screen must fit; the hands themselves differ from deal to deal, so
    three of each table's (29 of the demo's 89) stand for the rest at a third of the time."""
    service = site.live.service
    assert service is not None
    chosen = []
    for tournament in service.tournaments.all():
        for match in service.tables.of_tournament(tournament["id"]):
            deals = [entry["deal_id"] for entry in match["deals"]]
            picks = sorted({0, len(deals) // 2, len(deals) - 1}) if deals else []
            chosen += [(tournament["game"], deals[index]) for index in picks]
    return chosen


def test_every_card_of_the_demo_tables_deals_fits_a_phone_a_tablet_and_a_laptop(
        site: DemoSite, offline: Offline) -> None:
    service = site.live.service
    assert service is not None
    page = offline.page()
    lost: list[str] = []
    checked = 0
    games = set()
    order_forward = True
    for game, deal in deals_of_each_table(site):
        referee = service.deals.replay_all(deal, "referee")
        steps = steps_to_check(referee["frames"])
        open_viewer(page, site, f"?step={steps[0][0]}&view=public", deal=deal)
        views = page.eval_on_selector_all("#viewpoints [data-view]", "buttons => buttons.map(b => b.dataset.view)")
        assert len(views) == len(referee["frames"][0]["view"]["seats"]) + 2  # the referee, every seat, the public
        views.remove("public")
        for view in ["public", *views]:  # the public's frames came with the page
            # Sizes snake (phone → laptop, then back): the page keeps its size from one viewpoint to the next.
            order = list(SCREENS.items()) if order_forward else list(SCREENS.items())[::-1]
            order_forward = not order_forward
            for screen, size in order:
                if page.viewport_size != size:
                    page.set_viewport_size(size)
                answer = page.evaluate(MEASURE, [view, steps])
                # A finished deal is published: the public may open every viewpoint (docs/SECURITY.md §4).
                assert not answer["refused"], (game, deal, view)
                lost += [f"{game} {deal} {view} {screen} step {where}" for where in answer["lost"]]
                # Seats as people count them: from 1, 升级's by the compass; `data-seat` counts from 0.
                # a seat's badge shows the game's own word for it (升级 东南西北), else nothing: never a number
                marks = COMPASS if game == "shengji" else ["" for _ in range(len(answer["marks"]))]
                assert sorted(answer["marks"]) == [[seat, mark] for seat, mark in enumerate(marks)], (deal, view)
                checked += len(steps)
        games.add(game)
    assert games == {"doudizhu", "shengji", "sandayi", "wakeng", "daguai"}
    assert checked > 300
    assert lost == [], f"{len(lost)} lost of {checked} screens checked:\n" + "\n".join(lost[:40])
    assert offline.errors == []


WIDTHS = "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"


def test_no_page_of_the_demo_scrolls_sideways(site: DemoSite, offline: Offline) -> None:
    """Every page type of every demo tournament (list, tournament, table, standings, record, finding deals,
    travellers) at each screen size: the page itself never scrolls sideways; a wide table scrolls inside its own
    box. Each page is loaded once and measured at the three sizes by resizing it."""
    service = site.live.service
    assert service is not None
    page = offline.page()
    paths = ["/", "/deals"]
    for tournament in service.tournaments.all():
        matches = service.tables.of_tournament(tournament["id"])
        paths += [f"/tournaments/{tournament['id']}", f"/tournaments/{tournament['id']}/standings",
                  f"/matches/{matches[0]['id']}", f"/matches/{matches[0]['id']}/travellers",
                  f"/deals/{matches[0]['deals'][0]['deal_id']}/record"]
    wide = []
    for path in paths:
        page.set_viewport_size(SCREENS["phone"])
        page.goto(site.url + path)
        if path.endswith("/standings"):  # drawn by its script from the API
            page.wait_for_selector("#standings-table tbody tr, #standings-status[data-state]")
        for screen, size in SCREENS.items():
            if page.viewport_size != size:
                page.set_viewport_size(size)
            scroll, width = page.evaluate(WIDTHS)
            if scroll > width:
                wide.append(f"{path} ({screen}): {scroll} > {width}")
            # a box that scrolls sideways shows it has more (its edge shades), or a person never finds the rest
            unmarked = page.evaluate(UNMARKED_SCROLLERS)
            if unmarked:
                wide.append(f"{path} ({screen}): scrolls with no shade: {unmarked}")
    assert wide == []


UNMARKED_SCROLLERS = """() => [...document.querySelectorAll("body *")].filter((el) => el.clientWidth > 0
  && el.scrollWidth > el.clientWidth + 1 && ["auto", "scroll"].includes(getComputedStyle(el).overflowX)
  && !getComputedStyle(el).backgroundImage.includes("radial-gradient")).map((el) => el.tagName + "." + el.className)"""


# Per row of a tournament's tables: how many lines its seat names take against how many names (a name broken
# across lines takes more), whether the column names show beside the cells, and the header's display.
TABLE_ROWS = """(table) => [...document.querySelectorAll(`${table} tbody tr`)].map((row) => {
  // The seats cell: each name its own span (the separator is the page language's, 、 or a comma), a box per line.
  const names = [...row.querySelectorAll("td[data-seats] .seat-name")];
  const broken = names.filter((name) => name.getClientRects().length !== 1).map((name) => name.textContent);
  const label = row.querySelector(".cell-label");
  return {names: names.length, broken, labelled: getComputedStyle(label).display !== "none",
          header: getComputedStyle(document.querySelector(`${table} thead`)).display};
})"""


def test_a_tournaments_tables_read_as_cards_on_a_phone_and_as_columns_on_a_laptop(
        site: DemoSite, offline: Offline) -> None:
    """On a phone each table is a card — its name and status, then seats, standing, deals and winner each after
    its column's name — and no player's name is broken across lines, there, in the standings or in a table's
    deals; on a tablet and a laptop, columns."""
    service = site.live.service
    assert service is not None
    page = offline.page()
    tournament = service.tournaments.all()[0]
    page.set_viewport_size(SCREENS["phone"])
    page.goto(f"{site.url}/tournaments/{tournament['id']}")
    for screen, size in SCREENS.items():
        page.set_viewport_size(size)
        rows = page.evaluate(TABLE_ROWS, "#tables")
        assert len(rows) == len(service.tables.of_tournament(tournament["id"])) > 1
        assert {row["names"] for row in rows} == {3}
        assert [row["broken"] for row in rows] == [[] for _ in rows], screen
        assert {(row["labelled"], row["header"]) for row in rows} == (
            {(True, "none")} if screen == "phone" else {(False, "table-header-group")}), screen
    # The deals found (/deals) are cards on a phone too.
    page.goto(f"{site.url}/deals")
    for screen in ("phone", "tablet", "laptop"):
        page.set_viewport_size(SCREENS[screen])
        rows = page.evaluate(TABLE_ROWS, "#found-deals")
        # every column in sight, the links last: the table needs no scrolling in its box from a tablet up
        table, box = page.eval_on_selector("#found-deals", "t => [t.scrollWidth, t.parentElement.clientWidth]")
        assert screen == "phone" or table <= box, (screen, table, box)
        assert len(rows) > 50 and min(row["names"] for row in rows) >= 3
        assert [row["broken"] for row in rows] == [[] for _ in rows], screen
        assert {row["labelled"] for row in rows} == {screen == "phone"}, screen
    # The standings' names are whole too on a phone (the table scrolls inside its box if it must).
    page.set_viewport_size(SCREENS["phone"])
    page.goto(f"{site.url}/tournaments/{tournament['id']}/standings")
    page.wait_for_selector("#standings-table [data-explain]")
    broken = page.eval_on_selector_all("#standings-table [data-explain]", """links => links
      .filter((link) => link.getClientRects().length > 1).map((link) => link.textContent)""")
    assert broken == []
    # And a table's deals: a cell holding a name (首叫, 地主) is one line; the table scrolls in its box instead.
    match = service.tables.of_tournament(tournament["id"])[0]
    page.goto(f"{site.url}/matches/{match['id']}")
    tall = page.eval_on_selector_all("table.deals tbody td", """(cells, names) => cells
      .filter((cell) => names.includes(cell.textContent.trim()))
      .filter((cell) => { const text = document.createRange(); text.selectNodeContents(cell);
        return text.getClientRects().length > 1; })  // a box per line the name takes
      .map((cell) => cell.textContent.trim())""", match["seat_names"])
    assert tall == [] and page.evaluate(WIDTHS)[0] <= SCREENS["phone"]["width"]
    # With names whole, the 升级 and 大怪路子 tables of deals still fit their box on a tablet held upright.
    page.set_viewport_size(SCREENS["tablet"])
    for game in ("shengji", "daguai"):
        for other in (t for t in service.tournaments.all() if t["game"] == game):
            page.goto(f"{site.url}/matches/{service.tables.of_tournament(other['id'])[0]['id']}")
            table, box = page.eval_on_selector("table.deals", "t => [t.scrollWidth, t.parentElement.clientWidth]")
            assert table <= box, (game, table, box)
    page.set_viewport_size(SCREENS["phone"])
    # Nor a table's name in a traveller's narrow first column (第 1 / 桌 across two lines).
    wakeng = next(t for t in service.tournaments.all() if t["game"] == "wakeng")
    page.goto(f"{site.url}/matches/{service.tables.of_tournament(wakeng['id'])[0]['id']}/travellers")
    names = page.eval_on_selector_all("table.data tbody td:first-child .zh", """names => names.map((name) =>
      [name.textContent, name.getClientRects().length])""")  # an inline box per line it takes
    assert len(names) > 4 and [name for name, lines in names if lines != 1] == []
    assert offline.errors == []


FIRST_LOAD_LIMIT = 1_500_000  # bytes over the wire (docs/PERFORMANCE.md, "The deal viewer's first load")


def test_the_deal_viewers_first_load_transfers_at_most_one_and_a_half_megabytes(
        site: DemoSite, browser: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """The longest demo deal (a 大怪路子 deal of six hands) opened in a fresh browser, nothing cached: the page, its
    styles and scripts and its frames, summed as the browser counts them (Resource Timing's transferSize: the
    compressed bodies and their headers)."""
    service = site.live.service
    assert service is not None
    longest = max((service.deals.replay_all(deal, "referee")["total"], deal) for _, deal in demo_deals(site))[1]
    context = Offline(browser, site, SCREENS["phone"])
    try:
        page = context.page()
        open_viewer(page, site, "?step=0&view=referee", deal=longest)
        sizes = page.evaluate("""() => [performance.getEntriesByType("navigation")[0],
            ...performance.getEntriesByType("resource")].map(e => [e.name, e.transferSize, e.decodedBodySize])""")
    finally:
        context.context.close()
    sent = sum(size for _, size, _ in sizes)
    decoded = sum(size for _, _, size in sizes)
    with capsys.disabled():
        print(f"\ndeal viewer first load: {len(sizes)} requests, {sent} bytes over the wire, {decoded} decoded")
    assert any("/frames" in name for name, _, _ in sizes) and not any("plotly" in name for name, _, _ in sizes)
    assert decoded > 500_000  # the frames of a long deal: what compression is for
    assert sent <= FIRST_LOAD_LIMIT, sizes


def test_a_seat_reads_as_its_players_name_with_the_games_own_word(site: DemoSite) -> None:
    """The viewpoint buttons and the record's players: the player's name, with 升级's 东南西北 (issue 23, defect
    10: a person reads names, never seat numbers); the data keeps 0 … n-1."""
    service = site.live.service
    assert service is not None
    for tournament in service.tournaments.all():
        deal = service.tables.of_tournament(tournament["id"])[0]["deals"][0]["deal_id"]
        names = service.tables.get(service.tables.of_tournament(tournament["id"])[0]["id"])["seat_names"]
        shengji = tournament["game"] == "shengji"
        called = [f"{name}（{mark}）" if shengji else name for name, mark in zip(names, COMPASS * 2, strict=False)]
        viewer = viewer_support.page_of(site, f"/deals/{deal}")
        for seat, text in enumerate(called):
            assert f'data-view="seat:{seat}"><span class="zh" lang="zh-CN">{text}</span>' in viewer
        assert not re.search(r"\d 号位", viewer)
        record = viewer_support.page_of(site, f"/deals/{deal}/record")
        tags = re.findall(r'<span class="seat-tag">(?:<span class="zh" lang="zh-CN">)?([^<]+)<', record)
        assert tags == called, tournament["game"]


def test_fouls_read_in_the_language_chosen_and_tables_say_why_a_score_fell(site: DemoSite) -> None:
    """A foul is named as the game's rules name it (说话, not `talking`) and a note written "中文 / English" shows
    the half of the language chosen, in the steps in words; each table of deals lists a deal's fouls and
    penalties under its row (who, what, how much)."""
    service = site.live.service
    assert service is not None
    fouls = marked = 0
    for tournament in service.tournaments.all():
        game = tournament["game"]
        codes = {code: (zh, en) for code, zh, en in get_engine(game).foul_codes}
        for match in service.tables.of_tournament(tournament["id"]):
            page = viewer_support.page_of(site, f"/matches/{match['id']}")
            rows = page.split('<tr class="deal-marks">')
            table_fouls = fouls
            for entry in match["deals"]:
                frames = site.live.get(f"/ui-api/deals/{entry['deal_id']}/frames").json()["frames"]
                for frame in frames:
                    action = frame["action"] or {}
                    if action.get("type") != "foul":
                        continue
                    fouls += 1
                    zh, en = frame["notation"]["zh"], frame["notation"]["en"]
                    name_zh, name_en = codes[action["code"]]
                    assert name_zh in zh and (action["code"] not in zh or action["code"] in name_zh), zh
                    assert name_en in en and name_zh not in en, en
                    if " / " in action.get("note", ""):
                        note_zh, note_en = action["note"].split(" / ", 1)
                        assert note_zh in zh and note_en not in zh and note_en in en and note_zh not in en
            marked += len(rows) - 1
            # A table's fouls are on the lines under their deals' rows (beside an appeal's or a correction's marks).
            if fouls > table_fouls:
                lines = [row.split("</tr>")[0] for row in rows[1:]]
                assert any("犯规" in line or "罚" in line for line in lines), lines
    assert fouls >= 3 and marked >= 3



def test_a_deal_dealt_card_by_card_is_recorded_with_its_hands_and_says_it_is_being_dealt(site: DemoSite) -> None:
    """升级 declares while dealing (§3.3): its step 0 has no cards yet and says dealing begins, the steps that
    deal say how far the dealing had come, and the printable record lists every hand as dealt (25 cards)."""
    service = site.live.service
    assert service is not None
    for tournament in service.tournaments.all():
        if tournament["game"] != "shengji":
            continue
        deal = service.tables.of_tournament(tournament["id"])[0]["deals"][0]["deal_id"]
        frames = site.live.get(f"/ui-api/deals/{deal}/frames").json()["frames"]
        assert frames[0]["notation"]["zh"].startswith("开始发牌") and "发牌完毕" not in frames[0]["notation"]["zh"]
        assert all(seat["count"] == 0 for seat in frames[0]["view"]["seats"])
        dealing = next(frame for frame in frames[1:] if frame["view"]["dealt"] > 0)
        assert f"已发出 {dealing['view']['dealt']}/100 张" in dealing["notation"]["zh"]
        dealt = next(frame["view"] for frame in frames if frame["view"]["phase"] != "dealing")
        record = viewer_support.page_of(site, f"/deals/{deal}/record")
        hands = record.split('<table class="hands">')[1].split("</table>")[0]
        rows = [re.findall(r'data-card="(\w+)"', row) for row in hands.split("<tr>")[1:]]
        assert [sorted(row) for row in rows[:4]] == [sorted(seat["hand"]) for seat in dealt["seats"]]
        assert all(len(row) == 25 for row in rows[:4]) and len(rows[4]) == 8  # four hands, then the kitty


MARKS = """() => [...document.querySelectorAll("#marks .mark")].map((mark) => {
  const box = mark.getBoundingClientRect();
  return {step: mark.dataset.step, box: [box.left, box.top, box.right, box.bottom],
          dots: [...mark.querySelectorAll(".mk")].map((dot) => [dot.classList[1], dot.textContent])};
})"""


def overlapping(marks: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """Pairs of timeline marks whose boxes overlap."""
    found = []
    for index, one in enumerate(marks):
        for other in marks[index + 1:]:
            a, b = one["box"], other["box"]
            if a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5:
                found.append((one["step"], other["step"]))
    return found


def test_timeline_marks_are_told_apart_and_never_overlap_and_a_refused_view_says_nothing_of_the_last(
        site: DemoSite, offline: Offline) -> None:
    service = site.live.service
    assert service is not None
    def tags(deal: str) -> list[str]:
        frames = site.live.get(f"/ui-api/deals/{deal}/frames?viewpoint=referee").json()["frames"]
        return [tag for frame in frames for tag in frame["notation"]["tags"]]

    # A 大怪路子 deal with a foul and a 五同 (in English both began with F), the most marked of them.
    daguai = max((deal for game, deal in demo_deals(site) if game == "daguai"),
                 key=lambda deal: ("foul" in tags(deal) and "five" in tags(deal), len(tags(deal))))
    page = offline.page()
    page.set_viewport_size(SCREENS["phone"])
    open_viewer(page, site, "?step=0&view=referee", deal=daguai)
    for language in ("zh", "en"):
        marks = page.evaluate(MARKS)
        assert len(marks) >= 8
        labels: dict[str, str] = {}
        for mark in marks:
            for tag, label in mark["dots"]:
                assert labels.setdefault(tag, label) == label
        assert len(set(labels.values())) == len(labels), labels  # one mark's letters, one meaning
        assert overlapping(marks) == [], language
        if language == "zh":
            page.click("#lang-toggle")
    assert labels["foul"] != labels["five"]  # in English both were "F"
    page.click("#lang-toggle")

    deal, _ = viewer_support.start_live_deal(site, "screens-refused", actions=4)
    open_viewer(page, site, "?step=3&view=public", deal=deal)
    assert page.inner_text("#step-text") and page.inner_text("#step-label")
    page.click('[data-view="seat:1"]')
    page.wait_for_selector('body[data-ready="error"]')
    assert page.inner_text("#step-text") == "" and page.inner_text("#step-label") == ""
    assert "无法以这个视角查看" in page.inner_text("#table")


def test_the_play_record_lists_every_round_by_seat_and_the_viewer_steps_to_the_next_deal(
        site: DemoSite, offline: Offline) -> None:
    """Beside the table: a row per round (升级: trick) so far, each seat's moves in it, and each seat's cards
    played so far (a committee's card count); the previous and next deal of the table open from the same
    viewpoint."""
    service = site.live.service
    assert service is not None
    page = offline.page()
    for game in ("doudizhu", "shengji"):
        match = next(m for t in service.tournaments.all() if t["game"] == game
                     for m in service.tables.of_tournament(t["id"]))
        deals = [entry["deal_id"] for entry in match["deals"]]
        frames = service.deals.replay_all(deals[1], "referee")["frames"]
        step = len(frames) * 2 // 3
        open_viewer(page, site, f"?step={step}&view=seat:1", deal=deals[1])
        view = frames[step]["view"]
        rounds = (view.get("rounds_played", view.get("tricks_played")) or 0) + (1 if step < len(frames) - 1 else 0)
        shown = page.locator("#play-record tbody tr").count()
        assert shown in (rounds, rounds - 1), (game, shown, rounds)  # the round on the table, once someone led it
        for seat in range(len(view["seats"])):
            played = page.eval_on_selector_all(f"#play-record tfoot td[data-seat='{seat}'] [data-code]",
                                               "cards => cards.map(card => card.dataset.code)")
            if "played" in view["seats"][seat]:
                assert played == view["seats"][seat]["played"], (game, seat)
            else:  # 升级: the seat's cards of the tricks closed and of the trick on the table
                plays = [play for trick in [*view["tricks"], view["trick"]] for play in trick["plays"]]
                assert played == [card for play in plays if play["seat"] == seat for card in play["cards"]], game
        assert page.locator("#play-record .move.now").count() <= 1
        page.click("#next-deal")
        page.wait_for_selector('body[data-ready="1"]')
        assert f"/deals/{deals[2]}" in page.url and page.get_attribute("body", "data-viewpoint") == "seat:1"
        page.click("#previous-deal")
        page.wait_for_selector('body[data-ready="1"]')
        assert f"/deals/{deals[1]}" in page.url
    assert offline.errors == []


def test_deals_are_found_by_where_who_and_what_happened_and_a_deal_on_its_own_is_listed(site: DemoSite) -> None:
    service = site.live.service
    assert service is not None
    every = demo_deals(site)
    alone, _ = viewer_support.start_live_deal(site, "screens-alone", actions=2)  # POST /api/deals: no table

    def found(query: str = "") -> list[str]:
        page = viewer_support.page_of(site, f"/deals{query}")
        return re.findall(r'<tr data-deal-id="([0-9a-f-]+)">', page)

    on_its_own = found("?tournament=-")  # the other tests of this module may have started some too
    assert alone in on_its_own and all(service.deals.get(deal)["match_id"] is None for deal in on_its_own)
    assert set(found()) == {deal for _, deal in every} | set(on_its_own)
    assert 'href="/deals?tournament=-"' in viewer_support.page_of(site, f"/deals/{alone}")  # its page says where
    assert 'id="find-link"' in viewer_support.page_of(site, "/")
    shengji = {deal for game, deal in every if game == "shengji"}
    assert set(found("?game=shengji")) == shengji
    player = service.tables.of_tournament(service.tournaments.all()[0]["id"])[0]["seat_names"][0]
    with_player = set(found(f"?player={player}"))
    assert with_player and all(player in service.deals.get(deal)["seats"] or
                               player in service.tables.get(service.deals.get(deal)["match_id"])["seat_names"]
                               for deal in with_player)
    fouled = {deal for _, deal in every
              if any(step["action"] and step["action"]["type"] == "foul"
                     for step in service.deals.replay_all(deal, "public")["frames"])}
    assert set(found("?has=foul")) == fouled and fouled
    noted = {deal for _, deal in every if service.deals.get(deal)["annotations"]}
    assert set(found("?has=annotation")) == noted and noted
    assert set(found("?has=penalty&game=shengji")) <= shengji
    appealed = set(found("?has=appeal"))  # the demo's own, and any another test of this module filed first
    one_round = next(t for t in service.tournaments.all() if t["game"] == "sandayi")  # no round paired after it
    service.appeals.set_rules(one_round["id"], 1440, [])  # a day: however long this module has run
    table = service.tables.of_tournament(one_round["id"])[0]
    # a deal nobody appealed yet (another test of this module may have filed against this table's second deal)
    disputed = next(entry["deal_id"] for entry in table["deals"][1:] if entry["deal_id"] not in appealed)
    service.appeals.file(table["id"], {"kind": "deal", "deal_id": disputed}, "scoring_error", "计分有误")
    assert set(found("?has=appeal")) == appealed | {disputed}  # an appeal filed with the committee against it


def test_a_table_the_organiser_closed_names_who_it_placed_first_not_the_organiser(site: DemoSite) -> None:
    """The 斗地主 加赛 is closed by the organiser once it separated the tied players: its winner column names the
    player it placed first (the most chips), and the reason shows in the language chosen."""
    service = site.live.service
    assert service is not None
    tournament = service.tournaments.all()[0]
    extra = next(m for m in service.tables.of_tournament(tournament["id"]) if m["ended_by"] == "closed")
    first = extra["seat_names"][extra["chips"].index(max(extra["chips"]))]
    page = viewer_support.page_of(site, f"/tournaments/{tournament['id']}")
    row = next(row for row in page.split("<tr>") if f"/matches/{extra['id']}" in row)
    winner = row.split("</td>")[-2]
    assert f"<strong>{first}</strong>" in winner and "组织者结束本桌" in winner
    zh = re.findall(r'<span class="zh" lang="zh-CN">([^<]*)</span>', winner)
    assert any("加赛已分出名次" in text for text in zh) and not any("the extra deals" in text for text in zh)


def test_a_duplicate_traveller_sets_every_table_on_a_board_side_by_side_with_its_matchpoints(site: DemoSite) -> None:
    """挖坑's boards: each board of a table, every table of the round that played it, seat by seat, with the
    matchpoints the standings gave (2 a higher score in the same seat at another table, 1 an equal, 0 a lower:
    docs/rules/wakeng.md B7), each row linked to its replay."""
    service = site.live.service
    assert service is not None
    tournament = next(t for t in service.tournaments.all() if t["game"] == "wakeng")
    tables = service.tables.of_tournament(tournament["id"])
    first = tables[0]
    assert f"/matches/{first['id']}/travellers" in viewer_support.page_of(site, f"/matches/{first['id']}")
    page = viewer_support.page_of(site, f"/matches/{first['id']}/travellers")
    scores: dict[int, dict[str, list[int]]] = {}  # board → deal → scores
    for table in tables:
        for entry in table["deals"]:
            deal = service.deals.get(entry["deal_id"])
            scores.setdefault(deal["context"]["board"], {})[deal["id"]] = deal["result"]["scores"]
    sections = re.findall(r'<section class="panel traveller" data-board="(\d+)">(.*?)</section>', page, re.S)
    assert [int(board) for board, _ in sections] == sorted(scores)
    for board, html in sections:
        played = scores[int(board)]
        rows = re.findall(r'<tr data-table="[^"]*" data-deal-id="([0-9a-f-]+)"[^>]*>(.*?)</tr>', html, re.S)
        assert {deal for deal, _ in rows} == set(played) and len(rows) == len(tables)
        for deal, row in rows:
            assert f'href="/deals/{deal}"' in row
            mps = [int(mp) for mp in re.findall(r'data-mp="(\d+)"', row)]
            expected = [sum(2 if played[deal][seat] > other[seat] else 1 if played[deal][seat] == other[seat] else 0
                            for key, other in played.items() if key != deal) for seat in range(3)]
            assert mps == expected, (board, deal)


def test_the_chip_tables_figures_come_from_the_game_not_the_generic_pages(site: DemoSite) -> None:
    """斗地主's start-and-target line and its chips-after row are its plugin's (replay_ui/games/doudizhu/:
    summary.html, record_rows.html): a chip table shows them, a 升级 table and record do not."""
    service = site.live.service
    assert service is not None
    seen = {}
    for tournament in service.tournaments.all():
        match = service.tables.of_tournament(tournament["id"])[0]
        page = viewer_support.page_of(site, f"/matches/{match['id']}").split('id="fupan-strings"')[0]
        record = viewer_support.page_of(site, f"/deals/{match['deals'][0]['deal_id']}/record")
        seen[tournament["game"]] = ("起始筹码" in page, "局后筹码" in record.split('id="fupan-strings"')[0])
    assert seen.pop("doudizhu") == (True, True)
    assert set(seen.values()) == {(False, False)}


# What a Chinese page may show in Latin letters: card codes and ranks (S10, BJ; the A of ♠A), the joker's face
# (JOKER), digests and ids (hexadecimal), the language switch (English, for those who need it), the key caps
# Home / End and the names of file formats and a hash (PDF, JSON, CSV, SHA-256). Text in <code> is a code as
# recorded (an option's key and value as the record stores it, a tiebreak's code to type) and is not read.
CARD_CODE = re.compile(r"^(?:[SHCD](?:10|[2-9JQKA])|BJ|LJ|[JQKA])$")
HEX = re.compile(r"^[0-9a-f]{8,}$")
LATIN_ALLOWED = {"JOKER", "English", "Home", "End", "PDF", "JSON", "CSV", "SHA"}
# `opened`: with every <details> opened first (a closed panel's text is not rendered, so not in innerText).
READ = """(opened) => {
  if (opened) document.querySelectorAll("details").forEach((details) => { details.open = true; });
  const codes = [...document.querySelectorAll("code")];
  codes.forEach((code) => { code.dataset.display = code.style.display; code.style.display = "none"; });
  const text = document.body.innerText;
  codes.forEach((code) => { code.style.display = code.dataset.display; });
  return text;
}"""


def english_words(text: str) -> list[str]:
    words = re.findall(r"[A-Za-z0-9_]*[A-Za-z][A-Za-z0-9_]*", text)
    return [word for word in words if not (CARD_CODE.match(word) or HEX.match(word) or word in LATIN_ALLOWED)]


def test_no_english_word_in_any_chinese_page_of_the_demo(site: DemoSite, offline: Offline) -> None:
    """The rendered text (what a reader sees, document.body.innerText) of every page type of every demo
    tournament in Chinese: the list, the tournament, its standings, a table, the deal viewer at its first and
    last step from the referee's and a seat's viewpoint, the printable record, finding deals, travellers."""
    service = site.live.service
    assert service is not None
    page = offline.page()
    found: dict[str, list[str]] = {}

    def read(path: str, ready: str | None = None) -> None:
        page.goto(site.url + path)
        if ready:
            page.wait_for_selector(ready)
        words = english_words(page.evaluate(READ))
        if words:
            found[path] = sorted(set(words))

    read("/")
    read("/deals?has=foul")
    for index, tournament in enumerate(service.tournaments.all()):
        match = service.tables.of_tournament(tournament["id"])[0]
        deal = match["deals"][-1]["deal_id"]
        # The charts' words are charts.js's, alike for every game: drawn and read for the first tournament only.
        chart = " svg.main-svg" if index == 0 else ""
        read(f"/tournaments/{tournament['id']}")
        read(f"/tournaments/{tournament['id']}/standings",
             f"#standings-chart{chart}" if chart else "#standings-table tbody tr, #standings-status[data-state]")
        read(f"/matches/{match['id']}", f"#match-chart{chart}")
        read(f"/matches/{match['id']}/travellers")
        read(f"/deals/{deal}/record")
        for view in ("seat:1",):
            read(f"/deals/{deal}?step=0&view={view}", 'body[data-ready="1"]')
            page.keyboard.press("End")
            words = english_words(page.evaluate(READ))
            if words:
                found[f"/deals/{deal}?view={view} (last step)"] = sorted(set(words))
    assert found == {}, "\n".join(f"{path}: {words}" for path, words in found.items())


def until(page: Any, ready: Any, timeout_ms: int = 30_000) -> None:
    """Poll from Python (the pages' CSP forbids the string evaluation wait_for_function would do)."""
    for _ in range(timeout_ms // 50):
        if ready():
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"{page.url} never got ready")


def a_demo_appeal(site: DemoSite) -> tuple[str, str]:
    """The demo's appeal (tournament, appeal): one filed with the 三打一 table's second deal if none is — with a
    piece of evidence, the chief referee's ruling and its appeal to the committee, so that its page shows every
    part and the committee's form."""
    service = site.live.service
    assert service is not None
    tournament = next(t for t in service.tournaments.all() if t["game"] == "sandayi")
    table = service.tables.of_tournament(tournament["id"])[0]
    deal = table["deals"][1]["deal_id"]
    filed = service.appeals.of_tournament(tournament["id"])  # the finder's test above files this very appeal
    if not filed:
        service.appeals.set_rules(tournament["id"], 1440, [])
        service.appeals.file(table["id"], {"kind": "deal", "deal_id": deal}, "scoring_error", "计分有误")
        filed = service.appeals.of_tournament(tournament["id"])
    appeal = filed[0]["appeal_id"]
    if filed[0]["status"] != "filed":
        return tournament["id"], appeal
    service.appeals.add_evidence(appeal, {"deal_id": deal, "step": 3, "viewpoint": "seat:1"}, "第三步的牌")
    scores = service.deals.get(deal)["result"]["scores"]
    service.rulings.rule(appeal, {"kind": "assigned", "scores": scores}, "维持原判")
    service.appeals.appeal_ruling(appeal, "不服裁决")
    return tournament["id"], appeal


def test_no_english_word_in_the_signed_in_pages_appeals_rounds_rules_and_panels_in_chinese(
        site: DemoSite, offline: Offline) -> None:
    """The page types the reader's scan above does not open, one of each: the organiser console (its home, a
    tournament's console, a round's seating sheet), the recording pad of a live deal and of a table, signed in as
    the organiser (the token in the tab, as the pages keep it); a tournament's appeals, an appeal's page, its
    report and its result-blind review, a standing explained; a round's digest page; the rules of all five games;
    the deal viewer from the referee's viewpoint with every panel open (the 分析 panel at a step of play and
    before it, the annotation form, the token form); a page that is not found. Read as the reader sees them in
    Chinese, every <details> opened."""
    service = site.live.service
    assert service is not None
    page = offline.page()
    found: dict[str, list[str]] = {}

    def read(path: str, ready: Any = None) -> None:
        if path:
            page.goto(site.url + path)
        if ready:
            until(page, ready)
        words = english_words(page.evaluate(READ, True))
        if words:
            found[path or page.url] = sorted(set(words))

    tournament = service.tournaments.all()[0]  # 斗地主: rounds, a final, a play-off, an adjustment
    match = service.tables.of_tournament(tournament["id"])[0]
    deal = match["deals"][-1]["deal_id"]
    page.goto(site.url + "/")
    page.evaluate("token => sessionStorage.setItem('fupan.token', token)", site.live.organiser)

    def console_ready() -> bool:
        return page.get_attribute("#console", "data-console-state") == "ready"

    read("/console", console_ready)
    read(f"/console/tournaments/{tournament['id']}", console_ready)
    read(f"/console/tournaments/{tournament['id']}/rounds/1/seating")

    def pad_ready() -> bool:
        return page.locator("#pad-body .loading").count() == 0  # the deal's (or the table's) answer drawn

    live, _ = viewer_support.start_live_deal(site, "screens-english-pad", actions=2)
    read(f"/deals/{live}/pad", pad_ready)
    read(f"/matches/{match['id']}/pad", pad_ready)

    appeal_tournament, appeal = a_demo_appeal(site)
    read(f"/tournaments/{appeal_tournament}/appeals")
    read(f"/appeals/{appeal}")
    read(f"/appeals/{appeal}/report")
    read(f"/appeals/{appeal}/review?view=seat:1", lambda: page.get_attribute("body", "data-ready") == "1")
    moved = (next(iter(service.appeals.get(appeal)["applied"]), None)
             or service.tournaments.players(appeal_tournament)[0]["id"])
    read(f"/tournaments/{appeal_tournament}/standings/{moved}")  # a standing explained, the appeal's outcome in it
    read(f"/tournaments/{tournament['id']}/rounds/1")
    for game in ("doudizhu", "shengji", "sandayi", "wakeng", "daguai"):
        read(f"/rules/{game}")
    page.click("#lang-toggle")  # the language switch turns the rules page to the English document, and back
    assert page.is_visible("article.en[data-rules-lang=en]") and not page.is_visible("article.zh")
    assert "the rules fupan implements" in page.inner_text("#rules-doc")
    page.click("#lang-toggle")
    assert page.is_visible("article.zh") and not page.is_visible("article.en")
    read("/deals/00000000-0000-0000-0000-000000000000")  # not found: the error page

    frames = service.deals.replay_all(deal, "referee")["frames"]
    in_play = next(frame["step"] for frame in reversed(frames) if frame["view"]["phase"] == "play"
                   and frame["step"] < len(frames) - 1)

    def panel_at(step: int) -> Any:
        return lambda: (page.get_attribute("#analysis", "data-step") == str(step)
                        and page.get_attribute("#analysis", "data-state") not in (None, "loading"))

    read(f"/deals/{deal}?step=0&view=referee", lambda: page.get_attribute("body", "data-ready") == "1")
    read("", panel_at(0))  # the panel, opened by the first reading, before the play
    page.evaluate("step => window.fupanViewer.go(step)", in_play)
    read("", panel_at(in_play))
    assert found == {}, "\n".join(f"{path}: {words}" for path, words in found.items())


def test_standings_charts_draw_only_rounds_played_and_a_single_round_as_bars(site: DemoSite, offline: Offline) -> None:
    """A knocked-out player's line stops at the last round they played; a tournament of one round is a bar per
    player (a line of one point was a column of dots); the page says how many tables are over, not an event
    counter."""
    service = site.live.service
    assert service is not None
    page = offline.page()
    knockout = service.tournaments.all()[0]  # 斗地主: tables, a final, a play-off
    swiss = next(t for t in service.tournaments.all() if t["game"] == "wakeng")  # one round
    standings = site.live.get(f"/api/tournaments/{knockout['id']}/standings").json()
    played = {row["name"]: {match["round"] for match in row["matches"]} for row in standings["rows"]}
    rounds = [stage["round"] for stage in standings["progression"]]
    page.goto(f"{site.url}/tournaments/{knockout['id']}/standings")
    page.wait_for_selector("#standings-chart svg.main-svg")
    traces = page.eval_on_selector("#standings-chart", "chart => chart.data.map(t => [t.name, t.type, t.y])")
    assert len(traces) == len(played)
    for name, kind, values in traces:
        assert kind == "scatter"
        drawn = {round_ for round_, value in zip(rounds, values, strict=True) if value is not None}
        assert drawn == ({rounds[0]} | played[name]) & set(rounds), name
    assert any(len(rounds_) == 1 for rounds_ in played.values())  # somebody was knocked out in round 1
    meta = page.inner_text("#standings-meta")
    assert "事件" not in meta and f"已结束 {len(standings['tables'])} / {len(standings['tables'])} 桌" in meta
    page.goto(f"{site.url}/tournaments/{swiss['id']}/standings")
    page.wait_for_selector("#standings-chart svg.main-svg")
    bars = page.eval_on_selector("#standings-chart", "chart => chart.data.map(t => [t.type, t.orientation, t.y])")
    assert len(bars) == 1 and bars[0][:2] == ["bar", "h"] and len(bars[0][2]) == len(swiss["players"])
