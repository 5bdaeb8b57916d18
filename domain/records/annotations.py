"""Annotations: a commentator's comment at a step of a deal, with a glyph from a fixed set (docs/record-format.md
"Annotations").

A step is the viewer's: 0 is the deal as dealt, k is the table after the k-th action — so an annotation is
shown at the step its number says, in the viewer, the printable record and the exported record alike. The
text is Chinese (required) and optionally English; a page shows the one its reader chose (the Chinese when
no English was written).

The glyphs follow PGN's move assessments (NAGs $1–$6) and add marks for what happens at a card table.
"""

from __future__ import annotations

from typing import Any

from domain.kernel.errors import IllegalAction

# code → (Chinese name, English name); the code is what is stored and shown as the mark.
GLYPHS: dict[str, tuple[str, str]] = {
    "!": ("好牌", "good"),
    "!!": ("妙手", "brilliant"),
    "?": ("失误", "mistake"),
    "??": ("大错", "blunder"),
    "!?": ("有趣", "interesting"),
    "?!": ("可疑", "dubious"),
    # Marks for irregularities: a foul or misplay at the table, the referee's ruling on it, a record in doubt.
    "irregular": ("违例", "irregularity"),
    "ruling": ("裁决", "ruling"),
    "disputed": ("存疑", "disputed"),
}
TEXT_LIMIT = 5000
AUTHOR_LIMIT = 200


def bad_annotation(message: str, message_zh: str, **details: Any) -> IllegalAction:
    return IllegalAction("bad_annotation", message, message_zh, details)


def checked_annotation(note: Any, steps: int) -> dict[str, Any]:
    """An annotation in its stored form `{step, glyph, text, text_en, author}`, or `bad_annotation`.

    `steps`: the deal's actions so far, so `step` is 0 … steps. A record's older spelling `at` (the 0-based
    index of the action the note follows) is read as step = at + 1; given with `step`, the two must agree.
    """
    if not isinstance(note, dict):
        raise bad_annotation("An annotation must be an object {step, glyph, text, text_en, author}.",
                             "注释必须是对象 {step, glyph, text, text_en, author}。")
    step = note.get("step")
    at = note.get("at")
    if at is not None:
        if type(at) is not int or (step is not None and step != at + 1):
            raise bad_annotation("A note's action must be one of the deal's actions, the one just before its step "
                                 "when both are given.", "注释所指的动作必须是本局的动作；同时给出步数时，应是该步之前"
                                 "的那个动作。", at=at, step=step)
        step = at + 1 if step is None else step
    if type(step) is not int or not 0 <= step <= steps:
        raise bad_annotation(f"A note's step must be a step of the deal: 0 (as dealt) to {steps} (the end).",
                             f"注释的步数必须是本局的一步：0（发牌时）到 {steps}（结束时）。", step=step, steps=steps)
    glyph = note.get("glyph") or ""
    if glyph not in GLYPHS and glyph != "":
        raise bad_annotation(f"Unknown glyph {glyph!r}; the glyphs are {' '.join(GLYPHS)}.",
                             f"未知的注释符号；可用符号为 {' '.join(GLYPHS)}。", glyph=str(glyph), glyphs=list(GLYPHS))
    text, text_en, author = note.get("text"), note.get("text_en") or "", note.get("author") or ""
    if not (isinstance(text, str) and text.strip()) or len(text) > TEXT_LIMIT:
        raise bad_annotation(f"A note needs its Chinese text, at most {TEXT_LIMIT} characters.",
                             f"注释的中文内容必填，最多 {TEXT_LIMIT} 个字符。", field="text")
    if not isinstance(text_en, str) or len(text_en) > TEXT_LIMIT:
        raise bad_annotation(f"A note's English text is at most {TEXT_LIMIT} characters.",
                             f"注释的英文内容最多 {TEXT_LIMIT} 个字符。", field="text_en")
    if not isinstance(author, str) or len(author) > AUTHOR_LIMIT:
        raise bad_annotation(f"A note's author is at most {AUTHOR_LIMIT} characters.",
                             f"注释作者最多 {AUTHOR_LIMIT} 个字符。", field="author")
    return {"step": step, "glyph": glyph, "text": text, "text_en": text_en, "author": author}
