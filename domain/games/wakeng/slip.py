"""竞技挖坑 score slips (domain/records/slips.py): the facts that decide the stakes, scored by the engine's `result`.

Facts (docs/record-format.md "Result-only records"): `first`, the seat that bid first (首叫, as the referee
saw it; when not given the table's rotation is assumed and the table page shows no 首叫 for the board);
`digger`; `bid` 1–3; `lanwa` (烂挖: everyone passed and the first bidder digs at 1, B4); `shows`, the seats that
showed their hand (明牌, each × `wk.showFactor`); `doubles`, the seats that doubled (each × `wk.doubleFactor`,
B6); `winner`, the seat that went out first; `fouls` (discipline only: they score nothing, B9). Duplicate
boards carry their `board` from the table.
"""

from __future__ import annotations

from typing import Any

from domain.games.slip import bad, called, flag, fouls, impossible, known, recorded_fouls, seat, whole
from domain.games.wakeng.engine import SEATS, TOP_BID, WakengEngine, WakengState
from domain.kernel.engine import DealSetup

FACTS = {"first", "digger", "bid", "lanwa", "shows", "doubles", "winner", "fouls"}


def _seats(facts: dict[str, Any], name: str) -> list[int]:
    given = facts.get(name, [])
    if not isinstance(given, list) or not all(type(s) is int and 0 <= s < SEATS for s in given):
        en, zh = called(name)
        raise bad(f"Choose {en} among the table's {SEATS} players.", f"请在本桌 {SEATS} 名玩家中选择{zh}。",
                  field=name)
    if len(set(given)) != len(given):
        en, zh = called(name)
        raise impossible(f"Each player appears once among {en}: each shows or doubles at most once (B5–B6).",
                         f"{zh}中每人只能出现一次（每人最多明牌、加倍一次，B5–B6）。", field=name)
    return list(given)


def score_slip(engine: WakengEngine, setup: DealSetup, facts: dict[str, Any]) -> tuple[dict[str, Any], dict]:
    known(facts, FACTS)
    entered_first = seat(facts, "first", SEATS, required=False)
    first = setup.first if entered_first is None else entered_first
    digger = seat(facts, "digger", SEATS)
    winner = seat(facts, "winner", SEATS)
    lanwa = flag(facts, "lanwa")
    bid = whole(facts, "bid", 1, TOP_BID)
    if lanwa and (bid != 1 or digger != first):
        raise impossible("烂挖: everyone passed, so the first bidder digs at 1 (B4).",
                         "烂挖是所有人都不叫、由首先叫牌者以 1 分挖坑（B4）。", first=first)
    shows, doubles = _seats(facts, "shows"), _seats(facts, "doubles")
    read = fouls(engine, facts)
    state = WakengState(setup.options, list(setup.seats), first, [[] for _ in range(SEATS)], [],
                        board=setup.context.get("board"), phase="finished", revealed=shows, bid=bid, digger=digger,
                        lanwa=lanwa, doubled=doubles, winner=winner, fouls=recorded_fouls(read))
    stored = {**({} if entered_first is None else {"first": entered_first}), "digger": digger, "bid": bid,
              "lanwa": lanwa, "shows": shows, "doubles": doubles, "winner": winner, "fouls": read}
    return stored, engine.result(state)  # type: ignore[return-value]
