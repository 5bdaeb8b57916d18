"""`fupan verify`: every deal's hash chain, the store-wide signed chain, commitments, tables against their deals,
the read models against a rebuild — or, with `--digest`, a printed digest against the store.

Exit status 1 when anything is wrong, after naming each thing (the aggregate, the version or notification,
the link, the kind of break) on standard error; what could not be proved (no signing key, a store written
before the chain) is said on standard output and is not a failure. docs/SECURITY.md §9.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from cli.common import Progress, open_projections


def add_arguments(verify: argparse.ArgumentParser) -> None:
    verify.add_argument("--digest", action="append", metavar="HEX",
                        help="check a printed digest (a round's, a deal's, or the chain head; 16+ hex digits) against "
                             "the store instead; may be repeated")


def _describe(found: dict[str, Any]) -> str:
    if found["kind"] == "round":
        return (f"round {found['round']} ({found['label']}) of {found['tournament']} after {found['deals']} of its "
                f"{found['of']} closed deals")
    if found["kind"] == "deal":
        return f"the {found['which']} digest of deal {found['deal_id']}"
    chain = f"the store-wide chain of {found['database']}" if found.get("database") else "the store-wide chain"
    return f"link #{found['seq']} of {chain} ({found['at']})"


def verify_digests(open_service: Callable[[], Any], digests: list[str], as_json: bool) -> int:
    app = open_service()
    reports = [app.audit.check_digest(digest) for digest in digests]
    ok = all(report["ok"] for report in reports)
    if as_json:
        print(json.dumps({"ok": ok, "digests": reports}, ensure_ascii=False))
        return 0 if ok else 1
    for report in reports:
        for found in report["matches"]:
            print(f"fupan verify: digest {report['digest']} is {_describe(found)}")
        for problem in report["findings"]:
            print(f"fupan verify: digest {report['digest']}: {problem['kind'].upper()} — {problem['message']}",
                  file=sys.stderr)
        if report["ok"]:
            print(f"fupan verify: digest {report['digest']} ok — what it covers is in the store, unchanged")
    return 0 if ok else 1


def cmd_verify(args: argparse.Namespace) -> int:
    """Every check of the store; exit 1 naming what is wrong."""
    projections = open_projections(args.db)
    if args.digest:
        return verify_digests(lambda: projections.fupan, args.digest, args.json)
    progress = Progress("fupan verify", "")  # a terminal only: deals' chains, then the read models' replay
    chains = projections.fupan.audit.verify_chains(lambda done, total: progress.step(done, total, "deals"))
    store = projections.fupan.audit.verify_store()  # K deal databases: each one's chain too
    store.pop("link_digests")
    try:
        report = projections.verify(lambda done, total: progress.step(done, total, "notifications"))
    except Exception as error:  # a followed event that no longer decodes: named above, and the rebuild cannot run
        report = {"ok": False, "position": None, "difference": {"error": f"the read models cannot be rebuilt: {error}"}}
    progress.interrupt()
    ok = report["ok"] and chains["ok"] and store["ok"]
    if args.json:
        print(json.dumps({**report, "ok": ok, "chains": chains, "store": store}, ensure_ascii=False))
        return 0 if ok else 1
    if chains["ok"]:
        print(f"fupan verify: hash chains ok — {chains['deals']} deals and {chains['appeals']} appeals recomputed "
              "from storage")
    for deal in chains["broken"]:
        where = (f"first bad event: version {deal['first_bad_version']}" if deal["first_bad_version"] is not None
                 else f"unreadable: {deal['error']}")
        which = f"deal {deal['deal_id']}" if "deal_id" in deal else f"appeal {deal['appeal_id']}"
        stored = f" ({deal['database']})" if deal.get("database") else ""
        print(f"fupan verify: hash chain BROKEN in {which}{stored} — {where}", file=sys.stderr)
    if store["links"]:
        signed = (f"{store['signed']} signed (keys {', '.join(store['keys'])})" if store["keys"] and store["signed"]
                  else f"{store['signed']} signed")
        head = store["head"]
        print(f"fupan verify: store-wide chain of {store['log']}: {store['events']} events in {store['links']} links, "
              f"{signed}, {store['unsigned']} unsigned; head link #{head['seq']} {head['digest']} ({head['at']})")
    for other in store["logs"][1:]:  # the deal databases (docs/OPERATIONS.md "K deal databases")
        head = other["head"] or {"seq": 0, "digest": "-", "at": "-"}
        print(f"fupan verify: store-wide chain of {other['database']}: {other['events']} events in {other['links']} "
              f"links, {other['signed']} signed, {other['unsigned']} unsigned; head link #{head['seq']} "
              f"{head['digest']} ({head['at']})")
    for notice in store["notices"]:
        print(f"fupan verify: note: {notice}")
    for problem in store["findings"]:
        print(f"fupan verify: TAMPERED [{problem['kind']}] {problem['message']}", file=sys.stderr)
    if store["ok"]:
        counts = store["aggregates"]
        print(f"fupan verify: store ok — every stored event as recorded; commitments, tables against their deals and "
              f"every stream checked ({counts.get('Deal', 0)} deals, {counts.get('Match', 0)} tables, "
              f"{counts.get('Tournament', 0)} tournaments)")
    if report["ok"]:
        print(f"fupan verify: ok — a rebuild up to notification {report['position']} equals the live read models "
              f"({report['tournaments']} tournaments, {report['deals']} deals)")
    elif report["position"] is None:
        print(f"fupan verify: NOT REBUILT — {report['difference']['error']}", file=sys.stderr)
    else:
        print(f"fupan verify: DIFFERENT at notification {report['position']}: "
              + json.dumps(report["difference"], ensure_ascii=False), file=sys.stderr)
    return 0 if ok else 1


def register(commands: argparse._SubParsersAction) -> None:
    """The `verify` command."""
    verify = commands.add_parser("verify", help="recompute every deal's hash chain, and rebuild the read models "
                                                "into scratch tables to compare with the live ones; exit 1 if a "
                                                "chain breaks or they differ")
    verify.add_argument("--json", action="store_true")
    verify.add_argument("--db")
    add_arguments(verify)
    verify.set_defaults(handler=cmd_verify)
