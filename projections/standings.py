"""Standings: a pure function of one tournament's projected facts (projections/store.py) and its format.

Nothing here knows a game or a format: the tournament's declared `Format` (projections/formats.py) says what
the total is, which tiebreaks apply in which order, whether rounds knock players out, how many of a table go
on; the figures are measures over per-seat facts of finished deals (projections/facts.py).

Rules that hold for every format:

- A deal counts once its table recorded its score (`Match.DealScored`); its facts come from `Deal.Finished`
  and the table's standing after it. A table is over once it recorded its end (`Match.Ended`; tables scored
  before that event existed: once their last scored deal named a winner).
- Knockout: a player is ranked by the deepest round they reached (advancing from a finished table counts as
  reaching the next one), then by the total and tiebreaks of that round's table. A play-off round belongs to
  the round before it and only feeds `playoff` tiebreaks.
- An adjustment counts from its round on: in a knockout, toward the round that ranks the player (so one
  recorded in an earlier round only decided who advanced then).
- Equal on every declared criterion means an equal rank (1, 2, 2, 4); declaring `lots` makes that impossible.
- A format with `directions` (S004: E-W and N-S pairs) also ranks the pairs of each direction among
  themselves, by the same criteria, each pair in the direction it sat in at the table that ranks it.
- An appeal's outcome in effect (docs/appeals.md "Tiebreaks, matchpoints and the redeal"): a voided deal counts
  in no tiebreak and no matchpoint comparison, and its replacement (the redeal) counts in its place; an assigned
  or weighted score replaces the seat's `score` and the facts the format says follow it (`adjusted_facts`). The
  total counts the deals so (a duplicate format matchpoints the adjusted score against the other tables); the
  appeal's compensating adjustments are listed, counted in the deal (`counted_in_deal`), not added again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from domain.model.appeal_rules import SCORE_OUTCOMES
from projections.facts import Facts, seat_facts
from projections.formats import Criterion, resolve

Number = int | Fraction
PARTS = "_parts"  # a weighted score's (weight, score) parts for one seat, matchpointed part by part (Law 12C1c)


@dataclass
class TournamentFacts:
    """What the projection recorded about one tournament, as of one notification id (rows in log order)."""

    tournament: dict[str, Any]
    players: list[dict[str, Any]]
    rounds: list[dict[str, Any]]
    matches: list[dict[str, Any]]
    deals: list[dict[str, Any]]  # scored deals only
    adjustments: list[dict[str, Any]]
    appeals: list[dict[str, Any]] = field(default_factory=list)  # {appeal_id, deal_id, outcome (latest), …}


@dataclass
class Line:
    """One player at one table: the table, the seat, and each scored deal there with the seat's facts."""

    match: dict[str, Any]
    seat: int
    deals: list[tuple[dict[str, Any], Facts]] = field(default_factory=list)  # as they count (appeals applied)
    # every deal as played (a voided one too, and the replacement counted in its place): what explain lists
    recorded: list[tuple[dict[str, Any], Facts]] = field(default_factory=list)
    set_aside: list[dict[str, Any]] = field(default_factory=list)  # replacements whose appeal is no longer void

    @property
    def round(self) -> int:
        return self.match["round"]


@dataclass
class Figures:
    """A player's total and tiebreak values over some rounds, and what they were computed from."""

    total: Number
    base: int
    from_deals: Number
    adjustments: list[dict[str, Any]]
    tiebreaks: list[Number]
    lines: list[Line]
    playoff_lines: list[Line]


def plain(value: Any) -> Any:
    """JSON form of a figure: exact fractions (rates) are shown to 4 decimals, compared exactly."""
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else round(float(value), 4)
    return value


class Standings:
    """Everything the standings of one tournament are computed from, computed once."""

    def __init__(self, facts: TournamentFacts, *, round_limit: int | None = None,
                 extra_adjustments: Sequence[dict[str, Any]] = ()):
        self.facts = facts
        t = facts.tournament
        self.format, self.criteria = resolve(t["game"], t["format"], t["tiebreaks"])
        self.round_limit = round_limit
        self.extra_adjustments = list(extra_adjustments)
        self.rounds = self._rounds(facts, round_limit)
        self.matches = [m for m in facts.matches if m["seats"] is not None and m["round"] in self.rounds]
        self.adjustments = [a for a in (*facts.adjustments, *extra_adjustments) if a["round"] in self.rounds]
        self.names = {p["player_id"]: p["name"] for p in facts.players}
        self.numbers = {p["player_id"]: number for number, p in enumerate(facts.players, start=1)}
        self.stage_of = {r: i for i, r in enumerate((r for r, info in self.rounds.items()
                                                     if info["kind"] != "playoff"), start=1)}
        self.deal_outcomes = self._deal_outcomes()
        self.score_appeals = {a["appeal_id"] for a in facts.appeals
                              if a["outcome"] is not None and a["outcome"]["kind"] != "penalty"}
        self.seated: dict[str, list[Line]] = {}  # match id → a line per seat
        self.over: dict[str, bool] = {}  # match id → the table has ended
        self.lines = self._lines()
        self.owner = {r: self._owner(r) for r, info in self.rounds.items() if info["kind"] == "playoff"}
        self.ranking = {player: self._ranking_rounds(player) for player in self.lines}
        self.playoff_lines = {player: [line for line in lines if line.round in self.owner]
                              for player, lines in self.lines.items()}
        self.lots = self._lots()
        self.tables = [self._table(m) for m in self.matches]
        self.advanced: dict[int, set[str]] = {}  # round → the players who went on from its tables
        for table in self.tables:
            self.advanced.setdefault(table["round"], set()).update(table["advancing"])
        if self.format.structure == "knockout":  # a knockout bye goes on to the next round
            for number, info in self.rounds.items():
                self.advanced.setdefault(number, set()).update(info.get("byes", ()))
        self.keys: dict[str, tuple[Number, ...]] = {}  # player → (stage, total, tiebreaks…): larger ranks higher
        self.rows = self._rows()

    # --- structure ------------------------------------------------------------------------------------

    @staticmethod
    def _rounds(facts: TournamentFacts, limit: int | None) -> dict[int, dict[str, Any]]:
        """Started rounds plus round 1 when tables were opened before any round was started."""
        rounds = {r["round"]: {"round": r["round"], "label": r["label"], "kind": r["kind"],
                               **({"byes": list(r["byes"])} if r.get("byes") else {})} for r in facts.rounds}
        for match in facts.matches:
            rounds.setdefault(match["round"], {"round": match["round"], "label": f"第{match['round']}轮",
                                               "kind": "tables"})
        return {r: rounds[r] for r in sorted(rounds) if limit is None or r <= limit}

    # --- appeals (docs/appeals.md) ---------------------------------------------------------------------

    def _deal_outcomes(self) -> dict[str, dict[str, Any]]:
        """deal id → {appeal_id, outcome}: the score outcome in effect on the deal (one appeal at a time may
        replace a deal's score: domain/services/rulings.py refuses a second)."""
        found: dict[str, dict[str, Any]] = {}
        for appeal in sorted(self.facts.appeals, key=lambda a: a.get("outcome_nid", 0)):
            outcome = appeal["outcome"]
            if appeal.get("deal_id") and outcome is not None and outcome["kind"] in SCORE_OUTCOMES:
                found[appeal["deal_id"]] = {"appeal_id": appeal["appeal_id"], "outcome": outcome}
        return found

    def _replacement_counts(self, deal: dict[str, Any]) -> bool:
        """A redeal counts in its voided deal's place while its appeal's outcome in effect is `void`."""
        ruled = self.deal_outcomes.get(deal["scored"]["replaces"])
        return (ruled is not None and ruled["appeal_id"] == deal["scored"]["appeal_id"]
                and ruled["outcome"]["kind"] == "void")

    def _adjusted(self, entry: Facts, outcome: dict[str, Any], seat: int) -> Facts:
        """The seat's facts under an assigned or weighted score: `score` is the adjusted one (a weighted score's
        whole points, its parts kept for matchpoints), and each fact the format lists in `adjusted_facts` follows
        it — the deal is won by a seat whose adjusted score is positive (`won`), a role's win fact (地主胜局,
        庄家胜局叫分) is the role's value if so, else 0. Facts of what happened (roles, fouls, boards) stay."""
        score = outcome["scores"][seat]
        out = {**entry, "score": score}
        for fact, rule in self.format.adjusted_facts.items():
            if fact in entry:
                out[fact] = int(score > 0) if rule == "won" else (entry.get(rule, 0) if score > 0 else 0)
        if outcome["kind"] == "weighted":
            out[PARTS] = [(Fraction(part["weight"]), part["scores"][seat]) for part in outcome["parts"]]
        return out

    def _score_part(self, adjustment: dict[str, Any]) -> bool:
        """An appeal's compensating adjustment of a deal's score (not a penalty): the deal counts as adjusted (or
        not at all, voided), so it is not added again — in duplicate the adjusted score is matchpointed instead."""
        appeal = (adjustment.get("refers_to") or {}).get("appeal_id")
        return bool(appeal) and appeal in self.score_appeals and "deal_id" in adjustment["refers_to"]

    def _lines(self) -> dict[str, list[Line]]:
        deals_by_match: dict[str, list[dict[str, Any]]] = {}
        for deal in self.facts.deals:
            deals_by_match.setdefault(deal["match_id"], []).append(deal)
        lines: dict[str, list[Line]] = {p["player_id"]: [] for p in self.facts.players}
        every: list[tuple[Line, dict[str, Any], Facts]] = []
        for match in self.matches:
            seated = self.seated[match["match_id"]] = [Line(match, seat) for seat in range(len(match["seats"]))]
            # a replacement sorts right after the deal it replaces
            deals = sorted(deals_by_match.get(match["match_id"], ()),
                           key=lambda d: (d["number"], "replaces" in d["scored"]))
            played = [d for d in deals if "replaces" not in d["scored"]]
            self.over[match["match_id"]] = match.get("ended") is not None or (
                bool(played) and played[-1]["winner"] is not None)
            for deal in deals:
                if "replaces" in deal["scored"] and not self._replacement_counts(deal):
                    for line in seated:
                        line.set_aside.append(deal)
                    continue
                facts = seat_facts(self.facts.tournament["game"], deal["result"], deal["scored"].get("standing"))
                ruled = self.deal_outcomes.get(deal["deal_id"])
                for seat, (line, entry) in enumerate(zip(seated, facts, strict=True)):
                    line.recorded.append((deal, entry))
                    if ruled is not None and ruled["outcome"]["kind"] == "void":
                        continue  # counts in nothing: its replacement, once played, counts instead
                    if ruled is not None:
                        entry = self._adjusted(entry, ruled["outcome"], seat)
                    line.deals.append((deal, entry))
                    every.append((line, deal, entry))
            for player, line in zip(match["seats"], seated, strict=True):
                lines.setdefault(player, []).append(line)
        if self.format.duplicate:
            self._matchpoints(every)
        self._byes(lines)
        return lines

    def _byes(self, lines: dict[str, list[Line]]) -> None:
        """A bye is a line of its own, already over. In a duplicate format each board the round has played so far
        counts as a bye deal (docs/rules/wakeng.md B11.9: rate ½, MP = tables − 1, raw 0, not won); in a knockout
        the player goes on (Standings.advanced)."""
        for number, info in self.rounds.items():
            if not info.get("byes"):
                continue
            tables = [m for m in self.matches if m["round"] == number]
            boards = max((len(self.seated[m["match_id"]][0].deals) for m in tables), default=0)
            for player in info["byes"]:
                match = {"match_id": f"bye:{number}:{player}", "round": number, "table": "", "seats": [player],
                         "start_chips": None, "bye": True}
                line = Line(match, 0)
                if self.format.duplicate:
                    credit = {"score": 0, "won": 0, "bye": 1, "mp": len(tables) - 1, "mp_rate": Fraction(1, 2),
                              "mp_max": 2 * (len(tables) - 1)}
                    line.deals = [({"deal_id": f"{match['match_id']}:{board}", "match_id": match["match_id"],
                                    "number": board, "result": {"bye": True}, "finished": {}, "scored": {}},
                                   dict(credit)) for board in range(1, boards + 1)]
                self.over[match["match_id"]] = True
                lines.setdefault(player, []).append(line)
                lines[player].sort(key=lambda held: held.round)

    def _matchpoints(self, every: list[tuple[Line, dict[str, Any], Facts]]) -> None:
        """Duplicate scoring (docs/rules/wakeng.md B7): each result against every other on the same board in the
        same seat."""
        groups: dict[tuple[Any, ...], list[Facts]] = {}
        for line, deal, entry in every:
            # A deal without a board is compared with nothing (rate ½), never with another board.
            key = tuple(line.round if name == "round" else line.seat if name == "seat"
                        else entry.get(name, deal["deal_id"]) for name in self.format.duplicate)
            groups.setdefault(key, []).append(entry)
        def versus(mine: Facts, theirs: Facts) -> Number:
            # A weighted score is matchpointed part by part, each comparison weighted (Law 12C1c, as bridge does).
            return sum(wa * wb * (2 if a > b else 1 if a == b else 0)
                       for wa, a in mine.get(PARTS, [(1, mine["score"])])
                       for wb, b in theirs.get(PARTS, [(1, theirs["score"])]))

        for group in groups.values():
            for entry in group:
                mp = sum(versus(entry, other) for other in group if other is not entry)
                entry["mp"] = mp
                entry["mp_max"] = 2 * (len(group) - 1)
                entry["mp_rate"] = Fraction(mp, 2 * (len(group) - 1)) if len(group) > 1 else Fraction(1, 2)

    def _lots(self) -> dict[str, int]:
        """Lot numbers 1…n from the recorded seed; partners of a team format draw one lot together."""
        seed = self.facts.tournament["lots_seed"] or self.facts.tournament["tournament_id"]
        keys = {pid: "+".join(self._partners(pid)) for pid in self.names}
        # UTF-8; "surrogatepass" only matters for a lone surrogate stored before the API refused it.
        order = sorted(set(keys.values()),
                       key=lambda key: hashlib.sha256(f"{seed}:{key}".encode("utf-8", "surrogatepass")).hexdigest())
        number = {key: index for index, key in enumerate(order, start=1)}
        return {pid: number[key] for pid, key in keys.items()}

    def _partners(self, player: str) -> list[str]:
        """The player and their partners at their latest table (by the deals' `team` fact); a bye is no table."""
        played = [line for line in self.lines.get(player, ()) if line.deals and not line.match.get("bye")]
        if self.format.team_size == 1 or not played:
            return [player]
        line = played[-1]
        team = line.deals[-1][1].get("team")
        if team is None:
            return [player]
        seated = self.seated[line.match["match_id"]]
        return sorted(line.match["seats"][other.seat] for other in seated if other.deals[-1][1].get("team") == team)

    # --- figures --------------------------------------------------------------------------------------

    def _ranking_rounds(self, player: str) -> list[int]:
        played = sorted({line.round for line in self.lines.get(player, ()) if line.round in self.stage_of})
        if self.format.structure == "knockout":
            return played[-1:]
        return played

    def _owner(self, round_number: int) -> int | None:
        """The round a play-off round breaks ties of: the last non-play-off round before it."""
        earlier = [r for r in self.stage_of if r < round_number]
        return earlier[-1] if earlier else None

    def figures(self, player: str, rounds: list[int], *, ranking: bool, table: Line | None = None) -> Figures:
        """Total and tiebreaks over `rounds` (or only at `table`, for that table's own ranking); `ranking`:
        these are the rounds that rank the player (then later adjustments count too)."""
        lines = [table] if table is not None else [line for line in self.lines.get(player, ()) if line.round in rounds]
        playoff_lines = [line for line in self.playoff_lines.get(player, ())
                         if self.format.structure == "cumulative" or self.owner[line.round] in rounds]
        last = max(rounds, default=0)
        adjustments = [a for a in self.adjustments if a["player_id"] == player and (
            self.format.structure == "cumulative" or not rounds or a["round"] in rounds
            or (ranking and a["round"] > last)) and not self._score_part(a)]
        base = lines[-1].match["start_chips"] if self.format.start_chips and lines else 0
        # The deals as they count: a voided one not at all (its 大分 too), an adjusted one as adjusted.
        from_deals = self._measure(self.format.total, player, lines)
        points = sum(a["points"] for a in adjustments)
        tiebreaks = [self._measure(c, player, playoff_lines if c.scope == "playoff" else lines)
                     for c in self.criteria]
        most = sum(entry.get("mp_max", 0) for line in lines for _deal, entry in line.deals)
        if self.format.duplicate and most:
            # Duplicate scoring [REC]: an adjustment is in matchpoints. It moves total MP, and the rate as a share
            # of the most MP the player's deals could have given (the bridge convention for an MP penalty). With
            # nothing compared yet (no deal, or a lone table) there is no share to take: it counts on the total.
            total = base + from_deals + Fraction(points, most)
            tiebreaks = [value + points if c.scope == "ranking" and c.measure == "sum" and c.fact == "mp" else value
                         for c, value in zip(self.criteria, tiebreaks, strict=True)]
        else:
            total = base + from_deals + points
        return Figures(total, base, from_deals, adjustments, tiebreaks, lines, playoff_lines)

    def _measure(self, criterion: Criterion, player: str, lines: Iterable[Line]) -> Number:
        if criterion.measure == "lots":
            return self.lots[player]
        values = [entry.get(criterion.fact, 0) for line in lines for _deal, entry in line.deals]
        if criterion.measure == "sum":
            return sum(values)
        if criterion.measure == "count":
            return sum(1 for value in values if value)
        if criterion.measure == "max":
            return max(values, default=0)
        return Fraction(sum(values)) / len(values) if values else Fraction(0)

    def table_keys(self, match: dict[str, Any]) -> dict[str, tuple[Number, ...]]:
        """Each seated player's key at this table (the total, then the declared tiebreaks; larger ranks higher),
        as the table's own ranking compares them."""
        r = match["round"]
        return {pid: self._key(self.figures(pid, [r], ranking=self.ranking[pid] == [r], table=line))
                for pid, line in zip(match["seats"], self.seated[match["match_id"]], strict=True)}

    def _key(self, figures: Figures) -> tuple[Number, ...]:
        """Larger is better, criterion by criterion."""
        return (figures.total, *(value if c.higher_wins else -value
                                 for c, value in zip(self.criteria, figures.tiebreaks, strict=True)))

    # --- tables and rows ------------------------------------------------------------------------------

    def _table(self, match: dict[str, Any]) -> dict[str, Any]:
        r = match["round"]
        seats = match["seats"]
        figures = {pid: self.figures(pid, [r], ranking=self.ranking[pid] == [r], table=line)
                   for pid, line in zip(seats, self.seated[match["match_id"]], strict=True)}
        order = sorted(seats, key=lambda pid: (self._key(figures[pid]), -self.numbers.get(pid, 0)), reverse=True)
        over = self.over[match["match_id"]]
        kind = self.rounds[r]["kind"]
        advance = self.format.advance if over and kind != "playoff" else None
        deals = len(self.seated[match["match_id"]][0].deals)
        return {
            "match_id": match["match_id"], "round": r, "label": self.rounds[r]["label"], "kind": kind,
            "table": match["table"], "seats": list(seats), "names": [self.names.get(p, p) for p in seats],
            "start_chips": match["start_chips"], "totals": [plain(figures[p].total) for p in seats], "deals": deals,
            "over": over, "ended": match.get("ended"), "ranking": order,
            "advancing": order[:advance] if advance else [],
        }

    def _rows(self) -> list[dict[str, Any]]:
        entries = []
        for pid in self.names:
            rounds = self.ranking[pid]
            figures = self.figures(pid, rounds, ranking=True)
            stage = 0
            if self.format.structure == "knockout" and rounds:
                stage = self.stage_of[rounds[-1]] + (1 if pid in self.advanced.get(rounds[-1], ()) else 0)
            entries.append((pid, rounds, figures, (stage, *self._key(figures))))
            self.keys[pid] = entries[-1][3]
        entries.sort(key=lambda e: (e[3], -self.numbers[e[0]]), reverse=True)
        rows: list[dict[str, Any]] = []
        for index, (pid, rounds, figures, key) in enumerate(entries):
            rank = rows[-1]["rank"] if rows and key == entries[index - 1][3] else index + 1
            tied = [other for other, _, _, k in entries if other != pid and k[:2] == key[:2]]
            decided_by = None
            if index and entries[index - 1][3][:2] == key[:2] and key != entries[index - 1][3]:
                above = entries[index - 1][3]
                decided_by = next(c.code for c, mine, theirs in zip(self.criteria, key[2:], above[2:], strict=True)
                                  if mine != theirs)
            reached = self.rounds[rounds[-1]] if rounds else None
            rows.append({
                "rank": rank, "player_id": pid, "name": self.names[pid], "number": self.numbers[pid],
                "total": plain(figures.total), "tiebreak_values": [plain(v) for v in figures.tiebreaks],
                "stage": key[0], "reached": dict(reached) if reached else None, "status": self._status(pid, rounds),
                "adjustments": sum(a["points"] for a in figures.adjustments), "tied_with": tied,
                "decided_by": decided_by, "matches": self._row_matches(pid),
            })
            # The appeals (docs/appeals.md) whose outcome moved this total, in the order recorded; only when there
            # are some, so documents stored before appeals existed stay equal to a rebuild.
            appeals = list(dict.fromkeys([
                *(a["refers_to"]["appeal_id"] for a in self.adjustments
                  if a["player_id"] == pid and (a.get("refers_to") or {}).get("appeal_id")
                  and (a in figures.adjustments or self._score_part(a))),
                *(self.deal_outcomes[deal["deal_id"]]["appeal_id"] for line in figures.lines
                  for deal, _ in line.recorded if deal["deal_id"] in self.deal_outcomes)]))
            if appeals:
                rows[-1]["appeals"] = appeals
        return rows

    def _directions(self) -> list[dict[str, Any]]:
        """Each direction's pairs ranked among themselves (S004's awards): a pair is the partners who sat in the
        direction's seats at the table that ranks them, with their shared figures."""
        out = []
        for direction in self.format.directions:
            pairs: dict[str, list[dict[str, Any]]] = {}
            for row in self.rows:  # rank order, so pairs come out in rank order too
                lines = [line for line in self.lines.get(row["player_id"], ())
                         if line.round in self.ranking[row["player_id"]]]
                if lines and lines[-1].seat in direction.seats:
                    pairs.setdefault(lines[-1].match["match_id"], []).append(row)
            entries: list[dict[str, Any]] = []
            previous: tuple[Number, ...] | None = None
            for index, (match_id, members) in enumerate(pairs.items()):
                key = self.keys[members[0]["player_id"]]
                first = members[0]
                entries.append({
                    "rank": entries[-1]["rank"] if entries and key == previous else index + 1,
                    "player_ids": [m["player_id"] for m in members], "names": [m["name"] for m in members],
                    "match_id": match_id, "table": next(t["table"] for t in self.tables if t["match_id"] == match_id),
                    "total": first["total"], "tiebreak_values": first["tiebreak_values"], "status": first["status"],
                })
                previous = key
            out.append({**direction.describe(), "rows": entries})
        return out

    def _status(self, player: str, rounds: list[int]) -> str:
        lines = [line for line in self.lines.get(player, ()) if line.round in rounds]
        if not lines:
            return "waiting"
        if not all(self.over[line.match["match_id"]] for line in lines):
            return "playing"
        if self.format.structure == "cumulative":
            return "bye" if lines[-1].match.get("bye") else "played"
        final = self.rounds[rounds[-1]]["kind"] == "final"
        if player in self.advanced.get(rounds[-1], ()):
            return "champion" if final else "advanced"
        return "placed" if final else "eliminated"

    def _row_matches(self, player: str) -> list[dict[str, Any]]:
        out = []
        for table in self.tables:
            if player in table["seats"]:
                seat = table["seats"].index(player)
                out.append({"match_id": table["match_id"], "round": table["round"], "label": table["label"],
                            "table": table["table"], "seat": seat, "deals": table["deals"],
                            "total": table["totals"][seat], "place": table["ranking"].index(player) + 1,
                            "over": table["over"], "advanced": player in table["advancing"]})
        return out

    # --- answers --------------------------------------------------------------------------------------

    def header(self) -> dict[str, Any]:
        t = self.facts.tournament
        return {
            "tournament_id": t["tournament_id"], "name": t["name"], "game": t["game"], "format": self.format.code,
            "format_name": {"zh": self.format.zh, "en": self.format.en},
            "tiebreaks": [{"code": c.code, "zh": c.zh, "en": c.en, "higher_wins": c.higher_wins}
                          for c in self.criteria],
            "total_measure": {"code": self.format.total.code, "zh": self.format.total.zh,
                              "en": self.format.total.en},
            "lots_seed": t["lots_seed"], "round": self.round_limit,
        }

    def document(self) -> dict[str, Any]:
        """The standings page: rows in rank order, every table's result, and the standings after each round."""
        progression = [
            {"round": r, "label": info["label"],
             "rows": [{"player_id": row["player_id"], "name": row["name"], "total": row["total"], "rank": row["rank"]}
                      for row in self._at_round(r).rows]}
            for r, info in self.rounds.items()
        ]
        document = {**self.header(), "rounds": list(self.rounds.values()), "rows": self.rows, "tables": self.tables,
                    "progression": progression}
        if self.format.directions:
            document["directions"] = self._directions()
        return document

    def _at_round(self, r: int) -> Standings:
        if r == max(self.rounds):
            return self
        return Standings(self.facts, round_limit=r, extra_adjustments=self.extra_adjustments)

    def explain(self, player: str) -> dict[str, Any]:
        """The player's row broken down into tables, deals (each deal's facts and result) and adjustments."""
        row = next(r for r in self.rows if r["player_id"] == player)
        rounds = self.ranking[player]
        figures = self.figures(player, rounds, ranking=True)
        counted = {id(line) for line in figures.lines}
        playoff = {id(line) for line in figures.playoff_lines}
        matches = []
        for line in self.lines.get(player, ()):
            if line.match.get("bye"):
                info = self.rounds[line.round]
                matches.append({
                    "match_id": None, "bye": True, "round": line.round, "label": info["label"], "kind": info["kind"],
                    "counts_for": "ranking" if id(line) in counted else "earlier round",
                    "deals": [{"deal_id": None, "number": deal["number"], "score": 0,
                               "facts": {k: plain(v) for k, v in entry.items()}, "result": None}
                              for deal, entry in line.deals],
                })
                continue
            table = next(t for t in self.tables if t["match_id"] == line.match["match_id"])
            matches.append({
                "match_id": table["match_id"], "round": table["round"], "label": table["label"], "kind": table["kind"],
                "table": table["table"], "seat": line.seat, "seats": table["seats"], "names": table["names"],
                "counts_for": ("ranking" if id(line) in counted else "playoff" if id(line) in playoff
                               else "earlier round"),
                "start_chips": table["start_chips"], "table_total": table["totals"][line.seat],
                "place": table["ranking"].index(player) + 1, "over": table["over"],
                "advanced": player in table["advancing"],
                "deals": self._explained_deals(line),
            })
        ids = {id(a) for a in figures.adjustments}
        return {
            **self.header(), **{k: row[k] for k in ("rank", "player_id", "name", "number", "total", "status",
                                                    "reached", "stage", "decided_by", "tied_with")},
            "total_explained": {"start_chips": figures.base, "deals": plain(figures.from_deals),
                                "adjustments": sum(a["points"] for a in figures.adjustments),
                                "total": plain(figures.total), "measure": self.format.total.describe()},
            "tiebreak_values": [{**c.describe(), "value": plain(v)}
                                for c, v in zip(self.criteria, figures.tiebreaks, strict=True)],
            "matches": matches,
            "adjustments": [{**a, "counted": id(a) in ids,
                             **({"counted_in_deal": a["refers_to"]["deal_id"]} if self._score_part(a) else {})}
                            for a in self.adjustments if a["player_id"] == player],
        }

    def _explained_deals(self, line: Line) -> list[dict[str, Any]]:
        """Every deal of the line as played, each with the facts that count; a deal an appeal changed links the
        appeal and says how (`voided`, or the adjusted facts), a replacement names the deal it `replaces`, and a
        replacement whose appeal no longer voids its deal is listed as not counted."""
        counting = {deal["deal_id"]: entry for deal, entry in line.deals}
        replaced = {deal["scored"]["replaces"]: deal["deal_id"] for deal, _ in line.recorded
                    if "replaces" in deal["scored"]}
        out = []
        for deal, played in [*line.recorded, *((d, None) for d in line.set_aside)]:
            entry = counting.get(deal["deal_id"])
            shown = entry if entry is not None else played if played is not None else {}
            item: dict[str, Any] = {
                "deal_id": deal["deal_id"], "number": deal["number"],
                # as it counts; a deal not counted (voided, a replacement set aside): as played
                "score": entry["score"] if entry is not None else played["score"] if played is not None else None,
                "facts": {k: plain(v) for k, v in shown.items() if k != PARTS}, "result": deal["result"],
                "finished": deal["finished"], "scored": deal["scored"], "counted": entry is not None}
            ruled = self.deal_outcomes.get(deal["deal_id"])
            appeal = ruled["appeal_id"] if ruled else deal["scored"].get("appeal_id")
            if appeal:
                item["appeal"] = {"id": appeal, "href": f"/api/appeals/{appeal}", "page": f"/appeals/{appeal}",
                                  **({"outcome": ruled["outcome"]["kind"]} if ruled else {})}
            if ruled and ruled["outcome"]["kind"] == "void":
                item["voided"] = True
            if deal["deal_id"] in replaced:
                item["replaced_by"] = replaced[deal["deal_id"]]
            if "replaces" in deal["scored"]:
                item["replaces"] = deal["scored"]["replaces"]
            out.append(item)
        return out
