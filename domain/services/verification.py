"""Verification (`fupan verify`, docs/SECURITY.md §9): every deal's and appeal's hash chain recomputed from
storage, the store-wide chain and the domain's own checks (domain/services/audit.py), and what a printed digest
is in this store."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID

from domain.model.appeal import Appeal
from domain.model.chain import verify_chain
from domain.model.deal import Deal
from domain.model.token import PUBLIC, Principal
from domain.model.tournament import Tournament
from domain.services.audit import audit_store, check_commitment, finding, normal_digest
from domain.services.records import Records
from domain.services.service import Service
from domain.services.tournaments import Tournaments
from domain.services.visibility import may_see_all
from domain.store.logchain import ChainedRecorder


class Audit(Service):
    """What anyone holding the store, or a printout of it, can check."""

    tournaments: Tournaments
    records: Records

    def verify_deal(self, deal: UUID | str, reader: Principal = PUBLIC) -> dict[str, Any]:
        """Recompute the hash chain from storage; name the first event that does not match. The chain's digest
        only for readers who may see the whole deal (it would confirm guesses of what is hidden while it is live:
        docs/SECURITY.md "Public hashes")."""
        events, horizon = self._deal_reading(deal)
        bad = verify_chain(events)
        full = may_see_all(horizon is None and any(isinstance(e, Deal.Finished) for e in events),
                           events[0].match_id, reader)
        return {"deal_id": str(events[0].originator_id), "ok": bad is None, "first_bad_version": bad,
                "digest": events[-1].digest if full else None}

    def verify_chains(self, progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
        """Every deal's hash chain recomputed from storage (`fupan verify`): the deals whose chain breaks, each
        with the version of its first event that does not match (or why it could not be read at all).
        `progress(deals checked, deals)` after each deal."""
        store = self.store
        deals = list(store.ids_by_topic(Deal.Created.TOPIC))
        appeals = list(store.ids_by_topic(Appeal.Created.TOPIC))  # chained as deals are (domain/model/appeal.py)
        broken: list[dict[str, Any]] = []
        streams = [("deal_id", deal_id) for deal_id in deals] + [("appeal_id", appeal_id) for appeal_id in appeals]
        for checked, (kind, stream_id) in enumerate(streams, start=1):
            if progress is not None and checked <= len(deals):
                progress(checked, len(deals))
            try:
                bad = verify_chain(store.stream(stream_id, deal=kind == "deal_id"))
            except Exception as error:  # a stored event that no longer decodes is as broken as a wrong digest
                broken.append({kind: str(stream_id), "first_bad_version": None, "error": str(error),
                               **store.where_stored(stream_id)})
                continue
            if bad is not None:
                broken.append({kind: str(stream_id), "first_bad_version": bad, **store.where_stored(stream_id)})
        return {"ok": not broken, "deals": len(deals), "appeals": len(appeals), "broken": broken}

    def verify_store(self) -> dict[str, Any]:
        """The store-wide chain of every database (K deal databases: each one's too) and the domain's checks
        (domain/services/audit.py `audit_store`)."""
        return audit_store(self.store, self.store.deal_stores)

    def check_digest(self, text: str) -> dict[str, Any]:
        """What a printed digest (or its first 16+ digits) is in this store — a round's digest after k of its
        deals closed, a deal's closing or latest digest, a link of the store-wide chain — and whether the deals
        it covers still verify (their hash chains and commitments). `ok`: found, and everything it covers
        intact."""
        store = self.store
        digest = normal_digest(text)
        if digest is None:
            return {"digest": text, "ok": False, "matches": [], "findings": [finding(
                "bad_digest", "A digest is 16 to 64 hexadecimal digits (spaces and dashes between groups are "
                "ignored).")]}
        matches: list[dict[str, Any]] = []
        covered: set[str] = set()
        for uid in store.ids_by_topic(Tournament.Created.TOPIC):
            name = self.tournaments.get(uid)["name"]
            for stage in self.records.round_digests(uid):
                for count, entry in enumerate(stage["deals"], start=1):
                    if entry["round_digest"].startswith(digest):
                        matches.append({"kind": "round", "tournament_id": str(uid), "tournament": name,
                                        "round": stage["round"], "label": stage["label"], "deals": count,
                                        "of": stage["count"], "digest": entry["round_digest"]})
                        covered.update(d["deal_id"] for d in stage["deals"][:count])
        for uid in store.ids_by_topic(Deal.Created.TOPIC):
            with self.unit():
                deal = store.find(uid)
            if deal is None:  # its events no longer decode: `verify` names it as unreadable; it matches nothing
                continue
            for which, value in (("closing", deal.finished_digest), ("latest", deal.digest)):
                if value and value.startswith(digest):
                    matches.append({"kind": "deal", "deal_id": str(uid), "which": which, "digest": value})
                    covered.add(str(uid))
                    break
        for where in (store, *store.deal_stores):  # with K deal databases, each one's chain too
            recorder = where.recorder
            if isinstance(recorder, ChainedRecorder):
                for link in recorder.chain_links():
                    if link["digest"].startswith(digest):
                        named = {"database": where.label} if where is not store else {}
                        matches.append({"kind": "link", "seq": int(link["seq"]), "at": link["at"],
                                        "digest": link["digest"], **named})
        findings: list[dict[str, Any]] = []
        for deal_id in sorted(covered):
            events = store.stream(UUID(deal_id), deal=True)
            bad = verify_chain(events)
            if bad is not None:
                findings.append(finding("chain_broken", f"Deal {deal_id}: its hash chain breaks at version {bad}.",
                                        aggregate="Deal", id=deal_id, version=bad))
            findings.extend(check_commitment(events))
        if not matches:
            findings.append(finding("digest_not_found", f"No round, deal or link of this store has the digest "
                                    f"{digest}: what it was printed from was changed or removed (or it belongs to "
                                    "another store)."))
        return {"digest": digest, "ok": bool(matches) and not findings, "matches": matches, "findings": findings}
