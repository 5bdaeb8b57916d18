"""What every game's score-slip module (domain/games/<game>/slip.py) shares: reading the facts of a slip, and
the two refusals (docs/record-format.md "Result-only records"). The registry and the stored deal are
domain/records/slips.py's; this module imports no game, so each game's slip stays its own (the import contracts).
"""

from __future__ import annotations

from typing import Any

from domain.kernel.engine import Action, Engine
from domain.kernel.errors import IllegalAction, illegal, listed


def bad(message: str, message_zh: str, **details: Any) -> IllegalAction:
    """A slip whose facts do not read (a missing or mistyped fact)."""
    return illegal("bad_slip", message, message_zh, **details)


def impossible(message: str, message_zh: str, **details: Any) -> IllegalAction:
    """Facts that read but cannot all be true under the rules and options in force."""
    return illegal("impossible_slip", message, message_zh, **details)


def known(facts: dict[str, Any], allowed: set[str]) -> None:
    unknown = sorted(set(facts) - allowed)
    if unknown:
        raise bad(f"Unknown facts on this game's slip: {listed(unknown)}; it takes {listed(sorted(allowed))}.",
                  f"本游戏的成绩单没有这些项：{listed(unknown, 'zh')}；可填：{listed(sorted(allowed), 'zh')}。",
                  unknown=unknown)


# What the people at the table call a fact (the pad's labels say the same), for messages in plain words.
CALLED = {
    "first": ("who bid first", "首叫"), "digger": ("the digger", "挖坑者"),
    "winner": ("who went out first", "先出完者"), "landlord": ("the landlord", "地主"),
    "out": ("the farmer out first", "先出完的农民"), "dealer": ("the dealer", "庄家"),
    "declarer": ("the declarer", "定主者"), "offender": ("who fouled twice", "二次犯规者"), "bid": ("the bid", "叫分"),
    "robs": ("the robs", "抢地主次数"), "bombs": ("the bombs", "炸弹个数"), "points": ("the card points", "牌墩得分"),
    "shows": ("the players who showed their cards", "明牌者"), "doubles": ("the players who doubled", "加倍者"),
    "lanwa": ("烂挖", "烂挖"), "redeal": ("a redeal", "重新发牌"), "rocket": ("the rocket", "王炸"),
    "spring": ("春天 or 反春", "春天或反春"), "ending": ("how the deal ended", "结束方式"),
    "ended_by": ("how the deal ended", "结束方式"), "trump": ("the trump suit", "主牌花色"),
}


def called(name: str) -> tuple[str, str]:
    """(English, Chinese) of a fact as people call it; a fact without a name of its own as written."""
    return CALLED.get(name, (name, name))


def seat(facts: dict[str, Any], name: str, seats: int, *, required: bool = True) -> int | None:
    value = facts.get(name)
    if value is None and not required:
        return None
    if type(value) is not int or not 0 <= value < seats:
        en, zh = called(name)
        raise bad(f"Choose {en}: one of the table's {seats} players.", f"请选择{zh}：本桌 {seats} 名选手之一。",
                  field=name, seats=seats)
    return value


def whole(facts: dict[str, Any], name: str, low: int, high: int, default: int | None = None) -> int:
    value = facts.get(name, default)
    if type(value) is not int or not low <= value <= high:
        en, zh = called(name)
        raise bad(f"{en[0].upper() + en[1:]} is a whole number from {low} to {high}.",
                  f"{zh}必须是 {low} 到 {high} 的整数。", field=name, value=repr(value))
    return value


def flag(facts: dict[str, Any], name: str) -> bool:
    value = facts.get(name, False)
    if type(value) is not bool:
        en, zh = called(name)
        raise bad(f"Say yes or no for {en}.", f"{zh}只能填是或否。", field=name)
    return value


def choice(facts: dict[str, Any], name: str, options: tuple[str, ...], default: str | None = None) -> str:
    value = facts.get(name, default)
    if value not in options:
        en, zh = called(name)
        raise bad(f"Choose {en}: one of {listed(options)}.", f"请选择{zh}：{listed(options, 'zh')} 之一。",
                  field=name, value=repr(value))
    return value  # type: ignore[return-value]


def fouls(engine: Engine, facts: dict[str, Any]) -> list[Action]:
    """The slip's fouls, each read as the game reads a recorded foul (its list of codes, a penalty in its unit
    where it has one): `[{"seat", "code", "note", "penalty"?}]`."""
    given = facts.get("fouls", [])
    if not isinstance(given, list):
        raise bad("The fouls are a list, each with who fouled, its kind, a note and the penalty.",
                  "犯规必须是列表，每条写明犯规者、类型、说明和罚分。")
    read = []
    for index, foul in enumerate(given):
        if not isinstance(foul, dict):
            raise bad("Each foul says who fouled, its kind, a note and the penalty.",
                      "每条犯规须写明犯规者、类型、说明和罚分。", foul=index)
        try:
            read.append(engine.normalize_action({**foul, "type": "foul"}))
        except IllegalAction as error:
            raise IllegalAction(error.code, error.message, error.message_zh, {**error.details, "foul": index}) from None
    return read


def recorded_fouls(fouls: list[Action]) -> list[dict[str, Any]]:
    """The fouls as a deal state keeps them (`at`: slips have no action index, so 0)."""
    return [{"at": 0, **foul} for foul in fouls]
