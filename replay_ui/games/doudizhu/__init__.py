"""斗地主 in words: 叫地主/不叫/抢地主/不抢, 明牌, plays with their pattern (单顺, 炸弹 …), fouls, the outcome; and a
chip table's match page (each deal's landlord, multiplier, scores and chips; the chips chart).

Only the filtered frame is read (the action and the engine's view for the chosen viewpoint), never the deal
itself, so a description cannot carry a card the viewpoint may not see.
"""

from __future__ import annotations

from typing import Any

from domain.games.doudizhu.table import TARGET
from replay_ui.games.generic import chart_lines, first_bidder, top_seats
from replay_ui.games.plugin import GameUI, strings_of
from replay_ui.shared.cards import cards_text
from replay_ui.shared.i18n import text
from replay_ui.shared.notation import Frame, Notation, describer, foul_words, say, timeout_in_play, when


def _pattern_of(view: dict[str, Any], seat: int) -> dict[str, Any] | None:
    """The pattern the engine read for `seat`'s play that led to this view (current round, else the one it closed)."""
    for plays in (view["round"]["plays"], view.get("last_round") or []):
        if plays and plays[-1].get("seat") == seat and plays[-1].get("type") == "play":
            return plays[-1].get("pattern")
    return None


def _play(who: str, cards: list[str], view: dict[str, Any], seat: int) -> Notation:
    pattern = _pattern_of(view, seat) or {"zh": "", "en": "", "kind": ""}
    tags = ["play"] + ([pattern["kind"]] if pattern["kind"] in ("bomb", "rocket") else [])
    return say("n.play", tags, who=who, cards=lambda lang: cards_text(cards, lang),
               pattern=lambda lang: pattern["zh" if lang == "zh" else "en"])


def _bid_pass_key(previous: Frame | None) -> str:
    """不叫 before anyone called, 不抢 after (the rob round)."""
    bids = previous["view"]["bidding"] if previous else []
    return "n.norob" if any(b["type"] == "call" for b in bids) else "n.nocall"


def _action(frame: Frame, previous: Frame | None, names: list[str]) -> Notation:
    action, view = frame["action"], frame["view"]
    seat, kind = action["seat"], action["type"]
    who = names[seat]
    was_bidding = previous is None or previous["view"]["phase"] == "bidding"
    if kind == "call":
        return say("n.call", ["bid"], who=who)
    if kind == "rob":
        return say("n.rob", ["bid"], who=who)
    if kind == "pass":
        return say(_bid_pass_key(previous), ["bid"], who=who) if was_bidding else say("n.pass", ["pass"], who=who)
    if kind == "play":
        return _play(who, action["cards"], view, seat)
    if kind == "reveal":
        factor = next((r["factor"] for r in reversed(view["reveals"]) if r["seat"] == seat), 1)
        if action["stage"] == "deal":
            return say("n.reveal.deal", ["reveal"], who=who, received=action["received"], factor=factor)
        stage = "reveal." + action["stage"]
        return say("n.reveal", ["reveal"], who=who, factor=factor,
                   stage=lambda lang: text(stage, lang))
    if kind == "foul":
        key = "n.foul.penalty" if action.get("penalty") else "n.foul"
        return say(key, ["foul"], who=who, **foul_words("doudizhu", action),
                   penalty=action.get("penalty", 0))
    if kind == "timeout":
        return _timeout(who, seat, frame, previous, was_bidding)
    raise ValueError(f"unknown 斗地主 action type {kind!r}")  # the engine refuses these before they are stored


def _timeout(who: str, seat: int, frame: Frame, previous: Frame | None, was_bidding: bool) -> Notation:
    """A timeout is a pass in bidding and when following, the lowest single when leading [REC]."""
    if was_bidding:
        key = _bid_pass_key(previous)
        return say("n.timeout.bid", ["bid"], who=who, bid=lambda lang: text(
            "bid.norob" if key == "n.norob" else "bid.nocall", lang))
    return timeout_in_play(who, seat, frame, previous)


def _landlord_set(view: dict[str, Any], names: list[str]) -> Notation:
    kitty = view["kitty"] or []
    return say("n.landlord", ["landlord"], who=names[view["landlord"]], kitty=lambda lang: cards_text(kitty, lang))


def _outcome(view: dict[str, Any], names: list[str]) -> Notation:
    result = view["result"] or {}
    if result.get("redeal"):
        return say("n.redeal", ["end"])
    keys = ["n.end.landlord" if result.get("landlord_won") else "n.end.farmers"]
    tags = ["end"]
    if result.get("spring"):
        keys.append("n.end.spring")
        tags.append("spring")
    if result.get("anti_spring"):
        keys.append("n.end.antiSpring")
        tags.append("spring")

    def outcome(lang: str) -> str:
        return text("n.comma", lang).join(text(key, lang) for key in keys)

    return say("n.end", tags, who=names[result["winner"]], outcome=outcome)


describe = describer(_action, when("landlord", _landlord_set), when("phase", _outcome, "finished"))


def summarize(view: dict[str, Any], names: list[str]) -> list[Notation]:
    """The record's outcome: who was landlord, who won (春天?), and the 倍数 with its factors."""
    lines: list[Notation] = []
    if view["landlord"] is not None:
        lines.append(say("n.summary.landlord", who=names[view["landlord"]], first=names[view["first"]]))
    if view["result"] is not None:
        lines.append(_outcome(view, names))
    if view["landlord"] is not None:
        lines.append(say("n.summary.multipliers", **view["multipliers"]))
    return lines


# --- the match page: a chip table --------------------------------------------------------------------------


def match_rows(match: dict[str, Any], deals: list[dict[str, Any]], names: list[str]) -> list[dict[str, Any]]:
    """One row per deal: first bidder, landlord, multiplier, the deal's scores and the chips after it."""
    rows = []
    for deal in deals:
        result = deal["result"] or {}
        landlord = result.get("landlord")
        entry = next(d for d in match["deals"] if d["deal_id"] == deal["id"])
        rows.append({
            "number": deal["number"], "id": deal["id"], "finished": deal["finished"],
            "first": first_bidder(deal, names), "landlord": names[landlord] if landlord is not None else None,
            "redeal": bool(result.get("redeal")), "multiplier": (result.get("multipliers") or {}).get("total"),
            "scores": entry["scores"], "chips": entry["chips"], "bombs": result.get("bombs", 0),
            "spring": bool(result.get("spring") or result.get("anti_spring")),
        })
    return rows


def match_chart(match: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """Chips of each player at the start and after every scored deal, and the table's target line."""
    numbers, series = chart_lines(match, [match["start_chips"]] * len(names), lambda entry: entry["chips"])
    # hold20: hold 20 chips; net20: be 20 up on the start (domain.kernel.table.table_winner).
    net = match["options"].get("ddz.tableTarget") == "net20"
    target = match["start_chips"] + TARGET if net else TARGET
    return {"numbers": numbers, "names": names, "series": series, "target": target, "title": "match.chart",
            "y_title": "chart.chips"}


def standing_text(match: dict[str, Any], names: list[str]) -> str:
    return " / ".join(str(chips) for chips in match["chips"])


def table_leaders(match: dict[str, Any]) -> list[int]:
    """The seats holding the most chips (a closed 加赛: who the extra deals placed first)."""
    return top_seats(match["chips"])


def deal_figures(match: dict[str, Any] | None, deal: dict[str, Any]) -> dict[str, Any]:
    """Each player's chips before and after the deal (None outside a match, and after a deal not yet scored)."""
    before = after = None
    if match is not None:
        chips = [match["start_chips"]] * len(match["seats"])
        for entry in match["deals"]:
            if entry["number"] == deal["number"]:
                before, after = chips, entry["chips"]
                break
            chips = entry["chips"] or chips
    return {"chips_before": before, "chips_after": after}


# The viewer's plugin for this game (replay_ui/games/plugin.py): found by its folder's name.
UI = GameUI(describe, summarize, match_rows, match_chart, standing_text, strings_of(__file__), deal_figures,
            table_leaders=table_leaders)
