"""A score slip's facts in words (the slip page, replay_ui/viewer/templates/slip.html): each fact by the pad's own
label for it, every seat as its player's name, a foul by its name in the game's rules — never the API's seat
numbers or a fact's JSON (the facts: docs/record-format.md "Result-only records")."""

from __future__ import annotations

from typing import Any

from replay_ui.shared import i18n
from replay_ui.shared.notation import foul_name, note_text

SEAT_FACTS = {"first", "digger", "winner", "landlord", "out", "dealer", "declarer", "offender", "seat", "reveal_seat"}
SEAT_LISTS = {"shows", "doubles", "finish_order"}


def _word(key: str, lang: str, fallback: str) -> str:
    return i18n.text(key, lang) if key in i18n.catalog() else fallback


def _value(game: str, name: str, value: Any, names: list[str], lang: str) -> str:
    comma = "、" if lang == "zh" else ", "
    if name in SEAT_FACTS and isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names):
        return names[value]
    if name in SEAT_LISTS and isinstance(value, list):
        return comma.join(names[s] if isinstance(s, int) and 0 <= s < len(names) else str(s) for s in value)
    if isinstance(value, bool):
        return i18n.text("pad.yes" if value else "pad.no", lang)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):  # 三打一's declared: tanda, baodao
        return comma.join(_word(f"pad.slip.{name}.{v}", lang, _word(f"pad.slip.{v}", lang, v)) for v in value)
    if isinstance(value, list):
        return ("；" if lang == "zh" else "; ").join(_item(game, name, item, names, lang) for item in value)
    if isinstance(value, dict):  # 斗地主's reveal, 升级's kitty: their parts as the pad's fields name them
        def part(key: str) -> str:
            return f"{name}_{key}" if f"pad.slip.{name}_{key}" in i18n.catalog() else key
        return comma.join(f"{_label(part(key), lang)} {_value(game, part(key), v, names, lang)}"
                          for key, v in value.items() if v is not None)
    if isinstance(value, str):
        return _word(f"pad.slip.{name}.{value}", lang, value)
    return str(value)


def _item(game: str, name: str, item: Any, names: list[str], lang: str) -> str:
    """One foul, failed throw, bomb or penalty: whose, and what."""
    if not isinstance(item, dict):
        return _value(game, name, item, names, lang)
    seat = item.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""
    parts = []
    if "code" in item:
        parts.append(foul_name(game, item["code"], lang))
    for key, value in item.items():
        if key in ("seat", "code", "type") or value is None or value is False or value == "":
            continue
        parts.append(note_text(value, lang) if key in ("note", "reason") else
                     f"{_label(f'slip.item.{key}', lang, key)} {_value(game, key, value, names, lang)}")
    colon = "：" if lang == "zh" else ": "
    return f"{who}{colon}{' '.join(parts)}" if who else " ".join(parts)


def _label(key: str, lang: str, fallback: str | None = None) -> str:
    full = key if key.startswith("slip.") else f"pad.slip.{key}"
    return _word(full, lang, fallback or key)


def slip_lines(game: str, facts: dict[str, Any], names: list[str]) -> list[dict[str, dict[str, str]]]:
    """The slip's facts worth showing (not empty, not false), each `{"label": {zh, en}, "value": {zh, en}}`."""
    lines = []
    for name, value in facts.items():
        if value is None or value is False or value == []:  # 0 is a seat (张伟) or a count: shown
            continue
        lines.append({"name": name,
                      "label": {lang: _label(name, lang) for lang in i18n.LANGUAGES},
                      "value": {lang: _value(game, name, value, names, lang) for lang in i18n.LANGUAGES}})
    return lines
