"""Who may do what over HTTP (docs/SECURITY.md §3): bearer tokens, one policy per route, failed-auth rate limiting.

Every view declares its rule with `@requires(...)` next to its route, and one `before_request` hook enforces
it for every request, so no view checks rights by itself. Default deny: a view that declares nothing may
only read (GET/HEAD; what it reads is filtered by Fupan for the anonymous public); any other
method on it is refused with 403 `no_policy`. Endpoints added by others are therefore safe before they are
declared, and tests/api/test_security_matrix.py fails until they are.

Statuses: 401 for a missing token where one is needed and for a malformed, unknown, wrong or revoked token
anywhere (a presented credential must be valid, even on a public read); 403 for a valid token without the
right, e.g. a referee of another match; 429 after too many failed authentications with one token from one
client address, or very many from one address (FailureLimiter).

Hidden cards are not this module's business: the service filters every read by the principal found here
(`current_principal`), so the rule of public reads is "anyone", and what "anyone" sees depends on who it is.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar
from uuid import UUID

from flask import Blueprint, Flask, Response, current_app, g, request

from domain.kernel.errors import BadRequest, Forbidden, LengthRequired, TooManyAttempts, Unauthenticated
from domain.model.token import APPEALS, COMMENTATOR, ORGANISER, PUBLIC, REFEREE, Principal, parse_token
from domain.services.fupan import Fupan

F = TypeVar("F", bound=Callable[..., Any])

JSON, NDJSON = "application/json", "application/x-ndjson"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


@dataclass(frozen=True)
class Rule:
    """Who may call a route: any principal whose role is in `roles`, and, when `scope` names where the
    request's match is found ("match": the `match_id` in the path; "deal": the match of the `deal_id` in the
    path), a referee token scoped to that match."""

    name: str
    roles: frozenset[str]
    scope: str | None = None
    name_zh: str = ""  # who may call, as the Chinese message says it


ANYONE = Rule("public", frozenset({"public", ORGANISER, REFEREE, APPEALS, COMMENTATOR}), name_zh="任何人")
ORGANISER_ONLY = Rule("organiser", frozenset({ORGANISER}), name_zh="组织者")
MATCH_RECORDER = Rule("organiser, or referee of the match", frozenset({ORGANISER}), scope="match",
                      name_zh="组织者或本桌裁判")
DEAL_RECORDER = Rule("organiser, or referee of the deal's match", frozenset({ORGANISER}), scope="deal",
                     name_zh="组织者或该牌局所在牌桌的裁判")
ANNOTATOR = Rule("organiser, commentator, or referee of the deal's match", frozenset({ORGANISER, COMMENTATOR}),
                 scope="deal", name_zh="组织者、解说员或该牌局所在牌桌的裁判")
# Appeals (docs/appeals.md): the filing side, the parties who add evidence, the chief referee (the organiser, or
# a referee it named: checked by the service), the committee.
APPEAL_FILER = Rule("organiser, or referee of the appeal's table", frozenset({ORGANISER}), scope="appeal",
                    name_zh="组织者或申诉所涉牌桌的裁判")
APPEAL_PARTY = Rule("organiser, appeals committee, or referee of the appeal's table", frozenset({ORGANISER, APPEALS}),
                    scope="appeal", name_zh="组织者、仲裁委员会或申诉所涉牌桌的裁判")
CHIEF_REFEREE = Rule("the chief referee (organiser, or a referee it named chief)", frozenset({ORGANISER, REFEREE}),
                     name_zh="总裁判（组织者，或组织者指定为总裁判的裁判）")
COMMITTEE = Rule("appeals committee", frozenset({APPEALS}), name_zh="仲裁委员会")


@dataclass(frozen=True)
class Policy:
    """A route's rule plus what its request body may be: content types, and whether it may be large
    (`MAX_CONTENT_LENGTH`, for imports) or not (`FUPAN_MAX_BODY`)."""

    rule: Rule
    content_types: tuple[str, ...] = (JSON,)
    large_body: bool = False


def requires(rule: Rule, *, content_types: tuple[str, ...] = (JSON,), large_body: bool = False) -> Callable[[F], F]:
    """Declare a view's policy (read by the guard below, by the OpenAPI document and by the tests)."""

    def attach(view: F) -> F:
        view.__policy__ = Policy(rule, content_types, large_body)  # type: ignore[attr-defined]
        return view

    return attach


def policy_of(app: Flask, endpoint: str) -> Policy | None:
    """The view's declared policy, else the one its blueprint was mounted with (`open_to_anyone`)."""
    declared = getattr(app.view_functions.get(endpoint), "__policy__", None)
    if declared is None and "." in endpoint:
        declared = app.extensions["fupan.blueprint_policies"].get(endpoint.rpartition(".")[0])
    return declared


def open_to_anyone(app: Flask, blueprints: Iterable[Blueprint]) -> None:
    """Mount read-only blueprints (the replay viewer) whose every route anyone may read: their views declare
    nothing themselves and know nothing of tokens; what each reader sees is decided by the service."""
    for blueprint in blueprints:
        app.register_blueprint(blueprint)
        app.extensions["fupan.blueprint_policies"][blueprint.name] = Policy(ANYONE)


def current_principal() -> Principal:
    """Who is asking in this request; the anonymous public when no token was accepted."""
    return g.get("fupan_principal", PUBLIC)


class FailureLimiter:
    """Failed authentications per key (api/auth.py keys them by address and token, `_failure_keys`) in a
    sliding window, in this process's memory.

    After `limit` failures within `window` seconds a key is refused (429) until its oldest failure is out of
    the window. Successes do not reset the count, so a client holding one valid token cannot interleave
    guesses. Each worker process counts alone, so with W workers a key gets up to W × `limit` failures before
    every worker refuses it (docs/SECURITY.md §6 says why that is kept: counting in the store would turn each
    failed guess into a write); 256-bit secrets make guessing hopeless anyway, the limit mainly stops a
    misbehaving client flooding the service with lookups.
    """

    MAX_CLIENTS = 10_000  # bounded memory under many spoofed addresses: the oldest entries are dropped

    def __init__(self, limit: int, window: float, clock: Callable[[], float] = time.monotonic):
        self.limit = limit
        self.window = window
        self.clock = clock
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def retry_after(self, client: str) -> float | None:
        """Seconds until `client` may try again, or None if it may now."""
        with self._lock:
            failures = self._recent(client)
            if failures is None or len(failures) < self.limit:
                return None
            return max(failures[0] + self.window - self.clock(), 0.0)

    def failed(self, client: str) -> None:
        with self._lock:
            failures = self._recent(client)
            if failures is None:
                if len(self._failures) >= self.MAX_CLIENTS:
                    self._prune()
                failures = self._failures[client] = deque(maxlen=self.limit)
            failures.append(self.clock())

    def _recent(self, client: str) -> deque[float] | None:
        failures = self._failures.get(client)
        if failures is not None:
            horizon = self.clock() - self.window
            while failures and failures[0] <= horizon:
                failures.popleft()
            if not failures:
                del self._failures[client]
                return None
        return failures

    def _prune(self) -> None:
        for client in list(self._failures):
            self._recent(client)
        while len(self._failures) >= self.MAX_CLIENTS:
            del self._failures[next(iter(self._failures))]


def _service() -> Fupan:
    return current_app.extensions["fupan"]


def _authenticate() -> Principal:
    header = request.headers.get("Authorization")
    if header is None:
        return PUBLIC
    scheme, _, token = header.partition(" ")
    counted = _failure_keys(token.strip())
    waits = [wait for limiter, key in counted if (wait := limiter.retry_after(key)) is not None]
    if waits:
        g.fupan_retry_after = max(int(max(waits) + 0.999), 1)
        raise TooManyAttempts(
            "too_many_failures",
            "Too many failed authentications with this token from this address; wait.",
            "此地址使用该令牌认证失败次数过多，请稍后再试。",
            {"retry_after": g.fupan_retry_after},
        )
    try:
        if scheme.lower() != "bearer" or not token.strip():
            raise Unauthenticated(
                "invalid_token",
                "Send the token in the Authorization header, after the word Bearer.",
                "请在 Authorization 请求头中、Bearer 一词之后发送令牌。",
            )
        return _service().tokens.authenticate(token.strip())
    except Unauthenticated as error:
        for limiter, key in counted:
            limiter.failed(key)
        raise Unauthenticated(error.code, error.message, error.message_zh) from None


def _failure_keys(token: str) -> list[tuple[FailureLimiter, str]]:
    """What a failed authentication counts against: the token presented from this address (its id, which a
    mistyped secret keeps; a malformed token: its first characters), so ten mistakes of one referee at a venue
    behind one NAT address lock out that token there and no other referee's; and the address itself, with a
    much higher limit, so one address cannot try token after token without end."""
    client = request.remote_addr or "unknown"
    parsed = parse_token(token)
    presented = parsed[0].hex if parsed is not None else token[:48]
    return [(current_app.extensions["fupan.auth_failures"], f"{client} {presented}"),
            (current_app.extensions["fupan.address_failures"], client)]


def _scope_match(scope: str) -> str | None:
    """The id of the match the request concerns (for a referee's scope); NotFound (404) for an unknown deal."""
    args = request.view_args or {}
    if scope == "deal":
        return _service().deals.match_of(args["deal_id"])
    if scope == "appeal":  # the table the appeal is about (domain/model/appeal.py)
        return _service().appeals.match_of(args["appeal_id"])
    try:
        return str(UUID(str(args["match_id"])))
    except ValueError:
        return None


def _authorise(rule: Rule, principal: Principal) -> None:
    if principal.role in rule.roles:
        return
    if principal.anonymous:
        raise Unauthenticated(
            "unauthenticated",
            "This needs a bearer token (Authorization: Bearer <token>).",
            "此操作需要令牌（Authorization: Bearer <令牌>）。",
            {"requires": rule.name},
        )
    if rule.scope is not None and principal.role == REFEREE:
        match = _scope_match(rule.scope)
        if principal.referees(match):
            return
        raise Forbidden(
            "out_of_scope",
            "This referee token does not cover that match.",
            "该裁判令牌无权处理这一对局。",
            {"requires": rule.name, "match_id": match},
        )
    raise Forbidden(
        "forbidden",
        f"This needs: {rule.name}.",
        f"此操作需要相应权限：{rule.name_zh or rule.name}。",
        {"requires": rule.name, "role": principal.role},
    )


def _check_body(policy: Policy | None) -> None:
    """Writes carry JSON (or what the route declares): besides strictness, a browser cannot send that type
    cross-origin without a CORS preflight, which we never grant by default. Bodies state their length: a
    chunked body over the limit would be cut short silently by the WSGI layer instead of refused with 413."""
    if "chunked" in request.headers.get("Transfer-Encoding", "").lower():
        raise LengthRequired(
            "length_required",
            "Send the body with a Content-Length (not chunked).",
            "请求体必须带 Content-Length（不支持分块传输）。",
        )
    allowed = policy.content_types if policy is not None else (JSON,)
    if request.content_length and request.mimetype not in allowed:
        raise BadRequest(
            "bad_content_type",
            f"Send the body as {' or '.join(allowed)}.",
            f"请求体的内容类型必须是 {' 或 '.join(allowed)}。",
            {"content_type": request.content_type},
        )


def admit_body() -> None:
    """Before the request's unit (web/units.py) and the guard: the route's body limit, and a write's body read.
    The body is read outside the unit's lock: on slow wifi an upload must not hold up every other table's writes
    (a body past the limit is refused here with 413; a chunked one by `_check_body` in the guard)."""
    if request.routing_exception is not None or request.method == "OPTIONS":
        return
    policy = policy_of(current_app, request.endpoint or "")
    if policy is None or not policy.large_body:
        request.max_content_length = current_app.config["FUPAN_MAX_BODY"]
    if request.method not in SAFE_METHODS and request.content_length:
        request.get_data()


def _guard() -> None:
    """The one place every request's rights are decided (before any view runs; a write's inside its unit)."""
    if request.routing_exception is not None or request.method == "OPTIONS":
        return  # Flask answers 404/405 and CORS preflights itself; none of them reaches a view
    policy = policy_of(current_app, request.endpoint or "")
    principal = g.fupan_principal = _authenticate()
    if policy is None and request.method not in SAFE_METHODS:
        raise Forbidden(
            "no_policy",
            "This route declares no access policy, so it only reads.",
            "该地址未声明访问策略，只允许读取。",
            {"method": request.method},
        )
    _authorise(policy.rule if policy is not None else ANYONE, principal)
    if request.method not in SAFE_METHODS:
        _check_body(policy)


def _challenge(response: Response) -> Response:
    if response.status_code == 401:
        response.headers.setdefault("WWW-Authenticate", 'Bearer realm="fupan"')
    elif response.status_code == 429 and "fupan_retry_after" in g:
        response.headers["Retry-After"] = str(g.fupan_retry_after)
    return response


def install_body_limits(app: Flask) -> None:
    """Each route's body limit (`admit_body`); register it before the request's unit (web/units.py)."""
    app.extensions["fupan.body_limits"] = True
    app.before_request(admit_body)


def install(app: Flask) -> None:
    """Enforce the policies on `app` (after its blueprints are registered or not: the guard looks up views
    per request). The body limits come first (`install_body_limits`), then the unit of a write, then this."""
    if "fupan.body_limits" not in app.extensions:
        raise RuntimeError("install_body_limits(app) first: no route's body may go unlimited")
    app.extensions["fupan.blueprint_policies"] = {}
    app.extensions["fupan.reader"] = current_principal
    window = float(app.config["FUPAN_AUTH_WINDOW"])
    clock = app.config.get("FUPAN_AUTH_CLOCK") or time.monotonic  # tests pass a clock they move themselves
    app.extensions["fupan.auth_failures"] = FailureLimiter(int(app.config["FUPAN_AUTH_FAILURES"]), window, clock)
    app.extensions["fupan.address_failures"] = FailureLimiter(int(app.config["FUPAN_AUTH_ADDRESS_FAILURES"]), window,
                                                              clock)
    app.before_request(_guard)
    app.after_request(_challenge)


def policy_table(app: Flask) -> list[dict[str, Any]]:
    """Every route with its methods and declared rule (None: undeclared), for the docs and the tests."""
    rows = []
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: (r.rule, r.endpoint)):
        policy = policy_of(app, rule.endpoint)
        rows.append({"path": rule.rule, "endpoint": rule.endpoint,
                     "methods": sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}),
                     "rule": policy.rule.name if policy is not None else None})
    return rows
