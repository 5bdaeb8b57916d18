"""The rules pages (/rules/<game>, replay_ui/publishing/documents.py) in both languages, and the options in force
in words.

Each game's rules are written twice: docs/rules/<game>.md in English and docs/rules/<game>.zh.md in Chinese,
from the seeds and the English digest. The Chinese page must read in Chinese (no English word outside <code>:
option codes, card codes, section numbers, test names stay codes), hold the same sections in the same order, the
same numbered Clarifications and the same options as the English one; the English page is the English document.
The options a tournament was played under carry their names in Chinese beside their codes.
Over real HTTP on the real app (an empty store: these pages need no tournament but the last test's own)."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import pytest
from conftest import LiveServer
from paths import ROOT
from test_viewer_screens import english_words

from domain.games import GAMES, get_engine
from replay_ui.shared import i18n

RULES = ROOT / "docs" / "rules"


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("rules-pages") / "rules.sqlite").start()
    yield server
    server.stop()


def article(page: str, lang: str) -> str:
    found = re.search(rf'<article class="panel rules-doc {lang}" lang="[^"]+" data-rules-lang="{lang}">(.*?)</article>',
                      page, re.S)
    assert found, f"no {lang} article"
    return found.group(1)


def read_as_chinese(fragment: str) -> str:
    """What a reader of the Chinese page sees of a piece of HTML: not the English spans, codes left out."""
    fragment = re.sub(r'<span class="en" lang="en">.*?</span>', " ", fragment, flags=re.S)
    fragment = re.sub(r"<code>.*?</code>", " ", fragment, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", fragment))


def section_numbers(markdown: str) -> list[str]:
    """Each '## ' heading's number (§2.7a, A4, B11) or, for the unnumbered ones, its place in the order."""
    headings = re.findall(r"^## (.*)$", markdown, re.M)
    return [(re.match(r"`?(§[\d.]+a?|[AB]\d+)`?", h) or re.match(r"", "")).group(0).strip("`") for h in headings]


def clarifications(markdown: str) -> list[int]:
    """The numbers of the items of the Clarifications section."""
    body = re.search(r"^## `?(?:§[\d.]+a|A10|B11)`? .*?$(.*?)^## ", markdown, re.M | re.S)
    assert body, "no clarifications section"
    return [int(n) for n in re.findall(r"^(\d+)\. ", body.group(1), re.M)]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_rules_page_reads_in_chinese_and_its_english_is_the_english_document(live: LiveServer, game: str) -> None:
    page = live.get(f"/rules/{game}")
    assert page.status_code == 200
    chinese, english = article(page.text, "zh"), article(page.text, "en")
    assert english_words(read_as_chinese(chinese)) == []
    assert english_words(read_as_chinese(page.text.split('<div id="rules-doc">')[0])) == []  # title, crumbs
    source_en = (RULES / f"{game}.md").read_text(encoding="utf-8")
    source_zh = (RULES / f"{game}.zh.md").read_text(encoding="utf-8")
    # The English article is the English document: its title and every section heading, in order.
    headings = [html.unescape(re.sub(r"<[^>]+>", "", h)) for h in re.findall(r"<h2>(.*?)</h2>", english)]
    assert headings == [re.sub(r"`", "", h) for h in re.findall(r"^## (.*)$", source_en, re.M)]
    assert "the rules fupan implements" in english and "复盘系统实现的规则" in chinese
    # The same sections in the same order, the same settled Clarifications, the same options.
    assert section_numbers(source_zh) == section_numbers(source_en)
    assert clarifications(source_zh) == clarifications(source_en)
    options = sorted(get_engine(game).resolve_options({}))
    for name in options:
        assert f"`{name}`" in source_zh, name
    assert set(re.findall(r"`((?:ddz|sj|sdy|wk|dg)\.[\w.]+)`", source_zh)) <= set(options) | {
        "sdy.tiebreak.dealerCount", "sdy.tiebreak.difficulty"}  # the digest's switches it did not make options
    # Citations of the seeds (种子000 … 种子004) and of the project's decisions, in Chinese.
    assert re.search(r"〔种子00\d", chinese) and "本项目决定" in chinese


def test_every_option_and_coded_value_has_words_in_both_languages() -> None:
    """What templates/options.html writes beside each code: `option.<name>` and, for a value chosen from a list,
    `option.<name>.<value>` (numbers and switches need none: they read as themselves and 是/否)."""
    catalog = i18n.catalog()
    missing = []
    for game in GAMES:
        schema = get_engine(game).options._schema  # the game's marshmallow schema: its fields and their choices
        for field in schema.fields.values():
            name = field.data_key
            if f"option.{name}" not in catalog:
                missing.append(name)
            for validator in field.validators:
                for choice in getattr(validator, "choices", ()):
                    if isinstance(choice, str) and f"option.{name}.{choice}" not in catalog:
                        missing.append(f"{name}.{choice}")
    assert missing == []
    for key, (zh, en) in catalog.items():
        if key.startswith("option."):
            assert english_words(zh) == [] and en and not re.search(r"[\u4e00-\u9fff]", en), key


def test_a_tournament_page_names_its_options_in_chinese_beside_their_codes(live: LiveServer) -> None:
    assert live.service is not None
    tournament, _ = live.service.tournaments.create("规则选项杯", "shengji", {"sj.preset": "s001"})
    page = live.get(f"/tournaments/{tournament['id']}").text
    rows = dict(re.findall(r'<div data-option="([\w.]+)">(.*?)</div>', page, re.S))
    assert sorted(rows) == sorted(get_engine("shengji").resolve_options({"sj.preset": "s001"}))
    assert english_words(read_as_chinese("".join(rows.values()))) == []
    assert "获胜级数" in rows["sj.goalLevel"] and "<code>5</code>" in rows["sj.goalLevel"]
    assert "第三张底牌" in rows["sj.kittyTrumpCard"] and "<code>third</code>" in rows["sj.kittyTrumpCard"]
    assert "可用另一花色的对子自反" in rows["sj.selfOvercall"] and ">是<" in rows["sj.selfOvercall"]
    assert "<code>sj.kittyTrumpCard</code>" in rows["sj.kittyTrumpCard"]
