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
