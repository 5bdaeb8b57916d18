"""Tokens over their whole life (docs/SECURITY.md "Tokens"): `fupan token create/list/revoke`, referee tokens
over the API, revocation seen by a running server, secrets never stored, every event naming its recorder,
and the one-command demo. Real stores, real HTTP, the real `fupan` command."""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
import requests
from conftest import EXAMPLE_RECORD, LiveServer, Store, token_id
from paths import ROOT
from test_api_http import assert_error

from cli.main import main as fupan
from fixtures import LIVE_ACTIONS, LIVE_DEMO, demo_document

PLAYERS = ["张三", "李四", "王五"]
BEARER = re.compile(r"fupan_[0-9a-f]{32}_[A-Za-z0-9_-]{43}")


def secret_of(bearer: str) -> str:
    """The secret part of `fupan_<id>_<secret>` (the secret itself may contain `_`)."""
    return bearer.split("_", 2)[2]


def cli_args(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """How the CLI reaches this test's store: --db for SQLite, the environment for PostgreSQL."""
    if store.backend == "sqlite":
        return ["--db", store.env["SQLITE_DBNAME"]]
    for key, value in store.env.items():
        monkeypatch.setenv(key, value)
    return []


def open_table(server: LiveServer, table: str = "1") -> str:
    tournament = server.post("/api/tournaments", {"name": "令牌杯", "game": "doudizhu"}).json()["id"]
    for name in PLAYERS:
        server.post(f"/api/tournaments/{tournament}/players", {"name": name})
    return server.post(f"/api/tournaments/{tournament}/matches", {"table": table, "seats": PLAYERS, "first": 2}).json()[
        "id"]


def test_cli_creates_lists_and_revokes_tokens_and_the_server_sees_it_at_once(server, store, monkeypatch, capsys):
    args = cli_args(store, monkeypatch)
    match = open_table(server)
    assert fupan(["token", "create", "--role", "referee", "--match", match, "--label", "一号桌记录员", *args]) == 0
    out, err = capsys.readouterr()
    bearer = out.strip()
    assert BEARER.fullmatch(bearer) and "only copy" in err
    start = {"hands": EXAMPLE_RECORD["hands"], "kitty": EXAMPLE_RECORD["kitty"], "first": 2}
    deal = server.post(f"/api/matches/{match}/deals", start, token=bearer)
    assert deal.status_code == 201, deal.text

    assert fupan(["token", "list", "--json", *args]) == 0
    listed = [line for line in capsys.readouterr().out.splitlines() if token_id(bearer) in line]
    assert len(listed) == 1 and '"role": "referee"' in listed[0] and "一号桌记录员" in listed[0]
    assert secret_of(bearer) not in listed[0]  # never the secret …
    assert hashlib.sha256(secret_of(bearer).encode()).hexdigest() not in listed[0]  # … nor its hash

    assert fupan(["token", "revoke", token_id(bearer), *args]) == 0
    assert "revoked" in capsys.readouterr().out
    # Another process revoked it: the running server refuses it on the next request.
    refused = server.post(f"/api/deals/{deal.json()['id']}/actions", {"action": EXAMPLE_RECORD["actions"][0]},
                          token=bearer)
    assert_error(refused, 401, "revoked_token")
    assert fupan(["token", "revoke", token_id(bearer), *args]) == 0
    assert "already" in capsys.readouterr().out
    assert fupan(["token", "list", *args]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith(token_id(bearer)))
    assert "revoked" in line and "by local" in line


def test_cli_refuses_bad_token_requests(store, monkeypatch, capsys):
    args = cli_args(store, monkeypatch)
    nobody = "00000000-0000-0000-0000-000000000000"
    for command, message in ((["create", "--role", "referee"], "names the matches"),
                             (["create", "--role", "referee", "--match", nobody], "No match"),
                             (["create", "--role", "appeals", "--match", nobody], "No match"),
                             (["revoke", nobody], "No token")):
        assert fupan(["token", *command, *args]) == 1
        captured = capsys.readouterr()
        assert message in captured.err and not captured.out
    with pytest.raises(SystemExit):
        fupan(["token", "create", "--role", "admin", *args])
    assert "invalid choice" in capsys.readouterr().err
    assert fupan(["token", "list", *args]) == 0 and not capsys.readouterr().out  # nothing was issued


def test_an_organiser_manages_referee_tokens_over_the_api(server):
    match, other = open_table(server, "1"), open_table(server, "2")
    created = server.post("/api/tokens", {"role": "referee", "matches": [match], "label": "替补记录员"})
    assert created.status_code == 201, created.text
    token, bearer = created.json()["token"], created.json()["bearer"]
    assert token["created_by"] == {"role": "organiser", "token_id": token_id(server.organiser)}
    assert token["matches"] == [match] and not token["revoked"]
    start = {"hands": EXAMPLE_RECORD["hands"], "kitty": EXAMPLE_RECORD["kitty"], "first": 2}
    assert server.post(f"/api/matches/{match}/deals", start, token=bearer).status_code == 201
    assert_error(server.post(f"/api/matches/{other}/deals", start, token=bearer), 403, "out_of_scope")
    listed = server.get("/api/tokens", token=server.organiser).json()
    assert {t["id"] for t in listed} >= {token["id"], token_id(server.organiser)}
    assert secret_of(bearer) not in str(listed)
    for role in ("organiser", "appeals"):  # only the CLI issues these
        assert_error(server.post("/api/tokens", {"role": role}), 403, "cli_only")
    assert_error(server.post(f"/api/tokens/{token_id(server.organiser)}/revoke"), 403, "cli_only")
    assert_error(server.post("/api/tokens", {"role": "referee", "matches": []}), 422, "bad_scope")
    assert_error(server.post("/api/tokens", {"role": "referee", "matches": ["nope"]}), 422, "unknown_match")
    revoked = server.post(f"/api/tokens/{token['id']}/revoke")
    assert revoked.status_code == 200 and revoked.json()["revoked_by"]["token_id"] == token_id(server.organiser)
    assert_error(server.get("/api/tournaments", token=bearer), 401, "revoked_token")


def test_malformed_and_unknown_tokens_are_401(server):
    real_id = server.organiser.split("_")[1]
    for header in ("Bearer", "Bearer ", "Bearer nonsense", "Token " + server.organiser, server.organiser,
                   f"Bearer fupan_{real_id}_{'A' * 43}", f"Bearer fupan_{'f' * 32}_{'A' * 43}",
                   f"Bearer fupan_{real_id[:-1]}g_{'A' * 43}"):
        response = server.post("/api/tournaments", {"name": "x", "game": "doudizhu"}, anonymous=True,
                               headers={"Authorization": header})
        assert_error(response, 401, "invalid_token")
        assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert server.get("/api/tournaments").json() == []


def test_every_event_names_its_recorder_and_no_secret_is_ever_stored(server, store):
    match = open_table(server)
    assert server.service is not None
    _, referee = server.service.tokens.create("referee", [match], "table 1")
    created = server.post("/api/tokens", {"role": "referee", "matches": [match]}).json()
    deal = server.post(f"/api/matches/{match}/deals", {"hands": EXAMPLE_RECORD["hands"],
                                                       "kitty": EXAMPLE_RECORD["kitty"], "first": 2},
                       token=referee).json()["id"]
    for action in EXAMPLE_RECORD["actions"][:5]:
        server.post(f"/api/deals/{deal}/actions", {"action": action}, token=referee)
    server.post(f"/api/deals/{deal}/annotations", {"step": 5, "text": "王炸"}, token=created["bearer"])
    events = server.get(f"/api/deals/{deal}/events", token=referee).json()
    assert [e["recorded_by"] for e in events] == (
        [{"role": "referee", "token_id": token_id(referee)}] * 6
        + [{"role": "referee", "token_id": created["token"]["id"]}])
    recorders = [e.recorded_by for e in server.service.store.events.get(UUID(match))]
    assert recorders[0]["role"] == "organiser" and recorders[-1] == {"role": "referee", "token_id": token_id(referee)}
    # The raw stored events of the whole store: every one has a recorder, none holds a secret.
    secrets = [secret_of(bearer) for bearer in (server.organiser, referee, created["bearer"])]
    for notification in server.service.store.recorder.select_notifications(1, 10**9):
        state = notification.state.decode()
        assert '"recorded_by"' in state, notification.topic
        assert not [s for s in secrets if s in state], notification.topic


SERVING = re.compile(r"serving on (http://127\.0\.0\.1:\d+)/")


def serve_demo(db: Path) -> tuple[subprocess.Popen[str], dict[str, str], str]:
    """`fupan serve --demo --port 0` in a process of its own: the tokens it prints, by role, and the address it
    says it is serving on (the port the system picked; it listens from the moment it prints that line)."""
    command = [sys.executable, "-c", "from cli.main import main; raise SystemExit(main())", "serve", "--demo",
               "--db", str(db), "--port", "0"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               cwd=ROOT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert process.stdout is not None
    tokens: dict[str, str] = {}
    lines: list[str] = []
    serving: re.Match[str] | None = None
    for line in process.stdout:
        lines.append(line)
        found = BEARER.search(line)
        if found:
            tokens["organiser" if "organiser" in line else "appeals" if "committee" in line else "referee"] = (
                found.group())
        serving = SERVING.search(line)
        if serving:
            break
    assert "DEMO MODE" in "".join(lines) and serving is not None, "".join(lines)
    return process, tokens, serving.group(1)


def stop(process: subprocess.Popen[Any]) -> None:
    process.terminate()
    process.wait(timeout=30)


def test_the_demo_is_one_command_and_prints_fresh_tokens(tmp_path):
    db = tmp_path / "demo.sqlite"
    process, tokens, url = serve_demo(db)
    try:
        assert set(tokens) == {"organiser", "referee", "appeals"}
        organiser = {"Authorization": f"Bearer {tokens['organiser']}"}
        created = requests.post(f"{url}/api/tournaments", json={"name": "试玩", "game": "doudizhu"}, headers=organiser,
                                timeout=30)
        assert created.status_code == 201, created.text
        assert requests.post(f"{url}/api/tournaments", json={"name": "匿名", "game": "doudizhu"},
                             timeout=30).status_code == 401
        # The referee's table is the demo's table in play (issue 23, defect 20): it records the live deal's next
        # action, and an appeal about the table's first deal is in time.
        (live,) = [t for t in requests.get(f"{url}/api/tournaments", timeout=30).json() if t["name"] == LIVE_DEMO]
        table = requests.get(f"{url}/api/matches/{live['matches'][0]['id']}", timeout=30).json()
        first, playing = (entry["deal_id"] for entry in table["deals"])
        referee = {"Authorization": f"Bearer {tokens['referee']}"}
        note = requests.post(f"{url}/api/deals/{first}/annotations", json={"step": 1, "text": "演示"},
                             headers=referee, timeout=30)
        assert note.status_code == 201, note.text
        following = demo_document("doudizhu_tournament.json")["rounds"][0]["tables"][0]["deals"][1]
        recorded = requests.post(f"{url}/api/deals/{playing}/actions",
                                 json={"action": following["actions"][LIVE_ACTIONS]}, headers=referee, timeout=30)
        assert recorded.status_code == 201, recorded.text
        appeal = requests.post(f"{url}/api/matches/{table['id']}/appeals", headers=referee, timeout=30, json={
            "against": {"kind": "deal", "deal_id": first, "step": 3}, "category": "conduct", "statement": "演示申诉"})
        assert appeal.status_code == 201, appeal.text
    finally:
        stop(process)
    again, fresh, url = serve_demo(db)  # a restart: new tokens, the old ones revoked
    try:
        assert fresh["organiser"] != tokens["organiser"]
        old = requests.get(f"{url}/api/tokens", headers={"Authorization": f"Bearer {tokens['organiser']}"},
                           timeout=30)
        assert old.status_code == 401 and old.json()["error"]["code"] == "revoked_token"
        listed = requests.get(f"{url}/api/tokens", headers={"Authorization": f"Bearer {fresh['organiser']}"},
                              timeout=30).json()
        assert sum(not t["revoked"] for t in listed) == 3  # organiser, referee, appeals committee
    finally:
        stop(again)
