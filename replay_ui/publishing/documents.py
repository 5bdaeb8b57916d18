"""The viewer's documents: printable records as PDF, and the rules each game was played under.

- `GET /deals/<id>/record.pdf`, `GET /matches/<id>/records.pdf`: the printable record of a deal, or of every deal
  of a table, as a PDF (replay_ui/publishing/pdf.py), for the request's reader exactly as the printable record page.
- `GET /rules/<game>`: docs/rules/<game>.md rendered (markdown-it-py, raw HTML escaped), the document the engine
  implements, and its Chinese version docs/rules/<game>.zh.md (the same sections, clarifications and option
  names, citing the seeds); the page holds both and shows the language chosen. The documents ship inside the
  package (`replay_ui/publishing/rules_docs`, a link to docs/rules that the wheel copies), so an installed server
  has them.
  The options a tournament or deal was played under are listed on its own page (`options_rows`: each option's
  name and a coded value's meaning in words, `option.<name>[.<value>]` of the game's strings, beside the codes),
  next to the link here.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, render_template, request, url_for
from markdown_it import MarkdownIt
from markupsafe import Markup

from domain.games import GAMES, get_engine
from domain.kernel.errors import NotFound, Refusal
from domain.records.annotations import GLYPHS
from replay_ui.games import ui_for
from replay_ui.pages import deal_context, described_frames, reader, seat_named, service
from replay_ui.publishing.pdf import PrintedDeal, build_pdf
from replay_ui.shared import i18n

RULES = Path(__file__).with_name("rules_docs")

documents = Blueprint("documents", __name__, template_folder="templates")


def _lang() -> str:
    return "en" if request.args.get("lang") == "en" else "zh"


def table_label(label: str, lang: str) -> str:
    return i18n.text("match.title", lang, table=label) if label.isdigit() else label


def printable(deal_id: str, lang: str) -> PrintedDeal:
    """What the printable record shows this request's reader of one deal; the hands from the deal's record when
    the reader may have it (published, or rights over its match), else none."""
    context = deal_context(deal_id)
    deal, match, tournament, names = context["deal"], context["match"], context["tournament"], context["names"]
    replay = described_frames(deal_id, "public", names)
    final = replay["frames"][-1]["view"]
    try:
        record = service().records.export_record(deal_id, reader())
        hands, kitty = record["hands"], record["kitty"]
    except Refusal:
        hands, kitty = None, []
    title = i18n.text("record.title", lang)
    if deal["number"]:
        title += " · " + i18n.text("match.dealN", lang, n=deal["number"])
    where = [tournament["name"], table_label(match["table"], lang)] if tournament else []
    where += [i18n.text(f"game.{deal['game']}", lang), deal["created_at"][:10]]
    return PrintedDeal(
        title=title, where=" · ".join(where), names=names, hands=hands, kitty=kitty, frames=replay["frames"],
        seated=[seat_named(deal["game"], seat, name, lang) for seat, name in enumerate(names)],
        summary=[n.as_json() for n in ui_for(final["game"]).summarize(final, names)],
        scores=deal["result"]["scores"] if deal["result"] else None,
        digest=deal["digest"] if deal["finished"] else None,
        round_digest=service().records.deal_round_digest(deal_id) if deal["finished"] else None,
    )


def pdf_response(data: bytes, filename: str) -> Response:
    response = Response(data, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@documents.get("/deals/<deal_id>/record.pdf")
def deal_pdf(deal_id: str) -> Response:
    lang = _lang()
    deal = printable(deal_id, lang)
    return pdf_response(build_pdf([deal], deal.title, lang), f"deal-{deal_id}.pdf")


def replayed_deals(match_id: str) -> list[str]:
    """The table's deals that have a record to print: a score slip's (成绩单) has a result and no cards, so the
    table's PDF leaves it out (its score is on the table page), and a table of slips only has no PDF."""
    return [deal["id"] for deal in service().deals.of_match(match_id, reader()) if not deal.get("result_only")]


@documents.get("/matches/<match_id>/records.pdf")
def match_pdf(match_id: str) -> Response:
    lang = _lang()
    match = service().tables.get(match_id)
    replayed = replayed_deals(match_id)
    if not replayed:
        raise NotFound("no_replay", "Every deal of this table was entered as a score slip: there is no record to "
                       "print.", "本桌各局均以成绩单录入，没有可打印的记录。", {"match_id": match_id})
    deals = [printable(deal_id, lang) for deal_id in replayed]
    title = table_label(match["table"], lang)
    return pdf_response(build_pdf(deals, title, lang), f"table-{match['table']}.pdf")


# --- the rules in force ---------------------------------------------------------------------------------


def _rule_link(match: re.Match[str]) -> str:
    """A link between rules documents goes to that game's rules page; one to another document of the repository
    is not served, so it keeps its words without the link."""
    game, anchor = match.group(1), match.group(2) or ""
    return url_for("documents.rules_page", game=game) + anchor if game in GAMES else ""


@cache
def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def rules_source(game: str, lang: str) -> Path:
    """The rules document of `game` in `lang`: docs/rules/<game>.md in English, <game>.zh.md in Chinese (the
    English one where a Chinese one is missing)."""
    chinese = RULES / f"{game}.zh.md"
    return chinese if lang == "zh" and chinese.is_file() else RULES / f"{game}.md"


def rules_html(game: str, lang: str = "en") -> Markup:
    tokens = _markdown().parse(rules_source(game, lang).read_text(encoding="utf-8"))
    for token in tokens:
        unserved: list[bool] = []  # for each open link: whether it became plain text
        for child in token.children or []:
            if child.type == "link_open":
                href = str(child.attrs.get("href", ""))
                local = re.fullmatch(r"(\w+)(?:\.zh)?\.md(#.*)?", href)
                if local or not re.match(r"https?:|#", href):
                    child.attrs["href"] = _rule_link(local) if local else ""
                unserved.append(not child.attrs["href"])
                if unserved[-1]:
                    child.tag, child.attrs = "span", {}
            elif child.type == "link_close" and unserved.pop():
                child.tag = "span"
    return Markup(_markdown().renderer.render(tokens, _markdown().options, {}))


@documents.get("/rules/<game>")
def rules_page(game: str) -> str:
    if game not in GAMES or not (RULES / f"{game}.md").is_file():
        raise NotFound("not_found", "No such game.", "没有这种游戏。", {"kind": "game", "id": game})
    chinese = rules_source(game, "zh")
    return render_template("rules.html", game=game, body=rules_html(game, "en"), body_zh=rules_html(game, "zh"),
                           translated=chinese.name.endswith(".zh.md"), game_zh=i18n.text(f"game.{game}", "zh"))


@documents.app_template_global("glyphs")
def glyphs() -> list[str]:
    """The annotation glyphs' codes, in their documented order (domain/records/annotations.py)."""
    return list(GLYPHS)


@documents.app_template_global("options_rows")
def options_rows(game: str, options: dict[str, Any]) -> list[tuple[str, Any, Any, Any]]:
    """A ruleset's options in force — as declared, the defaults filled in (the engine's resolution) — as (name,
    label, value, value label) rows, for the pages that say what a game was played under. The label is the
    option's name in the page's language (`option.<name>` of the game's strings); a switch reads 是/否 (yes/no),
    a coded value has its words too (`option.<name>.<value>`), a number is itself; the codes stay shown as
    recorded."""
    catalog = i18n.catalog()

    def label(key: str) -> Any:
        return i18n.bilingual(key) if key in catalog else None

    def shown(name: str, value: Any) -> Any:
        if isinstance(value, bool):
            return i18n.bilingual("bool.yes" if value else "bool.no")
        return label(f"option.{name}.{value}")

    return [(name, label(f"option.{name}"), value, shown(name, value))
            for name, value in sorted(get_engine(game).resolve_options(options).items())]
