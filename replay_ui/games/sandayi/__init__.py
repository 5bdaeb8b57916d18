"""快乐三打一 in words: 叫分 (1–3 分 / 不叫) and 头撂, who deals (庄家) and takes the kitty, 摊打/报到, plays with
their pattern (单顺, 飞机带翅膀, 炸弹, 天王炸弹 …), fouls (a player's second decides the deal), timeouts and the
outcome; and a table's match page (each deal's first bidder, dealer, bid, declarations, how it ended, scores
and running totals; the running totals as the chart).

Only the filtered frame is read (the action and the engine's view for the chosen viewpoint), never the deal
itself, so a description cannot carry a card the viewpoint may not see: the kitty the dealer takes is named by
its size unless the view shows it.
"""

from __future__ import annotations

from typing import Any

from replay_ui.games import generic
from replay_ui.games.plugin import GameUI, strings_of
from replay_ui.shared.cards import cards_text
from replay_ui.shared.i18n import text
from replay_ui.shared.notation import Frame, Notation, describer, foul_words, say, timeout_in_play, when

KITTY_SIZE = 8
BOMBS = ("bomb", "king_bomb")
DECLARATIONS = ("tanda", "baodao")


def _cards(cards: list[str]) -> Any:
    return lambda lang: cards_text(cards, lang)


def _pattern_of(view: dict[str, Any], seat: int) -> dict[str, Any] | None:
    """The pattern the engine read for `seat`'s play that led to this view (current round, else the one it closed)."""
    for plays in (view["round"]["plays"], view.get("last_round") or []):
        if plays and plays[-1].get("seat") == seat and plays[-1].get("type") == "play":
            return plays[-1].get("pattern")
    return None


def _play(who: str, cards: list[str], view: dict[str, Any], seat: int, key: str = "n.play") -> Notation:
    pattern = _pattern_of(view, seat) or {"zh": "", "en": "", "kind": ""}
    tags = ["play"] + ([pattern["kind"]] if pattern["kind"] in BOMBS else [])
    return say(key, tags, who=who, cards=_cards(cards), pattern=lambda lang: pattern["zh" if lang == "zh" else "en"])


def _bidding(previous: Frame | None) -> bool:
    return previous is None or previous["view"]["phase"] == "bidding"


def _action(frame: Frame, previous: Frame | None, names: list[str]) -> Notation:
    action, view = frame["action"], frame["view"]
    seat, kind = action["seat"], action["type"]
    who = names[seat]
    if kind == "bid":
        opening = previous is None or not previous["view"]["bidding"]
        if opening and action["value"] == 3:
            return say("n.sdy.toulu", ["bid", "toulu"], who=who)
        return say("n.sdy.bid", ["bid"], who=who, value=action["value"])
    if kind == "pass":
        return say("n.sdy.nobid", ["bid"], who=who) if _bidding(previous) else say("n.pass", ["pass"], who=who)
    if kind == "play":
        return _play(who, action["cards"], view, seat)
    if kind == "declare":
        return _declare(who, action["kind"], view)
    if kind == "foul":
        nth = sum(1 for f in view["fouls"] if f["seat"] == seat)
        key = "n.sdy.foul.second" if nth == 2 else "n.foul"
        return say(key, ["foul"], who=who, **foul_words("sandayi", action))
    if kind == "timeout":
        return _timeout(who, seat, frame, previous)
    raise ValueError(f"unknown 三打一 action type {kind!r}")  # the engine refuses these before they are stored


def _declare(who: str, kind: str, view: dict[str, Any]) -> Notation:
    if kind == "tanda":
        return say("n.sdy.tanda", ["tanda"], who=who)
    if view["locked"]:  # `sdy.baodao.lockCards`: the qualifying sets are shown to the table
        return say("n.sdy.baodao.locked", ["baodao"], who=who,
                   cards=lambda lang: " / ".join(cards_text(s, lang) for s in view["locked"]))
    return say("n.sdy.baodao", ["baodao"], who=who)


def _timeout(who: str, seat: int, frame: Frame, previous: Frame | None) -> Notation:
    """A timeout [REC]: the opening bid becomes 1, a later bidder and a follower pass, a leader plays its lowest
    single."""
    if _bidding(previous):
        opening = previous is None or not previous["view"]["bidding"]
        return say("n.sdy.timeout.bid1" if opening else "n.sdy.timeout.nobid", ["bid"], who=who)
    return timeout_in_play(who, seat, frame, previous)


def _dealer_set(view: dict[str, Any], names: list[str]) -> Notation:
    """Bidding is over: who deals for how much, and the kitty they take (its cards only if the view has them)."""
    who, bid = names[view["dealer"]], view["bid"]
    if view["kitty"]:
        kitty = view["kitty"]
        return say("n.sdy.dealer.kitty", ["dealer"], who=who, bid=bid, kitty=_cards(kitty))
    return say("n.sdy.dealer", ["dealer"], who=who, bid=bid, n=KITTY_SIZE)


def _side(result: dict[str, Any]) -> Any:
    return lambda lang: text("sdy.dealerWins" if result["dealer_won"] else "sdy.defendersWin", lang)


def _outcome(view: dict[str, Any], names: list[str]) -> Notation:
    result = view["result"] or {}
    if result.get("redeal"):
        return say("n.sdy.end.void", ["end"])
    tags = ["end"] + (["spring"] if result["multipliers"].get("spring", 1) > 1 else [])
    ending = result["ending"]
    if ending == "foul":
        return say("n.sdy.end.foul", tags, who=names[result["offender"]], side=_side(result))
    if ending == "instant":
        return say("n.sdy.end.instant", tags, who=names[result["dealer"]])
    if not result["dealer_won"] and "baodao" in result["declared"] and not any(result["scores"]):
        return say("n.sdy.end.baodaoLost", tags, who=names[result["winner"]])
    return say("n.sdy.end.out", tags, who=names[result["winner"]], side=_side(result))


describe = describer(_action, when("dealer", _dealer_set), when("phase", _outcome, "finished"))


def summarize(view: dict[str, Any], names: list[str]) -> list[Notation]:
    """The record's outcome: dealer, bid and first bidder (头撂?), the declarations, how it ended, and the
    score as 底分 × 倍数 with its factors."""
    lines: list[Notation] = []
    result = view["result"]
    if view["dealer"] is not None:
        key = "n.sdy.summary.toulu" if view["toulu"] else "n.sdy.summary.dealer"
        lines.append(say(key, who=names[view["dealer"]], bid=view["bid"], first=names[view["first"]]))
    if view["declared"]:
        lines.append(say("n.sdy.summary.declared", kinds=lambda lang: text("n.comma", lang).join(
            text(f"sdy.declare.{kind}", lang) for kind in view["declared"])))
    if result is not None:
        lines.append(_outcome(view, names))
        if not result.get("redeal"):
            lines.append(say("n.sdy.summary.score", stake=result["stake"], **result["multipliers"]))
    return lines


# --- the match page: a table of a fixed number of deals ------------------------------------------------------


def _ending(result: dict[str, Any], names: list[str]) -> tuple[str, str | None]:
    """How a deal ended, as an i18n key of the deals table and the player it names."""
    if result.get("redeal"):
        return "sdy.ending.void", None
    ending = result["ending"]
    if ending == "foul":
        return "sdy.ending.foul", names[result["offender"]]
    if ending == "instant":
        return "sdy.ending.instant", names[result["dealer"]]
    if not result["dealer_won"] and "baodao" in result["declared"] and not any(result["scores"]):
        return "sdy.ending.baodaoLost", names[result["winner"]]
    return "sdy.ending.out", names[result["winner"]]


def table_length(match: dict[str, Any]) -> int:
    return int(match["options"].get("sdy.earlyRoundDeals", 8))


def match_rows(match: dict[str, Any], deals: list[dict[str, Any]], names: list[str]) -> list[dict[str, Any]]:
    """One row per deal: first bidder, dealer and bid (头撂?), declarations, how it ended and who won, 底分 and
    倍数, bombs played, the deal's scores and every player's running total after it."""
    rows = []
    for deal in deals:
        result = deal["result"] or {}
        entry = next(d for d in match["deals"] if d["deal_id"] == deal["id"])
        played = bool(result) and not result.get("redeal")
        ending, who = _ending(result, names) if result else (None, None)
        standing = entry["standing"]
        rows.append({
            "number": deal["number"], "id": deal["id"], "finished": deal["finished"],
            "first": generic.first_bidder(deal, names), "redeal": bool(result.get("redeal")),
            "dealer": names[result["dealer"]] if played else None, "dealer_seat": result["dealer"] if played else None,
            "bid": result.get("bid") if played else None, "toulu": bool(result.get("toulu")),
            "declared": list(result.get("declared") or []),
            "dealer_won": result.get("dealer_won") if played else None,
            "ending": ending, "ending_who": who,
            "stake": result.get("stake"), "multiplier": (result.get("multipliers") or {}).get("total"),
            "bombs": sum(result.get("bombs") or []),
            "scores": entry["scores"], "totals": standing["scores"] if standing else None,
        })
    return rows


def standing_text(match: dict[str, Any], names: list[str]) -> str:
    """Each seat's total, then the deals counted of the table's length: '+12 / -3 / +6 / -15 · 8/8'."""
    return generic.signed_totals(match, table_length(match))


# The viewer's plugin for this game (replay_ui/games/plugin.py): found by its folder's name.
# Tables summed seat by seat: the generic running totals are their chart.
UI = GameUI(describe, summarize, match_rows, generic.match_chart, standing_text, strings_of(__file__))
