"""An appeal as the service answers it, and the result-blind frames of its review (docs/appeals.md).
"""

from __future__ import annotations

from typing import Any

from domain.model.appeal import Appeal

# What `appeal_dict` leaves out for a reader without rights while a deal the appeal touches is live: every word
# its people wrote (any may name a hidden card or say what a seat holds), and what lines of hidden hands show.
WITHHELD = ["digest", "timeline.digest", "statement", "evidence.note", "lines.actions", "lines.scores", "lines.label",
            "ruling.reason", "ruling.outcome.parts.label", "decision.reason", "decision.members",
            "decision.outcome.parts.label", "late_acceptance.reason", "timeline.reason", "timeline.note",
            "responses.statement"]


def _wordless(step: dict[str, Any] | None, *hidden: str) -> dict[str, Any] | None:
    """A ruling or decision without its words: its reason (and `hidden` fields), the labels of its outcome's parts."""
    if step is None:
        return None
    outcome = dict(step["outcome"])
    if "parts" in outcome:
        outcome["parts"] = [{**part, "label": None} for part in outcome["parts"]]
    return {**step, "outcome": outcome, "reason": None, **dict.fromkeys(hidden)}


def appeal_deals(a: Appeal) -> set[str]:
    """Every deal the appeal's words may speak of: the disputed one, each evidence reference's, each line's. While
    any of them is live, the appeal's words are withheld from readers without rights over it (issue 27)."""
    deals = {a.against["deal_id"]} if "deal_id" in a.against else set()
    deals |= {e["reference"]["deal_id"] for e in a.evidence if e.get("reference")}
    return deals | {line["deal_id"] for line in a.lines}


def appeal_dict(a: Appeal, *, full: bool) -> dict[str, Any]:
    """An appeal as the API answers it. `full=False` (a reader without rights over a deal it touches that is still
    being played, `appeal_deals`): every word written on it is withheld (WITHHELD) — the statement, evidence notes,
    line labels, the reasons of the ruling, of the decision and of a late filing's acceptance, the committee's
    members — as a live deal's notes are: any may name hidden cards."""
    def hide(text: str) -> str | None:
        return text if full else None

    return {
        "appeal_id": str(a.id), "tournament_id": str(a.tournament_id), "match_id": str(a.match_id),
        "version": a.version, "status": a.status, "against": a.against, "category": a.category,
        "statement": hide(a.statement), "on_behalf_of": a.on_behalf_of, "deadline": a.deadline,
        "late_acceptance": a.late_acceptance if full or not a.late_acceptance else {**a.late_acceptance,
                                                                                      "reason": None},
        "filed_by": a.filed_by, "filed_at": a.created_on.isoformat(),
        "evidence": [{**e, "note": hide(e["note"]), "viewer": viewer_link(e["reference"])} for e in a.evidence],
        "responses": [{**r, "statement": hide(r["statement"])} for r in a.responses],
        # a line of a live deal was played from hidden hands: its actions and result are not the public's yet
        "lines": [{**line, "actions": line["actions"] if full else None, "scores": line["scores"] if full else None,
                   "label": hide(line["label"])} for line in a.lines],
        "ruling": a.ruling if full else _wordless(a.ruling),
        "decision": a.decision if full else _wordless(a.decision, "members"),
        # The appeal's chain hashes its words: withheld with them, or it would confirm guesses of them.
        "applied": dict(a.applied), "redeal": a.redeal, "digest": a.digest if full else None,
        "withheld": [] if full else list(WITHHELD),
    }


def viewer_link(reference: dict[str, Any] | None) -> str | None:
    """Where the deal viewer shows a piece of evidence: the deal at that step from that viewpoint."""
    if reference is None:
        return None
    return f"/deals/{reference['deal_id']}?step={reference['step']}&view={reference['viewpoint']}"


def timeline(events: list[Any], *, full: bool) -> list[dict[str, Any]]:
    """Every stored event of an appeal: version, type, who, when (the appeal's page lists it)."""
    out = []
    for event in events:
        entry = {"version": event.originator_version, "type": type(event).TOPIC.removeprefix("fupan:"),
                 "recorded_by": event.recorded_by, "time": event.timestamp.isoformat(),
                 "digest": event.digest if full else None}
        for name in ("reason", "note"):
            if hasattr(event, name):
                entry[name] = getattr(event, name) if full else None
        out.append(entry)
    return out


# What a result-blind frame leaves out: the result and anything keyed by it, at any depth of a view.
BLIND_KEYS = frozenset({"result", "scores", "winner", "winners", "new_levels", "level_change"})


def _blind(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _blind(v) for k, v in value.items() if k not in BLIND_KEYS}
    if isinstance(value, list):
        return [_blind(v) for v in value]
    return value


def result_blind(folded: dict[str, Any]) -> dict[str, Any]:
    """The disputed deal up to the judged step for a reviewer who must not know how it ended: frames 0 … step
    only (so no later step and not how many there are), no result, no scores or winner in any view, no
    annotations (a commentator's words may say what happened later), no marks of later retractions, and a
    finished status shown only as `judged` (docs/appeals.md)."""
    out = []
    for frame in folded["frames"]:
        status = frame["status"]
        view = _blind(frame["view"])
        if view.get("phase") == "finished":  # the deal's end is the result's first word: shown as the judged step
            view["phase"] = "judged"
        shown = {"step": frame["step"], "action": frame["action"], "view": view,
                 "status": {"phase": "judged"} if status.get("finished") or status.get("phase") == "finished"
                 else {k: v for k, v in _blind(status).items() if k != "finished"}}  # never said, either way
        out.append(shown)
    return {"deal_id": folded["deal_id"], "viewpoint": folded["viewpoint"], "judged_step": out[-1]["step"],
            "frames": out}
