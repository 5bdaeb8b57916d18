"""升级 in words: 亮主/自保/反主/反无主, 坐庄 and the trump, 扣底, leads by shape (单张, 对子, 拖拉机, 甩牌), a failed
throw and its penalty, follows and 毙, who took each trick with how many points, 抠底, referee records
(irregularities, fouls), and the deal's outcome (points, who goes up how many levels, 大分).

Only the filtered frame is read (the action as the viewpoint may see it and the engine's view for that
viewpoint), so a description cannot carry a card the viewpoint may not see: a buried kitty is named by its
size unless the frame's action lists the cards.
"""

from __future__ import annotations

from typing import Any

from domain.games.shengji.cards import LEVEL_RANK, NO_TRUMP, TRUMP, decompose, order_for
from domain.games.shengji.state import HAND_SIZE, KITTY_SIZE
from replay_ui.games.generic import chart_lines
from replay_ui.games.plugin import GameUI, strings_of
from replay_ui.shared.cards import cards_text
from replay_ui.shared.i18n import text
from replay_ui.shared.notation import Frame, Notation, describer, foul_words, latest_move, note_text, say

SUIT_KEYS = {"S": "suit.S", "H": "suit.H", "C": "suit.C", "D": "suit.D", NO_TRUMP: "suit.NT"}


def _cards(cards: list[str]) -> Any:
    return lambda lang: cards_text(cards, lang)


def _suit(trump: str) -> Any:
    return lambda lang: text(SUIT_KEYS[trump], lang)


def seat_marks(seats: int) -> list[tuple[str, str]]:
    """东 南 西 北: the pairs are 东西 (seats 0·2) and 南北 (1·3), as S004 names them (docs/rules/shengji.md)."""
    return [(text(f"sj.seat.{seat}", "zh"), text(f"sj.seat.{seat}", "en")) for seat in range(seats)]


def team_names(names: list[str], team: int) -> str:
    """A partnership by its players: seats {0, 2} or {1, 3}."""
    return "·".join(names[seat] for seat in range(len(names)) if seat % 2 == team)


def _declaration_kind(declarations: list[dict[str, Any]]) -> str:
    """亮主 (one level card), 亮对 (a pair first), 自保, 反主, 自反 or 反无主: the new declaration against the one
    it beat."""
    new = declarations[-1]
    before = declarations[-2] if len(declarations) > 1 else None
    if new["strength"] == 3:
        return "sj.decl.noTrump"
    if before is None:
        return "sj.decl.first" if new["strength"] == 1 else "sj.decl.pair"
    if before["seat"] == new["seat"]:
        return "sj.decl.defend" if before["trump"] == new["trump"] else "sj.decl.self"
    return "sj.decl.overcall"


def _shape(cards: list[str], view: dict[str, Any]) -> str:
    """单张, 对子, 拖拉机 or 甩牌 for a lead, read as the engine reads it (the deal's level and trump)."""
    if len(cards) == 1:
        return "sj.shape.single"
    components = decompose(cards, order_for(view["level"], view["trump"]).value)
    if len(components) > 1:
        return "sj.shape.throw"
    return "sj.shape.pair" if components[0].pairs == 1 else "sj.shape.tractor"


def _trick_entry(view: dict[str, Any], before: dict[str, Any] | None, seat: int) -> dict[str, Any] | None:
    """The trick entry of `seat`'s play that led to this view: in the current trick, or the one it closed (a seat
    plays once a trick)."""
    closed = view.get("last_trick")
    just_closed = before is not None and view["tricks_played"] > before["tricks_played"]
    return latest_move(view["trick"]["plays"], closed and closed["plays"], seat, just_closed)


def _play(who: str, cards: list[str], view: dict[str, Any], before: dict[str, Any] | None, seat: int,
          names: list[str]) -> Notation:
    entry = _trick_entry(view, before, seat) or {"cards": cards}
    leading = before is None or not before["trick"]["plays"]
    if entry.get("failed_throw"):
        def blockers(lang: str) -> str:  # the players who could beat the throw, listed as each language lists
            return ("、" if lang == "zh" else ", ").join(names[s] for s in entry["blockers"])

        key = "n.sj.throwFailed.penalty" if entry.get("penalty") else "n.sj.throwFailed"
        return say(key, ["play", "throw"] + (["penalty"] if entry.get("penalty") else []), who=who,
                   attempted=_cards(entry["attempted"]), cards=_cards(entry["cards"]), blockers=blockers,
                   penalty=entry.get("penalty", 0))
    if leading:
        shape = _shape(cards, view)
        return say("n.sj.lead", ["play"], who=who, cards=_cards(cards), shape=lambda lang: text(shape, lang))
    led = before["trick"]["plays"][0]["cards"] if before else cards
    suit_of = order_for(view["level"], view["trump"]).suit
    trumps = suit_of[led[0]] != TRUMP and all(suit_of[c] == TRUMP for c in cards)
    return say("n.sj.trump" if trumps else "n.sj.follow", ["play"], who=who, cards=_cards(cards))


def _irregularity(who: str, action: dict[str, Any], view: dict[str, Any]) -> Notation:
    kind = action["kind"]
    written = action.get("note", "")

    def note(lang: str) -> str:
        return note_text(written, lang)

    if kind == "wrong_follow":
        record = next((i for i in reversed(view["irregularities"]) if i["kind"] == kind), {})
        return say("n.sj.irr.wrong_follow", ["irregularity", "penalty"], who=who, cards=_cards(action["cards"]),
                   penalty=10 * record.get("wrong_cards", 0), note=note)
    return say(f"n.sj.irr.{kind}", ["irregularity"], who=who, cards=_cards(action.get("cards", [])), note=note)


def _action(frame: Frame, previous: Frame | None, names: list[str]) -> Notation:
    action, view = frame["action"], frame["view"]
    before = previous["view"] if previous else None
    seat, kind = action["seat"], action["type"]
    who = names[seat]
    if kind == "declare":
        declared = view["declarations"][-1]
        key = _declaration_kind(view["declarations"])
        received = action.get("received")
        return say("n.sj.declare.received" if received is not None else "n.sj.declare", ["declare"], who=who,
                   cards=_cards(declared["cards"]), kind=lambda lang: text(key, lang), received=received,
                   trump=_suit(declared["trump"]))
    if kind == "pass":
        return say("n.sj.pass", ["pass"], who=who)
    if kind == "bury":
        if action.get("cards"):
            return say("n.sj.bury", ["bury"], who=who, cards=_cards(action["cards"]))
        return say("n.sj.bury.hidden", ["bury"], who=who, n=action.get("count", 8))
    if kind == "play":
        return _play(who, action["cards"], view, before, seat, names)
    if kind == "irregularity":
        return _irregularity(who, action, view)
    if kind == "foul":
        key = "n.sj.foul.penalty" if action.get("penalty") else "n.foul"
        return say(key, ["foul"] + (["penalty"] if action.get("penalty") else []), who=who,
                   penalty=action.get("penalty", 0), **foul_words("shengji", action))
    if kind == "timeout":
        return _timeout(who, seat, view, before, names)
    raise ValueError(f"unknown 升级 action type {kind!r}")  # the engine refuses these before they are stored


def _timeout(who: str, seat: int, view: dict[str, Any], before: dict[str, Any] | None, names: list[str]) -> Notation:
    """A timeout [REC]: a pass while declaring, the kitty buried as taken, the lowest legal cards in play."""
    if before is None or before["phase"] in ("dealing", "declaring"):
        return say("n.sj.timeout.pass", ["pass"], who=who)
    if before["phase"] == "burying":
        return say("n.sj.timeout.bury", ["bury"], who=who)
    entry = _trick_entry(view, before, seat)
    return say("n.timeout.play", ["play"], who=who, cards=_cards(entry["cards"] if entry else []))


def _declarations_closed(view: dict[str, Any], names: list[str]) -> Notation:
    """The round after the last card is over: who deals, what is trump, at which level — or a redeal."""
    if view["phase"] == "finished":
        return say("n.sj.redeal", ["end"])
    rank = LEVEL_RANK[view["level"]]
    if view["kitty_shown"]:
        return say("n.sj.kittyTrump", ["dealer"], who=names[view["dealer"]], cards=_cards(view["kitty_shown"]),
                   trump=_suit(view["trump"]), rank=rank)
    return say("n.sj.dealer", ["dealer"], who=names[view["dealer"]], trump=_suit(view["trump"]), rank=rank)


def _after(frame: Frame, before: dict[str, Any] | None, names: list[str]) -> list[Notation]:
    """What a step brought about: the declarations closed (who deals, trump), a trick won, the deal's outcome."""
    view = frame["view"]
    if before is None:
        return []
    clauses: list[Notation] = []
    declaring = ("dealing", "declaring")
    if before["phase"] in declaring and view["phase"] not in declaring:
        clauses.append(_declarations_closed(view, names))
    closed = view.get("last_trick")
    # A result-blind review leaves out who won each trick (docs/appeals.md): the trick is then told by the play.
    if view["tricks_played"] > before["tricks_played"] and closed and "winner" in closed:
        clauses.append(say("n.sj.trick", ["trick"], who=names[closed["winner"]], points=closed["points"]))
    if view["phase"] == "finished" and before["phase"] != "finished" and view["result"] \
            and not view["result"].get("redeal"):
        clauses.extend(_outcome(view["result"], names))
    return clauses


def _outcome(result: dict[str, Any], names: list[str]) -> list[Notation]:
    lines = []
    points = result["points"]
    if points["kitty_multiplier"]:
        lines.append(say("n.sj.dig", ["dig"], kitty=points["kitty_cards"], factor=points["kitty_multiplier"],
                         bonus=points["kitty_bonus"]))
    change = result["level_change"]
    gaining = team_names(names, change["team"])
    if result["ended_by"] in ("revoke", "miscount"):
        offenders = team_names(names, 1 - result["winner_team"])
        lines.append(say("n.sj.end.forfeit", ["end"], team=offenders, winners=team_names(names, result["winner_team"]),
                         steps=change["steps"]))
    elif result["takeover"]:
        key = "n.sj.end.takeover" if change["steps"] else "n.sj.end.takeover0"
        lines.append(say(key, ["end"], points=result["attacker_points"], team=gaining, steps=change["steps"]))
    else:
        lines.append(say("n.sj.end.hold", ["end"], points=result["attacker_points"], team=gaining,
                         steps=change["steps"]))
    return lines


def _dealing(frame: Frame, names: list[str]) -> Notation:
    """Step 0 of a deal dealt card by card (declarations come while it is dealt, §3.3): dealing begins."""
    view = frame["view"]
    if view["phase"] != "dealing":
        return say("n.dealt")
    return say("n.sj.dealing", hand=HAND_SIZE, kitty=KITTY_SIZE)


def _dealt_so_far(frame: Frame, before: dict[str, Any] | None, names: list[str]) -> list[Notation]:
    """While dealing: how far the dealing had come when this was recorded (a declaration after 15 cards deals
    everyone up to that card at once)."""
    view = frame["view"]
    if before is None or view["dealt"] == before["dealt"]:
        return []
    return [say("n.sj.dealtSoFar", n=view["dealt"], total=HAND_SIZE * len(view["seats"]))]


describe = describer(_action, _dealt_so_far, _after, dealt=_dealing)


def summarize(view: dict[str, Any], names: list[str]) -> list[Notation]:
    """The record's outcome: dealer, trump and level; the attackers' points and what made them; the levels
    after the deal; S004's 大分 and 小分."""
    lines: list[Notation] = []
    result = view["result"]
    if view["dealer"] is not None and view["trump"] is not None:
        lines.append(say("n.sj.summary.dealer", who=names[view["dealer"]], trump=_suit(view["trump"]),
                         rank=LEVEL_RANK[view["level"]], levels=" : ".join(LEVEL_RANK[v] for v in view["levels"])))
    if result is None:
        return lines
    if result.get("redeal"):
        return [*lines, say("n.sj.redeal", ["end"])]
    points = result["points"]
    lines.append(say("n.sj.summary.points", total=result["attacker_points"], cards=points["cards"],
                     bonus=points["kitty_bonus"], penalties=points["penalties"]))
    lines.extend(_outcome(result, names))
    lines.append(say("n.sj.summary.levels", team0=team_names(names, 0), team1=team_names(names, 1),
                     levels=" : ".join(LEVEL_RANK[v] for v in result["new_levels"]),
                     big=" : ".join(str(v) for v in result["big_points"]),
                     small=" : ".join(str(v) for v in result["small_points"])))
    return lines


# --- the match page: levels per deal -----------------------------------------------------------------------


def _outcome_key(result: dict[str, Any]) -> str:
    if result["ended_by"] in ("revoke", "miscount"):
        return "sj.result.forfeit"
    return "sj.result.takeover" if result["takeover"] else "sj.result.hold"


def match_rows(match: dict[str, Any], deals: list[dict[str, Any]], names: list[str]) -> list[dict[str, Any]]:
    """One row per deal: dealer, trump and level, the attackers' points and the outcome, then the match's
    levels and 大分/小分 totals after it (the standing the table recorded) and the clock readings after it."""
    rows = []
    extra = False  # the deal was S001's 加赛: time was up on equal levels before it started
    for deal in deals:
        result = deal["result"] or {}
        entry = next(d for d in match["deals"] if d["deal_id"] == deal["id"])
        standing = entry["standing"]
        played = bool(result) and not result.get("redeal")
        rows.append({
            "number": deal["number"], "id": deal["id"], "finished": deal["finished"],
            "redeal": bool(result.get("redeal")), "extra_deal": extra,
            "dealer": names[result["dealer"]] if played else None,
            "trump": result.get("trump") if played else None,
            "level": LEVEL_RANK[result["level"]] if played else None,
            "points": result.get("attacker_points"), "outcome": _outcome_key(result) if played else None,
            "gain": f"{team_names(names, result['level_change']['team'])} +{result['level_change']['steps']}"
            if played else None,
            "levels": [LEVEL_RANK[v] for v in standing["levels"]] if standing else None,
            "big": standing["big_points"] if standing else None,
            "small": standing["small_points"] if standing else None,
            "clock": [r for r in match["clock"] if r["after_deal"] == deal["number"]],
        })
        extra = bool(standing and standing["extra_deal"])
    return rows


def match_chart(match: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """Both teams' levels at the start and after every scored deal, the goal level, and where time was called."""
    numbers, series = chart_lines(match, [2, 2], lambda entry: entry["standing"] and entry["standing"]["levels"])
    called = next((r["after_deal"] for r in match["clock"] if r["time_up"]), None)
    return {
        "numbers": numbers, "names": [team_names(names, 0), team_names(names, 1)], "series": series,
        "target": match["options"]["sj.goalLevel"], "title": "match.chart.levels", "y_title": "chart.level",
        "step": True,
        "ticks": {"vals": list(LEVEL_RANK), "text": list(LEVEL_RANK.values())}, "time_called": called,
    }


def standing_text(match: dict[str, Any], names: list[str]) -> str:
    levels = match["standing"]["levels"]
    return f"{team_names(names, 0)} {LEVEL_RANK[levels[0]]} : {LEVEL_RANK[levels[1]]} {team_names(names, 1)}"


# The viewer's plugin for this game (replay_ui/games/plugin.py): found by its folder's name.
UI = GameUI(describe, summarize, match_rows, match_chart, standing_text, strings_of(__file__),
            seat_marks=seat_marks, seat_called="sj.seat.called")
