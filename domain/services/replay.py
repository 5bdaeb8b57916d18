"""Replay: a deal's stored events folded through its engine once, with the view after each step asked for.

Never `repository.get` per step: the events are read once (under the store's unit) and folded outside it.
"""

from __future__ import annotations

from typing import Any

from domain.games import get_engine
from domain.kernel.engine import DealSetup
from domain.kernel.errors import BadRequest, NotFound
from domain.model.deal import Deal
from domain.model.token import Principal
from domain.records.retraction import fold_entry, is_retraction, retracted
from domain.records.slips import RESULT_ONLY
from domain.services.visibility import may_see_all, public_notes, shown_action, viewpoint_for, without_foul_notes


def frames(events: list[Any], viewpoint: str, steps: range | None, reader: Principal,
           horizon: int | None = None) -> dict[str, Any]:
    """The table after each step in `steps` (default: every step, 0 … total) as `viewpoint` may see it;
    Hidden (`hidden_view`) if `reader` may not take that viewpoint of this deal yet.

    `horizon`: the steps the public may see under the tournament's delay (visibility.public_steps; None = all).
    A reader without rights sees the deal as if it stopped there — `total` is the horizon and `delayed` says how
    many steps are held back — with a commentator's notes at the steps shown."""
    created = events[0]
    if created.meta.get(RESULT_ONLY):
        raise NotFound("no_replay", "This deal was entered as a score slip (成绩单): it has a result, no replay.",
                       "该牌局以成绩单录入，只有结果，没有复盘。", {"deal_id": str(created.originator_id)})
    setup = DealSetup(created.game, created.options, created.seats, created.first, created.hands,
                      created.kitty, created.context)
    engine = get_engine(setup.game)
    steps_of = [e for e in events if isinstance(e, Deal.ActionRecorded | Deal.Retracted)]
    actions = [e.action if isinstance(e, Deal.ActionRecorded) else e.entry() for e in steps_of]
    taken_back = retracted(actions)  # index of a retracted action → index of its retraction
    noted = [(e.note(), e.recorded_by) for e in events if isinstance(e, Deal.Annotated | Deal.Commented)]
    notes = [note for note, _ in noted]
    finished = any(isinstance(e, Deal.Finished) for e in events)
    full = may_see_all(finished and horizon is None, created.match_id, reader)
    closed = finished and (full or horizon is None)  # a deal held back by the delay is live to the public
    view_as = viewpoint_for(viewpoint, len(setup.seats), full=full, closed=closed, deal_id=created.originator_id)
    delayed = 0
    if not full and horizon is not None:  # the public sees the deal as it stood `horizon` steps in
        delayed, actions = len(actions) - horizon, actions[:horizon]
        notes = public_notes(noted, horizon)
    total = len(actions)
    wanted = steps if steps is not None else range(total + 1)
    if wanted and not (wanted[0] >= 0 and wanted[-1] <= total):
        raise BadRequest("bad_step", f"The step must be from 0 (as dealt) to {total} (the end).",
                         f"步数必须在 0（发牌时）到 {total}（结束时）之间。", {"total": total})
    state = engine.new_deal(setup)
    out = []
    done = 0
    folded: list[Any] = []
    for step in wanted:
        while done < step:
            state = fold_entry(engine, setup, state, folded, actions[done], normalized=True)
            done += 1
        view = engine.view(state, view_as) if full else without_foul_notes(engine.view(state, view_as))
        view["viewpoint"] = viewpoint
        action = actions[step - 1] if step else None
        if action is not None and is_retraction(action):
            # The reason is the recorder's words, which may name hidden cards: withheld like a note.
            shown = {**action, "reason": action["reason"] if full else None, "by": steps_of[step - 1].recorded_by}
        else:
            shown = None if action is None else shown_action(engine, action, view_as, full)
        out.append({
            "step": step, "action": shown,
            "status": engine.status(state),
            "annotations": [note for note in notes if note["step"] == step] if full or horizon is not None
            else [], "view": view,
        })
        # This entry was taken back later (and the public sees the retraction): the viewer strikes it through.
        if step - 1 in taken_back and taken_back[step - 1] < total:
            by = taken_back[step - 1]
            out[-1]["retracted"] = {"step": by + 1, "reason": actions[by]["reason"] if full else None,
                                    "by": steps_of[by].recorded_by}
    answer = {"deal_id": str(created.originator_id), "total": total, "viewpoint": viewpoint, "closed": closed,
              "frames": out}
    if horizon is not None and not full:
        answer["delayed"] = delayed  # steps recorded but not yet shown to the public (docs/SECURITY.md)
    return answer
