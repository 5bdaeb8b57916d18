"""What the service answers: each aggregate as a plain JSON-ready dict (copies, never the cached objects).

The HTTP layer only validates shapes and serialises these; what a reader may see of a live deal is decided
before a presenter is called (domain/services/visibility.py).
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any
from uuid import UUID

from domain.kernel.engine import Engine
from domain.model.chain import event_fields
from domain.model.deal import Deal
from domain.model.match import Match
from domain.model.token import AccessToken
from domain.model.tournament import Tournament
from domain.records.format import build_record
from domain.services.visibility import public_payload

TOPIC_PREFIX = "fupan:"


def tournament_dict(t: Tournament) -> dict[str, Any]:
    return {
        "id": str(t.id), "key": t.key, "name": t.name, "game": t.game, "options": dict(t.options),
        "players": [{"id": pid, "name": name} for pid, name in t.players.items()],
        "matches": [{"id": str(m["id"]), "table": m["table"], "round": m["round"]} for m in t.matches],
        "version": t.version, "created_at": t.created_on.isoformat(),
        "format": t.format, "tiebreaks": list(t.tiebreaks), "lots_seed": t.lots_seed,
        "rounds": [dict(r) for r in t.rounds], "current_round": t.current_round,
    }


def seat_entries(seats: list[str], t: Tournament) -> list[dict[str, Any]]:
    """The entries (pairs, teams) seated at a table, in the order of their first seat, each with its department and
    its seats (0-based, as the API counts): what pages name a side by (机械一队, never "1 队"). Empty where the
    players entered on their own."""
    out: dict[str, dict[str, Any]] = {}
    for seat, player in enumerate(seats):
        info = t.entrants.get(player)
        if info and info["entry"]:
            out.setdefault(info["entry"], {"name": info["entry"], "department": info["department"], "seats": []}
                           )["seats"].append(seat)
    return list(out.values())


def match_dict(m: Match, t: Tournament) -> dict[str, Any]:
    live = m.live_deal
    return {
        "id": str(m.id), "tournament_id": str(m.tournament_id), "table": m.table, "game": m.game,
        "options": dict(m.options), "seats": list(m.seats), "seat_names": [t.players.get(s, s) for s in m.seats],
        "entries": seat_entries(m.seats, t),
        "first": m.first, "start_chips": m.start_chips, "chips": _copy(m.chips),
        "standing": copy.deepcopy(m.standing), "next_context": None if m.over else m.next_context(),
        "status": "over" if m.over else "live", "winner": m.winner, "winners": m.winners,
        "ended_by": m.standing["end"]["by"] if m.over else None,
        "closed_because": m.standing["end"].get("reason") if m.over else None,
        "time_limit": m.time_limit, "time_up": m.time_up, "clock": [dict(reading) for reading in m.clock],
        "misdeals": [dict(misdeal) for misdeal in m.misdeals],
        "current_deal": str(live["deal_id"]) if live else None,
        "deals": [
            {"number": d["number"], "deal_id": str(d["deal_id"]), "first": d["first"], "status": d["status"],
             "scores": _copy(d["scores"]), "chips": _copy(d["chips"]), "standing": copy.deepcopy(d["standing"]),
             # 更正: the deal's facts were corrected (Match.DealCorrected); `scores` are the corrected ones
             **({"corrected": copy.deepcopy(d["corrected"])} if "corrected" in d else {})}
            for d in m.deals
        ],
        "version": m.version,
    }


def match_summary(m: Match) -> dict[str, Any]:
    """The table's figures after a deal it scored, as a recorded action's answer carries them."""
    return {"id": str(m.id), "chips": _copy(m.chips), "standing": copy.deepcopy(m.standing),
            "status": "over" if m.over else "live", "winner": m.winner, "winners": m.winners}


def deal_dict(d: Deal, *, full: bool) -> dict[str, Any]:
    """The deal's summary; `full=False` leaves out the annotations (a referee's note may name hidden cards) and
    the chain's digest (it would confirm guesses of the hidden hands: docs/SECURITY.md "Public hashes")."""
    return {
        "id": str(d.id), "game": d.setup.game, "options": dict(d.setup.options), "seats": list(d.setup.seats),
        "first": d.setup.first, "context": copy.deepcopy(d.setup.context),
        "match_id": str(d.match_id) if d.match_id else None, "number": d.number,
        "status": d.status(), "finished": d.finished, "actions": len(d.actions), "version": d.version,
        # A finished deal held back by the public delay (docs/SECURITY.md "Broadcast delay") is read without
        # `full`: its seed would deal its hands again, its result may name cards (a 升级 kitty).
        "result": copy.deepcopy(d.result) if full or not d.finished else None,
        "digest": d.digest if full else None, "seed_commitment": d.seed_commitment,
        "seed": d.seed if full else None, "annotations": [dict(a) for a in d.annotations] if full else [],
        "created_at": d.created_on.isoformat(),
        # A score slip's deal (domain/records/slips.py): 成绩单, no cards, no replay; the slip's facts are its record.
        "result_only": d.result_only, **({"slip": copy.deepcopy(d.meta["slip"])} if d.result_only else {}),
        # A voided deal dealt again (docs/appeals.md): the deal it replaces and the appeal that voided it.
        **({"replaces": d.meta["replaces"], "appeal_id": d.meta["appeal_id"]} if "replaces" in d.meta else {}),
    }


def recorded_dict(d: Deal) -> dict[str, Any]:
    """The answer to a recorded action: the deal's new version, the action as stored, and how it stands."""
    return {"deal_id": str(d.id), "version": d.version, "step": len(d.actions), "action": dict(d.actions[-1]),
            "status": d.status(), "finished": d.finished, "result": copy.deepcopy(d.result), "digest": d.digest}


def record_dict(d: Deal, m: Match | None) -> dict[str, Any]:
    """The deal as a `fupan.deal/1` document with meta, annotations and the closing digest."""
    meta: dict[str, Any] = copy.deepcopy(d.meta)
    meta.update(deal_id=str(d.id), recorded_at=d.created_on.isoformat())
    if m is not None:
        meta.update(tournament_id=str(m.tournament_id), match_id=str(m.id), table=m.table, deal_number=d.number)
    if d.seed_commitment is not None:
        meta["seed_commitment"] = d.seed_commitment
        if d.seed is not None:
            meta["seed"] = d.seed
    setup = dataclasses.replace(d.setup, first=d.status().get("first", d.setup.first))  # the effective first
    # `at` (the index of the action a note follows) beside `step`: what readers of the older spelling read.
    notes = [{**note, "at": note["step"] - 1} if note["step"] else dict(note) for note in d.annotations]
    # Deep copies: the aggregate is the cached object itself and callers may change what they get.
    record = copy.deepcopy(build_record(setup, list(d.actions), d.result, meta=meta, annotations=notes,
                                        digest=d.digest))
    if d.result_only:  # a result-only record (docs/record-format.md): the slip in place of cards and actions
        facts = record["meta"].pop("slip")
        del record["meta"]["result_only"], record["hands"], record["kitty"], record["actions"]
        record.update(result_only=True, slip=facts)
    entry = next((e for e in m.deals if e["deal_id"] == d.id), None) if m is not None else None
    if entry is not None and "corrected" in entry:  # 更正 (docs/corrections.md): the table's word on the deal
        corrected = copy.deepcopy(entry["corrected"])
        if d.result_only:  # the slip as corrected is the record; what was entered is kept beside it
            corrected["entered"] = {"slip": record["slip"], "result": record["result"]}
            record.update(slip=corrected.pop("facts"), result=corrected.pop("result"))
        record["meta"]["corrected"] = corrected
    return record


def event_dict(event: Any, engine: Engine, *, full: bool) -> dict[str, Any]:
    """One stored deal event: version, time, recorder, type, digest and payload (its public part unless
    `full`). Not `full`, the digest is withheld too: the chain's digests hash the hidden fields with nothing
    secret, so one would confirm a guess of them (docs/SECURITY.md "Public hashes")."""
    payload = event_fields(event)
    recorder = payload.pop("recorded_by", None)
    if not full:
        payload = public_payload(event, payload, engine)
    return {"version": event.originator_version, "time": event.timestamp.isoformat(),
            "type": type(event).TOPIC.removeprefix(TOPIC_PREFIX), "recorded_by": recorder,
            "digest": event.digest if full else None, "payload": _plain(payload)}


def token_dict(t: AccessToken) -> dict[str, Any]:
    """A token as listed: never its secret, nor the secret's hash."""
    return {
        "id": str(t.id), "role": t.role, "matches": list(t.matches), "label": t.label,
        "created_at": t.created_on.isoformat(), "created_by": dict(t.created_by), "revoked": t.revoked,
        "revoked_at": t.revoked_at.isoformat() if t.revoked else None,
        "revoked_by": dict(t.revoked_by) if t.revoked_by else None,
    }


def _copy(value: list[int] | None) -> list[int] | None:
    return None if value is None else list(value)


def _plain(value: Any) -> Any:
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value
