"""`fupan publish` of an event in play honours the tournament's public delay (issue 25 scope 2; docs/SECURITY.md
"Broadcast delay"): the publisher reads as the public, so a deal the delay holds is written as the public sees it
— no step of a deal in play under a one-deal delay, no record of a finished deal a two-deal delay still holds —
and the broadcast page is published with every table's data, as the public may see it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import EXAMPLE_RECORD

from cli.main import main
from domain.services.fupan import Fupan

PLAYERS = EXAMPLE_RECORD["seats"]
ACTIONS = EXAMPLE_RECORD["actions"]


def data_of(script: Path) -> dict[str, Any]:
    """The answers a published page's data script holds (publish.py writes `Object.assign(…, {...});`)."""
    return json.loads(script.read_text(encoding="utf-8").split("|| {}, ", 1)[1].rsplit(");", 1)[0])


def open_event(service: Fupan, name: str, delay: dict[str, Any] | None) -> tuple[str, str]:
    tournament, _ = service.tournaments.create(name, "doudizhu")
    for player in PLAYERS:
        service.tournaments.register_player(tournament["id"], player)
    if delay is not None:
        service.tournaments.set_delay(tournament["id"], delay["kind"], delay["amount"])
    match, _ = service.tables.open(tournament["id"], "1", PLAYERS, first=2)
    return tournament["id"], match["id"]


def deal(service: Fupan, match: str, actions: list[dict[str, Any]]) -> str:
    started, _ = service.deals.start(match=match, first=2, hands=EXAMPLE_RECORD["hands"],
                                     kitty=EXAMPLE_RECORD["kitty"])
    for action in actions:
        service.deals.record(started["id"], action)
    return started["id"]


def test_a_published_event_in_play_shows_only_what_the_delay_lets_the_public_see(tmp_path: Path):
    db = str(tmp_path / "fupan.sqlite")
    service = Fupan.for_sqlite(db)
    one, one_table = open_event(service, "直播发布杯", None)  # the default: one deal
    live = deal(service, one_table, ACTIONS[:6])
    two, two_table = open_event(service, "两局延迟发布杯", {"kind": "deals", "amount": 2})
    held = deal(service, two_table, ACTIONS)
    playing = deal(service, two_table, ACTIONS[:3])
    service.close()

    out = tmp_path / "one"
    assert main(["publish", one, "--out", str(out), "--db", db]) == 0
    frames = data_of(out / f"data/deal-{live}.js")
    assert [url.rsplit("=", 1)[1] for url in frames] == ["public"]
    public = next(iter(frames.values()))
    assert (public["total"], public["delayed"], len(public["frames"])) == (0, 6, 1)
    broadcast = data_of(out / f"data/broadcast-{one}.js")
    followed = broadcast[f"/ui-api/matches/{one_table}/broadcast"]
    assert followed["following"] is None and followed["held"][0]["deal_id"] == live
    assert (out / f"tournaments/{one}/broadcast.html").is_file()

    out = tmp_path / "two"
    assert main(["publish", two, "--out", str(out), "--db", db]) == 0  # nothing the site links is missing
    for hidden in (held, playing):
        assert not (out / f"api/deals/{hidden}/record.json").exists()
        assert next(iter(data_of(out / f"data/deal-{hidden}.js").values()))["total"] == 0
    assert not (out / f"api/tournaments/{two}/records.jsonl").read_text(encoding="utf-8").strip()
