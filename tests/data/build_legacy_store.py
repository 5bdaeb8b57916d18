"""How tests/data/legacy_store.sqlite was made (run once, at commit 419118b, before the house move).

The store holds a little of everything the code wrote then: a table of each game (its first deals), a round,
an adjustment that refers to a deal event, a misdeal, a clock reading, a closed table, an annotation, a
server-dealt stand-alone deal with its seed revealed, and a created then revoked token. Beside it,
legacy_store.expected.json keeps what that code answered for it (standings, exports, chain digests), so
tests/store/test_legacy_store.py proves that today's code reads the same store the same way. Do not regenerate it:
its point is that it was written by the old code.

    python tests/data/build_legacy_store.py tests/data/legacy_store.sqlite
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from domain.services.fupan import Fupan
from fixtures import DEMOS, HERE
from projections.service import Projections

DEALS_PER_TABLE = 2


def build(path: Path) -> dict:
    app = Fupan.for_sqlite(str(path))
    tournaments, matches = [], []
    for name in DEMOS:
        document = json.loads((HERE / name).read_text(encoding="utf-8"))
        head = document["tournament"]
        t, _ = app.tournaments.create(head["name"], head["game"], head["options"], format=head["format"],
                                      tiebreaks=head["tiebreaks"], lots_seed=head["lots_seed"])
        for player in document["players"]:
            app.tournaments.register_player(t["id"], player)
        stage = document["rounds"][0]
        app.tournaments.start_round(t["id"], stage["label"], stage["kind"])
        table = stage["tables"][0]
        first = table.get("first", table["deals"][0]["first"])
        m, _ = app.tables.open(t["id"], str(table["table"]), table["seats"], first=first)
        last_deal = None
        for record in table["deals"][:DEALS_PER_TABLE]:
            deal, _ = app.deals.start(match=m["id"], first=record["first"], hands=record["hands"],
                                      kitty=record["kitty"], context=record["context"])
            for action in record["actions"]:
                app.deals.record(deal["id"], action)
            last_deal = deal
        assert last_deal is not None
        player = document["players"][0]
        app.tournaments.adjust(t["id"], player, -1, "迟到 / late", "penalty",
                               refers_to={"deal_id": last_deal["id"], "version": 2})
        app.deals.annotate(last_deal["id"], 1, "开局 / opening", "裁判")
        if head["game"] == "shengji":
            app.tables.record_clock(m["id"], 30, "第一次读表")
            app.tables.record_misdeal(m["id"], 1, "少发一张")
        if head["game"] == "doudizhu":
            app.tables.close(m["id"], "测试：组织者结束本桌")
        tournaments.append(t["id"])
        matches.append(m["id"])
    # A stand-alone server-dealt deal played to its end (seed revealed), by the game's random legal player.
    import random

    from fixtures.random_play.doudizhu import random_record
    rng = random.Random(7)  # random_record draws `first`, then the seed, from its rng: the same cards here
    first, seed = rng.randrange(3), f"{rng.getrandbits(64):x}"
    record = random_record(random.Random(7))
    solo, _ = app.deals.start(game="doudizhu", seats=["甲", "乙", "丙"], first=first, seed=seed)
    for action in record["actions"]:
        app.deals.record(solo["id"], action)
    token, _ = app.tokens.create("referee", matches=matches[:1], label="legacy")
    app.tokens.revoke(token["id"])
    projections = Projections(app)
    expected = {
        "tournaments": {tid: projections.standings(tid)["rows"] for tid in tournaments},
        "exports": {d["id"]: app.records.export_record(d["id"]) for d in app.deals.all() if d["finished"]},
        "digests": {d["id"]: d["digest"] for d in app.deals.all()},
        "notifications": app.store.recorder.max_notification_id(),
    }
    projections.close()
    return expected


if __name__ == "__main__":
    target = Path(sys.argv[1])
    expected = build(target)
    target.with_suffix(".expected.json").write_text(json.dumps(expected, ensure_ascii=False, indent=1, sort_keys=True)
                                                     + "\n", encoding="utf-8")
