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

from typing import Any

from projections.appeal_effects import counted_in_deal
from projections.matchpoints import PARTS
from projections.ranking import Ranking
from projections.rows import TeamRow
from projections.standings_values import Line, Number, plain


class Standings(Ranking):
    """The standings of one tournament as published: the page's document (rows, tables, the standings after
    each round, each direction's pairs) and a player's row explained; computed by `Ranking`."""

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
                      for row in at.rows],
             **({"teams": [{k: team[k] for k in ("entry", "total", "rank")} for team in at.teams()]}
                if self.entry_of else {})}
            for r, info in self.rounds.items() for at in [self._at_round(r)]
        ]
        document = {**self.header(), "rounds": list(self.rounds.values()), "rows": self.rows, "tables": self.tables,
                    "progression": progression}
        if self.entry_of:
            document["teams"] = self.teams()
        if self.format.directions:
            document["directions"] = self._directions()
        return document

    def teams(self) -> list[TeamRow]:
        """A team format's entries ranked as entries (its members share their figures, so each entry's line is its
        best member's): a team on a bye is one line like any other. Equal keys, equal rank."""
        if self.format.team_size == 1 or not self.entry_of:
            return []
        lines: dict[str, TeamRow] = {}
        keys: dict[str, tuple[Number, ...]] = {}
        for row in self.rows:  # rank order
            entry = self.entry_of.get(row["player_id"])
            if entry is None:
                continue
            team = lines.get(entry)
            if team is None:
                keys[entry] = self.keys[row["player_id"]]
                team = lines[entry] = {
                    "rank": 0, "entry": entry, "player_ids": [], "names": [], "total": row["total"],
                    "tiebreak_values": row["tiebreak_values"], "stage": row.get("stage", 0),
                    "status": row.get("status", ""), "withdrawn": False}
                if "department" in row:
                    team["department"] = row["department"]
            team["player_ids"].append(row["player_id"])
            team["names"].append(row["name"])
            team["withdrawn"] = team["withdrawn"] or "withdrawn" in row
        ordered = list(lines.values())
        for index, team in enumerate(ordered):
            same = index and keys[team["entry"]] == keys[ordered[index - 1]["entry"]]
            team["rank"] = ordered[index - 1]["rank"] if same else index + 1
        return ordered

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
        explained_deals = [d for m in matches if not m.get("bye") and m["counts_for"] == "ranking" for d in m["deals"]]
        return {
            **self.header(), **{k: row[k] for k in ("rank", "player_id", "name", "number", "total", "status",
                                                    "reached", "stage", "decided_by", "tied_with")},
            **{k: row[k] for k in ("entry", "department", "withdrawn") if k in row},  # where the row has them
            "total_explained": {"start_chips": figures.base, "deals": plain(figures.from_deals),
                                "adjustments": sum(a["points"] for a in figures.adjustments),
                                "total": plain(figures.total), "measure": self.format.total.describe(),
                                "parts": self._parts(figures, explained_deals, matches)},
            "tiebreak_values": [{**c.describe(), "value": plain(v)}
                                for c, v in zip(self.criteria, figures.tiebreaks, strict=True)],
            "matches": matches,
            "adjustments": [{**a, "counted": id(a) in ids,
                             **({"counted_in_deal": a["refers_to"]["deal_id"]}
                                if counted_in_deal(a, self.score_appeals) else {})}
                            for a in self.adjustments if a["player_id"] == player],
        }

    def _parts(self, figures: Any, deals: list[dict[str, Any]], matches: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The total as a sum that adds up, each part named: the start, the deals as recorded, each deal's change
        by a correction (更正) or an appeal's adjusted score (申诉), and each adjustment counted. A deal's change
        is in its deal, never counted twice; where the total is not the sum of the deals' scores (a rate of
        matchpoints) a change is named with `included` (its deal's points are in the deals' part, not apart)."""
        parts: list[dict[str, Any]] = [{"kind": "start", "points": figures.base}] if figures.base else []
        additive = self.format.total.measure == "sum" and self.format.total.fact == "score"
        seat_of = {d["deal_id"]: m["seat"] for m in matches if not m.get("bye") for d in m["deals"]}
        changes: list[dict[str, Any]] = []
        for deal in deals:
            if not deal["counted"] or deal["deal_id"] is None:
                continue
            seat = seat_of[deal["deal_id"]]
            found = []
            if "corrected" in deal:
                found.append({"kind": "correction", "points": deal["score"] - deal["corrected"]["was"][seat],
                              "reason": deal["corrected"]["reason"]})
            if "appeal" in deal and not deal.get("replaces") and deal.get("result"):
                found.append({"kind": "appeal", "points": deal["score"] - deal["result"]["scores"][seat],
                              "appeal_id": deal["appeal"]["id"]})
            changes += [{**change, "number": deal["number"], "deal_id": deal["deal_id"],
                         **({} if additive else {"included": True})} for change in found if change["points"]]
        in_deals = sum(change["points"] for change in changes) if additive else 0
        parts.append({"kind": "recorded" if in_deals else "deals", "points": plain(figures.from_deals - in_deals)})
        parts.extend(changes)
        counted = figures.total - figures.base - figures.from_deals  # what the adjustments count for, in all
        points = sum(a["points"] for a in figures.adjustments)
        for a in figures.adjustments:
            share = counted * a["points"] / points if points else 0
            parts.append({"kind": a["kind"], "points": plain(share), "reason": a["reason"],
                          "version": a.get("version")})
        return parts

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
            if "corrected" in deal:  # 更正 (docs/corrections.md): the deal's facts as corrected, and why
                item["corrected"] = deal["corrected"]
            if deal["deal_id"] in replaced:
                item["replaced_by"] = replaced[deal["deal_id"]]
            if "replaces" in deal["scored"]:
                item["replaces"] = deal["scored"]["replaces"]
            out.append(item)
        return out
