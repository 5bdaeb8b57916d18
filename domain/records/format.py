"""The `fupan.deal/1` record (docs/record-format.md): parse, validate completely, fold, and build on export.

`check_record` is what `fupan check` runs for each record: nothing is stored, and the first bad action is
named by its 0-based index.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Iterable, Iterator
from itertools import chain
from typing import Any

from domain.games import get_engine, seat_namer
from domain.kernel.cards import normalize_all
from domain.kernel.engine import Action, DealSetup, Engine, seat_no
from domain.kernel.errors import IllegalAction, SeatNamer, listed, seat_numbered
from domain.kernel.integrity import canonical_json
from domain.records.annotations import checked_annotation
from domain.records.retraction import fold_entry, is_retraction, normalize_retraction
from domain.records.slips import score as score_slip

FORMAT = "fupan.deal/1"


class ActionRejected(IllegalAction):
    """An IllegalAction raised by the action at `index` of a record."""

    def __init__(self, index: int, cause: IllegalAction):
        super().__init__(cause.code, cause.template, cause.template_zh, cause.details)  # seats still to name
        self.index = index


def _bad(message: str, message_zh: str, **details: Any) -> IllegalAction:
    return IllegalAction("bad_record", message, message_zh, details)


def parse_record(doc: object) -> tuple[DealSetup, list[Action], dict[str, Any] | None]:
    """The setup, the actions and the declared result of a record; IllegalAction('bad_record') on bad shape."""
    if not isinstance(doc, dict):
        raise _bad("A record must be a JSON object.", "记录必须是 JSON 对象。")
    if doc.get("format") != FORMAT:
        raise _bad(f"The record's format must be {FORMAT}.", f"记录格式必须是 {FORMAT}。",
                   format=repr(doc.get("format")))
    engine = get_engine(doc.get("game"))
    for name, kind, en, zh in (("seats", list, "players", "玩家"), ("hands", list, "hands", "手牌"),
                               ("actions", list, "actions", "动作")):
        if not isinstance(doc.get(name), kind):
            raise _bad(f"The record's {en} must be a list.", f"记录的{zh}必须是列表。", field=name)
    first = doc.get("first")
    if not isinstance(first, int) or isinstance(first, bool):
        raise _bad("The record must say who acts first.", "记录必须写明先出的人。", field="first")
    options, context, kitty = doc.get("options", {}), doc.get("context", {}), doc.get("kitty", [])
    if not isinstance(options, dict) or not isinstance(context, dict) or not isinstance(kitty, list):
        raise _bad("The record's options and context must be objects, its kitty a list.",
                   "记录的规则选项与牌局背景必须是对象，底牌必须是列表。")
    result = doc.get("result")
    if result is not None and not (isinstance(result, dict) and isinstance(result.get("scores"), list)):
        raise _bad("The record's result must give the scores.", "记录的结果必须写明得分。", field="result")
    if not isinstance(doc.get("meta") or {}, dict):
        raise _bad("The record's details (meta) must be an object.", "记录的附加信息（meta）必须是对象。", field="meta")
    notes = doc.get("annotations") or []
    if not isinstance(notes, list):
        raise _bad("The record's notes must be a list, each with its step, glyph, text and author.",
                   "记录的注释必须是列表，每条写明步数、符号、内容和作者。", field="annotations")
    for index, note in enumerate(notes):  # each checked as annotating would check it, at a step of these actions
        try:
            checked_annotation(note, len(doc["actions"]))
        except IllegalAction as error:  # a record's annotation is part of its shape: bad_record, naming which
            raise IllegalAction("bad_record", error.message, error.message_zh,
                                {**error.details, "annotation": index}) from None
    setup = DealSetup(
        game=engine.game,
        options=engine.resolve_options(options),
        seats=list(doc["seats"]),
        first=first,
        hands=[list(hand) if isinstance(hand, list) else hand for hand in doc["hands"]],
        kitty=list(kitty),
        context=dict(context),
    )
    return setup, list(doc["actions"]), result


def normalized_record(doc: object) -> tuple[DealSetup, list[Action], dict[str, Any] | None]:
    """A record's setup and actions in their stored forms, and its declared result; IllegalAction names the
    first action that does not read by its index."""
    setup, actions, declared = parse_record(doc)
    engine = get_engine(setup.game)
    setup = DealSetup(setup.game, setup.options, setup.seats, setup.first, [normalize_all(h) for h in setup.hands],
                      normalize_all(setup.kitty), setup.context)
    normal: list[Action] = []
    for index, action in enumerate(actions):
        try:
            normal.append(normalize_retraction(action) if is_retraction(action) else engine.normalize_action(action))
        except IllegalAction as error:
            raise IllegalAction(error.code, error.message, error.message_zh,
                                {**error.details, "action": index}) from None
    return setup, normal, declared


def record_key(setup: DealSetup, actions: list[Action]) -> str:
    """What identifies an imported record (its normalised setup and actions): the same record imports once."""
    content = {"setup": vars(setup), "actions": actions}
    return "record:" + hashlib.sha256(canonical_json(content).encode()).hexdigest()


def fold(setup: DealSetup, actions: Iterable[Action]) -> tuple[Engine, Any]:
    """The engine and its state after every action (and retraction: domain/records/retraction.py); ActionRejected
    names the first refused one."""
    engine = get_engine(setup.game)
    state = engine.new_deal(setup)
    entries: list[Action] = []
    remaining = enumerate(actions)
    # Straight through the engine, nothing between: most records hold no retraction. No engine knows a
    # `retract` action (tests/rules/test_retraction_fold.py), so it refuses one before touching the state, and
    # the record goes on through the retraction fold from there.
    for index, action in remaining:
        try:
            entries.append(engine.apply(state, action))
        except IllegalAction as error:
            if not is_retraction(action):
                raise ActionRejected(index, error) from None
            break
    else:
        return engine, state
    first_retraction = (index, action)
    for index, action in chain([first_retraction], remaining):
        try:
            state = fold_entry(engine, setup, state, entries, action)
        except IllegalAction as error:
            raise ActionRejected(index, error) from None
    return engine, state


def public_result(result: dict[str, Any]) -> dict[str, Any]:
    """The part of a result written on records: scores, and `redeal` when the deal was redealt."""
    out: dict[str, Any] = {"scores": result["scores"]}
    if result.get("redeal"):
        out["redeal"] = True
    return out


def check_record(doc: object) -> dict[str, Any]:
    """Validate one record completely without storing anything: the `fupan check --json` line sans index."""
    try:
        if isinstance(doc, dict) and doc.get("result_only") is True:
            return {"ok": True, "result": check_slip_record(doc)}
        setup, actions, declared = parse_record(doc)
        engine, state = fold(setup, actions)
        return {"ok": True, "result": judge(engine, state, declared)}
    except ActionRejected as error:
        error.name_seats(record_namer(doc))
        return {"ok": False, "action": error.index, "code": error.code, "message": error.message}
    except IllegalAction as error:
        error.name_seats(record_namer(doc))
        return {"ok": False, "code": error.code, "message": error.message}


def record_namer(doc: object) -> SeatNamer:
    """A record's seats as its refusals name them: by the labels the record gives them (a record stands outside
    any match); numbered where it gives none readable."""
    seats = doc.get("seats") if isinstance(doc, dict) else None
    if isinstance(doc, dict) and isinstance(seats, list) and all(isinstance(s, str) for s in seats):
        return seat_namer(str(doc.get("game")), seats)
    return seat_numbered


def judge(engine: Engine, state: Any, declared: dict[str, Any] | None) -> dict[str, Any]:
    """The result written on the record of a folded deal, once it is complete and its declared result (if
    any) is the one the rules compute; else IllegalAction `incomplete` or `result_mismatch`."""
    result = engine.result(state)
    if result is None:
        status = engine.status(state)
        raise IllegalAction("incomplete", f"The actions stop before the deal is over (phase {status['phase']}, "
                            f"{seat_no(status['to_act'])} to act).", "记录的动作在本局结束前就停止了。")
    return declared_as_computed(result, declared)


def check_slip_record(doc: dict[str, Any]) -> dict[str, Any]:
    """A result-only record (a score slip, docs/record-format.md "Result-only records"): the envelope's shape
    as any record's, no cards and no actions, and a `slip` whose facts score the declared result."""
    _, _, result = slip_record_parts(doc)
    return public_result(result)


def slip_record_parts(doc: dict[str, Any]) -> tuple[DealSetup, dict[str, Any], dict[str, Any]]:
    """A result-only record's setup (no cards), its slip's facts as stored and the result they score, once the
    declared result is that one (what `fupan check` checks, and what an import stores)."""
    if any(doc.get(name) for name in ("hands", "kitty", "actions")):
        raise _bad("A result-only record has no hands, kitty or actions.", "仅有结果的记录没有手牌、底牌和动作。")
    if not isinstance(doc.get("result"), dict):
        raise _bad("A result-only record states its result.", "仅有结果的记录必须写明结果。", field="result")
    setup, _, declared = parse_record({**doc, "hands": [], "kitty": [], "actions": []})
    facts, result = score_slip(setup, doc.get("slip"))
    declared_as_computed(result, declared)
    return setup, facts, result


# A result's parts as a refusal names them (any other part by its key).
RESULT_WORDS = {"scores": ("scores", "得分"), "redeal": ("redeal", "重新发牌")}


def declared_as_computed(result: dict[str, Any], declared: dict[str, Any] | None) -> dict[str, Any]:
    """The result written on a record, once the `declared` one (if any) is the one the rules computed; else
    IllegalAction `result_mismatch`."""
    for key, value in (declared or {}).items():
        # Keys this engine does not compute (another engine's extras) are not judged.
        known = key in ("scores", "redeal") or key in result
        if known and result.get(key, False if key == "redeal" else None) != value:
            def shown(figure: Any, lang: str) -> str:  # scores as "−2, 1, 1", not a Python list
                return listed(figure, lang) if isinstance(figure, list) else json.dumps(figure, ensure_ascii=False)

            ours = result.get(key)
            en, zh = RESULT_WORDS.get(key, (key, key))
            raise IllegalAction("result_mismatch", f"The record's {en} are {shown(value, 'en')}; the rules "
                                f"give {shown(ours, 'en')}.",
                                f"记录中的{zh}为 {shown(value, 'zh')}，"
                                f"与规则计算的结果 {shown(ours, 'zh')} 不一致。",
                                {"key": key, "recorded": value, "computed": ours})
    return public_result(result)


def check_text(text: str) -> list[dict[str, Any]]:
    """One report per record: `text` is one JSON record, a JSON list of records, or JSON Lines."""
    return list(iter_checks(text))


def iter_checks(text: str) -> Iterator[dict[str, Any]]:
    """Like `check_text`, one record at a time, so a large stream never sits in memory parsed."""
    for index, record in enumerate(read_records(text)):
        if isinstance(record, Unreadable):
            yield {"index": index, "ok": False, "code": "bad_json", "message": f"Not valid JSON: {record}"}
        else:
            yield {"index": index, **check_record(record)}


class Unreadable(ValueError):
    """A record that is not JSON at all; the message says where."""


# A NUL character (PostgreSQL's text cannot hold it) or a lone surrogate (no character at all: it cannot be
# written as UTF-8): JSON can carry both, no store can keep them.
UNSTORABLE = re.compile("[\x00\ud800-\udfff]")

# A NUL or a surrogate written as a JSON escape: \u0000, \ud800–\udfff, hex digits in either case.
UNSTORABLE_ESCAPE = re.compile(r"\\u(?:0000|[dD][89a-fA-F])")


def look_at_source(source: str) -> tuple[bool, bool]:
    """What one look at JSON `source` tells before it is read: whether it may hold (1) a string with an
    UNSTORABLE character — a surrogate itself, or an escape of one or of a NUL (json refuses a NUL itself, a
    control character, anywhere) — and (2) a number longer than MAX_NUMBER_TEXT. A look instead of a walk of
    every parsed string or a hook on every number: a yes may be wrong (a surrogate *pair* of escapes, an emoji
    under ensure_ascii; an escaped backslash before "u0000"; digits inside a string), a no never is. Three C-speed
    scans, the text encoded once for two of them: the escape pattern; UTF-8 encoding, which fails on any
    surrogate; and, in the encoded text with each ASCII digit as "0" and every other byte as a space, a run of
    MAX_NUMBER_TEXT digits, which a longer number needs. One regex for all of it is several times slower."""
    try:
        encoded = source.encode("utf-8")
    except UnicodeEncodeError:  # a surrogate: refused once parsed (the numbers then read as carefully as ever)
        return True, True
    long_number = _DIGIT_RUN in encoded.translate(_DIGITS_AS_ZERO)
    return UNSTORABLE_ESCAPE.search(source) is not None, long_number


class UnstorableText(ValueError):
    """JSON whose text holds a character no store can keep (UNSTORABLE)."""


def load_json(text: str | bytes) -> Any:
    """JSON as fupan keeps it: ValueError for malformed JSON, JSON nested too deeply to read, and a string
    holding a character no store can keep (UNSTORABLE) — refused at the door, so nothing half-stored follows."""
    if isinstance(text, bytes | bytearray):  # decoded as json.loads decodes bytes, so the search sees its text
        text = text.decode(json.detect_encoding(text), "surrogatepass")
    if text.startswith("\ufeff"):  # as json.loads refuses it
        raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
    unstorable, long_number = look_at_source(text)
    try:
        value = (_BOUNDED if long_number else _SHORT_NUMBERS).decode(text)
    except RecursionError:
        raise ValueError("nested too deeply") from None
    if not unstorable:  # nearly always: no walk
        return value
    where = _unstorable(value, "")  # which string, to name it
    if where is not None:
        raise UnstorableText(f"{where or 'the text'} holds a NUL character or a lone surrogate, which no record may "
                             "hold")
    return value


# The longest number text a body may hold, measured before it is read: no field of fupan needs more than a
# 64-bit integer, and int() of thousands of digits is work for nothing (or fails past Python's 4,300-digit limit).
MAX_NUMBER_TEXT = 24
# A longer integer is a run of at least this many digits (a sign is the 25th character).
_DIGIT_RUN = b"0" * MAX_NUMBER_TEXT
_DIGITS_AS_ZERO = bytes(ord("0") if chr(byte).isdigit() and byte < 128 else ord(" ") for byte in range(256))


def _bounded_int(text: str) -> int:
    if len(text) > MAX_NUMBER_TEXT:
        raise ValueError(f"a number of {len(text)} characters (at most {MAX_NUMBER_TEXT})")
    return int(text)


def _bounded_float(text: str) -> float:
    """A decimal number, finite: "1e400" is infinity, which no field takes and no store keeps as JSON."""
    number = float(text) if len(text) <= MAX_NUMBER_TEXT else math.inf
    if not math.isfinite(number):
        raise ValueError(f"a number too long or too large: {text[:MAX_NUMBER_TEXT]}")
    return number


def _no_constant(text: str) -> float:
    raise ValueError(f"{text} is not JSON")


# Made once (json.loads with hooks makes a decoder per call). Every number goes through the bounds; where the
# source holds no run of digits long enough to break one (nearly always), the C scanner reads the integers
# itself instead of calling `_bounded_int` for each (a record holds dozens).
_BOUNDED = json.JSONDecoder(parse_int=_bounded_int, parse_float=_bounded_float, parse_constant=_no_constant)
_SHORT_NUMBERS = json.JSONDecoder(parse_float=_bounded_float, parse_constant=_no_constant)


def _unstorable(value: Any, path: str) -> str | None:
    """The path of the first string (a key or a value) holding an unstorable character, else None."""
    if isinstance(value, str):
        return path if UNSTORABLE.search(value) else None
    if isinstance(value, dict):
        for key, item in value.items():
            if UNSTORABLE.search(key):
                return f"{path}.{key!a}"
            found = _unstorable(item, f"{path}.{key}")
            if found is not None:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = _unstorable(item, f"{path}[{index}]")
            if found is not None:
                return found
    return None


def read_records(text: str) -> Iterator[Any]:
    """The records in `text` — one JSON record, a JSON list of records, or JSON Lines — one at a time.

    A line that is not JSON yields an `Unreadable` in its place, so one bad line does not hide the others.
    """
    stripped = text.lstrip()
    if stripped.startswith("["):
        try:
            whole = load_json(text)
        except ValueError as error:
            yield Unreadable(str(error))
            return
        yield from whole if isinstance(whole, list) else [whole]
        return
    lines = [(number, line) for number, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if len(lines) > 1 and stripped.startswith("{") and not lines[0][1].rstrip().endswith("}"):
        lines = [(1, text)]  # one pretty-printed record spread over several lines
    for number, line in lines:
        try:
            yield load_json(line)
        except ValueError as error:
            yield Unreadable(f"line {number}: {error}")


def build_record(
    setup: DealSetup,
    actions: list[Action],
    result: dict[str, Any] | None,
    *,
    meta: dict[str, Any] | None = None,
    annotations: list[dict[str, Any]] | None = None,
    digest: str | None = None,
) -> dict[str, Any]:
    """A `fupan.deal/1` document; `result` is written when the deal is finished."""
    record: dict[str, Any] = {
        "format": FORMAT,
        "game": setup.game,
        "options": dict(setup.options),
        "seats": list(setup.seats),
        "first": setup.first,
        "hands": [list(hand) for hand in setup.hands],
        "kitty": list(setup.kitty),
        "context": dict(setup.context),
        "actions": [dict(action) for action in actions],
    }
    if result is not None:
        record["result"] = public_result(result)
    if meta:
        record["meta"] = meta
    if annotations:
        record["annotations"] = annotations
    if digest:
        record["digest"] = digest
    return record
