"""/api for the organiser console (docs/console.md): entries, the next round's draw, opening a round's tables,
progress, and referee cards.

Writes are the organiser's; the draw and the progress are reads anyone may make (a pairing is public and
re-derivable: `fupan pair`). The console pages (replay_ui/console/views.py) call these with the organiser's token
from the tab's sessionStorage, like any other client.
"""

from __future__ import annotations

import ipaddress
from typing import Any
from urllib.parse import urlsplit

import segno
from flask import Blueprint, Response, current_app, request, url_for
from marshmallow import validate

from api import schemas as s
from api.auth import ANYONE, ORGANISER_ONLY, current_principal, requires
from api.common import doc, json_body, load, load_query, service, stores_nothing
from api.idempotency import answered_once
from api.standings import projections
from domain.kernel.errors import BadRequest, IllegalAction, listed
from domain.model.entries import read_entries
from projections import draws, pairing
from projections.formats import resolve
from projections.standings import Standings

console = Blueprint("console", __name__, url_prefix="/api/tournaments")
console_matches = Blueprint("console_matches", __name__, url_prefix="/api/matches")

_NAME = validate.Length(min=1, max=200)


def qr_data_uri(text: str) -> str:
    """A QR code of `text` as an SVG data: URI (error correction M, black on white, a quiet zone of 2), made
    here by segno: the referee cards' script shows it as it comes."""
    return segno.make(text, error="m").svg_data_uri(scale=4, border=2)


ENTRIES_IN, DRAW_QUERY, ROUND_TABLES_IN = s.EntriesInSchema(), s.DrawQuerySchema(), s.RoundTablesInSchema()
PAIRING_CHECK_IN = s.PairingCheckInSchema()


def pad_path(match_id: str) -> str:
    """The table's recording pad (docs/pad.md: `/matches/<id>/pad` follows the table from deal to deal)."""
    return f"/matches/{match_id}/pad"


def _format_of(tournament: dict[str, Any]) -> Any:
    return resolve(tournament["game"], tournament["format"], tournament["tiebreaks"])[0]


def _units(tournament_id: str) -> list[list[str]]:
    """The entries still in the event, each as its members' ids (a team with a withdrawn member is out)."""
    answer = service().tournaments.entries(tournament_id)
    units = [[m["id"] for m in entry["members"]] for entry in answer["entries"]]
    return [unit for unit in units if not set(unit) & set(answer["withdrawn"])]


def _entry_of(tournament_id: str) -> dict[str, dict[str, str]]:
    """Player id → {name, department} of the entry the player is in (a player on their own: their own name)."""
    return {m["id"]: {"name": entry["name"], "department": entry["department"]}
            for entry in service().tournaments.entries(tournament_id)["entries"] for m in entry["members"]}


def named_entries(seats: list[str], entry_of: dict[str, dict[str, str]]) -> list[dict[str, Any]]:
    """The entries seated at a table, in the order of their first seat, each with its seats (0-based, as the API
    numbers them): a team format's sides named as people read them (机械一队 · 机械学院), never "1 队"."""
    out: dict[str, dict[str, Any]] = {}
    for seat, player in enumerate(seats):
        entry = entry_of.get(player, {"name": player, "department": ""})
        out.setdefault(entry["name"], {**entry, "seats": []})["seats"].append(seat)
    return list(out.values())


# --- entries ------------------------------------------------------------------------------------------------


@console.post("/<tournament_id>/entries")
@requires(ORGANISER_ONLY)
@doc("Register entries all-or-nothing — a player, or a pair (升级) / team of three (大怪路子) with its department "
     "(部门): as a list, or pasted / CSV text. Duplicates, a wrong team size or a department over its limit are "
     "refused with the reason, storing nothing", body=ENTRIES_IN, status=201, errors=(400, 404, 422))
def register_entries(tournament_id: str) -> tuple[Response, int]:
    body = load(ENTRIES_IN, json_body())
    tournament = service().tournaments.get(tournament_id)
    size = _format_of(tournament).team_size
    if ("entries" in body) == ("text" in body):
        raise BadRequest("invalid_body", "Send the entries either as a list or as text, one of them.",
                         "请以列表或文字之一发送报名。")
    entries, errors = (body["entries"], []) if "entries" in body else read_entries(body["text"], size)
    entries = [{"name": e["name"], "department": e.get("department", ""),
                "members": [{"id": m.get("id") or m["name"], "name": m["name"]} for m in e["members"]],
                **({"line": e["line"]} if "line" in e else {})}
               for e in entries]
    registered = service().tournaments.register_entries(tournament_id, entries, size, errors=errors,
                                                         recorded_by=current_principal().recorded_by)
    return {"registered": registered, **service().tournaments.entries(tournament_id)}, 201


@console.get("/<tournament_id>/entries")
@requires(ANYONE)
@doc("The tournament's entries in registration order, with their departments and members, and its entry rules",
     errors=(404,))
def list_entries(tournament_id: str) -> tuple[Response, int]:
    return service().tournaments.entries(tournament_id), 200


REMOVAL_IN = s.RemovalInSchema()


@console.post("/<tournament_id>/entries/removals")
@requires(ORGANISER_ONLY)
@doc("Take an entry off the list before round 1 (a typo, a double entry): its players are registered no more. "
     "From round 1 on a player withdraws instead", body=REMOVAL_IN, status=201, errors=(400, 404, 422))
def remove_entry(tournament_id: str) -> tuple[Response, int]:
    body = load(REMOVAL_IN, json_body())
    removed = service().tournaments.remove_entry(tournament_id, body["name"], body["reason"],
                                                 recorded_by=current_principal().recorded_by)
    return {"removed": removed, **service().tournaments.entries(tournament_id)}, 201


WITHDRAWAL_IN = s.WithdrawalInSchema()


@console.post("/<tournament_id>/withdrawals")
@requires(ORGANISER_ONLY)
@doc("A player withdraws, with the reason: not paired again (a Swiss round; a knockout's later rounds)",
     body=WITHDRAWAL_IN, status=201, errors=(400, 404, 422))
def withdraw(tournament_id: str) -> tuple[Response, int]:
    body = load(WITHDRAWAL_IN, json_body())
    return service().tournaments.withdraw(tournament_id, body["player_id"], body["reason"],
                                          recorded_by=current_principal().recorded_by), 201


# --- rounds -------------------------------------------------------------------------------------------------


@console.get("/<tournament_id>/draw")
@requires(ANYONE)
@doc("The next round's proposed tables (stores nothing): a Swiss pairing (the same as `fupan pair` on the "
     "exported history), a knockout's first round in registration order or by lot, or a knockout's next round "
     "from the standings", query=DRAW_QUERY, errors=(400, 404, 422))
def draw(tournament_id: str) -> tuple[Response, int]:
    query = load_query(DRAW_QUERY)
    tournament = service().tournaments.get(tournament_id)
    fmt = _format_of(tournament)
    players = {p["id"]: p["name"] for p in tournament["players"]}
    if fmt.structure == "cumulative":
        _check_finished(tournament_id, tournament)
        history = projections().pairing_history(tournament_id)
        ids = dict(zip(history["players"], players, strict=True))  # export order is registration order
        plan = draws.swiss(tournament, history, ids)
    elif not tournament["rounds"] and not tournament["matches"]:
        apart = ({pid: e["department"] for pid, e in _entry_of(tournament_id).items() if e["department"]}
                 if query["apart"] else None)
        plan = draws.knockout_first(tournament, _units(tournament_id), fmt, query["method"] or "order", apart)
    else:
        standings = Standings(projections().facts(tournament_id))
        plan = draws.knockout_next(tournament, standings, _units(tournament_id), fmt)
    entry_of = _entry_of(tournament_id)
    for table in plan["tables"]:
        table["names"] = [players[p] for p in table["seats"]]
        table["entries"] = named_entries(table["seats"], entry_of)
    plan["bye_names"] = [players[p] for p in plan["byes"]]
    plan["bye_entries"] = named_entries(plan["byes"], entry_of)
    return {"tournament_id": tournament["id"], "format": fmt.code, **plan}, 200


def _check_finished(tournament_id: str, tournament: dict[str, Any]) -> None:
    if not tournament["matches"]:
        return
    last = tournament["current_round"]
    waiting = [t["table"] for t in projections().standings(tournament_id)["tables"]
               if t["round"] == last and not t["over"]]
    if waiting:
        raise IllegalAction("round_not_finished", f"Round {last} is still being played at tables {listed(waiting)}.",
                            f"第 {last} 轮还有牌桌未结束：{listed(waiting, 'zh')}。",
                            {"round": last, "tables": waiting})


@console.post("/<tournament_id>/round-tables")
@requires(ORGANISER_ONLY)
@doc("Start the next round with its byes and open all its tables at once (all or nothing)", body=ROUND_TABLES_IN,
     status=201, errors=(400, 404, 409, 422))
def open_round(tournament_id: str) -> tuple[Response, int]:
    body = load(ROUND_TABLES_IN, json_body())
    tournament = service().tournaments.get(tournament_id)
    override = None
    if _format_of(tournament).structure == "cumulative":  # a Swiss round: the proposal, or an override that says why
        override = _swiss_override(tournament, body)
    opened = service().tournaments.open_round(tournament_id, body["label"], body["kind"], body["tables"], body["byes"],
                                              recorded_by=current_principal().recorded_by, override=override)
    return opened, 201


def _swiss_check(tournament: dict[str, Any], tables: list[list[str]], byes: list[str]
                 ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(the proposed pairing, what the given one breaks): the checker of `fupan pair` (projections/pairing.py)
    on the exported history, names turned back into player ids."""
    _check_finished(tournament["id"], tournament)
    history = projections().pairing_history(tournament["id"])
    ids = dict(zip(history["players"], [p["id"] for p in tournament["players"]], strict=True))
    names = {pid: name for name, pid in ids.items()}
    proposal = draws.swiss(tournament, history, ids)
    as_named = [[names.get(p, p) for p in table] for table in tables]
    problems = pairing.check_override(pairing.read_history(history), proposal["round"], as_named,
                                      [names.get(p, p) for p in byes])
    shown = {p["id"]: p["name"] for p in tournament["players"]}
    for problem in problems:  # the players by id too, for a page that marks them
        problem["player_ids"] = [ids.get(name, name) for name in problem["players"]]
        problem["players"] = [shown.get(ids.get(name, name), name) for name in problem["players"]]
    return proposal, problems


def _swiss_override(tournament: dict[str, Any], body: dict[str, Any]) -> dict[str, Any] | None:
    """None when the round is the proposed pairing; else the override to record, once checked: refused while it
    breaks a rule no round may (a player missing, twice, unknown, withdrawn; a table not of three), or without
    the organiser's reason."""
    tables = [list(spec["seats"]) for spec in body["tables"]]
    proposal, problems = _swiss_check(tournament, tables, body["byes"])
    proposed = {"tables": [t["seats"] for t in proposal["tables"]], "byes": proposal["byes"]}
    if sorted(map(tuple, tables)) == sorted(map(tuple, proposed["tables"])) and set(body["byes"]) == set(
            proposed["byes"]) and len(body["byes"]) == len(proposed["byes"]):
        return None
    refused = [p for p in problems if p["severity"] == pairing.REFUSED]
    if refused:
        raise IllegalAction("bad_override", " ".join(p["en"] for p in refused), "".join(p["zh"] for p in refused),
                            {"problems": refused})
    if body["override"] is None:
        raise IllegalAction("override_needs_reason", "These tables are not the proposed pairing: say why to open "
                            "them (the override is recorded with its reason).",
                            "这不是建议的编排：请写明调整理由后再开桌（调整及其理由会被记录）。",
                            {"problems": problems})
    return {"proposed": proposed, "broken": [p["code"] for p in problems], "reason": body["override"]["reason"]}


@console.post("/<tournament_id>/draw/check")
@stores_nothing
@requires(ANYONE)
@doc("Check a Swiss round's tables chosen by hand against the pairing rules (stores nothing): each rule broken, "
     "in Chinese and English — `refused` (a round cannot open so) or `warning` (it may, with a reason)",
     body=PAIRING_CHECK_IN, errors=(400, 404, 422))
def check_pairing(tournament_id: str) -> tuple[Response, int]:
    body = load(PAIRING_CHECK_IN, json_body())
    tournament = service().tournaments.get(tournament_id)
    if _format_of(tournament).structure != "cumulative":
        raise IllegalAction("not_swiss", "Only a Swiss round's pairing is checked against rules.",
                            "只有瑞士移位赛的编排可以按规则检查。", {})
    proposal, problems = _swiss_check(tournament, body["tables"], body["byes"])
    same = sorted(map(tuple, body["tables"])) == sorted(tuple(t["seats"]) for t in proposal["tables"]) and set(
        body["byes"]) == set(proposal["byes"])
    return {"round": proposal["round"], "same_as_proposal": same, "problems": problems,
            "refused": any(p["severity"] == pairing.REFUSED for p in problems)}, 200


@console.get("/<tournament_id>/progress")
@requires(ANYONE)
@doc("Every table of the current round: not started / live / finished / late (still playing when more than half "
     "the round's tables have finished), the live deal, the pad; and the round's byes", errors=(404,))
def progress(tournament_id: str) -> tuple[Response, int]:
    tournament = service().tournaments.get(tournament_id)
    number = tournament["current_round"]
    info = next((r for r in tournament["rounds"] if r["round"] == number), {"round": number, "byes": []})
    names = {p["id"]: p["name"] for p in tournament["players"]}
    tables = [service().tables.get(m["id"]) for m in tournament["matches"] if m["round"] == number]
    entry_of = _entry_of(tournament_id)
    finished = sum(1 for m in tables if m["status"] == "over")
    rows = []
    for match in tables:
        state = ("finished" if match["status"] == "over" else "not_started" if not match["deals"] else "live")
        if state != "finished" and finished * 2 > len(tables):
            state = "late"
        live = match["current_deal"]
        standing = match["standing"] or {}
        rows.append({
            "match_id": match["id"], "table": match["table"], "seats": match["seats"], "names": match["seat_names"],
            "entries": named_entries(match["seats"], entry_of),
            "state": state, "deals": len(match["deals"]), "current_deal": live,
            "deal_url": url_for("replay_ui.deal_viewer", deal_id=live) if live else None,
            "pad_url": pad_path(match["id"]),
            "match_url": url_for("replay_ui.match_page", match_id=match["id"]),
            "playoff_first": draws.playoff_dealer(tournament, match) if standing.get("playoff") else None,
            "ended_by": match["ended_by"],
        })
    return {"tournament_id": tournament["id"], "round": number, "label": info.get("label", ""),
            "kind": info.get("kind", "tables"), "byes": info.get("byes", []),
            "bye_names": [names.get(p, p) for p in info.get("byes", [])],
            "bye_entries": named_entries(info.get("byes", []), entry_of), "tables": rows}, 200


# --- side events (seed 001: 五子棋, 跳棋) -----------------------------------------------------------------------


SIDE_EVENT_IN, SIDE_RESULT_IN = s.SideEventInSchema(), s.SideResultInSchema()


@console.get("/<tournament_id>/side-events")
@requires(ANYONE)
@doc("The tournament's results-only side events (seed 001: 五子棋, 跳棋) with their brackets and places",
     errors=(404,))
def list_side_events(tournament_id: str) -> tuple[Response, int]:
    return {"side_events": service().tournaments.side_events(tournament_id)}, 200


@console.post("/<tournament_id>/side-events")
@requires(ORGANISER_ONLY)
@doc("Open a results-only knockout side event: 五子棋 two a table, 跳棋 2/3/4/6 a table with the best `advance` "
     "going on; entrants numbered in order, consecutive numbers share a table (现场分组)", body=SIDE_EVENT_IN,
     status=201, errors=(400, 404, 422))
def open_side_event(tournament_id: str) -> tuple[Response, int]:
    body = load(SIDE_EVENT_IN, json_body())
    entrants = body.get("entrants") or [line.strip() for line in body.get("text", "").splitlines() if line.strip()]
    opened = service().tournaments.open_side_event(tournament_id, body["key"], body["game"], body["name"], entrants,
                                                   body["table_size"], body["advance"],
                                                   recorded_by=current_principal().recorded_by)
    return opened, 201


@console.post("/<tournament_id>/side-events/<key>/results")
@requires(ORGANISER_ONLY)
@doc("Record one table's placing in the side event's current round (the loser is out; by placing with more than "
     "two)", body=SIDE_RESULT_IN, status=201, errors=(400, 404, 422))
def record_side_result(tournament_id: str, key: str) -> tuple[Response, int]:
    body = load(SIDE_RESULT_IN, json_body())
    state = service().tournaments.record_side_result(tournament_id, key, body["round"], body["table"], body["placing"],
                                                     recorded_by=current_principal().recorded_by)
    return state, 201


# --- referee cards ------------------------------------------------------------------------------------------

MAX_LABEL = 200  # domain/model/token.py's limit


def card_label(tournament: str, table: object) -> str:
    """The card token's label, the tournament's name shortened to fit: a long name must not refuse the card."""
    table_part = f" 第{table}桌 裁判"
    room = MAX_LABEL - len(table_part)
    name = tournament if len(tournament) <= room else tournament[:room - 1] + "…"
    return name + table_part


@console_matches.post("/<match_id>/referee-card")
@requires(ORGANISER_ONLY)
@doc("Issue a referee token scoped to this table and answer its printable card: the table's pad link and the "
     "token, each as text and as a QR code (SVG made here). The token is shown in this answer only", status=201,
     errors=(404,))
def referee_card(match_id: str) -> tuple[Response, int]:
    match = service().tables.get(match_id)
    tournament = service().tournaments.get(match["tournament_id"])
    label = card_label(tournament["name"], match["table"])
    token, bearer = service().tokens.create("referee", [match["id"]], label,
                                            recorded_by=current_principal().recorded_by)
    venue = venue_url()
    pad = f"{venue}{pad_path(match['id'])}"  # the recording pad's page for this table, at the venue address
    # The QR opens the pad signed in: the token rides in the fragment, which a browser never sends to a server;
    # the pad moves it to the tab's sessionStorage and takes it out of the address bar at once (docs/pad.md).
    signin = f"{pad}#token={bearer}"
    answered_once("token", "token_qr", "signin_url", "pad_qr")  # the card is the token's only copy
    return {"match_id": match["id"], "table": match["table"], "tournament": tournament["name"],
            "names": match["seat_names"], "token_id": token["id"], "token": bearer, "pad_url": pad,
            "signin_url": signin, "pad_qr": qr_data_uri(signin), "token_qr": qr_data_uri(bearer),
            "warning": loopback_warning(venue)}, 201


def venue_url() -> str:
    """The address the referees' phones and tablets reach this server at: the organiser's `FUPAN_VENUE_URL`
    (`fupan serve --venue-url`), else the address this request came to."""
    return (current_app.config.get("FUPAN_VENUE_URL") or request.host_url).rstrip("/")


def loopback_warning(url: str) -> dict[str, str] | None:
    """A card whose address only this machine can reach (127.0.0.1, localhost, ::1) opens nothing on a phone."""
    host = urlsplit(url).hostname or ""
    try:
        loopback = host == "localhost" or host.endswith(".localhost") or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        return None
    return {"zh": f"裁判卡上的地址 {url} 是本机回环地址，其他设备打不开："
                  "请用 fupan serve --venue-url 设定场地网络中的地址。",
            "en": f"The card's address {url} is a loopback address no other device can open: set the venue "
                  "network's address with fupan serve --venue-url."}


BLUEPRINTS = (console, console_matches)
