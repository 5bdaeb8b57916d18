"""大怪路子 in words: plays with their pattern (单张, 对子, 三张, 杂顺, 同花, 三带二, 四带一, 同花顺, 五同), passes (a
knock on the table), who wins each round and leads the next (接风 when that player is out), who goes out in which
place (the first is the 头家), timeouts (a pass, or the lead handed on), fouls counted per team, and the outcome
(抓 k 家 / 被关 k 家, or a side's second foul scored as caught three); and a table's match page (each deal's
dealer, 头家 and team, finishing order, outcome, team points, running team totals and 跑头家 counts; both teams'
running totals as the chart).

Teams alternate round the table (seats 0, 2, 4 are 甲 / A; 1, 3, 5 are 乙 / B). Only the filtered frame is read
(the action and the engine's view for the chosen viewpoint), never the deal itself, so a description cannot
carry a card the viewpoint may not see: what a seat played is public, its hand is not.
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup, escape

from replay_ui.games.generic import chart_lines
from replay_ui.games.plugin import GameUI, strings_of
from replay_ui.shared.cards import cards_text
from replay_ui.shared.i18n import bilingual, text
from replay_ui.shared.notation import Frame, Notation, describer, foul_words, latest_move, say, when

TEAMS = (0, 1)
FOULS_TO_LOSE = 2
FIVE_MARKS = ("five", "straight_flush")  # the two strongest five-card classes get a timeline mark


def team_of(seat: int) -> int:
    return seat % 2


def team_names(names: list[str], team: int) -> str:
    """A team by its players: seats 0·2·4 or 1·3·5."""
    return "·".join(names[seat] for seat in range(len(names)) if team_of(seat) == team)


def side_name(match: dict[str, Any], names: list[str], team: int) -> str:
    """A side as people know it: its team's name where the players entered as a team (the match's `entries`),
    else its players ('张伟·李娜·陈静')."""
    seats = [seat for seat in range(len(names)) if team_of(seat) == team]
    entry = next((e for e in match.get("entries") or () if sorted(e["seats"]) == seats), None)
    return entry["name"] if entry else team_names(names, team)


def _side(names: list[str], team: int) -> Any:
    """A side in a step's words: its players ('张伟·李娜·陈静'), never 甲队 / 乙队."""
    return lambda lang: team_names(names, team)


def _cards(cards: list[str]) -> Any:
    return lambda lang: cards_text(cards, lang)


def _place(place: int) -> Any:
    return lambda lang: text("dg.place.head" if place == 1 else "dg.place.n", lang, n=place)


def _entry(view: dict[str, Any], before: dict[str, Any] | None, seat: int) -> dict[str, Any] | None:
    """The round entry of `seat`'s move that led to this view: in the current round, or the one it closed."""
    just_closed = before is not None and view["rounds_played"] > before["rounds_played"]
    return latest_move(view["round"]["plays"], view.get("last_round"), seat, just_closed)


def _play(who: str, cards: list[str], view: dict[str, Any], before: dict[str, Any] | None, seat: int) -> Notation:
    entry = _entry(view, before, seat) or {}
    pattern = entry.get("pattern") or {"zh": "", "en": "", "kind": ""}
    tags = ["play"] + ([pattern["kind"]] if pattern["kind"] in FIVE_MARKS else [])
    return say("n.play", tags, who=who, cards=_cards(cards),
               pattern=lambda lang: pattern["zh" if lang == "zh" else "en"])


def _foul(who: str, action: dict[str, Any], view: dict[str, Any], before: dict[str, Any] | None,
          names: list[str]) -> Notation:
    seat = action["seat"]
    team = team_of(seat)
    if before is not None and before["phase"] == "finished":
        return say("n.dg.foul.after", ["foul"], who=who, **foul_words("daguai", action))
    nth = view["fouls_by_team"][team]
    key = "n.dg.foul.second" if nth == FOULS_TO_LOSE else "n.dg.foul"
    return say(key, ["foul"], who=who, **foul_words("daguai", action), team=_side(names, team), n=nth)


def _leading(before: dict[str, Any] | None) -> bool:
    return before is None or not before["round"]["plays"]


def _action(frame: Frame, previous: Frame | None, names: list[str]) -> Notation:
    action, view = frame["action"], frame["view"]
    before = previous["view"] if previous else None
    seat, kind = action["seat"], action["type"]
    who = names[seat]
    if kind == "play":
        return _play(who, action["cards"], view, before, seat)
    if kind == "pass":
        return say("n.dg.pass", ["pass"], who=who)
    if kind == "foul":
        return _foul(who, action, view, before, names)
    if kind == "timeout":
        if _leading(before):  # "放弃出牌权利": the next active seat leads a fresh round (A10.6)
            return say("n.dg.timeout.lead", ["pass"], who=who, next=names[view["round"]["leader"]])
        return say("n.timeout.pass", ["pass"], who=who)
    raise ValueError(f"unknown 大怪路子 action type {kind!r}")  # the engine refuses these before they are stored


def _out_and_round(frame: Frame, before: dict[str, Any] | None, names: list[str]) -> list[Notation]:
    """Who went out at this step and in which place; a round closed (who leads the next)."""
    view = frame["view"]
    if before is None:
        return []
    clauses: list[Notation] = []
    for seat in view["finish_order"][len(before["finish_order"]):]:
        place = view["finish_order"].index(seat) + 1
        clauses.append(say("n.dg.out", ["head" if place == 1 else "out"], who=names[seat],
                           place=_place(place), team=_side(names, team_of(seat))))
    closed = view["rounds_played"] > before["rounds_played"] and view["phase"] != "finished"
    if closed and not (frame["action"]["type"] == "timeout" and _leading(before)):
        clauses.append(_new_round(view, names))
    return clauses


def _dealt(frame: Frame, names: list[str]) -> Notation:
    return say("n.dg.dealt", who=names[frame["view"]["first"]])


def _new_round(view: dict[str, Any], names: list[str]) -> Notation:
    """A round closed: its last player leads again, or the next active seat if that player is out (接风)."""
    plays = [p for p in view["last_round"] or [] if p["type"] == "play"]
    leader = view["round"]["leader"]
    if plays and plays[-1]["seat"] != leader:
        return say("n.dg.round.jiefeng", ["round"], who=names[leader], out=names[plays[-1]["seat"]])
    return say("n.dg.round", ["round"], who=names[leader])


def outcome_key(result: dict[str, Any]) -> str:
    return "dg.outcome.catch" if result["outcome"] == "catch" else "dg.outcome.caught"


def _outcome(result: dict[str, Any], names: list[str]) -> list[Notation]:
    head = result["head_team"]
    points = result["team_points"]
    key = "n.dg.end.catch" if result["outcome"] == "catch" else "n.dg.end.caught"
    if result["decided_by_fouls"]:
        key += ".fouls"  # the natural points are replaced: the fouls clause gives the score
    lines = [say(key, ["end"], team=_side(names, head), k=result["k"], who=names[result["first_finisher"]],
                 points=points[head])]
    if result["decided_by_fouls"]:
        fouled = [team for team in TEAMS if result["fouls_by_team"][team] >= FOULS_TO_LOSE]
        if len(fouled) == 2:
            lines.append(say("n.dg.end.bothFouled", ["foul"]))
        else:
            lines.append(say("n.dg.end.fouled", ["foul"], team=_side(names, fouled[0]),
                             n=result["fouls_by_team"][fouled[0]],
                             other=_side(names, 1 - fouled[0]), points=points[1 - fouled[0]]))
    return lines


def _order(order: list[int], names: list[str]) -> Any:
    def words(lang: str) -> str:
        return text("n.comma", lang).join(
            f"{place}. {names[seat]}（{text(f'dg.team.short.{team_of(seat)}', lang)}）" if lang == "zh" else
            f"{place}. {names[seat]} ({text(f'dg.team.short.{team_of(seat)}', lang)})"
            for place, seat in enumerate(order, start=1))
    return words


def _end(view: dict[str, Any], names: list[str]) -> list[Notation]:
    return _outcome(view["result"], names)


describe = describer(_action, _out_and_round, when("phase", _end, "finished"), dealt=_dealt)


def summarize(view: dict[str, Any], names: list[str]) -> list[Notation]:
    """The record's outcome: the teams, the dealer who led, the finishing order, how it ended and the points."""
    lines = [say("n.dg.summary.teams", a=team_names(names, 0), b=team_names(names, 1)),
             say("n.dg.summary.dealer", who=names[view["first"]])]
    result = view["result"]
    if result is None:
        return lines
    lines.append(say("n.dg.summary.order", order=_order(result["finish_order"], names)))
    lines.extend(_outcome(result, names))
    lines.append(say("n.dg.summary.points", ta=team_names(names, 0), tb=team_names(names, 1),
                     a=result["team_points"][0], b=result["team_points"][1],
                     fa=result["fouls_by_team"][0], fb=result["fouls_by_team"][1]))
    return lines


# --- the match page: a fixed number of deals, then the play-off ----------------------------------------------


def table_length(match: dict[str, Any]) -> int:
    return int(match["options"].get("dg.tableDeals", 4))


def match_rows(match: dict[str, Any], deals: list[dict[str, Any]], names: list[str]) -> list[dict[str, Any]]:
    """One row per deal: the dealer (who led), the 头家 and team, the finishing order, the outcome (抓/被关 k, or
    decided by fouls), fouls per team, the deal's team points, then the running team totals and 跑头家 counts
    after it (the standing the table recorded); a play-off deal is marked."""
    rows = []
    playoff = False  # the deal was the play-off: points and 跑头家 were level after the table's deals
    for deal in deals:
        result = deal["result"] or {}
        entry = next(d for d in match["deals"] if d["deal_id"] == deal["id"])
        standing = entry["standing"]
        played = bool(result)
        head = result.get("first_finisher")
        rows.append({
            "number": deal["number"], "id": deal["id"], "finished": deal["finished"], "playoff": playoff,
            "dealer": names[deal["first"]], "dealer_team": team_of(deal["first"]),
            "head": names[head] if played else None, "head_team": result.get("head_team"),
            "head_side": side_name(match, names, result["head_team"]) if played else None,
            "order": [{"name": names[s], "team": team_of(s)} for s in result.get("finish_order", [])],
            "outcome": outcome_key(result) if played else None, "k": result.get("k"),
            "by_fouls": bool(result.get("decided_by_fouls")),
            "fouls": result.get("fouls_by_team"),
            "points": result.get("team_points"),
            "totals": standing["points"] if standing else None,
            "heads": standing["first_finishes"] if standing else None,
        })
        playoff = bool(standing and standing["playoff"])
    return rows


def match_chart(match: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """Both teams' running totals of team points at the start and after every scored deal."""
    numbers, series = chart_lines(match, [0, 0], lambda entry: entry["standing"] and entry["standing"]["points"])
    return {"numbers": numbers, "names": [side_name(match, names, team) for team in TEAMS], "series": series,
            "target": None, "title": "match.chart.teamPoints", "y_title": "chart.teamPoints"}


def standing_text(match: dict[str, Any], names: list[str]) -> str:
    """'张伟·李娜·陈静 13 : 5 王磊·刘洋·杨帆 · 跑头家 3 : 1 · 4/4' (the label in both languages; a play-off
    marked)."""
    standing = match["standing"]
    points, heads = standing["points"], standing["first_finishes"]
    sides = [side_name(match, names, team) for team in TEAMS]
    line = Markup(f"{escape(sides[0])} {points[0]} : {points[1]} {escape(sides[1])} · ")
    line += bilingual("dg.standing.heads", a=heads[0], b=heads[1])
    line += Markup(f" · {standing['deals']}/{table_length(match)}")
    if standing["playoff"] and standing["end"] is None:
        line += Markup(" · ") + bilingual("dg.playoff")
    return line


# The viewer's plugin for this game (replay_ui/games/plugin.py): found by its folder's name.
UI = GameUI(describe, summarize, match_rows, match_chart, standing_text, strings_of(__file__))
