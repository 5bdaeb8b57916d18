"""The typed rows of the standings (projections/standings.py computes them; api/typed.py makes their schemas).

TypedDicts, so they stay the JSON the API, the pages and the published site read; each key's description
(`Doc`) is the one the OpenAPI document shows.
"""


from typing import Annotated, Any, Required, TypedDict

from domain.kernel.values import Doc

Number = int | float


class ProgressionRow(TypedDict):
    """A player's place after a round."""

    player_id: str
    name: str
    total: Annotated[Number, Doc("the format's total (chips, points, rate …)")]
    rank: Annotated[int, Doc("equal on every declared criterion: equal rank")]


class Placing(ProgressionRow, total=False):
    """Where a player stands: a standings row, an explanation."""

    stage: Annotated[int, Doc("knockout: stage reached (advancing counts as the next)")]
    reached: Annotated[dict[str, Any] | None, Doc("the round that ranks the player")]
    status: Annotated[str, Doc("waiting | playing | advanced | eliminated | champion | placed | played")]
    tied_with: Annotated[list[str], Doc("equal stage and total")]
    decided_by: Annotated[str | None, Doc("the tiebreak that put the player below the row above, when equal on "
                                          "total")]


class StandingsRow(Placing, total=False):
    """One player's line of the standings."""

    number: Annotated[int, Doc("entrant number (registration order)")]
    tiebreak_values: Required[Annotated[list[Any], Doc("in `tiebreaks` order")]]
    adjustments: Annotated[int, Doc("sum of the adjustments counted in `total`")]
    appeals: Annotated[list[str], Doc("ids of the appeals whose outcome moved `total` (GET /api/appeals/<id>)")]
    matches: Required[Annotated[list[dict[str, Any]], Doc("the tables that rank the player")]]
    entry: Annotated[str, Doc("the pair or team the player entered with (team formats)")]
    department: Annotated[str, Doc("部门: the department the player or their entry entered for")]
    withdrawn: Annotated[dict[str, Any], Doc("the player withdrew: {round, reason} (paired no more)")]


class TeamRow(TypedDict, total=False):
    """One entry's line of a team format's standings (partners share their figures: the members' rows)."""

    rank: Required[Annotated[int, Doc("among the entries; equal on every declared criterion: equal rank")]]
    entry: Required[Annotated[str, Doc("the team's (pair's) name")]]
    department: Annotated[str, Doc("部门")]
    player_ids: Required[list[str]]
    names: Required[list[str]]
    total: Required[Annotated[Number, Doc("the format's total, shared by the members")]]
    tiebreak_values: Annotated[list[Any], Doc("in `tiebreaks` order")]
    stage: Annotated[int, Doc("knockout: stage reached")]
    status: Annotated[str, Doc("as the members' rows")]
    withdrawn: Annotated[bool, Doc("a member withdrew: the entry goes no further")]
