"""Benchmark: the projections — rebuild time over 10,000 recorded deals, and the lag from an event being stored
to the standings reflecting it.

Run: python benchmarks/bench_projections.py [--deals N] [--samples N] [--poll S] [--backend sqlite|postgres]
Prints the figures; docs/PERFORMANCE.md ("Projections") records them.

1. The store: tournaments of 9 players, ~40 deals each, at 斗地主 chip tables played to their end with random
   legal deals (fixtures/random_play/doudizhu.py). Recorded through the aggregates with two saves per deal
   (start: `DealStarted` + `Deal.Created`; end: every `ActionRecorded`, `Finished`, `DealScored`), so the log
   holds the events the service writes, in its order; only the service's one save per action is merged.
2. Rebuild: `Projections.rebuild()` — replay the whole log into fresh tables, swap them in. Three runs.
3. Lag, on that store: new tournaments played through Fupan action by action, with the
   projections following in the background every `--poll` seconds (as in `fupan serve`). For each deal's last
   action: from `record_action` returning (its events committed) to the read model's position passing them,
   read from the database; and, on alternate deals, a standings read right after the write (it catches up
   itself, so it always counts the deal: its duration is the price of reading one's own writes).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from uuid import uuid4

from domain.kernel.engine import DealSetup
from domain.model.deal import Deal
from domain.model.ids import LOCAL_RECORDER, deal_id_in_match
from domain.model.match import Match
from domain.model.tournament import Tournament
from domain.services.fupan import Fupan
from fixtures.random_play.doudizhu import random_record
from projections import Projections
from projections.store import ViewStore

PLAYERS = [f"选手{i}" for i in range(1, 10)]
DEALS_PER_TOURNAMENT = 40


@contextmanager
def open_store(backend: str) -> Iterator[dict[str, str]]:
    """The eventsourcing environment of an empty store: a SQLite file, or a throwaway PostgreSQL server."""
    if backend == "sqlite":
        with tempfile.TemporaryDirectory() as tmp:
            yield {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(Path(tmp) / "bench.sqlite")}
        return
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))
    from postgres_cluster import application_env, create_schema, postgres_server

    with postgres_server() as params:
        create_schema(params, "bench")
        yield application_env(params, "bench")


def record_tournaments(app: Fupan, deals: int, rng: random.Random) -> int:
    """Tournaments of ~40 deals until `deals` deals are recorded; the number of tournaments."""
    recorded = tournaments = 0
    while recorded < deals:
        tournaments += 1
        t = Tournament.open(f"bench-{uuid4()}", f"基准赛 {tournaments}", "doudizhu", {}, LOCAL_RECORDER)
        for player in PLAYERS:
            t.register_player(player, player, LOCAL_RECORDER)
        app.store.save(t)
        table = 0
        in_tournament = 0
        while in_tournament < DEALS_PER_TOURNAMENT and recorded < deals:
            table += 1
            m = Match.open(t, str(table), rng.sample(PLAYERS, 3), rng.randrange(3), {}, LOCAL_RECORDER)
            t.open_match(m.id, str(table), LOCAL_RECORDER)
            app.store.save(t, m)
            while not m.over and in_tournament < DEALS_PER_TOURNAMENT and recorded < deals:
                record = random_record(rng)
                number = len(m.deals) + 1
                setup = DealSetup("doudizhu", m.options, list(m.seats), record["first"], record["hands"],
                                  record["kitty"], {})
                d = Deal.start(deal_id_in_match(m.id, number), setup, match=m.id, number=number,
                               recorded_by=LOCAL_RECORDER)
                m.start_deal(d.id, number, record["first"], LOCAL_RECORDER)
                app.store.save(m, d)
                for action in record["actions"]:
                    d.record(action, LOCAL_RECORDER)
                assert d.result is not None
                m.score_deal(d.id, number, d.result, LOCAL_RECORDER)
                app.store.save(d, m)
                recorded += 1
                in_tournament += 1
    return tournaments


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def measure_lag(app: Fupan, projections: Projections, samples: int, rng: random.Random
                ) -> tuple[list[float], list[float]]:
    """(follow lag, read-after-write latency) in ms, `samples` deal endings each, through the service; deal
    endings alternate between the two measures (a read catches up itself, which would hide the follower).
    Tournaments have ~40 deals, like the store's (the standings recomputed per deal grow with the tournament)."""
    observer = ViewStore(projections.live.datastore)
    follow: list[float] = []
    read: list[float] = []
    match = tournament = None
    while len(read) < samples:
        if tournament is None or (len(follow) + len(read)) % DEALS_PER_TOURNAMENT == 0:
            tournament, _ = app.tournaments.create(f"lag-{uuid4()}", "doudizhu")
            for player in PLAYERS:
                app.tournaments.register_player(tournament["id"], player)
            match = None
        if match is None or app.tables.get(match["id"])["status"] == "over":
            match, _ = app.tables.open(tournament["id"], f"T{len(follow) + len(read)}", rng.sample(PLAYERS, 3))
        record = random_record(rng)
        deal, _ = app.deals.start(match=match["id"], first=record["first"], hands=record["hands"],
                                  kitty=record["kitty"])
        for action in record["actions"]:
            app.deals.record(deal["id"], action)
        stored = time.perf_counter()
        head = app.store.recorder.max_notification_id()
        if len(follow) == len(read):
            while observer.position() < head:
                time.sleep(0.0002)
            follow.append((time.perf_counter() - stored) * 1000)
        else:
            standings = projections.standings(tournament["id"])
            read.append((time.perf_counter() - stored) * 1000)
            assert standings["as_of"] >= head
    return follow, read


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=200, help="deal endings timed for the lag")
    parser.add_argument("--poll", type=float, default=0.02, help="background follower interval (fupan serve's)")
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"machine: {platform.machine()} {platform.processor() or ''} python {platform.python_version()}, "
          f"backend {args.backend}")
    with open_store(args.backend) as env:
        app = Fupan(env=env)
        started = time.perf_counter()
        tournaments = record_tournaments(app, args.deals, rng)
        print(f"recorded {args.deals} deals in {tournaments} tournaments, {app.store.recorder.max_notification_id()} "
              f"events, in {time.perf_counter() - started:.1f} s")
        projections = Projections(app)
        runs = []
        for _ in range(3):
            report = projections.rebuild()
            runs.append(report["seconds"])
            assert report["deals"] == args.deals, report
        print(f"rebuild: {args.deals} deals ({report['notifications']} followed notifications) in "
              + ", ".join(f"{s:.2f}" for s in runs) + f" s → median {args.deals / statistics.median(runs):,.0f} "
              f"deals/s")
        verified = projections.verify()
        assert verified["ok"], verified
        print(f"verify (rebuild into scratch tables + compare): {verified['seconds']:.2f} s, ok")
        following = Projections(app, follow_every=args.poll)
        follow, read = measure_lag(app, following, args.samples, rng)
        following.close()
        print(f"lag, event stored → background follower has applied it (poll {args.poll * 1000:.0f} ms), "
              f"{len(follow)} deal endings: p50 {percentile(follow, 0.5):.1f} ms, p95 {percentile(follow, 0.95):.1f} "
              f"ms, max {max(follow):.1f} ms")
        print(f"standings read right after the deal-ending write (catches up itself): p50 "
              f"{percentile(read, 0.5):.1f} ms, p95 {percentile(read, 0.95):.1f} ms")
        app.close()


if __name__ == "__main__":
    main()
