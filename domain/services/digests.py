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

FORMAT = "fupan.round/1"


def round_start(tournament_id: str, number: int) -> str:
    return next_digest(GENESIS, {"format": FORMAT, "tournament": tournament_id, "round": number})


def round_chains(tournament_id: str, labels: dict[int, str],
                 closed: dict[int, list[tuple[Any, str, Deal, str]]]) -> list[dict[str, Any]]:
    """Each round of `closed` ({round: [(closed at, deal id, deal, table)]}): its label, its closed deals in
    closing order, each with the round's digest after it (`round_digest`), and the latest digest (`digest`, with
    `deals` counted). The records service (domain/services/records.py) reads the deals."""
    rounds = []
    for number in closed:
        digest = round_start(tournament_id, number)
        deals = []
        for _, deal_id, deal, table in sorted(closed[number], key=lambda item: (item[0], item[1])):
            digest = next_digest(digest, {"deal": deal_id, "digest": deal.finished_digest})
            deals.append({"deal_id": deal_id, "table": table, "number": deal.number,
                          "finished_digest": deal.finished_digest, "round_digest": digest})
        rounds.append({"round": number, "label": labels.get(number, f"第{number}轮"), "deals": deals,
                       "count": len(deals), "digest": digest})
    return rounds
