"""What `fupan verify` proves about a store beyond the per-deal hash chains (docs/SECURITY.md §9).

`audit_log` recomputes a notification log's store-wide chain (domain/store/logchain.py) from storage: every link
(its sequence, its digest, its signature) and every stored event against the link that recorded it.
`audit_store` adds what the domain knows, which holds even without a chain (an old store):

- a deal's commitment: the revealed seed hashes to the published `seed_commitment` and deals exactly the
  stored hands and kitty (domain/kernel/dealing.py); a live deal's sealed seed hashes to it too;
- a table's `Match.DealScored` against the deal's own result (its scores) and against its table's rules
  applied to the standing before it, so an edited score is found even after `fupan rebuild`, which would
  project the edited event faithfully;
- a stream a table or tournament names that has no stored events (all of a deal's rows deleted), a stream
  with no creation event (only its `Deal.Created` deleted).

Each finding names the aggregate (kind and id), the version and notification where known, the link, the
kind of break and a sentence saying it.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any
from uuid import UUID

from domain.games import get_engine, get_table
from domain.kernel.dealing import deal_from_seed, seed_commitment
from domain.kernel.errors import listed
from domain.kernel.integrity import GENESIS
from domain.model.deal import Deal
from domain.model.match import Match
from domain.model.tournament import Tournament
from domain.store.logchain import ChainedRecorder, link_digest
from domain.store.signing import KeyRing

PAGE = 1000


def finding(kind: str, message: str, *, aggregate: str | None = None, id: Any = None, version: int | None = None,
            position: int | None = None, link: int | None = None, **details: Any) -> dict[str, Any]:
    return {"kind": kind, "aggregate": aggregate, "id": None if id is None else str(id), "version": version,
            "position": position, "link": link, "message": message, **details}


def aggregate_of(topic: str) -> str:
    """'fupan:Deal.ActionRecorded' → 'Deal'."""
    return topic.removeprefix("fupan:").split(".")[0]


def _event_name(topic: str) -> str:
    return topic.removeprefix("fupan:")


def _ranges(numbers: list[int]) -> str:
    """[1, 2, 3, 7] → '1–3, 7'."""
    parts, start = [], None
    for index, n in enumerate(numbers):
        if start is None:
            start = n
        if index + 1 == len(numbers) or numbers[index + 1] != n + 1:
            parts.append(str(start) if start == n else f"{start}–{n}")
            start = None
    return ", ".join(parts)


def _versions(numbers: list[int]) -> str:
    """[2] → 'version 2'; [2, 3] → 'versions 2–3'."""
    return f"version {numbers[0]}" if len(numbers) == 1 else f"versions {_ranges(numbers)}"


# --- the store-wide chain -------------------------------------------------------------------------------


def audit_log(recorder: Any, keys: KeyRing) -> dict[str, Any]:
    """The store-wide chain of one notification log, recomputed: findings, notices, what it covers, and the
    streams it holds ({aggregate id: [(version, topic, notification id)]}, for the domain's checks)."""
    findings: list[dict[str, Any]] = []
    notices: list[str] = []
    chained = isinstance(recorder, ChainedRecorder)
    log = recorder.chain.log if chained else ""
    links = list(recorder.chain_links()) if chained else []
    expected: dict[tuple[str, int], tuple[str, str, int]] = {}
    prev, next_seq = GENESIS, 1
    signed = unsigned = unchecked = 0
    first_signed: dict[str, Any] | None = None
    unsigned_after: list[int] = []  # unsigned links once signing had begun
    unsigned_seqs: list[int] = []
    for link in links:
        seq = int(link["seq"])
        if seq != next_seq:
            findings.append(finding("link_missing", f"Links #{_ranges(list(range(next_seq, seq)))} of the store-wide "
                                    "chain are missing: deleted from the database.", link=next_seq))
        elif link["prev"] != prev:
            findings.append(finding("link_broken", f"Link #{seq} does not follow link #{seq - 1}: the digest it "
                                    f"follows is not #{seq - 1}'s (a link between was removed or"
                                    " rewritten).", link=seq))
        try:
            events = json.loads(link["events"])
            content = link_digest(log, seq, link["prev"], link["at"], events, int(link["adopted"]))
        except (ValueError, TypeError, KeyError) as error:
            findings.append(finding("link_edited", f"Link #{seq} cannot be read: {error}.", link=seq))
            events, content = [], None
        if content is not None and content != link["digest"]:
            findings.append(finding("link_edited", f"Link #{seq} was changed after it was written: its digest does "
                                    "not match its content.", link=seq))
        if link["key_id"] is None:
            unsigned += 1
            unsigned_seqs.append(seq)
            if first_signed is not None:
                unsigned_after.append(seq)
        else:
            signed += 1
            if first_signed is None:
                first_signed = {"seq": seq, "at": link["at"], "key_id": link["key_id"]}
            checked = keys.check(link["key_id"], link["digest"], link["signature"] or "")
            if checked is False:
                findings.append(finding("bad_signature", f"Link #{seq}'s signature does not verify with key "
                                        f"{link['key_id']}: it was re-signed or recomputed by someone without the "
                                        "key.", link=seq, key_id=link["key_id"]))
            elif checked is None:
                unchecked += 1
                if keys.keys:
                    findings.append(finding("unknown_key", f"Link #{seq} is signed with key {link['key_id']}, which "
                                            "this verifier does not hold (an old key belongs in "
                                            "FUPAN_SIGNING_KEY_FILE).", link=seq, key_id=link["key_id"]))
        for entry in events:
            expected[(entry[0], int(entry[1]))] = (entry[2], entry[3], seq)
        prev, next_seq = link["digest"], seq + 1
    if unsigned_after:
        findings.append(finding("unsigned_after_signed", f"Links #{_ranges(unsigned_after)} are unsigned though "
                                "links before them were signed: written by someone without the key.",
                                link=unsigned_after[0]))
    if keys.keys and unsigned and first_signed is None:
        findings.append(finding("unsigned", f"No link is signed (links #{_ranges(unsigned_seqs)}), yet this verifier "
                                "holds a key: the chain was written without it, or recomputed by someone who lacks "
                                "it. The first write with the key signs the history as it then stands.",
                                link=unsigned_seqs[0]))
    elif first_signed is not None and first_signed["seq"] > 1:
        notices.append(f"Links #1–#{first_signed['seq'] - 1} were written unsigned; the first signed link "
                       f"#{first_signed['seq']} ({first_signed['at']}) vouches for them as they stood then.")

    streams: dict[UUID, list[tuple[int, str, int]]] = defaultdict(list)
    events_seen = 0
    start = 1
    while True:
        page = recorder.select_notifications(start, PAGE)
        for n in page:
            events_seen += 1
            uid = n.originator_id if isinstance(n.originator_id, UUID) else UUID(str(n.originator_id))
            streams[uid].append((n.originator_version, n.topic, n.id))
            if not links:
                continue
            what = dict(aggregate=aggregate_of(n.topic), id=uid, version=n.originator_version, position=n.id)
            entry = expected.pop((str(uid), n.originator_version), None)
            if entry is None:
                findings.append(finding("inserted", f"{what['aggregate']} {uid} version {n.originator_version} "
                                        f"({_event_name(n.topic)}) at notification {n.id} is in no link: stored "
                                        "outside the service (inserted into the database).", **what))
            elif entry[0] != n.topic or entry[1] != hashlib.sha256(bytes(n.state)).hexdigest():
                findings.append(finding("edited", f"{what['aggregate']} {uid} version {n.originator_version} "
                                        f"({_event_name(n.topic)}) at notification {n.id} was changed after link "
                                        f"#{entry[2]} recorded it.", link=entry[2], **what))
        if len(page) < PAGE:
            break
        start = page[-1].id + 1
    findings.extend(_deleted(expected, streams))
    if not links and events_seen:
        findings.append(finding("unchained", f"The store holds {events_seen} events and no link of the store-wide "
                                "chain covers them: the chain was deleted from the database (this fupan adopts an "
                                "older store's events the first time it opens it, and links every write since)."))
    elif not keys.keys:
        notices.append("NOT PROVEN: no signing key is configured (FUPAN_SIGNING_KEY or FUPAN_SIGNING_KEY_FILE), so the "
                       "store-wide chain was checked but proves nothing against someone who can write the database: "
                       "they can recompute it." + (f" {unchecked} signed links were not checked." if unchecked else ""))
    adopted = int(links[0]["adopted"]) if links else 0
    if adopted:
        notices.append(f"Link #1 ({links[0]['at']}) adopted the {adopted} events stored before the chain existed: they "
                       "are proven as they stood then, not before.")
    head = ({"seq": int(links[-1]["seq"]), "digest": links[-1]["digest"], "at": links[-1]["at"]} if links else None)
    return {"log": log, "links": len(links), "signed": signed, "unsigned": unsigned, "events": events_seen,
            "head": head, "keys": sorted(keys.keys), "findings": findings, "notices": notices,
            "link_digests": [link["digest"] for link in links], "streams": streams}


def _deleted(expected: dict[tuple[str, int], tuple[str, str, int]],
             streams: dict[UUID, list[tuple[int, str, int]]]) -> list[dict[str, Any]]:
    """One finding per aggregate whose recorded events are gone, saying how much of it went."""
    gone: dict[str, list[tuple[int, str, int]]] = defaultdict(list)
    for (uid, version), (topic, _, seq) in expected.items():
        gone[uid].append((version, topic, seq))
    findings = []
    for uid, missing in gone.items():
        missing.sort()
        versions = [v for v, _, _ in missing]
        kind, topic = aggregate_of(missing[0][1]), missing[0][1]
        left = [v for v, _, _ in streams.get(UUID(uid), [])]
        if not left:
            what = f"its whole stream ({_versions(versions)}) was deleted"
        elif versions[0] == 1:
            what = f"version 1 ({_event_name(topic)}) was deleted" + (
                f", and {_versions(versions[1:])}" if len(versions) > 1 else "")
        elif versions[0] > max(left):
            what = ("it was cut short: " + (f"version {versions[0]} ({_event_name(topic)}) was deleted"
                    if len(versions) == 1 else f"versions {_ranges(versions)} ({_event_name(missing[-1][1])} last) "
                    "were deleted"))
        else:
            names = ", ".join(_event_name(t) for _, t, _ in missing)
            what = f"{_versions(versions)} ({names}) {'was' if len(versions) == 1 else 'were'} deleted"
        recorded = "recorded them" if len(versions) > 1 else "recorded it"
        findings.append(finding("deleted", f"{kind} {uid}: {what}; link #{missing[0][2]} {recorded}.",
                                aggregate=kind, id=uid, version=versions[0], link=missing[0][2], versions=versions))
    return findings


# --- the domain's checks --------------------------------------------------------------------------------


def check_commitment(events: list[Any]) -> list[dict[str, Any]]:
    """A server-dealt deal's seed against its published commitment and its stored hands."""
    created = events[0]
    if not isinstance(created, Deal.Created) or created.seed_commitment is None:
        return []
    what = dict(aggregate="Deal", id=created.originator_id)
    revealed = next((e for e in events if isinstance(e, Deal.SeedRevealed)), None)
    if revealed is None:
        sealed = created.sealed_seed
        if sealed is not None and seed_commitment(sealed) != created.seed_commitment:
            return [finding("sealed_seed", f"Deal {created.originator_id}: the sealed seed no longer hashes to the "
                            "commitment published when it started; the seed it would reveal is not the one it "
                            "committed to.", version=1, **what)]
        return []
    if seed_commitment(revealed.seed) != created.seed_commitment:
        return [finding("commitment", f"Deal {created.originator_id}: the revealed seed (version "
                        f"{revealed.originator_version}) does not hash to the commitment published when it started.",
                        version=revealed.originator_version, **what)]
    engine = get_engine(created.game)
    for start in range(engine.seat_count):  # where dealing started is not stored, only the first to act
        hands, kitty = deal_from_seed(revealed.seed, engine, start)
        if (hands, kitty) == (created.hands, created.kitty) and engine.first_actor(hands, start) == created.first:
            return []
    return [finding("redeal", f"Deal {created.originator_id}: the revealed seed does not deal the stored hands and "
                    "kitty (domain/kernel/dealing.py): the hands were changed after they were dealt.", version=1,
                    **what)]


def _check_match(events: list[Any], results: dict[str, dict[str, Any] | None],
                 streams: dict[UUID, list[tuple[int, str, int]]],
                 expected_home: Callable[[UUID], str] = lambda uid: "") -> list[dict[str, Any]]:
    """Each DealScored against the deal's own result and the table's rules; each started deal stored."""
    created = events[0]
    if not isinstance(created, Match.Created):
        return []
    findings: list[dict[str, Any]] = []
    rules = get_table(created.game)
    standing = rules.start(created.options, len(created.seats))
    time_up, scored = False, set()
    for event in events[1:]:
        what = dict(aggregate="Match", id=created.originator_id, version=event.originator_version)
        if isinstance(event, Match.DealStarted) and str(event.deal_id) not in results:
            lost = "has no Deal.Created" if event.deal_id in streams else "has no stored events"
            home = expected_home(event.deal_id)
            findings.append(finding("missing_stream", f"Match {created.originator_id}: its deal {event.number} "
                                    f"({event.deal_id}) {lost}{' in ' + home if home else ''}: the deal's rows "
                                    "were deleted.", **what, **({"database": home} if home else {})))
        if isinstance(event, Match.DealScored):
            scored.add(str(event.deal_id))
            result = results.get(str(event.deal_id))
            if result is not None:
                expected = rules.after_deal(standing, created.options, result)
                if time_up:
                    expected = rules.time_up(expected, created.options)
                if list(event.scores) != list(result["scores"]):
                    findings.append(finding("score_mismatch", f"Match {created.originator_id} version "
                                            f"{event.originator_version} (Match.DealScored) scores deal {event.number} "
                                            f"as {listed(event.scores)}, but the deal's own result is "
                                            f"{listed(result['scores'])}.",
                                            **what))
                elif expected != event.standing:
                    findings.append(finding("standing_mismatch", f"Match {created.originator_id} version "
                                            f"{event.originator_version} (Match.DealScored): the standing after deal "
                                            f"{event.number} is not what the table's rules make of its result.",
                                            **what))
        if isinstance(event, Match.ClockRecorded) and event.time_up:
            time_up = True
        standing = getattr(event, "standing", standing)
    for deal_id in sorted(created_deals(events)):
        if results.get(deal_id) is not None and deal_id not in scored:
            findings.append(finding("unscored", f"Match {created.originator_id}: deal {deal_id} is finished but its "
                                    "table has no Match.DealScored for it (deleted).", aggregate="Match",
                                    id=created.originator_id))
    return findings


def created_deals(events: list[Any]) -> set[str]:
    return {str(e.deal_id) for e in events if isinstance(e, Match.DealStarted)}


def audit_store(app: Any, more: Sequence[Any] = ()) -> dict[str, Any]:
    """Everything `fupan verify` checks beyond the per-deal chains and the read models (see the module).

    `more`: further stores (each with `.recorder` and `.events`) whose notification logs hold part of the
    same record — deal streams kept in other databases: each log's chain is audited on its own (`logs`), and
    the domain's checks see every log's streams."""
    keys = getattr(app.recorder, "chain", None)
    ring = keys.keys if keys is not None else KeyRing()
    log = audit_log(app.recorder, ring)
    streams = log.pop("streams")
    findings = list(log["findings"])
    logs = [{k: v for k, v in log.items() if k not in ("findings", "link_digests")}]
    reader = {uid: app.events for uid in streams}
    chained = bool(log["links"])
    expected_home: Callable[[UUID], str] = getattr(app, "deal_home_label", lambda uid: "")
    for index, other in enumerate(more, start=1):
        extra = audit_log(other.recorder, ring)
        label = getattr(other, "label", f"log {index}")
        chained = chained or bool(extra["links"])
        for uid, stream in extra.pop("streams").items():
            streams[uid], reader[uid] = stream, other.events
            home = expected_home(uid) if aggregate_of(stream[0][1]) == "Deal" else ""
            if home and home != label:  # deals are kept apart, each in the database its id maps to
                findings.append(finding("misplaced", f"{label}: {aggregate_of(stream[0][1])} {uid} is stored here, "
                                        f"but its id maps to {home} (the database list was reordered or resized, or "
                                        "rows were copied between databases).", aggregate=aggregate_of(stream[0][1]),
                                        id=uid, log=index, database=label))
        # the index in `more`, from 1, and the database's name in the message
        findings.extend({**f, "log": index, "database": label, "message": f"{label}: {f['message']}"}
                        for f in extra["findings"])
        log["notices"].extend(f"{label} ({extra['log']}): {notice}" for notice in extra["notices"])
        logs.append({k: v for k, v in extra.items() if k not in ("findings", "notices", "link_digests")}
                    | {"database": label})
    kinds: dict[str, list[UUID]] = defaultdict(list)
    for uid, stream in streams.items():
        first_version, first_topic, position = stream[0]
        kind = aggregate_of(first_topic)
        if first_version != 1 or not first_topic.endswith(".Created"):
            if not chained:  # with a chain, the deleted events are named above
                findings.append(finding("missing_created", f"{kind} {uid}: its events start at version {first_version}"
                                        f" ({_event_name(first_topic)}); version 1, its creation, is not stored.",
                                        aggregate=kind, id=uid, version=first_version, position=position))
            continue
        kinds[kind].append(uid)
    results: dict[str, dict[str, Any] | None] = {}
    for uid in kinds["Deal"]:
        try:
            events = list(reader[uid].get(uid))
        except Exception as error:  # an edited event that no longer decodes
            findings.append(finding("unreadable", f"Deal {uid} cannot be read: {error}.", aggregate="Deal", id=uid))
            results[str(uid)] = None  # stored, though not readable: its table is not told it is missing
            continue
        findings.extend(check_commitment(events))
        finished = next((e for e in events if isinstance(e, Deal.Finished)), None)
        results[str(uid)] = None if finished is None else finished.result
    for uid in kinds["Match"]:
        try:
            events = list(reader[uid].get(uid))
        except Exception as error:
            findings.append(finding("unreadable", f"Match {uid} cannot be read: {error}.", aggregate="Match", id=uid))
            continue
        findings.extend(_check_match(events, results, streams, expected_home))
    for uid in kinds["Tournament"]:
        try:
            events = list(reader[uid].get(uid))
        except Exception as error:
            findings.append(finding("unreadable", f"Tournament {uid} cannot be read: {error}.", aggregate="Tournament",
                                    id=uid))
            continue
        for event in events:
            if isinstance(event, Tournament.MatchOpened) and event.match_id not in streams:
                findings.append(finding("missing_stream", f"Tournament {uid}: its table {event.table} "
                                        f"({event.match_id}) has no stored events: the table's rows were deleted.",
                                        aggregate="Tournament", id=uid, version=event.originator_version))
    return {**log, "ok": not findings, "findings": findings, "logs": logs,
            "aggregates": {k: len(v) for k, v in kinds.items()}}


# --- a printed digest -----------------------------------------------------------------------------------


def normal_digest(text: str) -> str | None:
    """A digest as printed (any case, grouped by spaces or dashes), or None if it is not 16–64 hex digits."""
    digits = "".join(text.split()).replace("-", "").lower()
    if not 16 <= len(digits) <= 64 or any(ch not in "0123456789abcdef" for ch in digits):
        return None
    return digits
