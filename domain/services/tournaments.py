"""Tournaments: players and entries, rounds (with the tables they open), side events, withdrawals and
adjustments (domain/model/tournament.py)."""

from __future__ import annotations

import copy
import secrets
from typing import Any
from uuid import UUID

from domain.kernel.errors import IllegalAction
from domain.model.deal import Deal
from domain.model.ids import LOCAL_RECORDER
from domain.model.match import Match
from domain.model.tournament import Tournament
from domain.services.presenters import match_dict, tournament_dict
from domain.services.service import Service, same_kind
from domain.store.units import command


class Tournaments(Service):
    """The tournaments and what is recorded about their players."""

    @command
    def create(
        self, name: str, game: str, options: dict[str, Any] | None = None, key: str | None = None,
        recorded_by: dict[str, Any] = LOCAL_RECORDER, format: str = "", tiebreaks: list[str] | None = None,
        lots_seed: str | None = None, entry_rules: dict[str, int] | None = None,
    ) -> tuple[dict[str, Any], bool]:
        """(tournament, created). The same create again returns the existing tournament.

        `format` and `tiebreaks` are declared here, before play starts (callers check the codes against
        projections/formats.py); lots are drawn from `lots_seed`, a fresh random one unless given.
        """
        key = key or name
        tournament = Tournament.open(key, name, game, options or {}, recorded_by, format, tiebreaks,
                                     secrets.token_hex(16) if lots_seed is None else lots_seed, entry_rules)
        existing = self.store.find(tournament.id)
        if existing is not None:
            same_kind(existing, Tournament, key).check_same(tournament, lots_seed)
            return tournament_dict(existing), False
        self.store.commit(tournament)
        return tournament_dict(tournament), True

    @command
    def get(self, tournament: UUID | str) -> dict[str, Any]:
        return tournament_dict(self.store.load(Tournament, tournament, "tournament"))

    def all(self) -> list[dict[str, Any]]:
        return self._every(Tournament, self.get)

    @command
    def register_player(
        self, tournament: UUID | str, name: str, player_id: str | None = None,
        recorded_by: dict[str, Any] = LOCAL_RECORDER,
    ) -> tuple[dict[str, Any], bool]:
        t = self.store.load(Tournament, tournament, "tournament")
        player_id = player_id or name
        created = t.register_player(player_id, name, recorded_by)
        if created:
            self.store.commit(t)
        return {"id": player_id, "name": name, "tournament_id": str(t.id)}, created

    def players(self, tournament: UUID | str) -> list[dict[str, Any]]:
        return self.get(tournament)["players"]

    @command
    def register_entries(self, tournament: UUID | str, entries: list[dict[str, Any]], team_size: int = 1,
                         recorded_by: dict[str, Any] = LOCAL_RECORDER, errors: list[dict[str, Any]] = ()
                         ) -> list[dict[str, Any]]:
        """Register entries ({name, department, members: [{id, name}]}) all-or-nothing (Tournament.register_entries:
        team size, duplicates, department limits), refusing with every error at once: the tournament's and
        `errors`, the lines the caller could not read (domain/model/entries.py)."""
        t = self.store.load(Tournament, tournament, "tournament")
        registered = t.register_entries(entries, team_size, recorded_by, list(errors))
        self.store.commit(t)
        return registered

    @command
    def remove_entry(self, tournament: UUID | str, name: str, reason: str = "",
                     recorded_by: dict[str, Any] = LOCAL_RECORDER) -> dict[str, Any]:
        """Take an entry off the list before round 1 (Tournament.remove_entry)."""
        t = self.store.load(Tournament, tournament, "tournament")
        removed = t.remove_entry(name, reason, recorded_by)
        self.store.commit(t)
        return removed

    @command
    def entries(self, tournament: UUID | str) -> dict[str, Any]:
        """{entry_rules, entries: [{name, department, members: [{id, name}]}], withdrawn: {player id: {round,
        reason}}}, entries in registration order."""
        t = self.store.load(Tournament, tournament, "tournament")
        return {"entry_rules": dict(t.entry_rules), "entries": t.entries(),
                "withdrawn": {pid: dict(info) for pid, info in t.withdrawn.items()}}

    @command
    def open_side_event(self, tournament: UUID | str, key: str, game: str, name: str, entrants: list[str],
                        table_size: int, advance: int = 1, recorded_by: dict[str, Any] = LOCAL_RECORDER
                        ) -> dict[str, Any]:
        """A results-only knockout side event of the tournament (domain/model/side_events.py)."""
        t = self.store.load(Tournament, tournament, "tournament")
        opened = t.open_side_event(key, game, name, entrants, table_size, advance, recorded_by)
        self.store.commit(t)
        return opened

    @command
    def record_side_result(self, tournament: UUID | str, key: str, number: int, table: int, placing: list[str],
                           recorded_by: dict[str, Any] = LOCAL_RECORDER) -> dict[str, Any]:
        t = self.store.load(Tournament, tournament, "tournament")
        state = t.record_side_result(key, number, table, placing, recorded_by)
        self.store.commit(t)
        return state

    @command
    def side_events(self, tournament: UUID | str) -> list[dict[str, Any]]:
        t = self.store.load(Tournament, tournament, "tournament")
        return [t.side_event(key) for key in t.side_events]

    @command
    def withdraw(self, tournament: UUID | str, player_id: str, reason: str,
                 recorded_by: dict[str, Any] = LOCAL_RECORDER) -> dict[str, Any]:
        """A player leaves the event (Tournament.withdraw); they are paired no more."""
        t = self.store.load(Tournament, tournament, "tournament")
        withdrawn = t.withdraw(player_id, reason, recorded_by)
        self.store.commit(t)
        return {"tournament_id": str(t.id), **withdrawn}

    @command
    def open_round(self, tournament: UUID | str, label: str, kind: str, tables: list[dict[str, Any]],
                   byes: list[str] = (), recorded_by: dict[str, Any] = LOCAL_RECORDER,
                   override: dict[str, Any] | None = None) -> dict[str, Any]:
        """Start the next round with its byes and open its tables ({table, seats, first}) in one transaction:
        a pairing is recorded whole or not at all. `override` ({proposed, broken, reason}): the tables are not the
        proposed pairing, and the organiser says why (Tournament.PairingOverridden, recorded with the round)."""
        t = self.store.load(Tournament, tournament, "tournament")
        started = t.start_round(label, kind, recorded_by, list(byes))
        if override is not None:
            t.override_pairing(override["proposed"], [list(spec["seats"]) for spec in tables], list(byes),
                               list(override["broken"]), override["reason"], recorded_by)
        opened = []
        for spec in tables:
            match = Match.open(t, spec["table"], spec["seats"], spec.get("first", 0), spec.get("options", {}),
                               recorded_by)
            if self.store.find(match.id) is not None or any(m.id == match.id for m in opened):
                raise IllegalAction("table_exists", f"Table {spec['table']!r} is already open.",
                                    f"桌号 {spec['table']!r} 已经开过。", {"table": spec["table"]})
            t.open_match(match.id, spec["table"], recorded_by, started["round"])
            opened.append(match)
        self.store.commit(t, *opened)
        return {**started, "byes": list(byes), "tables": [match_dict(m, t) for m in opened]}

    @command
    def start_round(self, tournament: UUID | str, label: str = "", kind: str = "tables",
                    recorded_by: dict[str, Any] = LOCAL_RECORDER, byes: list[str] = ()) -> dict[str, Any]:
        """Start the tournament's next round (with the players on a bye in it); tables opened from now on belong
        to it."""
        t = self.store.load(Tournament, tournament, "tournament")
        started = t.start_round(label, kind, recorded_by, list(byes))
        self.store.commit(t)
        return started

    @command
    def adjust(
        self, tournament: UUID | str, player_id: str, points: int, reason: str, kind: str = "adjustment",
        round: int | None = None, refers_to: dict[str, Any] | None = None,
        recorded_by: dict[str, Any] = LOCAL_RECORDER,
    ) -> dict[str, Any]:
        """Record a penalty or manual adjustment of a player's total (in `round`, default the current one).

        `refers_to` = {"deal_id", "version"}: the recorded event a ruling concerns; it must exist.
        """
        t = self.store.load(Tournament, tournament, "tournament")
        if refers_to is not None:
            refers_to = self._event_reference(refers_to)
        adjustment = t.adjust(player_id, points, reason, kind, round, refers_to, recorded_by)
        self.store.commit(t)
        return {"tournament_id": str(t.id), **adjustment}

    @command
    def set_delay(self, tournament: UUID | str, kind: object, amount: object,
                  recorded_by: dict[str, Any] = LOCAL_RECORDER) -> dict[str, Any]:
        """Set the public delay of the tournament's live deals (Tournament.set_delay; docs/SECURITY.md
        "Broadcast delay"); the same delay again stores nothing."""
        t = self.store.load(Tournament, tournament, "tournament")
        answer = t.set_delay(kind, amount, recorded_by)
        self.store.commit(t)
        return answer

    @command
    def delay(self, tournament: UUID | str) -> dict[str, Any]:
        """The tournament's public delay: `{kind, amount}` (one deal unless the organiser set another)."""
        t = self.store.load(Tournament, tournament, "tournament")
        return {"tournament_id": str(t.id), "delay": dict(t.delay), "version": t.version}

    @command
    def broadcast(self, tournament: UUID | str) -> dict[str, Any]:
        """What the public broadcast page lists: the delay, and each table with its players, standing and its
        deals' numbers and ids (which of them the public may see is the replay's business: visibility)."""
        t = self.store.load(Tournament, tournament, "tournament")
        tables = []
        for entry in t.matches:
            m = self.store.load(Match, entry["id"], "match")
            tables.append({
                "match_id": str(m.id), "table": m.table, "round": entry["round"], "seats": list(m.seats),
                "names": [t.players.get(seat, seat) for seat in m.seats], "status": "over" if m.over else "live",
                "standing": copy.deepcopy(m.standing), "chips": None if m.chips is None else list(m.chips),
                "deals": [{"number": d["number"], "deal_id": str(d["deal_id"]), "status": d["status"]}
                          for d in m.deals],
            })
        return {"tournament_id": str(t.id), "name": t.name, "game": t.game, "delay": dict(t.delay),
                "tables": tables}

    def _event_reference(self, reference: dict[str, Any]) -> dict[str, Any]:
        deal_id, version = reference.get("deal_id"), reference.get("version")
        deal = self.store.find(deal_id) if isinstance(deal_id, str | UUID) else None
        if not isinstance(deal, Deal) or type(version) is not int or not 1 <= version <= deal.version:
            raise IllegalAction("bad_reference", "An adjustment refers to a recorded event of a deal (the deal and "
                                "the event's number).", "调整所依据的必须是已记录的牌局事件（牌局及事件序号）。",
                                {"refers_to": reference})
        return {"deal_id": str(deal.id), "version": version}
