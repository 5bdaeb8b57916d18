"""Bearer tokens and the principals they stand for (docs/SECURITY.md §2, §3, §5).

A token is `fupan_<token id hex>_<secret>`. The secret is 256 random bits, shown once when the token is
created; the store keeps only its SHA-256 (a fast hash is enough: nobody can guess 256 random bits, so there
is nothing to slow down). The token id inside the token lets the server load the one aggregate to check
instead of searching, and names the token in every event it records without revealing it.

Tokens are an event-sourced aggregate like everything else: issuing and revoking are events carrying who
did it, so `fupan token list` is an audit trail.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID, uuid4

from eventsourcing.domain import Aggregate

from domain.kernel.errors import IllegalAction, Unauthenticated, listed

ORGANISER, REFEREE, APPEALS = "organiser", "referee", "appeals"
# A commentator annotates deals (any match's); it reads what the public reads, no live hands.
COMMENTATOR = "commentator"
ROLES = (ORGANISER, REFEREE, APPEALS, COMMENTATOR)
PREFIX = "fupan"


def secret_digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def new_secret() -> str:
    return secrets.token_urlsafe(32)


def format_token(token_id: UUID, secret: str) -> str:
    return f"{PREFIX}_{token_id.hex}_{secret}"


def parse_token(text: str) -> tuple[UUID, str] | None:
    """(token id, secret) of a well-formed token, else None."""
    prefix, _, rest = text.partition("_")
    hex_id, _, secret = rest.partition("_")
    if prefix != PREFIX or len(hex_id) != 32 or len(secret) < 32:
        return None
    try:
        return UUID(hex=hex_id), secret
    except ValueError:
        return None


@dataclass(frozen=True)
class Principal:
    """Who is asking: a token's role and match scope, the anonymous public, or trusted local code.

    `local` is the CLI and in-process callers with direct access to the store (they could write events
    themselves anyway); `public` is an HTTP request without a token.
    """

    role: str
    token_id: str | None = None
    matches: frozenset[str] = field(default_factory=frozenset)
    label: str = ""

    @property
    def recorded_by(self) -> dict[str, Any]:
        """What every event this principal causes stores about it: never the token itself."""
        return {"role": self.role, "token_id": self.token_id}

    @property
    def anonymous(self) -> bool:
        return self.role == "public"

    def referees(self, match_id: UUID | str | None) -> bool:
        return self.role == REFEREE and match_id is not None and str(match_id) in self.matches

    def sees_live_hands(self, match_id: UUID | str | None) -> bool:
        """Seat and referee views of a deal still being played (docs/SECURITY.md §4)."""
        return self.role in (ORGANISER, APPEALS, "local") or self.referees(match_id)


PUBLIC = Principal("public")
LOCAL = Principal("local")


class AccessToken(Aggregate):
    """One bearer token: role, match scope, label and the SHA-256 of its secret; revocable, never deleted."""

    TOPIC = "fupan:AccessToken"

    class Event(Aggregate.Event):
        pass

    class Created(Event, Aggregate.Created):
        TOPIC = "fupan:AccessToken.Created"
        role: str
        matches: list[str]
        label: str
        secret_sha256: str
        recorded_by: dict[str, Any]

    class Revoked(Event):
        TOPIC = "fupan:AccessToken.Revoked"
        recorded_by: dict[str, Any]

        def apply(self, aggregate: AccessToken) -> None:
            aggregate.revoked_at = self.timestamp
            aggregate.revoked_by = self.recorded_by

    def __init__(self, role: str, matches: list[str], label: str, secret_sha256: str, recorded_by: dict[str, Any]):
        self.role = role
        self.matches = matches
        self.label = label
        self.secret_sha256 = secret_sha256
        self.created_by = recorded_by
        self.revoked_at: Any = None
        self.revoked_by: dict[str, Any] | None = None
        self._principal: Principal | None = None

    @classmethod
    def issue(cls, role: str, matches: list[str], label: str, recorded_by: dict[str, Any]) -> tuple[AccessToken, str]:
        """A new token and its secret (the caller shows it once; it is not stored). `matches`: the ids of the
        existing matches a referee token records (the caller checked they exist); other roles have none."""
        if role not in ROLES:
            raise IllegalAction("bad_role", f"The role must be one of {listed(ROLES)}.",
                                f"角色必须是 {listed(ROLES, 'zh')} 之一。", {"role": role})
        if (role == REFEREE) != bool(matches):
            raise IllegalAction("bad_scope", "A referee token names the matches it records; other roles are not "
                                "scoped.", "裁判令牌必须指定其负责的对局；其他角色不按对局限定。",
                                {"role": role, "matches": sorted(matches)})
        if len(label) > 200:
            raise IllegalAction("bad_label", "The label is at most 200 characters.", "标签最多 200 个字符。")
        secret = new_secret()
        token = cls._create(cls.Created, id=uuid4(), role=role, matches=sorted(matches), label=label,
                            secret_sha256=secret_digest(secret), recorded_by=recorded_by)
        return token, secret

    @property
    def revoked(self) -> bool:
        return self.revoked_at is not None

    def matches_secret(self, secret: str) -> bool:
        return hmac.compare_digest(self.secret_sha256, secret_digest(secret))

    def principal_for(self, secret: str) -> Principal:
        """Who holds this token, given its secret; Unauthenticated if the secret is wrong or the token revoked."""
        if not self.matches_secret(secret):
            raise Unauthenticated("invalid_token", "The token is not valid.", "令牌无效。")
        if self.revoked:
            raise Unauthenticated("revoked_token", "This token has been revoked.", "该令牌已被吊销。")
        return self.principal()

    def revoke(self, recorded_by: dict[str, Any]) -> bool:
        """Revoke once; revoking again changes nothing (False)."""
        if self.revoked:
            return False
        self.trigger_event(self.Revoked, recorded_by=recorded_by)
        return True

    def principal(self) -> Principal:
        if self._principal is None:  # built once: a token's role, scope and label never change
            self._principal = Principal(self.role, str(self.id), frozenset(self.matches), self.label)
        return self._principal
