"""The printable record as a PDF: one deal, or every deal of a table (GET /deals/<id>/record.pdf,
GET /matches/<id>/records.pdf, and beside each printable record in a publication).

ReportLab, pure Python, no network and no system library: the Chinese text is set in ReportLab's built-in
STSong-Light (Adobe-GB1, the font a PDF reader supplies for it, so nothing is embedded), the suit symbols ♠ ♥ ♣ ♦
in the standard Symbol font, hearts and diamonds in red. Both fonts map back to Unicode, so a PDF's text
(pdftotext) reads ♠3 ♥10 as the page does.

What a PDF shows is what the printable record shows the same reader: the hands only when the reader may have the
deal's record (published, or a reader with rights over it: `export_record`), the steps in words from the
public viewpoint, each annotation in the chosen language, the result and the closing digest.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.platypus import KeepTogether, PageBreak, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from domain.records.annotations import GLYPHS
from replay_ui.shared import i18n
from replay_ui.shared.cards import card_text, is_red

FONT = "STSong-Light"
pdfmetrics.registerFont(UnicodeCIDFont(FONT))

BODY = ParagraphStyle("body", fontName=FONT, fontSize=10, leading=14)
SMALL = ParagraphStyle("small", parent=BODY, fontSize=8.5, leading=11.5, textColor=colors.HexColor("#555555"))
HEAD = ParagraphStyle("head", parent=BODY, fontSize=16, leading=22, spaceAfter=4)
SECTION = ParagraphStyle("section", parent=BODY, fontSize=12, leading=17, spaceBefore=8, spaceAfter=3)
MOVE = ParagraphStyle("move", parent=BODY, fontSize=9.5, leading=13, leftIndent=8 * mm, firstLineIndent=-8 * mm)
NOTE = ParagraphStyle("note", parent=BODY, fontSize=9.5, leading=13, leftIndent=10 * mm, textColor=colors.HexColor(
    "#1f5f99"))
SUITS = {"♠": False, "♣": False, "♥": True, "♦": True}  # symbol → printed red
# Characters STSong-Light lacks, and the ones it has that look the same.
LOOKALIKES = str.maketrans({"·": "・", "•": "・"})


@dataclass
class PrintedDeal:
    """One deal as its printable record shows it (replay_ui.publishing.documents.printable gathers it)."""

    title: str
    where: str
    names: list[str]
    hands: list[list[str]] | None  # None: the reader may not see them yet
    kitty: list[str]
    frames: list[dict[str, Any]]  # described frames, 0 … total (each with its notation and annotations)
    summary: list[dict[str, Any]]  # outcome lines {zh, en}
    scores: list[int] | None
    digest: str | None
    round_digest: dict[str, Any] | None = None  # the round's digest when the deal closed (domain/services/digests.py)
    seated: list[str] | None = None  # each seat as a person reads it: its player's name (with 升级's 东 …)


def rich(text: str) -> str:
    """Text as ReportLab paragraph markup: escaped, each suit symbol in the Symbol font (red for ♥ ♦)."""
    out = []
    for char in escape(text.translate(LOOKALIKES)):
        if char in SUITS:
            colour = ' color="#b3261e"' if SUITS[char] else ""
            out.append(f'<font name="Symbol"{colour}>{char}</font>')
        else:
            out.append(char)
    return "".join(out)


def cards_markup(cards: list[str], lang: str) -> str:
    """A hand as the page prints it: ♠3 ♥10 大王, the red cards (♥ ♦, the big joker) in red."""
    return " ".join(f'<font color="#b3261e">{rich(card_text(code, lang))}</font>' if is_red(code)
                    else rich(card_text(code, lang)) for code in cards)


def note_markup(note: dict[str, Any], lang: str) -> str:
    glyph = note["glyph"]
    mark = glyph if glyph.strip("!?") == "" else GLYPHS[glyph][0 if lang == "zh" else 1] if glyph else \
        i18n.text("record.note", lang)
    text = note["text_en"] if lang == "en" and note["text_en"] else note["text"]
    author = f" — {note['author']}" if note["author"] else ""
    return f"<b>{rich(mark)}</b>　{rich(text)}{rich(author)}"


def deal_flowables(deal: PrintedDeal, lang: str) -> list[Any]:
    t = i18n.text
    story: list[Any] = [Paragraph(rich(deal.title), HEAD), Paragraph(rich(deal.where), SMALL)]
    story.append(Paragraph(rich(t("record.players", lang)), SECTION))
    story.append(Paragraph(rich("　".join(deal.seated or deal.names)), BODY))  # names, never seat numbers
    story.append(Paragraph(rich(t("record.hands", lang)), SECTION))
    if deal.hands is None:
        story.append(Paragraph(rich(t("record.handsHidden", lang)), BODY))
    else:
        rows = [[Paragraph(rich(name), BODY), Paragraph(cards_markup(hand, lang), BODY)]
                for name, hand in zip(deal.names, deal.hands, strict=True)]
        if deal.kitty:
            rows.append([Paragraph(rich(t("kitty", lang)), BODY), Paragraph(cards_markup(deal.kitty, lang), BODY)])
        table = Table(rows, colWidths=[28 * mm, None])
        table.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"),
                                   ("LINEBELOW", (0, 0), (-1, -1), 0.25, colors.HexColor("#cccccc"))]))
        story.append(table)
    story.extend(Paragraph(note_markup(note, lang), NOTE) for note in deal.frames[0]["annotations"])
    story.append(Paragraph(rich(t("record.actions", lang)), SECTION))
    for frame in deal.frames[1:]:
        story.append(Paragraph(f"{frame['step']}.　{rich(frame['notation'][lang])}", MOVE))
        story.extend(Paragraph(note_markup(note, lang), NOTE) for note in frame["annotations"])
    if deal.summary or deal.scores is not None:
        result: list[Any] = [Paragraph(rich(t("record.result", lang)), SECTION)]
        result.extend(Paragraph(rich(line[lang]), BODY) for line in deal.summary)
        if deal.scores is not None:
            scores = Table([[Paragraph(rich(name), BODY) for name in deal.names],
                            [Paragraph(f"{score:+d}", BODY) for score in deal.scores]])
            scores.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.25, colors.HexColor("#999999"))]))
            result.append(scores)
        story.append(KeepTogether(result))
    story.append(Paragraph(rich(t("record.digest", lang)), SECTION))
    story.append(Paragraph(rich(deal.digest or t("record.noDigest", lang)), SMALL))
    if deal.round_digest:
        stage = deal.round_digest
        story.append(Paragraph(rich(t("roundpage.onRecord", lang, label=stage["label"], n=stage["count"])), BODY))
        story.append(Paragraph(rich(stage["digest"]), SMALL))
    return story


def build_pdf(deals: list[PrintedDeal], title: str, lang: str = "zh") -> bytes:
    """The deals' printable records, each from a new page, as one A4 PDF."""
    story: list[Any] = []
    for index, deal in enumerate(deals):
        if index:
            story.append(PageBreak())
        story.extend(deal_flowables(deal, lang))
    if not story:
        story.append(Spacer(1, 1))
    out = io.BytesIO()
    document = SimpleDocTemplate(out, pagesize=A4, title=title, author="复盘 · Fupan", leftMargin=16 * mm,
                                 rightMargin=16 * mm, topMargin=14 * mm, bottomMargin=14 * mm)
    document.build(story)
    return out.getvalue()
