"""The application service: every command and query of fupan, as every interface (API, CLI, fixtures) calls it.

Each command reads as the eventsourcing library's own examples do: get the aggregates, call their methods
(which refuse what the rules forbid before anything changes), save them together in one transaction, and
answer with plain dicts (domain/services/presenters.py). The store, the cache and units of work are
domain/store/event_store.py;
who may see what is domain/services/visibility.py; replay is domain/services/replay.py; the record format is
domain/records/format.py.
Every refusal is a `domain.kernel.errors.Refusal`; whatever raises, nothing has been written.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import Any
from uuid import UUID, uuid4

from domain.games import get_engine
from domain.kernel.cards import normalize_all
from domain.kernel.dealing import deal_from_seed, seed_commitment
from domain.kernel.engine import Action, DealSetup, Viewpoint
from domain.kernel.errors import Conflict, IllegalAction, Unauthenticated, listed
from domain.kernel.integrity import canonical_json
from domain.model.appeal import Appeal
from domain.model.appeal_rules import AGAINST as APPEAL_AGAINST
from domain.model.appeal_rules import (
    DEFAULT_DEADLINE_MINUTES,
    LATE_REASONS,
    REPLACES,
    SCORE_OUTCOMES,
    VIEWPOINT_PREFIXES,
    AppealRules,
    appeal_rules_id,
    compensation,
    deadline_check,
    normalize_outcome,
    redeal_id,
    require_chief,
    target_points,
)
from domain.model.chain import verify_chain
from domain.model.deal import Deal
from domain.model.ids import LOCAL_RECORDER, deal_id_for_key, deal_id_in_match
from domain.model.match import Match
from domain.model.token import PUBLIC, AccessToken, Principal, format_token, parse_token
from domain.model.tournament import Tournament, adjustable
from domain.records.format import normalized_record, record_key, slip_record_parts
from domain.records.retraction import standing_state
from domain.records.slips import score as score_slip
from domain.services.analysis import analyse_deal, solved_line
from domain.services.appeal_views import appeal_dict, result_blind
from domain.services.appeal_views import timeline as appeal_timeline
from domain.services.pad import choices as pad_choices
from domain.services.presenters import (
    deal_dict,
    event_dict,
    match_dict,
    match_summary,
    record_dict,
    recorded_dict,
    token_dict,
    tournament_dict,
)
from domain.services.replay import frames
from domain.services.visibility import may_see_all, published, require_record
from domain.solver.search import DEFAULT_LIMIT_MS, Budget
from domain.store.event_store import Store
from domain.store.units import command


class FupanApplication(Store):
    """Tournaments, matches (tables), deals and access tokens, event-sourced."""

    name = "Fupan"
    deal_kinds = (Deal,)  # stored in the deal databases when there are several (domain/store/deal_databases.py)

    # --- tournaments and players ----------------------------------------------------------------------

    @command
    def create_tournament(
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
        existing = self.find(tournament.id)
        if existing is not None:
            self._same_kind(existing, Tournament, key).check_same(tournament, lots_seed)
            return tournament_dict(existing), False
        self.commit(tournament)
        return tournament_dict(tournament), True

    @command
    def get_tournament(self, tournament: UUID | str) -> dict[str, Any]:
        return tournament_dict(self.load(Tournament, tournament, "tournament"))

    def list_tournaments(self) -> list[dict[str, Any]]:
        # Not one unit: each item takes the lock on its own, so a long listing never blocks recording.
        return [self.get_tournament(uid) for uid in self.ids_by_topic(Tournament.Created.TOPIC)]

    @command
    def register_player(
        self, tournament: UUID | str, name: str, player_id: str | None = None,
        recorded_by: dict[str, Any] = LOCAL_RECORDER,
    ) -> tuple[dict[str, Any], bool]:
        t = self.load(Tournament, tournament, "tournament")
        player_id = player_id or name
        created = t.register_player(player_id, name, recorded_by)
        if created:
            self.commit(t)
        return {"id": player_id, "name": name, "tournament_id": str(t.id)}, created

    def list_players(self, tournament: UUID | str) -> list[dict[str, Any]]:
        return self.get_tournament(tournament)["players"]

    @command
    def register_entries(self, tournament: UUID | str, entries: list[dict[str, Any]], team_size: int = 1,
                         recorded_by: dict[str, Any] = LOCAL_RECORDER) -> list[dict[str, Any]]:
        """Register entries ({name, department, members: [{id, name}]}) all-or-nothing (Tournament.register_entries:
        team size, duplicates, department limits)."""
        t = self.load(Tournament, tournament, "tournament")
        registered = t.register_entries(entries, team_size, recorded_by)
        self.commit(t)
        return registered

    @command
    def list_entries(self, tournament: UUID | str) -> dict[str, Any]:
        """{entry_rules, entries: [{name, department, members: [{id, name}]}], withdrawn: {player id: {round,
        reason}}}, entries in registration order."""
        t = self.load(Tournament, tournament, "tournament")
        return {"entry_rules": dict(t.entry_rules), "entries": t.entries(),
                "withdrawn": {pid: dict(info) for pid, info in t.withdrawn.items()}}

    @command
    def open_side_event(self, tournament: UUID | str, key: str, game: str, name: str, entrants: list[str],
                        table_size: int, advance: int = 1, recorded_by: dict[str, Any] = LOCAL_RECORDER
                        ) -> dict[str, Any]:
        """A results-only knockout side event of the tournament (domain/model/side_events.py)."""
        t = self.load(Tournament, tournament, "tournament")
        opened = t.open_side_event(key, game, name, entrants, table_size, advance, recorded_by)
        self.commit(t)
        return opened

    @command
    def record_side_result(self, tournament: UUID | str, key: str, number: int, table: int, placing: list[str],
                           recorded_by: dict[str, Any] = LOCAL_RECORDER) -> dict[str, Any]:
        t = self.load(Tournament, tournament, "tournament")
        state = t.record_side_result(key, number, table, placing, recorded_by)
        self.commit(t)
        return state

    @command
    def list_side_events(self, tournament: UUID | str) -> list[dict[str, Any]]:
        t = self.load(Tournament, tournament, "tournament")
        return [t.side_event(key) for key in t.side_events]

    @command
    def withdraw(self, tournament: UUID | str, player_id: str, reason: str,
                 recorded_by: dict[str, Any] = LOCAL_RECORDER) -> dict[str, Any]:
        """A player leaves the event (Tournament.withdraw); they are paired no more."""
        t = self.load(Tournament, tournament, "tournament")
        withdrawn = t.withdraw(player_id, reason, recorded_by)
        self.commit(t)
        return {"tournament_id": str(t.id), **withdrawn}

    @command
    def open_round(self, tournament: UUID | str, label: str, kind: str, tables: list[dict[str, Any]],
                   byes: list[str] = (), recorded_by: dict[str, Any] = LOCAL_RECORDER) -> dict[str, Any]:
        """Start the next round with its byes and open its tables ({table, seats, first}) in one transaction:
        a pairing is recorded whole or not at all."""
        t = self.load(Tournament, tournament, "tournament")
        started = t.start_round(label, kind, recorded_by, list(byes))
        opened = []
        for spec in tables:
            match = Match.open(t, spec["table"], spec["seats"], spec.get("first", 0), spec.get("options", {}),
                               recorded_by)
            if self.find(match.id) is not None or any(m.id == match.id for m in opened):
                raise IllegalAction("table_exists", f"Table {spec['table']!r} is already open.",
                                    f"桌号 {spec['table']!r} 已经开过。", {"table": spec["table"]})
            t.open_match(match.id, spec["table"], recorded_by, started["round"])
            opened.append(match)
        self.commit(t, *opened)
        return {**started, "byes": list(byes), "tables": [match_dict(m, t) for m in opened]}

    @command
    def start_round(self, tournament: UUID | str, label: str = "", kind: str = "tables",
                    recorded_by: dict[str, Any] = LOCAL_RECORDER, byes: list[str] = ()) -> dict[str, Any]:
        """Start the tournament's next round (with the players on a bye in it); tables opened from now on belong
        to it."""
        t = self.load(Tournament, tournament, "tournament")
        started = t.start_round(label, kind, recorded_by, list(byes))
        self.commit(t)
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
        t = self.load(Tournament, tournament, "tournament")
        if refers_to is not None:
            refers_to = self._event_reference(refers_to)
        adjustment = t.adjust(player_id, points, reason, kind, round, refers_to, recorded_by)
        self.commit(t)
        return {"tournament_id": str(t.id), **adjustment}

    def _event_reference(self, reference: dict[str, Any]) -> dict[str, Any]:
        deal_id, version = reference.get("deal_id"), reference.get("version")
        deal = self.find(deal_id) if isinstance(deal_id, str | UUID) else None
        if not isinstance(deal, Deal) or type(version) is not int or not 1 <= version <= deal.version:
            raise IllegalAction("bad_reference", "`refers_to` must name a recorded deal event (deal_id, version).",
                                "`refers_to` 必须指向已记录的牌局事件（deal_id, version）。", {"refers_to": reference})
        return {"deal_id": str(deal.id), "version": version}

    # --- matches --------------------------------------------------------------------------------------

    @command
    def create_match(
        self, tournament: UUID | str, table: str, seats: list[str], first: int = 0,
        options: dict[str, Any] | None = None, recorded_by: dict[str, Any] = LOCAL_RECORDER, round: int | None = None,
    ) -> tuple[dict[str, Any], bool]:
        """(match, created): a table of the tournament, named by `table` (idempotent), in `round` (default:
        the current round)."""
        t = self.load(Tournament, tournament, "tournament")
        match = Match.open(t, table, seats, first, options or {}, recorded_by)
        existing = self.find(match.id)
        if existing is not None:
            self._same_kind(existing, Match, table).check_same(match)
            return match_dict(existing, t), False
        t.open_match(match.id, table, recorded_by, round)
        self.commit(t, match)
        return match_dict(match, t), True

    def list_matches(self, tournament: UUID | str) -> list[dict[str, Any]]:
        return [self.get_match(entry["id"]) for entry in self.get_tournament(tournament)["matches"]]

    @command
    def get_match(self, match: UUID | str) -> dict[str, Any]:
        m = self.load(Match, match, "match")
        return match_dict(m, self.load(Tournament, m.tournament_id, "tournament"))

    @command
    def record_misdeal(self, match: UUID | str, seat: int, note: str = "",
                       recorded_by: dict[str, Any] = LOCAL_RECORDER) -> dict[str, Any]:
        """Record a misdeal by `seat` before the deal is recorded; it is dealt again (Match.record_misdeal)."""
        m = self.load(Match, match, "match")
        m.record_misdeal(seat, note, recorded_by)
        self.commit(m)
        return self.get_match(m.id)

    @command
    def close_match(self, match: UUID | str, reason: str, recorded_by: dict[str, Any] = LOCAL_RECORDER
                    ) -> dict[str, Any]:
        """End a table by the organiser's decision, with the reason (Match.close)."""
        m = self.load(Match, match, "match")
        m.close(reason, recorded_by)
        self.commit(m)
        return self.get_match(m.id)

    @command
    def record_clock(self, match: UUID | str, minutes: int, note: str = "",
                     recorded_by: dict[str, Any] = LOCAL_RECORDER) -> dict[str, Any]:
        """Record the match clock (minutes played). A reading at or past the game's time limit calls time:
        the time cap then decides the match, at once or after the deal in play (domain/kernel/table.py)."""
        m = self.load(Match, match, "match")
        m.record_clock(minutes, note, recorded_by)
        self.commit(m)
        return self.get_match(m.id)

    # --- deals ----------------------------------------------------------------------------------------

    @command
    def start_deal(
        self, *, match: UUID | str | None = None, number: int | None = None, first: int | None = None,
        hands: list[list[str]] | None = None, kitty: list[str] | None = None, seed: str | None = None,
        context: dict[str, Any] | None = None, game: str | None = None, options: dict[str, Any] | None = None,
        seats: list[str] | None = None, key: str | None = None, recorded_by: dict[str, Any] = LOCAL_RECORDER,
    ) -> tuple[dict[str, Any], bool]:
        """(deal, created). Explicit `hands` + `kitty`, or server-dealt from `seed` (generated if absent).

        In a match the seats, game, options and context come from the match and `first` defaults to the seat
        its table's rules name (the 斗地主 rotation, the 升级 dealer); a duplicate board the table's rules name
        is dealt once for the round. Outside a match `game` and `seats` are required. Re-submitting the same
        create returns the deal.
        """
        if (hands is None) != (kitty is None):
            raise IllegalAction("bad_setup", "Give both `hands` and `kitty`, or neither (server-dealt).",
                                "`hands` 与 `kitty` 要么都给出，要么都不给（由服务器发牌）。")
        if hands is not None and seed is not None:
            raise IllegalAction("bad_setup", "Give either explicit hands or a seed, not both.",
                                "明确的手牌与种子只能二选一。")
        if match is None:
            return self._start_lone_deal(game, options or {}, seats, first, hands, kitty, seed, context or {},
                                         key, recorded_by)
        m = self.load(Match, match, "match")
        self._score_if_finished_apart(m, recorded_by)
        again = self._resubmitted_deal(m, number, hands)
        if again is not None:
            again.check_same(hands, kitty, first, seed)
            return deal_dict(again, full=True), False
        number = len(m.deals) + 1
        orphan = self.find(deal_id_in_match(m.id, number), Deal) if self.deal_stores else None
        if isinstance(orphan, Deal):  # stored in its deal database by a start whose table's part failed: take it
            orphan.check_same(hands, kitty, first, seed)
            m.start_deal(orphan.id, number, orphan.setup.first, recorded_by)
            self.commit(m)
            return deal_dict(orphan, full=True), True
        context = m.context_for_next_deal(context)
        board = m.rules.board(context)
        twin = self._board_twin(m, number) if board is not None else None
        if twin is not None and hands is None and seed is None:
            hands, kitty = twin.setup.hands, twin.setup.kitty  # the board as the round's first table dealt it
        setup, seed = self._setup(m.game, m.options, list(m.seats), first, m.default_first(number), hands, kitty,
                                  seed, context)
        if twin is not None and (setup.hands, setup.kitty) != (twin.setup.hands, twin.setup.kitty):
            raise IllegalAction(
                "board_mismatch", f"Board {board} was dealt differently at another table of this round: in "
                "duplicate every table plays the same cards in the same seats. Give the same hands or seed, or "
                "neither (the server then deals the board's cards).",
                f"本轮另一桌的第 {board} 副牌与此不同：复式赛每桌同一方位须拿相同的牌。"
                "请给出相同的手牌或种子，或都不给（由服务器按该副牌发牌）。", {"board": board, "deal_id": str(twin.id)})
        deal = Deal.start(deal_id_in_match(m.id, number), setup, match=m.id, number=number, seed=seed,
                          seed_commitment=None if seed is None else seed_commitment(seed), recorded_by=recorded_by)
        m.start_deal(deal.id, number, setup.first, recorded_by)
        self.commit(m, deal)
        return deal_dict(deal, full=True), True

    def _score_if_finished_apart(self, m: Match, recorded_by: dict[str, Any]) -> None:
        """With deal databases, the closing action's commit is two transactions, the deal's then the table's: if
        the second failed, the table's live deal is finished and unscored. Score it now, as the closing action
        would have (the table's rules applied to the deal's result: `fupan verify` checks exactly that)."""
        live = m.live_deal if self.deal_stores else None
        if live is not None:
            d = self.load(Deal, live["deal_id"], "deal")
            if d.finished:
                m.score_deal(d.id, d.number, d.result, recorded_by)  # type: ignore[arg-type]

    def _start_lone_deal(self, game: str | None, options: dict[str, Any], seats: list[str] | None,
                         first: int | None, hands: Any, kitty: Any, seed: str | None, context: dict[str, Any],
                         key: str | None, recorded_by: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        """A deal outside any match, named by `key` or by its setup (idempotent)."""
        if game is None or seats is None:
            raise IllegalAction("bad_setup", "A deal outside a match needs `game` and `seats`.",
                                "不属于任何对局的牌局需要 `game` 和 `seats`。")
        given_first = 0 if first is None else first
        deal_id = deal_id_for_key(key or _setup_key(game, options, seats, given_first, hands, kitty, context, seed))
        existing = self.find(deal_id)
        if existing is not None:
            self._same_kind(existing, Deal, key or "").check_same(hands, kitty, given_first, seed)
            return deal_dict(existing, full=True), False
        setup, seed = self._setup(game, options, list(seats), first, 0, hands, kitty, seed, context)
        deal = Deal.start(deal_id, setup, seed=seed, seed_commitment=None if seed is None else seed_commitment(seed),
                          recorded_by=recorded_by)
        self.commit(deal)
        return deal_dict(deal, full=True), True

    @staticmethod
    def _setup(game: str, options: dict[str, Any], seats: list[str], first: int | None, default_first: int,
               hands: Any, kitty: Any, seed: str | None, context: dict[str, Any]) -> tuple[DealSetup, str | None]:
        """The deal's setup and its dealing seed (None for explicit hands): server-dealt from `seed` (a fresh
        one unless given) when no hands are given. A game may name its first actor from the cards (挖坑: the
        lowest heart): `first` then says where dealing started, unless the caller chose it for explicit hands
        (the engine refuses a wrong one)."""
        engine = get_engine(game)
        start = default_first if first is None else first
        if hands is None:
            seed = seed or secrets.token_hex(16)
            if type(start) is not int or not 0 <= start < engine.seat_count:
                raise IllegalAction("bad_setup", f"`first` must be a seat 0–{engine.seat_count - 1}.",
                                    f"`first` 必须是座位 0–{engine.seat_count - 1}。", {"first": start})
            hands, kitty = deal_from_seed(seed, engine, start)
        if seed is not None or first is None:
            start = engine.first_actor(hands, start)
        return DealSetup(game, options, seats, start, [normalize_all(hand) for hand in hands], normalize_all(kitty),
                         dict(context)), seed

    def _resubmitted_deal(self, m: Match, number: int | None, hands: Any) -> Deal | None:
        """The started deal of `m` that this create repeats: the one it names by `number`, or the live one
        when the same hands are given again."""
        if number is None and m.live_deal is not None and hands is not None:
            live = self.load(Deal, m.live_deal["deal_id"], "deal")
            if [normalize_all(h) for h in hands] == live.setup.hands:
                number = live.number
        started = m.started_deal(number)
        return None if started is None else self.load(Deal, deal_id_in_match(m.id, started), "deal")

    def _board_twin(self, m: Match, number: int) -> Deal | None:
        """Deal `number` of another table in `m`'s round, if one has started: the same duplicate board."""
        tournament = self.load(Tournament, m.tournament_id, "tournament")
        rounds = {entry["id"]: entry["round"] for entry in tournament.matches}
        for other_id, other_round in rounds.items():
            if other_id != m.id and other_round == rounds.get(m.id):
                other = self.load(Match, other_id, "match")
                if len(other.deals) >= number:
                    twin = self.load(Deal, deal_id_in_match(other.id, number), "deal")
                    if not twin.result_only:  # a score slip has no cards to deal again
                        return twin
        return None

    @command
    def get_deal(self, deal: UUID | str, reader: Principal = PUBLIC) -> dict[str, Any]:
        d = self.load(Deal, deal, "deal")
        return deal_dict(d, full=may_see_all(published(d), d.match_id, reader))

    def list_deals(self, reader: Principal = PUBLIC) -> list[dict[str, Any]]:
        return [self.get_deal(uid, reader) for uid in self.ids_by_topic(Deal.Created.TOPIC)]

    def list_match_deals(self, match: UUID | str, reader: Principal = PUBLIC) -> list[dict[str, Any]]:
        return [self.get_deal(d["deal_id"], reader) for d in self.get_match(match)["deals"]]

    @command
    def deal_match(self, deal: UUID | str) -> str | None:
        """The id of the match a deal belongs to (what a referee token's scope is checked against)."""
        d = self.load(Deal, deal, "deal")
        return str(d.match_id) if d.match_id is not None else None

    @command
    def record_action(
        self, deal: UUID | str, action: Action, expected_version: int | None = None,
        recorded_by: dict[str, Any] = LOCAL_RECORDER,
    ) -> dict[str, Any]:
        """Validate and store one action; the deal's end (result, seed, the match's standing) is stored in the
        same save."""
        d = self.load(Deal, deal, "deal")
        d.expect_version(expected_version)
        was_finished = d.finished
        d.record(action, recorded_by)
        answer = recorded_dict(d)
        # A voided deal's replacement (docs/appeals.md) is scored by its appeal, not folded into its table's
        # running standing: the projections count it in the voided deal's place.
        if d.finished and not was_finished and d.meta.get(REPLACES):
            a = self.load(Appeal, d.meta["appeal_id"], "appeal")
            a.score_redeal(list(d.result["scores"]), recorded_by)  # type: ignore[index]
            self.commit(d, a)
        elif d.finished and not was_finished and d.match_id is not None:
            m = self.load(Match, d.match_id, "match")
            m.score_deal(d.id, d.number, d.result, recorded_by)  # type: ignore[arg-type]
            self.commit(d, m)
            answer["match"] = match_summary(m)
        else:
            self.commit(d)
        if d.seed is not None and not was_finished:
            answer["seed"] = d.seed
        return answer

    @command
    def annotate(
        self, deal: UUID | str, note: dict[str, Any], expected_version: int | None = None,
        recorded_by: dict[str, Any] = LOCAL_RECORDER,
    ) -> dict[str, Any]:
        """A comment `{step, glyph, text, text_en, author}` at a step of the deal (domain/records/annotations.py)."""
        d = self.load(Deal, deal, "deal")
        d.expect_version(expected_version)
        d.annotate(note, recorded_by)
        self.commit(d)
        return {"deal_id": str(d.id), "version": d.version, "annotation": dict(d.annotations[-1]), "digest": d.digest}

    @command
    def retract_action(
        self, deal: UUID | str, at: int, reason: str, expected_version: int | None = None,
        recorded_by: dict[str, Any] = LOCAL_RECORDER,
    ) -> dict[str, Any]:
        """Take back the last action still standing of a live deal, with the reason (domain/records/retraction.py)."""
        d = self.load(Deal, deal, "deal")
        d.expect_version(expected_version)
        d.retract(at, reason, recorded_by)
        self.commit(d)
        return {**recorded_dict(d), "retracted": dict(d.actions[at])}

    # --- score slips (domain/records/slips.py) ------------------------------------------------------------------

    def _slip(self, m: Match, facts: Any, expected: int | None) -> tuple[DealSetup, int, dict[str, Any], dict]:
        """(setup, number, facts as stored, result) of a slip for the table's next deal (409 unless it is deal
        `expected`, when given); nothing changes."""
        m.check_next_deal()
        number = len(m.deals) + 1
        if expected is not None and expected != number:
            raise Conflict("conflict", f"The table's next deal is {number}, not {expected}; nothing was written.",
                           f"本桌下一局是第 {number} 局，不是第 {expected} 局；本次未写入。",
                           {"expected_number": expected, "number": number})
        setup = DealSetup(m.game, m.options, list(m.seats), m.default_first(number), [], [],
                          m.context_for_next_deal(None))
        stored, result = score_slip(setup, facts)
        return setup, number, stored, result

    @command
    def preview_slip(self, match: UUID | str, facts: Any, number: int | None = None) -> dict[str, Any]:
        """What a score slip for the table's next deal would score, and the table after it; stores nothing."""
        m = self.load(Match, match, "match")
        setup, number, stored, result = self._slip(m, facts, number)
        standing = m.rules.after_deal(m.standing, m.options, result)
        return {"match_id": str(m.id), "number": number, "first": setup.first, "context": setup.context,
                "facts": stored, "result": result, "standing": standing}

    @command
    def enter_slip(self, match: UUID | str, facts: Any, number: int | None = None,
                   recorded_by: dict[str, Any] = LOCAL_RECORDER) -> dict[str, Any]:
        """Store the table's next deal from a score slip: a result-only deal, scored into the match like any."""
        m = self.load(Match, match, "match")
        setup, number, stored, result = self._slip(m, facts, number)
        deal = Deal.from_slip(deal_id_in_match(m.id, number), setup, stored, result, match=m.id, number=number,
                              recorded_by=recorded_by)
        m.start_deal(deal.id, number, setup.first, recorded_by)
        m.score_deal(deal.id, number, result, recorded_by)
        self.commit(m, deal)
        return {**deal_dict(deal, full=True), "match": match_summary(m)}

    # --- records: import and export -------------------------------------------------------------------

    @command
    def import_record(self, doc: Any, recorded_by: dict[str, Any] = LOCAL_RECORDER) -> tuple[dict[str, Any], bool]:
        """Store one `fupan.deal/1` record as a deal, all or nothing; the same record again is a no-op.

        Accepts exactly what `fupan check` accepts: every action goes through the engine, and the deal must
        be complete with the declared result (if any) equal to the computed one. A result-only record (a score
        slip's deal) is stored as one, its slip scored as `fupan check` scores it.
        """
        if isinstance(doc, dict) and doc.get("result_only") is True:
            return self._import_slip(doc, recorded_by)
        setup, actions, declared = normalized_record(doc)
        deal_id = deal_id_for_key(record_key(setup, actions))
        existing = self.find(deal_id)
        if isinstance(existing, Deal):
            return deal_dict(existing, full=True), False
        meta = dict(doc.get("meta") or {})
        if doc.get("digest"):
            meta["source_digest"] = doc["digest"]
        deal = Deal.imported(deal_id, setup, actions, declared, meta, doc.get("annotations") or [], recorded_by)
        self.commit(deal)
        return deal_dict(deal, full=True), True

    def _import_slip(self, doc: dict[str, Any], recorded_by: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        setup, facts, result = slip_record_parts(doc)
        deal_id = deal_id_for_key(record_key(setup, [{"slip": facts}]))
        existing = self.find(deal_id)
        if isinstance(existing, Deal):
            return deal_dict(existing, full=True), False
        meta = {**(doc.get("meta") or {}), **({"source_digest": doc["digest"]} if doc.get("digest") else {})}
        deal = Deal.from_slip(deal_id, setup, facts, result, match=None, number=None, recorded_by=recorded_by,
                              meta=meta)
        self.commit(deal)
        return deal_dict(deal, full=True), True

    @command
    def export_record(self, deal: UUID | str, reader: Principal = PUBLIC) -> dict[str, Any]:
        """The deal as a `fupan.deal/1` document; before it is published only for readers with rights over it."""
        d = self.load(Deal, deal, "deal")
        require_record(d, reader)
        return record_dict(d, None if d.match_id is None else self.load(Match, d.match_id, "match"))

    def export_match(self, match: UUID | str, reader: Principal = PUBLIC) -> list[dict[str, Any]]:
        """The records of the match's deals that `reader` may have: all of them, or the published ones."""
        m = self.get_match(match)
        every = reader.sees_live_hands(m["id"])
        records = [self.export_record(entry["deal_id"], reader) for entry in m["deals"]
                   if every or entry["status"] == "finished"]
        # A voided deal's replacement (docs/appeals.md) is one of the table's records too, after the deal it
        # replaces (its meta says so: `replaces`, `appeal_id`).
        for replacement in self.replacement_deals(m["id"]):
            if every or replacement["finished"]:
                records.append(self.export_record(replacement["id"], reader))
        return records

    def replacement_deals(self, match: UUID | str) -> list[dict[str, Any]]:
        """The deals dealt again at this table in place of voided ones (`POST /api/appeals/<id>/redeal`)."""
        found = []
        for uid in self.ids_by_topic(Appeal.Redealt.TOPIC):
            with self.unit():
                a = self.load(Appeal, uid, "appeal")
                if str(a.match_id) == str(match) and a.redeal is not None:
                    found.append(deal_dict(self.load(Deal, a.redeal["deal_id"], "deal"), full=False))
        return found

    def export_tournament(self, tournament: UUID | str, reader: Principal = PUBLIC) -> list[dict[str, Any]]:
        """The records of every table of the tournament, table by table, as `export_match` gives each."""
        return [record for entry in self.get_tournament(tournament)["matches"]
                for record in self.export_match(entry["id"], reader)]

    # --- history, replay and integrity ----------------------------------------------------------------

    def _deal_events(self, deal: UUID | str) -> list[Any]:
        """The deal's stored events; read in a unit, processed (folded, verified) outside it."""
        with self.unit():
            return self.stored_events(self.load(Deal, deal, "deal"))

    def deal_events(self, deal: UUID | str, reader: Principal = PUBLIC) -> list[dict[str, Any]]:
        """Every stored event of a deal: version, time, recorder, type, digest and payload.

        Before the deal is published a reader without rights gets the public part of each payload: no hands
        or kitty (`Deal.Created`), the public form of actions, no annotation text; `withheld` names what is
        left out. The digests are all there (they reveal nothing about the hidden fields).
        """
        events = self._deal_events(deal)
        full = may_see_all(any(isinstance(e, Deal.Finished) for e in events), events[0].match_id, reader)
        engine = get_engine(events[0].game)
        return [event_dict(event, engine, full=full) for event in events]

    def verify_deal(self, deal: UUID | str) -> dict[str, Any]:
        """Recompute the hash chain from storage; name the first event that does not match."""
        events = self._deal_events(deal)
        bad = verify_chain(events)
        return {"deal_id": str(events[0].originator_id), "ok": bad is None, "first_bad_version": bad,
                "digest": events[-1].digest}

    def verify_chains(self, progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
        """Every deal's hash chain recomputed from storage (`fupan verify`): the deals whose chain breaks, each
        with the version of its first event that does not match (or why it could not be read at all).
        `progress(deals checked, deals)` after each deal."""
        deals = list(self.ids_by_topic(Deal.Created.TOPIC))
        appeals = list(self.ids_by_topic(Appeal.Created.TOPIC))  # chained as deals are (domain/model/appeal.py)
        broken: list[dict[str, Any]] = []
        streams = [("deal_id", deal_id) for deal_id in deals] + [("appeal_id", appeal_id) for appeal_id in appeals]
        for checked, (kind, stream_id) in enumerate(streams, start=1):
            if progress is not None and checked <= len(deals):
                progress(checked, len(deals))
            try:
                bad = verify_chain(self.stream(stream_id, deal=kind == "deal_id"))
            except Exception as error:  # a stored event that no longer decodes is as broken as a wrong digest
                broken.append({kind: str(stream_id), "first_bad_version": None, "error": str(error),
                               **self.where_stored(stream_id)})
                continue
            if bad is not None:
                broken.append({kind: str(stream_id), "first_bad_version": bad, **self.where_stored(stream_id)})
        return {"ok": not broken, "deals": len(deals), "appeals": len(appeals), "broken": broken}

    def replay(self, deal: UUID | str, step: int | None = None, viewpoint: str = "referee",
               reader: Principal = PUBLIC) -> dict[str, Any]:
        """The table after `step` actions (default: the latest) as `viewpoint` may see it.

        Hidden (`hidden_view`) if `reader` may not take that viewpoint of this deal yet.
        """
        events = self._deal_events(deal)
        if step is None:
            step = sum(isinstance(e, Deal.ActionRecorded | Deal.Retracted) for e in events)
        folded = frames(events, viewpoint, range(step, step + 1), reader)
        frame = folded.pop("frames")[0]
        return {**folded, **frame}

    def replay_all(self, deal: UUID | str, viewpoint: str = "referee", reader: Principal = PUBLIC) -> dict[str, Any]:
        """Every step's view, 0 … total, for one viewpoint (what the replay viewer steps through)."""
        return frames(self._deal_events(deal), viewpoint, None, reader)

    def analyse(self, deal: UUID | str, step: int | None = None, limit_ms: float = DEFAULT_LIMIT_MS,
                reader: Principal = PUBLIC) -> dict[str, Any]:
        """Perfect open-hand play after `step` actions (docs/analysis.md); a live deal's only for readers with
        rights over its match."""
        return analyse_deal(self._deal_events(deal), step, Budget(limit_ms=limit_ms), reader)

    # --- access tokens (docs/SECURITY.md; domain/model/token.py) --------------------------------------------

    @command
    def create_token(
        self, role: str, matches: Iterable[UUID | str] = (), label: str = "",
        recorded_by: dict[str, Any] = LOCAL_RECORDER,
    ) -> tuple[dict[str, Any], str]:
        """(token, bearer token): a new token; the bearer token (with its secret) is in no later answer."""
        scope = {str(self._known_match(match).id) for match in matches}
        token, secret = AccessToken.issue(role, sorted(scope), label, recorded_by)
        self.commit(token)
        return token_dict(token), format_token(token.id, secret)

    def _known_match(self, match: UUID | str) -> Match:
        found = self.find(match)
        if not isinstance(found, Match):
            raise IllegalAction("unknown_match", f"No match with id {match}.", f"找不到 id 为 {match} 的对局。",
                                {"match_id": str(match)})
        return found

    @command
    def get_token(self, token: UUID | str) -> dict[str, Any]:
        return token_dict(self.load(AccessToken, token, "token"))

    def list_tokens(self) -> list[dict[str, Any]]:
        return [self.get_token(uid) for uid in self.ids_by_topic(AccessToken.Created.TOPIC)]

    @command
    def revoke_token(
        self, token: UUID | str, recorded_by: dict[str, Any] = LOCAL_RECORDER,
    ) -> tuple[dict[str, Any], bool]:
        """(token, revoked now). Revoking a revoked token changes nothing."""
        t = self.load(AccessToken, token, "token")
        changed = t.revoke(recorded_by)
        if changed:
            self.commit(t)
        return token_dict(t), changed

    @command
    def authenticate(self, bearer: str) -> Principal:
        """The principal of a bearer token; Unauthenticated if it is malformed, unknown, wrong or revoked.

        A revocation by another process (the CLI, another worker) is seen by the next unit: it starts by
        synchronising the cache with the notification log (domain/store/event_store.py).
        """
        parsed = parse_token(bearer)
        token = self.find(parsed[0]) if parsed else None
        if parsed is None or not isinstance(token, AccessToken):
            raise Unauthenticated("invalid_token", "The token is not valid.", "令牌无效。")
        return token.principal_for(parsed[1])

    def has_active_token(self, role: str) -> bool:
        return any(t["role"] == role and not t["revoked"] for t in self.list_tokens())

    # --- appeals (domain/model/appeal.py, docs/appeals.md) ----------------------------------------------------

    def _appeal_rules(self, t: Tournament) -> AppealRules | None:
        found = self.find(appeal_rules_id(t.id))
        return found if isinstance(found, AppealRules) else None

    def _chief_tokens(self, t: Tournament) -> list[str]:
        rules = self._appeal_rules(t)
        return [] if rules is None else rules.chief_referees

    @command
    def appeal_rules(self, tournament: UUID | str) -> dict[str, Any]:
        t = self.load(Tournament, tournament, "tournament")
        rules = self._appeal_rules(t)
        return {"tournament_id": str(t.id),
                "deadline_minutes": DEFAULT_DEADLINE_MINUTES if rules is None else rules.deadline_minutes,
                "chief_referees": [] if rules is None else list(rules.chief_referees)}

    @command
    def set_appeal_rules(self, tournament: UUID | str, deadline_minutes: int, chief_referees: list[str],
                         recorded_by: dict[str, Any] = LOCAL_RECORDER) -> dict[str, Any]:
        """The organiser's appeal settings: the deadline and the referee tokens named chief referees."""
        t = self.load(Tournament, tournament, "tournament")
        for token in chief_referees:
            found = self.find(token)
            if not isinstance(found, AccessToken) or found.role != "referee":
                raise IllegalAction("bad_appeal_rules", f"Not a referee token: {token!r}.",
                                    f"不是裁判令牌：{token!r}。", {"token_id": token})
        rules = self._appeal_rules(t)
        if rules is None:
            self.commit(AppealRules.open(t.id, deadline_minutes, chief_referees, recorded_by))
        elif rules.change(deadline_minutes, chief_referees, recorded_by):
            self.commit(rules)
        return self.appeal_rules(t.id)

    def _disputed_deal(self, m: Match, deal_id: Any) -> Deal:
        d = self.find(deal_id) if isinstance(deal_id, str | UUID) else None
        if not isinstance(d, Deal) or d.match_id != m.id:
            raise IllegalAction("bad_appeal", "The appeal must name a deal of this table.",
                                "申诉必须指向本桌的一副牌。", {"deal_id": deal_id})
        return d

    def _against(self, m: Match, t: Tournament, against: Any) -> dict[str, Any]:
        """The checked form of what is appealed: {kind, deal_id?, step?, version?}."""
        if not isinstance(against, dict) or against.get("kind") not in APPEAL_AGAINST:
            raise IllegalAction("bad_appeal", f"`against.kind` is one of {listed(APPEAL_AGAINST)}.",
                                f"`against.kind` 必须是 {listed(APPEAL_AGAINST, 'zh')} 之一。", {"against": against})
        kind, out = against["kind"], {"kind": against["kind"]}
        if against.get("deal_id") is not None or kind in ("deal", "ruling"):
            d = self._disputed_deal(m, against.get("deal_id"))
            out["deal_id"] = str(d.id)
            steps = sum(1 for _ in d.actions)
            step, version = against.get("step"), against.get("version")
            if step is not None:
                if type(step) is not int or not 0 <= step <= steps:
                    raise IllegalAction("bad_appeal", f"`step` must be 0–{steps}.", f"`step` 必须在 0–{steps} 之间。",
                                        {"step": step})
                out["step"] = step
            if kind == "ruling":  # the deal event recording the ruling (a foul, an irregularity)
                if type(version) is not int or not 1 <= version <= d.version:
                    raise IllegalAction("bad_appeal", "An appeal of a ruling names its deal event (version).",
                                        "对判罚的申诉必须指明其牌局事件（version）。", {"version": version})
                out["version"] = version
        if kind == "penalty":
            version = against.get("adjustment_version")
            adjusted = (list(self.events.get(t.id, gt=version - 1, lte=version))
                        if type(version) is int and 1 <= version <= t.version else [])
            if not adjusted or not isinstance(adjusted[0], Tournament.Adjusted):
                raise IllegalAction("bad_appeal", "An appeal of a penalty names its Tournament.Adjusted version.",
                                    "对罚分的申诉必须指明其赛事调整事件的版本。", {"adjustment_version": version})
            out["adjustment_version"] = version
        return out

    @command
    def file_appeal(self, match: UUID | str, against: Any, category: str, statement: str,
                    on_behalf_of: list[str] = (), accept_late: str | None = None,
                    recorded_by: dict[str, Any] = LOCAL_RECORDER) -> dict[str, Any]:
        """File an appeal about this table; refused as late (nothing stored) unless the chief referee accepts
        it with a reason (`accept_late`)."""
        m = self.load(Match, match, "match")
        t = self.load(Tournament, m.tournament_id, "tournament")
        checked = self._against(m, t, against)
        unknown = [p for p in on_behalf_of if p not in t.players]
        if unknown:
            raise IllegalAction("unknown_player", f"Not registered in this tournament: {listed(unknown)}.",
                                f"未在本赛事登记的选手：{listed(unknown, 'zh')}。", {"on_behalf_of": unknown})
        rules = self.appeal_rules(t.id)
        table_round = next(e["round"] for e in t.matches if e["id"] == m.id)
        scored = [e.timestamp for e in self.events.get(m.id) if isinstance(e, Match.DealScored)]
        last = None if m.live_deal is not None or not scored else scored[-1]
        deadline = deadline_check(last, rules["deadline_minutes"], datetime.now(UTC),
                                  any(r["round"] > table_round for r in t.rounds))
        acceptance = None
        if deadline["late"]:
            if accept_late is None or not accept_late.strip():
                message, message_zh = LATE_REASONS[deadline["why"]]
                raise IllegalAction("late_appeal", message.format(**deadline), message_zh.format(**deadline),
                                    {"deadline": deadline})
            require_chief(recorded_by, rules["chief_referees"], "accept a late appeal", "受理逾期申诉")
            acceptance = {"reason": accept_late.strip()}
        appeal = Appeal.file(t.id, m.id, checked, category, statement, list(on_behalf_of), deadline, acceptance,
                             recorded_by)
        self.commit(appeal)
        return appeal_dict(appeal, full=True)

    def _load_appeal(self, appeal: UUID | str) -> tuple[Appeal, Match, Tournament]:
        a = self.load(Appeal, appeal, "appeal")
        return a, self.load(Match, a.match_id, "match"), self.load(Tournament, a.tournament_id, "tournament")

    @command
    def appeal_match(self, appeal: UUID | str) -> str:
        """The table an appeal is about (what a referee token's scope is checked against)."""
        return str(self.load(Appeal, appeal, "appeal").match_id)

    def _outcome(self, a: Appeal, t: Tournament, outcome: Any) -> tuple[dict[str, Any], list[tuple[str, int]]]:
        """(the outcome as stored, the adjustments still to record for it), every one checked, nothing changed."""
        d = self.load(Deal, a.against["deal_id"], "deal") if "deal_id" in a.against else None
        seats = d.setup.seats if d is not None and d.result is not None else None
        normal = normalize_outcome(outcome, seats, set(t.players), a.lines)
        if normal["kind"] in SCORE_OUTCOMES and d is not None:
            self._refuse_if_adjusted_elsewhere(a, d)
        moves = compensation(target_points(normal, seats, None if d is None or d.result is None
                                           else list(d.result["scores"])), a.applied)
        bad = [(p, n) for p, n in moves if p not in t.players or not adjustable(n)]
        if bad:
            raise IllegalAction("bad_outcome", "This outcome would move a total by more than the limit.",
                                "该处理结果对总分的调整超出上限。", {"adjustments": bad})
        return normal, moves

    def _refuse_if_adjusted_elsewhere(self, a: Appeal, d: Deal) -> None:
        """One appeal at a time replaces a deal's score (docs/appeals.md "Outcomes"): each outcome is reckoned
        against the deal's recorded scores, so two in force would add up. Appeal within the other one instead."""
        for uid in self.ids_by_topic(Appeal.Created.TOPIC):
            other = self.load(Appeal, uid, "appeal") if uid != a.id else None
            if (other is not None and other.against.get("deal_id") == str(d.id)
                    and (other.outcome or {}).get("kind") in SCORE_OUTCOMES):
                raise Conflict("deal_adjusted_by_another_appeal",
                               f"Appeal {other.id} already replaced this deal's score ({other.outcome['kind']}): "
                               "change it there.", f"申诉 {other.id} 已改变这副牌的得分（{other.outcome['kind']}）："
                               "请在该申诉中处理。", {"appeal_id": str(other.id), "deal_id": str(d.id)})

    def _compensate(self, a: Appeal, t: Tournament, m: Match, normal: dict[str, Any], moves: list[tuple[str, int]],
                    step: str, recorded_by: dict[str, Any]) -> Callable[[], list[dict[str, Any]]]:
        """Record the outcome's compensating adjustments (called once the appeal's own checks passed)."""
        def record() -> list[dict[str, Any]]:
            table_round = next(e["round"] for e in t.matches if e["id"] == m.id)
            refers = {"appeal_id": str(a.id), **({"deal_id": a.against["deal_id"]} if "deal_id" in a.against else {})}
            kind = "penalty" if normal["kind"] == "penalty" else "adjustment"
            made = []
            for player, points in moves:
                adjusted = t.adjust(player, points, f"申诉 Appeal {str(a.id)[:8]}: {step} {normal['kind']}", kind,
                                    table_round, refers, recorded_by)
                made.append({"player_id": player, "points": points, "round": table_round,
                             "tournament_version": adjusted["version"]})
            return made
        return record

    @command
    def add_appeal_evidence(self, appeal: UUID | str, reference: dict[str, Any] | None, note: str = "",
                            recorded_by: dict[str, Any] = LOCAL_RECORDER) -> dict[str, Any]:
        """Evidence: a (deal, step, viewpoint) reference into the viewer, a note, or both."""
        a, m, _ = self._load_appeal(appeal)
        if reference is not None:
            d = self._disputed_deal(m, reference.get("deal_id") if isinstance(reference, dict) else None)
            step, viewpoint = reference.get("step"), reference.get("viewpoint", "referee")
            if (type(step) is not int or not 0 <= step <= len(d.actions) or not isinstance(viewpoint, str)
                    or not viewpoint.startswith(VIEWPOINT_PREFIXES)):
                raise IllegalAction("bad_evidence", "A reference is {deal_id, step, viewpoint} of this table's deal.",
                                    "证据引用必须是本桌牌局的 {deal_id, step, viewpoint}。", {"reference": reference})
            reference = {"deal_id": str(d.id), "step": step, "viewpoint": viewpoint}
        a.add_evidence(reference, note, recorded_by)
        self.commit(a)
        return appeal_dict(a, full=True)

    def _line_state(self, m: Match, a: Appeal, from_step: int, actions: list[Action]
                    ) -> tuple[Deal, Any, Any, list[Action]]:
        """A what-if line played on a state of its own: the disputed deal's entries up to `from_step`, then
        `actions` through the same rules engine (422 `illegal_line` naming the first refused action). Returns
        (the deal, its engine, the state after the line, the actions' stored forms); the deal is untouched."""
        d = self._disputed_deal(m, a.against.get("deal_id"))
        if d.result_only:
            raise IllegalAction("no_replay", "A score slip's deal has no cards to play a line from.",
                                "成绩单录入的牌局没有牌，无法推演。", {"deal_id": str(d.id)})
        if type(from_step) is not int or not 0 <= from_step <= len(d.actions):
            raise IllegalAction("bad_line", f"`from_step` must be 0–{len(d.actions)}.",
                                f"`from_step` 必须在 0–{len(d.actions)} 之间。", {"from_step": from_step})
        engine = d.engine
        state = standing_state(engine, d.setup, d.actions[:from_step])
        played = []
        for index, action in enumerate(actions):
            if engine.result(state) is not None:
                raise IllegalAction("illegal_line", f"The deal is over before action {index} of the line.",
                                    f"推演的第 {index} 个动作之前牌局已结束。", {"index": index})
            try:
                played.append(engine.apply(state, action))
            except IllegalAction as refused:
                raise IllegalAction("illegal_line", f"Action {index} of the line is refused: {refused.message}",
                                    f"推演的第 {index} 个动作不合规则：{refused.message_zh}",
                                    {"index": index, "refused": refused.code}) from None
        return d, engine, state, played

    @command
    def add_appeal_line(self, appeal: UUID | str, from_step: int, actions: list[Action], label: str = "",
                        recorded_by: dict[str, Any] = LOCAL_RECORDER, complete: bool = False) -> dict[str, Any]:
        """A what-if line of the disputed deal: its actions up to `from_step`, then `actions` instead, through the
        same rules engine to the deal's end (422 `illegal_line` naming the first refused action, `line_unfinished`
        when they do not end it); kept on the appeal, the deal untouched. `complete`: the solver's best play
        (domain/solver, as the deal's analysis gives it) finishes the line after `actions`."""
        a, m, _ = self._load_appeal(appeal)
        d, engine, state, played = self._line_state(m, a, from_step, actions)
        solver_from = None
        if complete and engine.result(state) is None:
            solver_from = len(played)
            played += solved_line(engine, state, Budget(limit_ms=DEFAULT_LIMIT_MS))
        result = engine.result(state)
        if result is None:
            raise IllegalAction("line_unfinished", "The line does not end the deal: play it to the end.",
                                "推演没有打完这副牌：请推演到结束。", {"to_act": engine.status(state).get("to_act")})
        a.add_line(str(d.id), from_step, played, list(result["scores"]), label, recorded_by, solver_from)
        self.commit(a)
        return appeal_dict(a, full=True)

    @command
    def appeal_sandbox(self, appeal: UUID | str, from_step: int, actions: list[Action]) -> dict[str, Any]:
        """A line being built on the appeal's page (nothing stored): the state after it, from the referee's
        viewpoint, and what the seat to act may do now — the recording pad's choices (domain/services/pad.py: the
        engine's
        offered actions, each kept only if the engine accepts it) — or the line's result once it ends."""
        a, m, _ = self._load_appeal(appeal)
        d, engine, state, played = self._line_state(m, a, from_step, actions)
        result = engine.result(state)
        status = engine.status(state)
        to_act = status.get("to_act")
        offered = [] if result is not None else [c for c in pad_choices(engine, state)
                                                 if c["seat"] == to_act and c["action"].get("type") != "foul"]
        return {"appeal_id": str(a.id), "deal_id": str(d.id), "from_step": from_step, "actions": played,
                "status": status, "view": engine.view(state, Viewpoint("referee")), "choices": offered,
                "scores": None if result is None else list(result["scores"])}

    @command
    def rule_appeal(self, appeal: UUID | str, outcome: Any, reason: str,
                    recorded_by: dict[str, Any] = LOCAL_RECORDER) -> tuple[dict[str, Any], bool]:
        """The chief referee's ruling; its outcome is applied to the standings at once (compensating events)."""
        a, m, t = self._load_appeal(appeal)
        require_chief(recorded_by, self._chief_tokens(t), "rule on an appeal", "对申诉作出裁决")
        normal, moves = self._outcome(a, t, outcome)
        changed = a.rule(normal, reason, self._compensate(a, t, m, normal, moves, "ruling 裁决", recorded_by),
                         recorded_by)
        if changed:
            self.commit(a, t)
        return appeal_dict(a, full=True), changed

    @command
    def appeal_ruling(self, appeal: UUID | str, reason: str,
                      recorded_by: dict[str, Any] = LOCAL_RECORDER) -> tuple[dict[str, Any], bool]:
        a = self.load(Appeal, appeal, "appeal")
        changed = a.appeal(reason, recorded_by)
        if changed:
            self.commit(a)
        return appeal_dict(a, full=True), changed

    @command
    def decide_appeal(self, appeal: UUID | str, outcome: Any, reason: str, members: list[str], vote: dict[str, int],
                      recorded_by: dict[str, Any] = LOCAL_RECORDER) -> tuple[dict[str, Any], bool]:
        """The committee's decision; the standings move from the ruling's outcome to this one."""
        a, m, t = self._load_appeal(appeal)
        normal, moves = self._outcome(a, t, outcome)
        changed = a.decide(normal, reason, members, vote,
                           self._compensate(a, t, m, normal, moves, "decision 仲裁", recorded_by), recorded_by)
        if changed:
            self.commit(a, t)
        return appeal_dict(a, full=True), changed

    @command
    def redeal_appeal(self, appeal: UUID | str, recorded_by: dict[str, Any] = LOCAL_RECORDER
                      ) -> tuple[dict[str, Any], bool]:
        """(the replacement deal, dealt now): the appeal's voided deal dealt again at its table with the voided
        deal's seats, options, first seat and context (升级's levels and dealer, 挖坑's board: the same cards), as
        a misdeal is dealt again (docs/appeals.md "A voided deal — who redeals"). Recorded as any deal; it
        counts in the standings in the voided deal's place while the appeal's outcome is `void`. Sent again: the
        same deal, nothing stored."""
        a, m, t = self._load_appeal(appeal)
        require_chief(recorded_by, self._chief_tokens(t), "deal a voided deal again", "重新发作废的牌")
        if a.redeal is not None:
            return deal_dict(self.load(Deal, a.redeal["deal_id"], "deal"), full=True), False
        a.check_redeal()  # every check before anything changes (a refusal leaves the cache as it was)
        voided = self._disputed_deal(m, a.against.get("deal_id"))  # a void outcome names a finished deal
        assert voided.number is not None
        if m.live_deal is not None:
            n = m.live_deal["number"]
            raise IllegalAction("deal_in_progress", f"The table is playing deal {n}: deal the voided deal again "
                                "after it.", f"本桌正在进行第 {n} 局：请在其后重新发作废的牌。",
                                {"deal_id": str(m.live_deal["deal_id"])})
        hands, kitty = None, None
        if m.rules.board(voided.setup.context) is not None and not voided.result_only:
            hands, kitty = voided.setup.hands, voided.setup.kitty  # a duplicate board: the same cards (B7)
        setup, seed = self._setup(m.game, voided.setup.options, list(voided.setup.seats), None, voided.setup.first,
                                  hands, kitty, None, voided.setup.context)
        deal = Deal.start(redeal_id(a.id), setup, match=m.id, number=voided.number, seed=seed,
                          seed_commitment=None if seed is None else seed_commitment(seed),
                          meta={REPLACES: str(voided.id), "appeal_id": str(a.id)}, recorded_by=recorded_by)
        a.record_redeal(str(deal.id), str(voided.id), voided.number, recorded_by)
        self.commit(a, deal)
        return deal_dict(deal, full=True), True

    @command
    def withdraw_appeal(self, appeal: UUID | str, reason: str = "",
                        recorded_by: dict[str, Any] = LOCAL_RECORDER) -> tuple[dict[str, Any], bool]:
        a = self.load(Appeal, appeal, "appeal")
        changed = a.withdraw(reason, recorded_by)
        if changed:
            self.commit(a)
        return appeal_dict(a, full=True), changed

    @command
    def close_appeal(self, appeal: UUID | str, note: str = "",
                     recorded_by: dict[str, Any] = LOCAL_RECORDER) -> tuple[dict[str, Any], bool]:
        a, _, t = self._load_appeal(appeal)
        require_chief(recorded_by, self._chief_tokens(t), "close an appeal", "结案")
        changed = a.close(note, recorded_by)
        if changed:
            self.commit(a)
        return appeal_dict(a, full=True), changed

    def _appeal_full(self, a: Appeal, reader: Principal) -> bool:
        d = self.find(a.against["deal_id"]) if "deal_id" in a.against else None
        deal_closed = not isinstance(d, Deal) or published(d)
        return may_see_all(deal_closed, a.match_id, reader)

    @command
    def get_appeal(self, appeal: UUID | str, reader: Principal = PUBLIC) -> dict[str, Any]:
        """The appeal and its timeline; while the disputed deal is live, its words only for those with rights."""
        a = self.load(Appeal, appeal, "appeal")
        full = self._appeal_full(a, reader)
        return {**appeal_dict(a, full=full), "timeline": appeal_timeline(self.stored_events(a), full=full)}

    def list_appeals(self, tournament: UUID | str, reader: Principal = PUBLIC) -> list[dict[str, Any]]:
        """A tournament's appeals in filing order."""
        with self.unit():
            key = str(self.load(Tournament, tournament, "tournament").id)
        found = []
        for uid in self.ids_by_topic(Appeal.Created.TOPIC):
            with self.unit():
                a = self.load(Appeal, uid, "appeal")
                if str(a.tournament_id) == key:
                    found.append(appeal_dict(a, full=self._appeal_full(a, reader)))
        return found

    @command
    def appeal_adjustments(self, appeal: UUID | str, outcome: Any) -> dict[str, Any]:
        """What deciding `outcome` now would record (for the impact preview); nothing changes."""
        a, m, t = self._load_appeal(appeal)
        normal, moves = self._outcome(a, t, outcome)
        table_round = next(e["round"] for e in t.matches if e["id"] == m.id)
        return {"tournament_id": str(t.id), "outcome": normal,
                "adjustments": [{"player_id": p, "points": n, "round": table_round,
                                 "kind": "penalty" if normal["kind"] == "penalty" else "adjustment",
                                 "reason": f"申诉 Appeal {str(a.id)[:8]}",
                                 "refers_to": {"appeal_id": str(a.id),  # as _compensate records them
                                               **({"deal_id": a.against["deal_id"]} if "deal_id" in a.against
                                                  else {})}}
                                for p, n in moves]}

    def appeal_frames(self, appeal: UUID | str, viewpoint: str = "referee", reader: Principal = PUBLIC,
                      reveal: bool = False) -> dict[str, Any]:
        """The disputed deal for review: result-blind (up to the judged step; no result, no later steps, no
        scores) unless `reveal`; the viewpoint's secrecy as the viewer's (domain/services/visibility.py)."""
        with self.unit():
            a = self.load(Appeal, appeal, "appeal")
            if "deal_id" not in a.against:
                raise IllegalAction("no_deal", "This appeal names no deal to review.", "该申诉未指向任何牌局。",
                                    {"appeal_id": str(a.id)})
            deal_id, step = a.against["deal_id"], a.against.get("step")
        events = self._deal_events(deal_id)
        if reveal:
            return {"appeal_id": str(appeal), "blind": False, **frames(events, viewpoint, None, reader)}
        total = sum(isinstance(e, Deal.ActionRecorded | Deal.Retracted) for e in events)
        return {"appeal_id": str(appeal), "blind": True,
                **result_blind(frames(events, viewpoint, range(0, (total if step is None else step) + 1), reader))}


    @staticmethod
    def _same_kind(existing: Any, kind: type, key: str) -> Any:
        """A create's id (from its natural key) already names an aggregate: it must be of the same kind."""
        if not isinstance(existing, kind):
            raise Conflict("already_exists", f"That key is taken: {key!r}.", f"该键已被占用：{key!r}。", {"key": key})
        return existing


def _setup_key(game: str, options: dict, seats: list, first: int, hands: Any, kitty: Any, context: dict,
               seed: str | None) -> str:
    """The natural key of a stand-alone deal: its whole setup (a fresh server seed: every request is new)."""
    if hands is None and seed is None:
        return f"random:{uuid4()}"
    content = {"game": game, "options": options, "seats": seats, "first": first, "hands": hands, "kitty": kitty,
               "context": context, "seed_commitment": seed_commitment(seed) if seed is not None else None}
    return "setup:" + hashlib.sha256(canonical_json(content).encode()).hexdigest()
