"""Schemathesis against /api/openapi.json (issue 16): every documented operation is called with requests
generated from the document — valid ones and invalid ones — anonymously and as the organiser, on a real
PostgreSQL store through the real app over HTTP.

What must hold for every answer: no server error, the status documented for the operation, the content type
and the body the document says (response_schema_conformance), an invalid request refused (4xx), and a
refused request writes nothing (the store's notification count before and after each one).

Bounded: a fixed number of examples per operation, derandomized (the same requests every run), no shrinking
phase (a failure is reported as found); about a minute on this machine. Path parameters are generated
strings, which would only ever find 404s, so two calls in three get a real id of that kind instead (chosen
from the generated value, so a run stays reproducible).
"""

from __future__ import annotations

import contextlib
import itertools
import re
from collections.abc import Iterator
from typing import Any
from uuid import uuid4

import pytest
import schemathesis
from conftest import EXAMPLE_RECORD, LiveServer, Store
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from postgres_cluster import application_env, create_schema, drop_schema
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from domain.model.idempotent_request import IdempotentRequest

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_headers_conformance,
          response_schema_conformance, negative_data_rejection]
EXAMPLES = 6  # per operation and generation mode (each case is sent anonymously and as the organiser)


class Site:
    """The server, its organiser token and real ids of each kind a path names."""

    def __init__(self, live: LiveServer, ids: dict[str, list[str]]):
        self.live = live
        self.ids = ids

    def events(self) -> int:
        assert self.live.service is not None
        return self.live.service.store.recorder.max_notification_id() or 0

    def written_since(self, position: int) -> list[str]:
        """The topics stored after `position`, but the idempotency keys' own (api/idempotency.py keeps a
        refusal's answer under its key on purpose: a resend gets the same refusal; the record is untouched)."""
        assert self.live.service is not None
        return [n.topic for n in self.live.service.store.recorder.select_notifications(position + 1, 1000)
                if not n.topic.startswith(IdempotentRequest.TOPIC)]


@pytest.fixture(scope="module")
def site(postgres_params: dict[str, str]) -> Iterator[Site]:
    schema = f"t_{uuid4().hex[:16]}"
    create_schema(postgres_params, schema)
    # Wrong tokens are part of what is generated: no lock-out here (the limit has tests of its own).
    live = LiveServer(Store("postgres", application_env(postgres_params, schema)),
                      {"FUPAN_AUTH_FAILURES": 10**9, "FUPAN_AUTH_ADDRESS_FAILURES": 10**9,
                       "FUPAN_PROJECTION_POLL": 0}).start()
    service = live.service
    assert service is not None
    tournament, _ = service.tournaments.create("模糊测试", "doudizhu")
    players = ["张三", "李四", "王五"]
    for name in players:
        service.tournaments.register_player(tournament["id"], name)
    match, _ = service.tables.open(tournament["id"], "1", players, first=2)
    finished, _ = service.deals.start(match=match["id"], hands=EXAMPLE_RECORD["hands"], kitty=EXAMPLE_RECORD["kitty"])
    for action in EXAMPLE_RECORD["actions"]:
        service.deals.record(finished["id"], action)
    live_deal, _ = service.deals.start(match=match["id"], seed="fuzz")
    token, _ = service.tokens.create("referee", [match["id"]], "fuzz")
    yield Site(live, {"tournament_id": [tournament["id"]], "player_id": players,
                      "match_id": [match["id"]], "deal_id": [live_deal["id"], finished["id"]],
                      "token_id": [token["id"]]})
    live.stop()
    drop_schema(postgres_params, schema)


def strategy(operation: Any, mode: GenerationMode, site: Site) -> st.SearchStrategy[Any]:
    """Cases of one operation: with generated path parameters, or (as often as not) with real ids."""
    names = re.findall(r"{(\w+)}", operation.path)
    generated = operation.as_strategy(mode)
    if not names or not all(name in site.ids for name in names):
        return generated
    combos = [dict(zip(names, ids, strict=True)) for ids in itertools.product(*(site.ids[n] for n in names))]
    real = st.sampled_from(combos).flatmap(lambda ids: operation.as_strategy(mode, path_parameters=ids))
    return st.one_of(real, real, generated)


def test_every_answer_is_the_documented_one_and_refusals_write_nothing(site: Site) -> None:
    document = schemathesis.openapi.from_url(site.live.url + "/api/openapi.json")
    failures: dict[str, str] = {}  # the first failure of each operation, with how to reproduce it
    calls = [0]

    def call(case: Any) -> None:
        """One generated request, anonymously and as the organiser. A failure is recorded, not raised: the
        server's state moves on with every write, so Hypothesis could not replay it to confirm."""
        for caller, headers in (("anonymous", {}), ("organiser", site.live.auth())):
            calls[0] += 1
            before = site.events()
            response = case.call(base_url=site.live.url, headers=headers, timeout=30)
            try:
                case.validate_response(response, checks=CHECKS, headers=headers)
                wrote = site.written_since(before) if response.status_code >= 400 else []
                assert not wrote, f"a refused request ({response.status_code}) wrote {wrote}"
            except (AssertionError, FailureGroup) as error:
                failures.setdefault(f"{case.method} {case.path}", f"as {caller}: {error}\n{case.as_curl_command()}"
                                    f"\n→ {response.status_code} {response.text[:600]}")

    for result in document.get_all_operations():
        operation = result.ok()
        for mode in GenerationMode:
            run = settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
                           phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck)
                           )(given(strategy(operation, mode, site))(call))
            with contextlib.suppress(Unsatisfiable):  # nothing of it can be made invalid (no body, no query)
                run()
    print(f"{calls[0]} calls; failing: {len(failures)}\n\n" + "\n\n".join(failures.values()))
    assert not failures, f"{len(failures)} operation(s) fail: {list(failures)}"
