"""/api: the public delay of a tournament's live deals and the broadcast (直播) that follows its tables.

The organiser sets the delay (`Tournament.DelaySet`); what the public sees under it is decided where every other
read is decided, domain/services/visibility.py `public_steps`, applied by the deal services' reads (replay,
events, records, verify). The broadcast answers are those reads, gathered for a page: a table list with each
table's standing, and one table followed (docs/console.md "直播", docs/SECURITY.md "Broadcast delay").
"""

from __future__ import annotations

from flask import Blueprint, Response

from api.auth import ANYONE, ORGANISER_ONLY, current_principal, requires
from api.common import doc, json_body, load, reply, service
from api.schemas.broadcast import BroadcastSchema, DelayInSchema, DelaySchema, FollowedTableSchema

DELAY_IN, DELAY, BROADCAST, FOLLOWED = DelayInSchema(), DelaySchema(), BroadcastSchema(), FollowedTableSchema()

broadcast = Blueprint("broadcast", __name__, url_prefix="/api")


@broadcast.get("/tournaments/<tournament_id>/delay")
@requires(ANYONE)
@doc("The public delay of the tournament's live deals (直播延迟): {kind, amount}", response=DELAY, errors=(404,))
def get_delay(tournament_id: str) -> tuple[Response, int]:
    return reply(DELAY, service().tournaments.delay(tournament_id))


@broadcast.post("/tournaments/<tournament_id>/delay")
@requires(ORGANISER_ONLY)
@doc("Set the public delay of the tournament's live deals: in deals, tricks (升级) or minutes",
     body=DELAY_IN, response=DELAY, errors=(400, 404, 422))
def set_delay(tournament_id: str) -> tuple[Response, int]:
    body = load(DELAY_IN, json_body())
    return reply(DELAY, service().tournaments.set_delay(tournament_id, body["kind"], body["amount"],
                                                        recorded_by=current_principal().recorded_by))


@broadcast.get("/tournaments/<tournament_id>/broadcast")
@requires(ANYONE)
@doc("The broadcast's table list: the delay, each table with its players and standing", response=BROADCAST,
     errors=(404,))
def tournament_broadcast(tournament_id: str) -> tuple[Response, int]:
    return reply(BROADCAST, service().tournaments.broadcast(tournament_id))


@broadcast.get("/matches/<match_id>/broadcast")
@requires(ANYONE)
@doc("A table followed on the broadcast: the newest deal the caller may see under the delay, and the deals "
     "held back", response=FOLLOWED, errors=(404,))
def followed_table(match_id: str) -> tuple[Response, int]:
    return reply(FOLLOWED, service().deals.broadcast(match_id, current_principal()))
