"""The ranking of one tournament, computed once from its projected facts and its format: each player's lines
(a table each, its deals' facts with appeals applied), figures (total and tiebreaks over the rounds that count),
every table's result and the rows in rank order. The rules it follows: projections/standings.py."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from projections.appeal_effects import adjusted, counted_in_deal, replacement_counts, score_appeals, score_outcomes
from projections.facts import Facts, seat_facts
from projections.formats import Criterion, resolve
from projections.matchpoints import matchpoint
from projections.rows import StandingsRow
from projections.standings_values import Figures, Line, Number, TournamentFacts, plain


class Ranking:
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
        # the entry (pair, team) and department each player entered with, and who withdrew (with round, reason)
        self.entry_of = {p["player_id"]: p["entry"] for p in facts.players if p.get("entry")}
        self.department_of = {p["player_id"]: p["department"] for p in facts.players if p.get("department")}
        self.withdrawn = {p["player_id"]: p["withdrawn"] for p in facts.players if p.get("withdrawn")}
        self.stage_of = {r: i for i, r in enumerate((r for r, info in self.rounds.items()
                                                     if info["kind"] != "playoff"), start=1)}
        self.deal_outcomes = score_outcomes(facts.appeals)
        self.score_appeals = score_appeals(facts.appeals)
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
                if "replaces" in deal["scored"] and not replacement_counts(deal, self.deal_outcomes):
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
                        entry = adjusted(entry, ruled["outcome"], seat, self.format.adjusted_facts)
                    line.deals.append((deal, entry))
                    every.append((line, deal, entry))
            for player, line in zip(match["seats"], seated, strict=True):
                lines.setdefault(player, []).append(line)
        if self.format.duplicate:
            matchpoint(every, self.format.duplicate)
        self._byes(lines)
        return lines

    def _byes(self, lines: dict[str, list[Line]]) -> None:
        """A bye is a line of its own, already over. In a duplicate format each board the round has played so far
        counts as a bye deal (the 挖坑 rules B11.9: rate ½, MP = tables − 1, raw 0, not won); in a knockout
        the player goes on (Standings.advanced)."""
        for number, info in self.rounds.items():
            if not info.get("byes"):
                continue
            tables = [m for m in self.matches if m["round"] == number]
            # A table closed early played fewer boards: board k's comparison group is the tables that played it
            # (B7: the rate is the mean over the boards played), so the bye's middle is that group's middle.
            played = [len(self.seated[m["match_id"]][0].deals) for m in tables]
            boards = max(played, default=0)
            for player in info["byes"]:
                match = {"match_id": f"bye:{number}:{player}", "round": number, "table": "", "seats": [player],
                         "start_chips": None, "bye": True}
                line = Line(match, 0)
                if self.format.duplicate:
                    line.deals = [({"deal_id": f"{match['match_id']}:{board}", "match_id": match["match_id"],
                                    "number": board, "result": {"bye": True}, "finished": {}, "scored": {}},
                                   self._bye_credit(sum(n >= board for n in played)))
                                  for board in range(1, boards + 1)]
                self.over[match["match_id"]] = True
                lines.setdefault(player, []).append(line)
                lines[player].sort(key=lambda held: held.round)

    @staticmethod
    def _bye_credit(tables: int) -> dict[str, Any]:
        """A bye board (B11.9): rate ½, MP = the middle of a group of `tables` results, raw 0, not won."""
        return {"score": 0, "won": 0, "bye": 1, "mp": tables - 1, "mp_rate": Fraction(1, 2),
                "mp_max": 2 * (tables - 1)}

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
        """The player and their partners: the members of their entry (pair, team) where they entered as one, else
        those at their latest table (by the deals' `team` fact); a bye is no table."""
        if self.format.team_size > 1 and player in self.entry_of:
            return sorted(pid for pid, entry in self.entry_of.items() if entry == self.entry_of[player])
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
            or (ranking and a["round"] > last)) and not counted_in_deal(a, self.score_appeals)]
        # a chip table's start; a knockout bye has no table, so no chips (its `start_chips` is None)
        base = (lines[-1].match["start_chips"] or 0) if self.format.start_chips and lines else 0
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

    def _rows(self) -> list[StandingsRow]:
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
        rows: list[StandingsRow] = []
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
            # The entry and department, and a withdrawal, only where there are some: rows of players entered
            # without them stay as they were.
            if pid in self.entry_of:
                rows[-1]["entry"] = self.entry_of[pid]
            if pid in self.department_of:
                rows[-1]["department"] = self.department_of[pid]
            if pid in self.withdrawn:
                rows[-1]["withdrawn"] = dict(self.withdrawn[pid])
            # The appeals (docs/appeals.md) whose outcome moved this total, in the order recorded; only when there
            # are some, so documents stored before appeals existed stay equal to a rebuild.
            appeals = list(dict.fromkeys([
                *(a["refers_to"]["appeal_id"] for a in self.adjustments
                  if a["player_id"] == pid and (a.get("refers_to") or {}).get("appeal_id")
                  and (a in figures.adjustments or counted_in_deal(a, self.score_appeals))),
                *(self.deal_outcomes[deal["deal_id"]]["appeal_id"] for line in figures.lines
                  for deal, _ in line.recorded if deal["deal_id"] in self.deal_outcomes)]))
            if appeals:
                rows[-1]["appeals"] = appeals
        return rows

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
