"""Published digests in the viewer (docs/record-format.md "Round digests"): a round's results page and a deal's
printable record show the round's digest, the one `fupan verify --digest` accepts, readable on a phone and a
laptop in a real browser."""

from __future__ import annotations

import re
import shutil
import subprocess
from typing import Any

import pytest
from conftest import LiveServer, Store
from test_tamper_evidence import Built
from test_viewer_browser import CHROMIUM, LAPTOP, Offline

PHONE = {"width": 390, "height": 844}

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed at /usr/bin/chromium")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Any:
    built = Built(Store.sqlite(tmp_path_factory.mktemp("round-digest") / "fupan.sqlite"))
    live = LiveServer(built.store).start()
    live.built = built  # type: ignore[attr-defined]
    yield live
    live.stop()


def test_the_round_page_and_the_record_print_the_round_digest(site, browser):
    built = site.built
    (stage,) = site.service.records.round_digests(built.tournament)
    assert stage["count"] == 1 and stage["digest"] == built.round_digest
    for viewport in (PHONE, LAPTOP):
        context = Offline(browser, site, viewport)
        try:
            page = context.page()
            page.goto(f"{site.url}/tournaments/{built.tournament}")
            page.click("[data-round-link='1']")
            shown = page.locator("[data-round-digest]")
            assert shown.get_attribute("data-round-digest") == stage["digest"] and shown.is_visible()
            assert re.sub(r"\s", "", shown.inner_text()) == stage["digest"]  # the whole digest, wrapped, on paper
            assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
            page.goto(f"{site.url}/deals/{built.finished}/record")
            on_record = page.locator("[data-round-digest]")
            assert on_record.get_attribute("data-round-digest") == stage["digest"] and on_record.is_visible()
            box = on_record.bounding_box()  # (the record's result table is another matter: see the report)
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
            assert context.errors == []
        finally:
            context.context.close()
        assert context.left == []
    assert site.get(f"/tournaments/{built.tournament}/rounds/7").status_code == 404


@pytest.mark.skipif(not shutil.which("pdftotext"), reason="pdftotext (poppler-utils) is not installed")
def test_the_records_pdf_prints_the_round_digest(site, tmp_path):
    built = site.built
    answer = site.get(f"/deals/{built.finished}/record.pdf")
    assert answer.status_code == 200 and answer.headers["Content-Type"] == "application/pdf"
    (tmp_path / "record.pdf").write_bytes(answer.content)
    text = subprocess.run(["pdftotext", str(tmp_path / "record.pdf"), "-"], capture_output=True, text=True,
                          check=True, timeout=60).stdout
    assert built.round_digest in re.sub(r"\s", "", text)
