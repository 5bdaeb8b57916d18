"""Steps in words — the shared vocabulary of the timeline and the printable record, in Chinese and English."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from domain.games import get_engine
from replay_ui.shared.cards import cards_text
from replay_ui.shared.i18n import text

Frame = dict[str, Any]


@dataclass
class Notation:
    """One step in words, in both languages, with tags the timeline marks (bomb, foul, reveal, end …)."""

    zh: str
    en: str
    tags: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {"zh": self.zh, "en": self.en, "tags": list(self.tags)}


Describer = Callable[[Frame, "Frame | None", list[str]], Notation]
Summarizer = Callable[[dict[str, Any], list[str]], list[Notation]]


def say(key: str, tags: list[str] | None = None, **params: Any) -> Notation:
    """A notation from one i18n key; `params` values may be callables of the language (card lists, names)."""
    def fill(lang: str) -> str:
        return text(key, lang, **{k: v(lang) if callable(v) else v for k, v in params.items()})

    return Notation(fill("zh"), fill("en"), list(tags or []))


def join(first: Notation, *more: Notation) -> Notation:
    """Consecutive clauses of one step: '王芳 叫地主；王芳 成为地主，底牌 …'."""
    zh = text("n.sep", "zh").join([first.zh, *(n.zh for n in more)])
    en = text("n.sep", "en").join([first.en, *(n.en for n in more)])
    return Notation(zh, en, [tag for n in (first, *more) for tag in n.tags])


# A note written in both languages, "中文 / English" (the demo's referees write them so): its Chinese half has
# Chinese in it, its English half none.
BOTH_LANGUAGES = re.compile(r"^(?P<zh>.*[\u4e00-\u9fff].*?)\s+/\s+(?P<en>[^\u4e00-\u9fff]+)$", re.S)


def note_text(note: str, lang: str) -> str:
    """A referee's note in the chosen language: one written "中文 / English" shows its half; any other as written."""
    both = BOTH_LANGUAGES.match(note or "")
    return (both.group(lang) if lang in ("zh", "en") else note) if both else note or ""


def foul_name(game: str, code: str, lang: str) -> str:
    """A foul's code as the game's rules name it (Engine.foul_codes: 说话, talking); a code of the recorder's own
    (a record may carry any) as written."""
    for known, zh, en in get_engine(game).foul_codes:
        if known == code:
            return zh if lang == "zh" else en
    return code


def foul_names(game: str) -> dict[str, dict[str, str]]:
    """The game's foul codes by name in each language, for the viewer's script (Fupan.foulName)."""
    return {code: {"zh": zh, "en": en} for code, zh, en in get_engine(game).foul_codes}


def foul_words(game: str, action: dict[str, Any]) -> dict[str, Callable[[str], str]]:
    """The `code` and `note` of a foul's notation, each in the language asked for."""
    code, note = action["code"], action.get("note", "")
    return {"code": lambda lang: foul_name(game, code, lang), "note": lambda lang: note_text(note, lang)}


def generic_describe(frame: Frame, previous: Frame | None, names: list[str]) -> Notation:
    """Any game: who did what, with the cards if the action names any; the action type is its tag (a `foul`
    is then marked on the timeline like any game's)."""
    action = frame["action"]
    if action is None:
        return say("n.dealt")
    seat = action.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "—"
    cards = action.get("cards") or []
    kind = str(action.get("type", ""))
    return say("n.generic", [kind], who=who, type=kind, cards=lambda lang: cards_text(cards, lang))


def generic_summarize(view: dict[str, Any], names: list[str]) -> list[Notation]:
    """No game-specific outcome lines: the record's score table says who gained what."""
    return []


def timeout_in_play(who: str, seat: int, frame: Frame, previous: Frame | None) -> Notation:
    """A timeout in play [REC]: the cards the engine played for the seat (a leader's lowest single), or a pass."""
    before = len(previous["view"]["seats"][seat]["played"]) if previous else 0
    played = frame["view"]["seats"][seat]["played"][before:]
    if played:
        return say("n.timeout.play", ["play"], who=who, cards=lambda lang: cards_text(played, lang))
    return say("n.timeout.pass", ["pass"], who=who)


def latest_move(plays: list[dict[str, Any]], closed: list[dict[str, Any]] | None, seat: int,
                just_closed: bool) -> dict[str, Any] | None:
    """The entry of `seat`'s move that led to a view: the last of the round (or trick) on the table when it is
    the seat's, else the seat's last in the one this step closed (`closed`, when `just_closed`)."""
    if plays and plays[-1]["seat"] == seat:
        return plays[-1]
    if closed and just_closed:
        return next((p for p in reversed(closed) if p["seat"] == seat), None)
    return None


# --- a game's steps: the action, then what it brought about ------------------------------------------------

Clause = Callable[[Frame, "dict[str, Any] | None", list[str]], list[Notation]]


def describer(action: Describer, *clauses: Clause,
              dealt: Callable[[Frame, list[str]], Notation] | None = None) -> Describer:
    """A game's `describe`: before the first action the deal (`dealt`, else 发牌完毕); then what `action(frame,
    previous, names)` says, joined with what each clause(frame, the view before, names) adds for what the step
    brought about (a landlord known, a trick won, the end …)."""
    def describe(frame: Frame, previous: Frame | None, names: list[str]) -> Notation:
        if frame["action"] is None:
            return dealt(frame, names) if dealt else say("n.dealt")
        before = previous["view"] if previous else None
        return join(action(frame, previous, names), *(n for clause in clauses for n in clause(frame, before, names)))

    return describe


def when(key: str, words: Callable[[dict[str, Any], list[str]], Any], value: Any = None) -> Clause:
    """A clause: words(view, names) — a notation, a list of them or None — at the step that set the view's `key`
    to `value` (to anything but None, when no value is given)."""
    def clause(frame: Frame, before: dict[str, Any] | None, names: list[str]) -> list[Notation]:
        view = frame["view"]
        now, then = view[key], before[key] if before is not None else None
        happened = now is not None and then is None if value is None else now == value and then != value
        if not happened:
            return []
        said = words(view, names)
        return [] if said is None else said if isinstance(said, list) else [said]

    return clause
