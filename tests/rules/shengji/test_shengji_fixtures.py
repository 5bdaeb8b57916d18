"""The demo 升级 matches (fixtures/shengji_matches.py → shengji_s004.json, shengji_s001.json): every deal is a
valid record, and `load_demo` records them through Fupan into matches that end as the files say —
on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from game_support import verified_standings

from domain.records.format import check_record
from domain.services.fupan import Fupan
from fixtures import demo_tables, load_demo
from fixtures.generating import folded
from fixtures.shengji_matches import features

FILES = {"s004": "shengji_s004.json", "s001": "shengji_s001.json"}


def table_of(preset: str) -> dict[str, Any]:
    (table,) = demo_tables(FILES[preset])
    return table


@pytest.mark.parametrize("preset", sorted(FILES))
def test_every_deal_of_the_demo_matches_passes_check(preset: str):
    deals = table_of(preset)["deals"]
    assert deals and all(check_record(record)["ok"] for record in deals)
    assert all(record["options"]["sj.preset"] == preset for record in deals)


def test_the_s004_match_shows_a_failed_throw_a_tractor_dig_and_an_adjudicated_revoke():
    deals = table_of("s004")["deals"]
    found = set().union(*(features(folded(record)) for record in deals))
    assert {"failed_throw", "dig_tractor", "revoke"} <= found
    assert all(record["options"]["sj.illegalPlay"] == "adjudicate" for record in deals)
    revokes = [a for record in deals for a in record["actions"] if a["type"] == "irregularity"]
    assert [a["kind"] for a in revokes] == ["revoke"]  # recorded by the referee, never a silently accepted play


def test_load_demo_records_the_matches_to_their_end(service: Fupan):
    load_demo(service)
    by_format = {t["format"]: t for t in service.tournaments.all()}
    s004 = service.tables.of_tournament(by_format["shengji.s004"]["id"])[0]
    s001 = service.tables.of_tournament(by_format["shengji.s001"]["id"])[0]
    for match, preset in ((s004, "s004"), (s001, "s001")):
        table = table_of(preset)
        assert match["status"] == "over" and match["ended_by"] == "goal"
        assert len(match["deals"]) == len(table["deals"])
        for entry, record in zip(match["deals"], table["deals"], strict=True):
            deal = service.deals.get(entry["deal_id"])
            assert deal["context"] == record["context"] and deal["result"]["scores"] == record["result"]["scores"]
        assert [(r["after_deal"], r["minutes"]) for r in match["clock"]] == [
            (r["after_deal"], r["minutes"]) for r in table["clock"]]
    assert max(s004["standing"]["levels"]) >= 11 and s004["winners"]  # passed 10
    assert max(s001["standing"]["levels"]) >= 5
    standings = verified_standings(service, by_format["shengji.s004"]["id"])
    winners = {s004["seats"][seat] for seat in s004["winners"]}
    assert {row["player_id"] for row in standings["rows"] if row["status"] == "champion"} == winners
    assert [d["code"] for d in standings["directions"]] == ["ew", "ns"]
