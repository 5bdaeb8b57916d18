"""The text scan (issue 23's acceptance): what a person reads on a page, in Chinese or in English, holds no card
code outside a card image, no seat index, no backticked field name, no Python repr, no `None`, no raw HTML and no
word of the other language.

`scan_text(text, lang)` judges a text; `page_text(page)` reads a rendered page's visible text (card images and
<code> left out: a card image shows ♠A, a <code> is a code as recorded) with the attributes a person reads
(title, aria-label, placeholder, alt) of its visible elements; `scan_page(page, lang)` does both. Words people
typed (names, statements, notes) are not the page's: pass them as `allowed` and they are taken out first.

    findings = scan_page(page, "en", allowed=player_names)
    assert not findings, describe(findings)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

# A card as the record codes it: a suit letter and a rank (S10, CK, H3), or a joker (BJ, LJ).
CARD_CODE = re.compile(r"(?<![A-Za-z0-9])(?:[SHCD](?:10|[2-9JQKA])|BJ|LJ)(?![A-Za-z0-9])")
# A seat as a number a person cannot read: "座位 2", "seat 0", "seat:1", "1 队" / "2 队" (a team by number).
SEAT_INDEX = re.compile(r"座位\s*\d|(?<![A-Za-z])[Ss]eat[\s:#]*\d|(?<![第\d])\d+\s*队(?![员伍长])")
BACKTICKED = re.compile(r"`[^`\n]{1,60}`")
# What Python prints of its values: a list or a dict of strings, an object's repr, exact numbers' reprs, a UUID's.
PYTHON_REPR = re.compile(r"\[\s*'[^']*'|\{\s*'[^']*'\s*:|<[\w.]+ object at 0x|\b(?:Fraction|Decimal|UUID|datetime)\(|"
                         r"\bTrue\b|\bFalse\b")
NONE = re.compile(r"\bNone\b")
# A tag or an entity shown as text: HTML that was escaped twice, or text put into an attribute unescaped.
RAW_HTML = re.compile(r"</?[A-Za-z][\w-]*(?:\s[^<>]*)?/?>|&(?:[a-z]+|#\d+);|\"\s*>")
CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]+")
# What a Chinese page may show in Latin letters (as tests/pages/test_viewer_screens.py allows): card ranks and the
# joker's face, hexadecimal digests and ids, the language switch, key caps, file formats and a hash's name.
LATIN_ALLOWED = frozenset({"JOKER", "English", "Home", "End", "PDF", "JSON", "CSV", "SHA", "QR", "A", "K", "Q", "J",
                           "VS", "vs", "MP", "IMP", "fupan_"})  # fupan_…: a token's prefix, as a placeholder
# What an English page may show in Chinese: the brand (复盘) and the language switch (中文, for those who need it).
CJK_ALLOWED = frozenset({"复盘", "中文"})
HEX = re.compile(r"^[0-9a-f]{8,}$")
LATIN_WORD = re.compile(r"[A-Za-z0-9_]*[A-Za-z][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Finding:
    """One thing a person should not read: its kind, the text found and a few characters around it."""

    kind: str  # card_code | seat_index | backticks | python_repr | none | raw_html | untranslated
    found: str
    around: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.found!r} in …{self.around}…"


def _around(text: str, match: re.Match[str]) -> str:
    return text[max(0, match.start() - 20):match.end() + 20].replace("\n", " ")


def scan_text(text: str, lang: str, allowed: Iterable[str] = ()) -> list[Finding]:
    """Every defect of the issue's text scan in `text` read as a page in `lang` ("zh" or "en"). `allowed`: words
    people typed (names of players, teams, tournaments; statements, notes), taken out before the scan."""
    for word in sorted(set(allowed), key=len, reverse=True):
        if word and not word.isdigit():  # a table typed "1" is shown as 第 1 桌: its digit is no word of its own
            text = text.replace(word, " ")
    found: list[Finding] = []
    for kind, pattern in (("card_code", CARD_CODE), ("seat_index", SEAT_INDEX), ("backticks", BACKTICKED),
                          ("python_repr", PYTHON_REPR), ("none", NONE), ("raw_html", RAW_HTML)):
        found += [Finding(kind, m.group(0), _around(text, m)) for m in pattern.finditer(text)]
    if lang == "en":  # a Chinese word or punctuation mark (：，。（）、) on an English page
        found += [Finding("untranslated", m.group(0), _around(text, m)) for m in CJK.finditer(text)
                  if m.group(0) not in CJK_ALLOWED]
    else:
        for m in LATIN_WORD.finditer(text):
            word = m.group(0)
            if not (CARD_CODE.fullmatch(word) or HEX.match(word) or word in LATIN_ALLOWED):
                found.append(Finding("untranslated", word, _around(text, m)))
    return found


# The page's visible text without card images (`[data-card]`, the viewer's `.card`) and without <code>, each
# closed <details> opened first; then the attributes a person reads, of the elements that are shown.
READ_PAGE = """() => {
  document.querySelectorAll("details").forEach((details) => { details.open = true; });
  const skipped = [...document.querySelectorAll("code, [data-card], .card, .pc")];
  const shown = skipped.map((el) => el.style.display);
  skipped.forEach((el) => { el.style.display = "none"; });
  const text = document.body.innerText;
  skipped.forEach((el, i) => { el.style.display = shown[i]; });
  const attributes = [];
  for (const el of document.body.querySelectorAll("[title], [aria-label], [placeholder], img[alt]")) {
    if (el.checkVisibility && !el.checkVisibility() && el.tagName !== "INPUT") continue;
    if (el.closest("[hidden]")) continue;
    for (const name of ["title", "aria-label", "placeholder", "alt"]) {
      const value = el.getAttribute(name);
      if (value) attributes.push(value);
    }
  }
  return [text, attributes];
}"""


def page_text(page: Any) -> tuple[str, list[str]]:
    """A Playwright page's visible text and the readable attributes of its shown elements."""
    text, attributes = page.evaluate(READ_PAGE)
    return text, attributes


def scan_page(page: Any, lang: str, allowed: Iterable[str] = ()) -> list[Finding]:
    """`scan_text` over a rendered page's visible text and its readable attributes."""
    allowed = list(allowed)
    text, attributes = page_text(page)
    return scan_text(text, lang, allowed) + [finding for value in attributes
                                             for finding in scan_text(value, lang, allowed)]


def set_language(page: Any, lang: str) -> None:
    """Show the page in `lang` as the language switch would (the choice the pages keep in localStorage)."""
    page.evaluate("(lang) => window.Fupan.setLang(lang)", lang)


def describe(findings: list[Finding]) -> str:
    return "\n".join(str(finding) for finding in findings)


# A control a person can tell is off: faded (opacity) and without the hand cursor. The one look every page shares
# (replay_ui/shared/static/fupan.css), so a disabled 确认 no longer looks like the one that works.
LOOKS_DISABLED = """(el) => { const style = getComputedStyle(el);
  return el.disabled && Number(style.opacity) <= 0.6 && style.cursor !== "pointer"; }"""


def looks_disabled(locator: Any) -> bool:
    """The control is disabled and looks it (a disabled button drawn like an enabled one misleads)."""
    return bool(locator.evaluate(LOOKS_DISABLED))
