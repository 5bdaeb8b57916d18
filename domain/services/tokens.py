"""Access tokens: issued, listed, revoked, and the bearer token of a request authenticated (docs/SECURITY.md;
domain/model/token.py)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from uuid import UUID

from domain.kernel.errors import IllegalAction, Unauthenticated
from domain.model.ids import LOCAL_RECORDER
from domain.model.match import Match
from domain.model.token import AccessToken, Principal, format_token, parse_token
from domain.services.presenters import token_dict
from domain.services.service import Service
from domain.store.units import command


class Tokens(Service):
    """Who may record and rule: the access tokens."""

    @command
    def create(
        self, role: str, matches: Iterable[UUID | str] = (), label: str = "",
        recorded_by: dict[str, Any] = LOCAL_RECORDER,
    ) -> tuple[dict[str, Any], str]:
        """(token, bearer token): a new token; the bearer token (with its secret) is in no later answer."""
        scope = {str(self._known_match(match).id) for match in matches}
        token, secret = AccessToken.issue(role, sorted(scope), label, recorded_by)
        self.store.commit(token)
        return token_dict(token), format_token(token.id, secret)

    def _known_match(self, match: UUID | str) -> Match:
        found = self.store.find(match)
        if not isinstance(found, Match):
            raise IllegalAction("unknown_match", f"No match with id {match}.", f"找不到 id 为 {match} 的对局。",
                                {"match_id": str(match)})
        return found

    @command
    def revoke(self, token: UUID | str, recorded_by: dict[str, Any] = LOCAL_RECORDER) -> tuple[dict[str, Any], bool]:
        """(token, revoked now). Revoking a revoked token changes nothing."""
        t = self.store.load(AccessToken, token, "token")
        changed = t.revoke(recorded_by)
        if changed:
            self.store.commit(t)
        return token_dict(t), changed

    @command
    def authenticate(self, bearer: str) -> Principal:
        """The principal of a bearer token; Unauthenticated if it is malformed, unknown, wrong or revoked.

        A revocation by another process (the CLI, another worker) is seen by the next unit: it starts by
        synchronising the cache with the notification log (domain/store/event_store.py).
        """
        parsed = parse_token(bearer)
        token = self.store.find(parsed[0]) if parsed else None
        if parsed is None or not isinstance(token, AccessToken):
            raise Unauthenticated("invalid_token", "The token is not valid.", "令牌无效。")
        return token.principal_for(parsed[1])

    @command
    def get(self, token: UUID | str) -> dict[str, Any]:
        return token_dict(self.store.load(AccessToken, token, "token"))

    def all(self) -> list[dict[str, Any]]:
        """Every token, revoked ones too, in the order they were issued."""
        return self._every(AccessToken, self.get)

    def has_active(self, role: str) -> bool:
        return any(t["role"] == role and not t["revoked"] for t in self.all())
