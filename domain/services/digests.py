"""Published digests (docs/record-format.md "Round digests"): what a printout carries so that anyone holding
it can check the published record later (`fupan verify --digest …`).

A round's digest runs over every deal closed in it, in the order they closed (the time of each deal's
`Deal.Finished`, then its id):

    R_0 = SHA-256("0"×64 + canonical JSON {"format": "fupan.round/1", "round": n, "tournament": id})
    R_k = SHA-256(R_{k−1} + canonical JSON {"deal": deal id, "digest": the deal's digest at its Deal.Finished})

(domain/kernel/integrity.py's `next_digest`, the deal chain's own step). The digest after k deals never changes
once it is printed: a later deal extends the chain, an annotation after the close does not touch it, and an
edit of any deal it covers — even one with its hash chain recomputed — changes it. A round's results page
shows the latest R_k; a deal's printable record shows R_k of its own close (the round as it stood then).
"""

from __future__ import annotations

from typing import Any

from domain.kernel.integrity import GENESIS, next_digest
from domain.model.deal import Deal
from domain.model.tournament import Tournament

FORMAT = "fupan.round/1"


def round_start(tournament_id: str, number: int) -> str:
    return next_digest(GENESIS, {"format": FORMAT, "tournament": tournament_id, "round": number})


def round_digests(app: Any, tournament: str, only: int | None = None) -> list[dict[str, Any]]:
    """Each round of a tournament (or round `only`): its label, its closed deals in closing order, each with the
    round's digest after it (`round_digest`), and the latest digest (`digest`, with `deals` counted)."""
    with app.unit():
        t = app.load(Tournament, tournament, "tournament")
        labels = {r["round"]: r["label"] for r in t.rounds}
        numbers = sorted(n for n in {m["round"] for m in t.matches} | set(labels) if only in (None, n))
        closed: dict[int, list[tuple[Any, str, Deal, str]]] = {n: [] for n in numbers}
        for entry in t.matches:
            if entry["round"] not in closed:
                continue
            match = app.find(entry["id"])
            for deal_entry in getattr(match, "deals", []):
                deal = app.find(deal_entry["deal_id"])
                if isinstance(deal, Deal) and deal.finished_digest is not None:
                    closed[entry["round"]].append((deal.finished_at, str(deal.id), deal, entry["table"]))
    rounds = []
    for number in numbers:
        digest = round_start(str(t.id), number)
        deals = []
        for _, deal_id, deal, table in sorted(closed[number], key=lambda item: (item[0], item[1])):
            digest = next_digest(digest, {"deal": deal_id, "digest": deal.finished_digest})
            deals.append({"deal_id": deal_id, "table": table, "number": deal.number,
                          "finished_digest": deal.finished_digest, "round_digest": digest})
        rounds.append({"round": number, "label": labels.get(number, f"第{number}轮"), "deals": deals,
                       "count": len(deals), "digest": digest})
    return rounds


def deal_round_digest(app: Any, deal_id: str) -> dict[str, Any] | None:
    """The round digest printed on a closed deal's record: its round's digest just after it closed."""
    with app.unit():
        deal = app.find(deal_id)
        match = app.find(deal.match_id) if isinstance(deal, Deal) and deal.match_id else None
        tournament = app.find(match.tournament_id) if match is not None else None
    if tournament is None or deal.finished_digest is None:
        return None
    number = next(m["round"] for m in tournament.matches if m["id"] == match.id)
    for stage in round_digests(app, tournament.id, only=number):
        for position, entry in enumerate(stage["deals"], start=1):
            if entry["deal_id"] == str(deal.id):
                return {"round": stage["round"], "label": stage["label"], "count": position,
                        "digest": entry["round_digest"]}
    return None
