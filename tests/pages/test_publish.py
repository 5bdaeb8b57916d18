"""Publishing (replay_ui/publishing: publish.py, pdf.py, documents.py): `fupan publish` writes a static site
that Chromium opens from file:// with every network request blocked — it steps through a deal, shows its
annotations in the chosen language and draws the charts; the printable records' PDFs hold every hand
(pdftotext); the downloads are records `fupan import` reads back; the rules pages say what was played under.
A small tournament of our own on a real SQLite file, published by the real CLI."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from file_site import files_only
from game_support import example_deal, example_table
from paths import ROOT

from cli.main import main
from domain.games import GAMES
from domain.services.fupan import Fupan
from replay_ui.shared.cards import card_text
from web.app import create_app

FIXTURES = ROOT / "fixtures"
CHROMIUM = Path("/usr/bin/chromium")
NOTES = [
    {"step": 0, "glyph": "!?", "text": "地主手里有火箭", "text_en": "The landlord holds the rocket",
     "author": "王老师"},
    {"step": 5, "glyph": "??", "text": "这手牌出错了", "text_en": "This play is a blunder", "author": "王老师"},
    {"step": 9, "glyph": "irregular", "text": "催牌，裁判提醒", "text_en": "", "author": "裁判"},
]


def fixture_record(name: str) -> dict[str, Any]:
    """The first recorded deal of a demo fixture: a 升级 or 大怪路子 deal to print."""
    document = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    return document["rounds"][0]["tables"][0]["deals"][0]


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A 斗地主 tournament of one table with one annotated deal, and a 升级 and a 大怪路子 deal imported beside
    it, published with `fupan publish` as a script would run it (no terminal: nothing printed)."""
    folder = tmp_path_factory.mktemp("publish")
    db = str(folder / "fupan.sqlite")
    service = Fupan.for_sqlite(db)
    tournament, match, deal = example_table(service, "发布杯")
    for note in NOTES:
        service.deals.annotate(deal["id"], note)
    others = {game: service.records.import_record(fixture_record(name))[0]["id"]
              for game, name in (("shengji", "shengji_s001"), ("daguai", "daguai_s000"))}
    # Table 2 is still playing its deal: a publication made now must show only what the public sees of it.
    _, live = example_deal(service, tournament["id"], "2", actions=3)
    service.deals.annotate(live["id"], {"step": 2, "text": "李四手里有三张2"})  # names hidden cards: not public yet
    service.close()
    yield {"folder": folder, "db": db, "tournament": tournament, "match": match, "deal": deal["id"],
           "others": others, "out": folder / "site", "live": live["id"]}


def test_fupan_publish_writes_the_site_quietly_in_a_pipe(published, capsys):
    out = published["out"]
    assert main(["publish", published["tournament"]["name"], "--out", str(out), "--db", published["db"]]) == 0
    said = capsys.readouterr()
    assert said.out == "" and said.err == ""  # not a terminal: no progress, no summary
    nowhere = published["folder"] / "nowhere"
    assert main(["publish", "没有这个赛事", "--out", str(nowhere), "--db", published["db"]]) == 1
    assert "No tournament" in capsys.readouterr().err and not nowhere.exists()  # said, and no folder made
    deal, match = published["deal"], published["match"]["id"]
    for name in ("index.html", f"deals/{deal}.html", f"deals/{deal}/record.html", f"deals/{deal}/record.pdf",
                 f"deals/{deal}/record.en.pdf",
                 f"matches/{match}.html", f"matches/{match}/records.pdf", "rules/doudizhu.html",
                 "ui/vendor/plotly.min.js", f"data/deal-{deal}.js", f"api/deals/{deal}/record.json"):
        assert (out / name).is_file(), name
    # The deal in play: its public view only — no seat's or referee's frames, no hand, no record, no note.
    live = published["live"]
    script = (out / f"data/deal-{live}.js").read_text(encoding="utf-8")
    data = json.loads(script.split("|| {}, ", 1)[1].rsplit(");", 1)[0])  # publish.py's data script
    assert [urls.rsplit("=", 1)[1] for urls in data] == ["public"]
    frames = next(iter(data.values()))["frames"]
    assert all("hand" not in seat for frame in frames for seat in frame["view"]["seats"])
    assert not (out / f"api/deals/{live}/record.json").exists()
    assert not any("三张2" in page.read_text(encoding="utf-8") for page in out.rglob("*.html"))
    assert "三张2" not in script
    # No absolute link: every page works from wherever the folder is put.
    for page in out.rglob("*.html"):
        assert not re.search(r'(?:href|src)="/', page.read_text(encoding="utf-8")), page
    # The downloads are records `fupan import` reads back, annotations and all.
    record = json.loads((out / f"api/deals/{deal}/record.json").read_text(encoding="utf-8"))
    assert [{k: v for k, v in n.items() if k != "at"} for n in record["annotations"]] == NOTES
    table = next(out.glob("api/tournaments/*/records.jsonl")).read_text(encoding="utf-8")
    again = Fupan.for_sqlite(str(published["folder"] / "again.sqlite"))
    try:
        stored = [again.records.import_record(json.loads(line))[0] for line in table.splitlines()]
        assert [d["annotations"] for d in stored] == [NOTES]  # the finished deal only
    finally:
        again.close()


def pdf_text(data: bytes, folder: Path) -> str:
    path = folder / "printed.pdf"
    path.write_bytes(data)
    done = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True, timeout=60)
    return " ".join(done.stdout.split())


@pytest.mark.skipif(not shutil.which("pdftotext") and not os.environ.get("CI"),
                    reason="pdftotext (poppler-utils) is not installed (.ci/run installs it)")
def test_the_pdf_records_hold_every_hand(published, tmp_path):
    app = create_app({"FUPAN_APPLICATION": Fupan.for_sqlite(published["db"]), "FUPAN_PROJECTION_POLL": 0})
    client = app.test_client()
    deals = {"doudizhu": published["deal"], **published["others"]}
    try:
        for game, deal in deals.items():
            answer = client.get(f"/deals/{deal}/record.pdf")
            assert answer.status_code == 200 and answer.mimetype == "application/pdf", game
            text = pdf_text(answer.data, tmp_path)
            record = client.get(f"/api/deals/{deal}/record").get_json()
            for seat, hand in zip(record["seats"], record["hands"], strict=True):
                assert " ".join(card_text(code, "zh") for code in hand) in text, (game, seat)
            assert record["digest"] in text
        text = pdf_text(client.get(f"/deals/{published['deal']}/record.pdf?lang=en").data, tmp_path)
        assert "This play is a blunder" in text and "这手牌出错了" not in text  # the chosen language only
        table = pdf_text(client.get(f"/matches/{published['match']['id']}/records.pdf").data, tmp_path)
        assert "地主手里有火箭" in table and "??" in table
    finally:
        app.extensions["fupan"].close()


@pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get("FUPAN_REQUIRE_CHROMIUM"),
                    reason="Debian chromium is not installed at /usr/bin/chromium")
def test_the_published_site_works_from_file_with_the_network_blocked(published, browser):
    out = published["out"]
    if not (out / "index.html").exists():
        main(["publish", published["tournament"]["id"], "--out", str(out), "--db", published["db"]])
    with files_only(browser) as opened:
        page = opened.page
        page.goto((out / "index.html").as_uri())
        assert page.locator("[data-rules-link]").count() == 1 and page.locator(".options dt").count() > 1
        page.click("#standings-link")
        page.locator("#standings-chart .main-svg").first.wait_for(timeout=15_000)  # plotly drew the progression
        assert page.locator("#standings-table tbody tr").count() == 3
        page.go_back()
        page.click("table.data a")
        page.locator("#match-chart .main-svg").first.wait_for(timeout=15_000)
        page.click("table a[href*='deals/']:not([href*='record'])")
        page.wait_for_selector("body[data-ready='1']", timeout=15_000)
        assert page.locator("#annotate").is_hidden()  # nothing to write to in a published copy
        # Step 0 carries a note; stepping on reaches the blunder at step 5 with its glyph.
        assert page.inner_text("#step-notes").count("地主手里有火箭") == 1
        for _ in range(5):
            page.click("#btn-next")
        assert page.evaluate("document.body.dataset.step") == "5"
        assert page.inner_text("#step-notes .glyph") == "??" and "这手牌出错了" in page.inner_text("#step-notes")
        assert page.locator("#marks [data-step]").count() >= 3  # the notes are marked on the timeline
        page.click("#lang-toggle")  # English: the English text, not both
        notes = page.inner_text("#step-notes")
        assert "This play is a blunder" in notes and "这手牌出错了" not in notes
        page.click("#lang-toggle")
        page.click("[data-view='seat:0']")  # another viewpoint, from the embedded frames too
        page.wait_for_selector("body[data-ready='1'][data-viewpoint='seat:0']", timeout=15_000)
        page.click("a[href*='record.html']")
        page.wait_for_selector("blockquote.annotation", timeout=15_000)
        assert page.locator("blockquote.annotation").count() == len(NOTES)
        page.click("[data-rules-link]")
        page.wait_for_selector("#rules-doc table", timeout=15_000)  # the click navigates: wait for the rules page
    assert opened.blocked == [], f"the published site asked the network for {opened.blocked}"
    assert opened.errors == []


def test_the_rules_documents_ship_inside_the_package():
    """An installed server has docs/rules: replay_ui/publishing/rules_docs links to it and the wheel copies what it
    holds."""
    link = ROOT / "replay_ui" / "publishing" / "rules_docs"
    assert link.is_symlink() and link.resolve() == (ROOT / "docs" / "rules").resolve()
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert "publishing/rules_docs/*.md" in settings["package-data"]["replay_ui"]
    assert all((link / f"{game}.md").is_file() for game in GAMES)
