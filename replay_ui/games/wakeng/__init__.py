"""竞技挖坑 in words: 明牌 before bidding, 叫分 (1–3 分 / 不叫) and 烂挖, the digger (庄家) and the kitty shown to
all, the digger's 明牌 after the kitty, 加倍, each defender's stake, plays with their pattern (单张, 对子, 连牌 …),
fouls (recorded without points), timeouts and the outcome; and a table's match page (each duplicate board's
first bidder, digger, bid, shows, doubles, stakes, winning side, raw scores and running raw totals; the running
totals as the chart).

Only the filtered frame is read (the action and the engine's view for the chosen viewpoint), never the deal
itself. The kitty is public from the moment the digger is known (B4.5), so naming it then leaks nothing.
A timeout is stored as `timeout`; what it stood for (B11.6) is read from the views before and after it.
"""

from __future__ import annotations

from typing import Any

from replay_ui.games import generic
from replay_ui.games.plugin import GameUI, strings_of
from replay_ui.shared.cards import cards_text
from replay_ui.shared.i18n import text
from replay_ui.shared.notation import Frame, Notation, describer, foul_words, say, timeout_in_play, when

DECISION_PHASES = ("reveal", "bidding", "post_reveal", "doubling")


def _cards(cards: list[str]) -> Any:
    return lambda lang: cards_text(cards, lang)


def _names(seats: list[int], names: list[str]) -> Any:
    return lambda lang: text("n.comma", lang).join(names[s] for s in seats) if seats else "—"


def _pattern_of(view: dict[str, Any], seat: int) -> dict[str, Any] | None:
    """The pattern the engine read for `seat`'s play that led to this view (current round, else the one it closed)."""
    for plays in (view["round"]["plays"], view.get("last_round") or []):
        if plays and plays[-1].get("seat") == seat and plays[-1].get("type") == "play":
            return plays[-1].get("pattern")
    return None


def _new_decision(frame: Frame, previous: Frame | None) -> dict[str, Any] | None:
    """The 明牌 / 叫分 / 加倍 decision this step added, if any."""
    decisions = frame["view"]["decisions"]
    before = len(previous["view"]["decisions"]) if previous else 0
    return decisions[-1] if len(decisions) > before else None


def decision_key(decision: dict[str, Any]) -> str:
    """The i18n key of one decision (also the label of the decisions list): wk.decision.<what>."""
    kind, phase = decision["type"], decision["phase"]
    if phase == "bidding":
        return "wk.decision.bid" if kind == "bid" else "wk.decision.nobid"
    if phase == "doubling":
        return "wk.decision.double" if kind == "double" else "wk.decision.nodouble"
    return "wk.decision.reveal" if kind == "reveal" else "wk.decision.noreveal"


def _decision(who: str, decision: dict[str, Any]) -> Notation:
    kind, phase = decision["type"], decision["phase"]
    if phase == "bidding":
        if kind == "bid":
            return say("n.wk.bid", ["bid"], who=who, value=decision["value"])
        return say("n.wk.nobid", ["bid"], who=who)
    if phase == "doubling":
        return say("n.wk.double", ["double"], who=who) if kind == "double" else say("n.wk.nodouble", [], who=who)
    if kind == "reveal":
        return say("n.wk.reveal.after" if phase == "post_reveal" else "n.wk.reveal", ["reveal"], who=who)
    return say("n.wk.noreveal.after" if phase == "post_reveal" else "n.wk.noreveal", [], who=who)


def _action(frame: Frame, previous: Frame | None, names: list[str]) -> Notation:
    action, view = frame["action"], frame["view"]
    seat, kind = action["seat"], action["type"]
    who = names[seat]
    if kind == "foul":
        return say("n.foul", ["foul"], who=who, **foul_words("wakeng", action))
    decision = _new_decision(frame, previous)
    if kind == "timeout":
        return _timeout(who, seat, frame, previous, decision)
    if decision is not None:
        return _decision(who, decision)
    if kind == "play":
        pattern = _pattern_of(view, seat) or {"zh": "", "en": "", "kind": ""}
        return say("n.play", ["play"], who=who, cards=_cards(action["cards"]),
                   pattern=lambda lang: pattern["zh" if lang == "zh" else "en"])
    if kind == "pass":
        return say("n.pass", ["pass"], who=who)
    raise ValueError(f"unknown 挖坑 action type {kind!r}")  # the engine refuses these before they are stored


def _timeout(who: str, seat: int, frame: Frame, previous: Frame | None, decision: dict[str, Any] | None
             ) -> Notation:
    """A timeout (B11.6): 明牌 and 加倍 → no, bidding → 不叫 (a 必挖 hand: 3), following → pass, leading → the
    lowest single."""
    if decision is not None:
        what = decision_key(decision)
        value = decision.get("value")
        tags = ["bid"] if decision["phase"] == "bidding" else []
        return say("n.wk.timeout", tags, who=who, what=lambda lang: text(what, lang, n=value))
    return timeout_in_play(who, seat, frame, previous)


def _digger_set(view: dict[str, Any], names: list[str]) -> Notation:
    """Bidding is over: who digs for how much (烂挖?), and the kitty, face up for all three (B4.5)."""
    who, kitty = names[view["digger"]], view["kitty"] or []
    if view["lanwa"]:
        return say("n.wk.lanwa", ["digger", "lanwa"], who=who, kitty=_cards(kitty))
    return say("n.wk.digger", ["digger"], who=who, bid=view["bid"], kitty=_cards(kitty))


def _stakes_text(view: dict[str, Any], names: list[str]) -> Any:
    stakes, digger = view["stakes"], view["digger"]
    return lambda lang: text("n.comma", lang).join(
        text("n.wk.stake", lang, who=names[s], n=stake) for s, stake in enumerate(stakes) if s != digger)


def _play_starts(view: dict[str, Any], names: list[str]) -> Notation:
    """Doubling is over: each defender's stake with the digger, and who leads (the ♥4 holder, B5.1)."""
    return say("n.wk.stakes", ["stakes"], stakes=_stakes_text(view, names), lead=names[view["round"]["leader"]])


def _side(result: dict[str, Any]) -> Any:
    return lambda lang: text("wk.diggerWins" if result["digger_won"] else "wk.defendersWin", lang)


def _outcome(view: dict[str, Any], names: list[str]) -> Notation | None:
    result = view["result"]
    return say("n.wk.end", ["end"], who=names[result["winner"]], side=_side(result)) if result else None


describe = describer(_action, when("digger", _digger_set), when("phase", _play_starts, "play"),
                     when("phase", _outcome, "finished"))


def show_factor(revealed: list[int]) -> int:
    """m = 2^(distinct players who showed) (B6, B11.7)."""
    return 2 ** len(set(revealed))


def summarize(view: dict[str, Any], names: list[str]) -> list[Notation]:
    """The record's outcome: the board, digger and bid (烂挖?) and the first bidder, who showed and who doubled,
    the stakes, and how it ended."""
    lines: list[Notation] = []
    if view.get("board") is not None:
        lines.append(say("n.wk.summary.board", board=view["board"]))
    if view["digger"] is not None:
        key = "n.wk.summary.lanwa" if view["lanwa"] else "n.wk.summary.digger"
        lines.append(say(key, who=names[view["digger"]], bid=view["bid"], first=names[view["first"]]))
        lines.append(say("n.wk.summary.shown", names=_names(view["revealed"], names)))
        lines.append(say("n.wk.summary.doubled", names=_names(view["doubled"], names)))
        if view["stakes"] is not None:
            lines.append(say("n.wk.summary.stakes", stakes=_stakes_text(view, names), bid=view["bid"],
                             m=show_factor(view["revealed"])))
    if view["result"] is not None:
        lines.append(_outcome(view, names))
    return lines


# --- the match page: one Swiss round's duplicate boards --------------------------------------------------------


def table_length(match: dict[str, Any]) -> int:
    return int(match["options"].get("wk.tableDeals", 6))


def match_rows(match: dict[str, Any], deals: list[dict[str, Any]], names: list[str]) -> list[dict[str, Any]]:
    """One row per board: first bidder, digger and bid (烂挖?), who showed and who doubled, each defender's stake,
    the winning side and who went out, the deal's raw scores and every player's running raw total after it."""
    rows = []
    for deal in deals:
        result = deal["result"] or {}
        entry = next(d for d in match["deals"] if d["deal_id"] == deal["id"])
        standing = entry["standing"]
        digger = result.get("digger")
        stakes = result.get("stakes") or []
        rows.append({
            "number": deal["number"], "id": deal["id"], "finished": deal["finished"],
            "board": result.get("board", (deal.get("context") or {}).get("board")),
            "first": generic.first_bidder(deal, names),  # 首叫: only when recorded or entered
            "digger": names[digger] if digger is not None else None, "digger_seat": digger,
            "bid": result.get("bid"), "lanwa": bool(result.get("lanwa")),
            "shown": [names[s] for s in result.get("revealed") or []],
            "doubled": [names[s] for s in result.get("doubled") or []],
            "stakes": [{"who": names[s], "stake": stake} for s, stake in enumerate(stakes) if s != digger],
            "digger_won": result.get("digger_won"),
            "won": [int(result["digger_won"] == (s == digger)) for s in range(len(names))] if result else None,
            "out": names[result["winner"]] if result.get("winner") is not None else None,
            "scores": entry["scores"], "totals": standing["scores"] if standing else None,
        })
    return rows


def standing_text(match: dict[str, Any], names: list[str]) -> str:
    """Each seat's raw total, then the boards played of the round's: '+12 / -3 / -9 · 6/6'."""
    return generic.signed_totals(match, table_length(match))


# The viewer's plugin for this game (replay_ui/games/plugin.py): found by its folder's name.
UI = GameUI(describe, summarize, match_rows, generic.match_chart, standing_text, strings_of(__file__))
