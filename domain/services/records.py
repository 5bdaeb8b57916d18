"""Records in and out: `fupan.deal/1` documents imported and exported (domain/records/format.py), and the
round digests a printout carries (domain/services/digests.py)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.kernel.errors import Refusal
from domain.model.appeal import Appeal
from domain.model.deal import Deal
from domain.model.ids import LOCAL_RECORDER, deal_id_for_key
from domain.model.match import Match
from domain.model.token import PUBLIC, Principal
from domain.model.tournament import Tournament
from domain.records.format import normalized_record, record_key, record_namer, slip_record_parts
from domain.services.digests import round_chains
from domain.services.presenters import deal_dict, record_dict
from domain.services.service import Service
from domain.services.tables import Tables
from domain.services.tournaments import Tournaments
from domain.services.visibility import require_record
from domain.store.units import command


class Records(Service):
    """Deals as records, one by one or a table's and a tournament's at a time; the digests that seal them."""

    tournaments: Tournaments
    tables: Tables

    @command
    def import_record(self, doc: Any, recorded_by: dict[str, Any] = LOCAL_RECORDER) -> tuple[dict[str, Any], bool]:
        """Store one `fupan.deal/1` record as a deal, all or nothing; the same record again is a no-op.

        Accepts exactly what `fupan check` accepts: every action goes through the engine, and the deal must
        be complete with the declared result (if any) equal to the computed one. A result-only record (a score
        slip's deal) is stored as one, its slip scored as `fupan check` scores it.
        """
        try:
            if isinstance(doc, dict) and doc.get("result_only") is True:
                return self._import_slip(doc, recorded_by)
            return self._import_played(doc, recorded_by)
        except Refusal as refusal:  # a record stands outside any match: its seats by the labels it gives
            raise refusal.name_seats(record_namer(doc)) from None

    def _import_played(self, doc: Any, recorded_by: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        setup, actions, declared = normalized_record(doc)
        deal_id = deal_id_for_key(record_key(setup, actions))
        existing = self.store.find(deal_id)
        if isinstance(existing, Deal):
            return deal_dict(existing, full=True), False
        meta = dict(doc.get("meta") or {})
        if doc.get("digest"):
            meta["source_digest"] = doc["digest"]
        deal = Deal.imported(deal_id, setup, actions, declared, meta, doc.get("annotations") or [], recorded_by)
        self.store.commit(deal)
        return deal_dict(deal, full=True), True

    def _import_slip(self, doc: dict[str, Any], recorded_by: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        setup, facts, result = slip_record_parts(doc)
        deal_id = deal_id_for_key(record_key(setup, [{"slip": facts}]))
        existing = self.store.find(deal_id)
        if isinstance(existing, Deal):
            return deal_dict(existing, full=True), False
        meta = {**(doc.get("meta") or {}), **({"source_digest": doc["digest"]} if doc.get("digest") else {})}
        deal = Deal.from_slip(deal_id, setup, facts, result, match=None, number=None, recorded_by=recorded_by,
                              meta=meta)
        self.store.commit(deal)
        return deal_dict(deal, full=True), True

    @command
    def export_record(self, deal: UUID | str, reader: Principal = PUBLIC) -> dict[str, Any]:
        """The deal as a `fupan.deal/1` document; before it is published only for readers with rights over it."""
        d = self.store.load(Deal, deal, "deal")
        require_record(d, reader, released=self._released(d))
        return record_dict(d, None if d.match_id is None else self.store.load(Match, d.match_id, "match"))

    def export_match(self, match: UUID | str, reader: Principal = PUBLIC) -> list[dict[str, Any]]:
        """The records of the match's deals that `reader` may have: all of them, or the published ones."""
        m = self.tables.get(match)
        every = reader.sees_live_hands(m["id"])
        records = [self.export_record(entry["deal_id"], reader) for entry in m["deals"]
                   if every or (entry["status"] == "finished" and self._record_released(entry["deal_id"]))]
        # A voided deal's replacement (docs/appeals.md) is one of the table's records too, after the deal it
        # replaces (its meta says so: `replaces`, `appeal_id`).
        for replacement in self._replacement_deals(m["id"]):
            if every or (replacement["finished"] and self._record_released(replacement["id"])):
                records.append(self.export_record(replacement["id"], reader))
        return records

    @command
    def _record_released(self, deal: UUID | str) -> bool:
        """Whether a finished deal's public delay has passed (its record is then the public's)."""
        return self._released(self.store.load(Deal, deal, "deal"))

    def _replacement_deals(self, match: UUID | str) -> list[dict[str, Any]]:
        """The deals dealt again at this table in place of voided ones (`POST /api/appeals/<id>/redeal`)."""
        found = []
        for uid in self.store.ids_by_topic(Appeal.Redealt.TOPIC):
            with self.unit():
                a = self.store.load(Appeal, uid, "appeal")
                if str(a.match_id) == str(match) and a.redeal is not None:
                    found.append(deal_dict(self.store.load(Deal, a.redeal["deal_id"], "deal"), full=False))
        return found

    def export_tournament(self, tournament: UUID | str, reader: Principal = PUBLIC) -> list[dict[str, Any]]:
        """The records of every table of the tournament, table by table, as `export_match` gives each."""
        return [record for entry in self.tournaments.get(tournament)["matches"]
                for record in self.export_match(entry["id"], reader)]

    # --- round digests (docs/record-format.md "Round digests") ---------------------------------------------

    def round_digests(self, tournament: UUID | str, only: int | None = None) -> list[dict[str, Any]]:
        """Each round of a tournament (or round `only`): its label, its closed deals in closing order, each with the
        round's digest after it (`round_digest`), and the latest digest (`digest`, with `deals` counted)."""
        with self.unit():
            t = self.store.load(Tournament, tournament, "tournament")
            labels = {r["round"]: r["label"] for r in t.rounds}
            numbers = sorted(n for n in {m["round"] for m in t.matches} | set(labels) if only in (None, n))
            closed: dict[int, list[tuple[Any, str, Deal, str]]] = {n: [] for n in numbers}
            for entry in t.matches:
                if entry["round"] not in closed:
                    continue
                match = self.store.find(entry["id"])
                for deal_entry in getattr(match, "deals", []):
                    deal = self.store.find(deal_entry["deal_id"])
                    if isinstance(deal, Deal) and deal.finished_digest is not None:
                        closed[entry["round"]].append((deal.finished_at, str(deal.id), deal, entry["table"]))
        return round_chains(str(t.id), labels, closed)

    def deal_round_digest(self, deal_id: UUID | str) -> dict[str, Any] | None:
        """The round digest printed on a closed deal's record: its round's digest just after it closed."""
        with self.unit():
            deal = self.store.find(deal_id)
            match = self.store.find(deal.match_id) if isinstance(deal, Deal) and deal.match_id else None
            tournament = self.store.find(match.tournament_id) if match is not None else None
        if tournament is None or deal.finished_digest is None:
            return None
        number = next(m["round"] for m in tournament.matches if m["id"] == match.id)
        for stage in self.round_digests(tournament.id, only=number):
            for position, entry in enumerate(stage["deals"], start=1):
                if entry["deal_id"] == str(deal.id):
                    return {"round": stage["round"], "label": stage["label"], "count": position,
                            "digest": entry["round_digest"]}
        return None
