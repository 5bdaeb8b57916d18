"""Deals: dealing one (at a table or on its own), recording its actions, annotations and retractions, and
reading it back — its events, its replay, its analysis and what the recording pad offers (docs/pad.md).

Who may see what is domain/services/visibility.py; replay is domain/services/replay.py; the pad's choices are
domain/services/pad.py.
"""

from __future__ import annotations

import copy
import hashlib
import secrets
from typing import Any
from uuid import UUID, uuid4

from domain.games import get_engine
from domain.kernel.cards import normalize_all
from domain.kernel.dealing import deal_from_seed, seed_commitment
from domain.kernel.engine import Action, DealSetup, Viewpoint
from domain.kernel.errors import IllegalAction, NotFound, Refusal, not_a_player
from domain.kernel.integrity import canonical_json
from domain.model.appeal import Appeal
from domain.model.appeal_rules import REPLACES
from domain.model.deal import Deal
from domain.model.ids import LOCAL_RECORDER, deal_id_for_key, deal_id_in_match
from domain.model.match import Match
from domain.model.token import PUBLIC, Principal
from domain.model.tournament import Tournament
from domain.records.retraction import last_standing
from domain.services.analysis import analyse_deal, deal_variation, deal_variation_analysis
from domain.services.long_work import beside_the_loop
from domain.services.pad import choices, dry_run, game_table
from domain.services.presenters import deal_dict, event_dict, match_summary, recorded_dict
from domain.services.replay import frames
from domain.services.seat_names import deal_namer, names_seats, seat_namer
from domain.services.service import Service, same_kind
from domain.services.tables import Tables
from domain.services.visibility import held_back, may_see_all, published
from domain.solver.search import DEFAULT_LIMIT_MS, Budget
from domain.store.units import command


class Deals(Service):
    """The deals, as they are dealt, recorded and read."""

    tables: Tables

    @names_seats("match")
    @command
    def start(
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
            raise IllegalAction("bad_setup", "Give both the hands and the kitty, or neither (the server deals).",
                                "手牌与底牌要么都给出，要么都不给（由服务器发牌）。")
        if hands is not None and seed is not None:
            raise IllegalAction("bad_setup", "Give either explicit hands or a seed, not both.",
                                "明确的手牌与种子只能二选一。")
        if match is None:
            return self._start_lone(game, options or {}, seats, first, hands, kitty, seed, context or {}, key,
                                    recorded_by)
        m = self.store.load(Match, match, "match")
        self._score_if_finished_apart(m, recorded_by)
        again = self._resubmitted(m, number, hands)
        if again is not None:
            again.check_same(hands, kitty, first, seed)
            return deal_dict(again, full=True), False
        number = len(m.deals) + 1
        orphan = self.store.find(deal_id_in_match(m.id, number), Deal) if self.store.deal_stores else None
        if isinstance(orphan, Deal):  # stored in its deal database by a start whose table's part failed: take it
            orphan.check_same(hands, kitty, first, seed)
            m.start_deal(orphan.id, number, orphan.setup.first, recorded_by)
            self.store.commit(m)
            return deal_dict(orphan, full=True), True
        context = m.context_for_next_deal(context)
        board = m.rules.board(context)
        twin = self._board_twin(m, number) if board is not None else None
        if twin is not None and hands is None and seed is None:
            hands, kitty = twin.setup.hands, twin.setup.kitty  # the board as the round's first table dealt it
        setup, seed = deal_setup(m.game, m.options, list(m.seats), first, m.default_first(number), hands, kitty,
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
        self.store.commit(m, deal)
        return deal_dict(deal, full=True), True

    def _score_if_finished_apart(self, m: Match, recorded_by: dict[str, Any]) -> None:
        """With deal databases, the closing action's commit is two transactions, the deal's then the table's: if
        the second failed, the table's live deal is finished and unscored. Score it now, as the closing action
        would have (the table's rules applied to the deal's result: `fupan verify` checks exactly that)."""
        live = m.live_deal if self.store.deal_stores else None
        if live is not None:
            d = self.store.load(Deal, live["deal_id"], "deal")
            if d.finished:
                m.score_deal(d.id, d.number, d.result, recorded_by)  # type: ignore[arg-type]

    def _start_lone(self, game: str | None, options: dict[str, Any], seats: list[str] | None, first: int | None,
                    hands: Any, kitty: Any, seed: str | None, context: dict[str, Any], key: str | None,
                    recorded_by: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        """A deal outside any match, named by `key` or by its setup (idempotent)."""
        if game is None or seats is None:
            raise IllegalAction("bad_setup", "A deal outside a match needs its game and its players.",
                                "不属于任何对局的牌局需要写明游戏和玩家。")
        given_first = 0 if first is None else first
        deal_id = deal_id_for_key(key or _setup_key(game, options, seats, given_first, hands, kitty, context, seed))
        existing = self.store.find(deal_id)
        if existing is not None:
            same_kind(existing, Deal, key or "").check_same(hands, kitty, given_first, seed)
            return deal_dict(existing, full=True), False
        try:
            setup, seed = deal_setup(game, options, list(seats), first, 0, hands, kitty, seed, context)
        except Refusal as refusal:  # a deal outside any match names its seats by the labels it is dealt with
            raise refusal.name_seats(seat_namer(game, [str(label) for label in seats])) from None
        deal = Deal.start(deal_id, setup, seed=seed, seed_commitment=None if seed is None else seed_commitment(seed),
                          recorded_by=recorded_by)
        self.store.commit(deal)
        return deal_dict(deal, full=True), True

    def _resubmitted(self, m: Match, number: int | None, hands: Any) -> Deal | None:
        """The started deal of `m` that this create repeats: the one it names by `number`, or the live one
        when the same hands are given again."""
        if number is None and m.live_deal is not None and hands is not None:
            live = self.store.load(Deal, m.live_deal["deal_id"], "deal")
            if [normalize_all(h) for h in hands] == live.setup.hands:
                number = live.number
        started = m.started_deal(number)
        return None if started is None else self.store.load(Deal, deal_id_in_match(m.id, started), "deal")

    def _board_twin(self, m: Match, number: int) -> Deal | None:
        """Deal `number` of another table in `m`'s round, if one has started: the same duplicate board."""
        tournament = self.store.load(Tournament, m.tournament_id, "tournament")
        rounds = {entry["id"]: entry["round"] for entry in tournament.matches}
        for other_id, other_round in rounds.items():
            if other_id != m.id and other_round == rounds.get(m.id):
                other = self.store.load(Match, other_id, "match")
                if len(other.deals) >= number:
                    twin = self.store.load(Deal, deal_id_in_match(other.id, number), "deal")
                    if not twin.result_only:  # a score slip has no cards to deal again
                        return twin
        return None

    @command
    def get(self, deal: UUID | str, reader: Principal = PUBLIC) -> dict[str, Any]:
        d = self.store.load(Deal, deal, "deal")
        released = self._released(d)
        full = may_see_all(published(d, released), d.match_id, reader)
        answer = deal_dict(d, full=full)
        if d.finished and not full:  # over, but held back by the public delay: to this reader it is still in play
            answer.update(finished=False, status={**answer["status"], "finished": False})
        return answer

    @command
    def public_record(self, deal: UUID | str) -> bool:
        """Whether the deal's whole record is the public's now: closed, and its public delay passed (a cache of
        what every reader gets may hold it only then)."""
        d = self.store.load(Deal, deal, "deal")
        return published(d, self._released(d))

    def all(self, reader: Principal = PUBLIC) -> list[dict[str, Any]]:
        return self._every(Deal, lambda uid: self.get(uid, reader))

    def of_match(self, match: UUID | str, reader: Principal = PUBLIC) -> list[dict[str, Any]]:
        return [self.get(d["deal_id"], reader) for d in self.tables.get(match)["deals"]]

    @command
    def match_of(self, deal: UUID | str) -> str | None:
        """The id of the match a deal belongs to (what a referee token's scope is checked against)."""
        d = self.store.load(Deal, deal, "deal")
        return str(d.match_id) if d.match_id is not None else None

    @names_seats("deal")
    @command
    def record(
        self, deal: UUID | str, action: Action, expected_version: int | None = None,
        recorded_by: dict[str, Any] = LOCAL_RECORDER,
    ) -> dict[str, Any]:
        """Validate and store one action; the deal's end (result, seed, the match's standing) is stored in the
        same save."""
        d = self.store.load(Deal, deal, "deal")
        d.expect_version(expected_version)
        was_finished = d.finished
        d.record(action, recorded_by)
        answer = recorded_dict(d)
        # A voided deal's replacement (docs/appeals.md) is scored by its appeal, not folded into its table's
        # running standing: the projections count it in the voided deal's place.
        if d.finished and not was_finished and d.meta.get(REPLACES):
            a = self.store.load(Appeal, d.meta["appeal_id"], "appeal")
            a.score_redeal(list(d.result["scores"]), recorded_by)  # type: ignore[index]
            self.store.commit(d, a)
        elif d.finished and not was_finished and d.match_id is not None:
            m = self.store.load(Match, d.match_id, "match")
            m.score_deal(d.id, d.number, d.result, recorded_by)  # type: ignore[arg-type]
            self.store.commit(d, m)
            answer["match"] = match_summary(m)
        else:
            self.store.commit(d)
        if d.seed is not None and not was_finished:
            answer["seed"] = d.seed
        return answer

    @names_seats("deal")
    @command
    def annotate(
        self, deal: UUID | str, note: dict[str, Any], expected_version: int | None = None,
        recorded_by: dict[str, Any] = LOCAL_RECORDER,
    ) -> dict[str, Any]:
        """A comment `{step, glyph, text, text_en, author}` at a step of the deal (domain/records/annotations.py)."""
        d = self.store.load(Deal, deal, "deal")
        d.expect_version(expected_version)
        d.annotate(note, recorded_by)
        self.store.commit(d)
        return {"deal_id": str(d.id), "version": d.version, "annotation": dict(d.annotations[-1]), "digest": d.digest}

    @names_seats("deal")
    @command
    def retract(
        self, deal: UUID | str, at: int, reason: str, expected_version: int | None = None,
        recorded_by: dict[str, Any] = LOCAL_RECORDER,
    ) -> dict[str, Any]:
        """Take back the last action still standing of a live deal, with the reason (domain/records/retraction.py)."""
        d = self.store.load(Deal, deal, "deal")
        d.expect_version(expected_version)
        d.retract(at, reason, recorded_by)
        self.store.commit(d)
        return {**recorded_dict(d), "retracted": dict(d.actions[at])}

    # --- reading a deal back ---------------------------------------------------------------------------

    def events(self, deal: UUID | str, reader: Principal = PUBLIC) -> list[dict[str, Any]]:
        """Every stored event of a deal: version, time, recorder, type, digest and payload.

        Before the deal is published a reader without rights gets the public part of each payload: no hands
        or kitty (`Deal.Created`), the public form of actions, no annotation text; `withheld` names what is
        left out, and no digest (it would confirm guesses of what is left out: docs/SECURITY.md "Public hashes").
        """
        events, horizon = self._deal_reading(deal)
        full = may_see_all(horizon is None and any(isinstance(e, Deal.Finished) for e in events),
                           events[0].match_id, reader)
        if not full and horizon is not None:
            events = held_back(events, horizon)
        engine = get_engine(events[0].game)
        return [event_dict(event, engine, full=full) for event in events]

    def replay(self, deal: UUID | str, step: int | None = None, viewpoint: str = "referee",
               reader: Principal = PUBLIC) -> dict[str, Any]:
        """The table after `step` actions (default: the latest) as `viewpoint` may see it.

        Hidden (`hidden_view`) if `reader` may not take that viewpoint of this deal yet.
        """
        events, horizon = self._deal_reading(deal)
        if step is None:
            step = sum(isinstance(e, Deal.ActionRecorded | Deal.Retracted) for e in events)
            if horizon is not None and not may_see_all(False, events[0].match_id, reader):
                step = min(step, horizon)  # the public's latest is the delay's
        folded = frames(events, viewpoint, range(step, step + 1), reader, horizon)
        frame = folded.pop("frames")[0]
        return {**folded, **frame}

    def replay_all(self, deal: UUID | str, viewpoint: str = "referee", reader: Principal = PUBLIC) -> dict[str, Any]:
        """Every step's view, 0 … total, for one viewpoint (what the replay viewer steps through)."""
        events, horizon = self._deal_reading(deal)
        return frames(events, viewpoint, None, reader, horizon)

    def broadcast(self, match: UUID | str, reader: Principal = PUBLIC) -> dict[str, Any]:
        """A table as the public broadcast follows it (docs/console.md "直播"): the newest deal of which `reader`
        may see anything — its frames as `replay_all` gives them, the tournament's delay applied — and the
        newer deals held back whole by the delay (`held`: number and steps recorded). A score slip's deal has no
        replay and is passed over. What is shown is decided by `replay_all` alone (domain/services/visibility.py),
        so a stream that pushes this answer shows what the page shows."""
        table = self.tables.get(match)
        held: list[dict[str, Any]] = []
        following = None
        for entry in reversed(table["deals"]):
            try:
                frames_of = self.replay_all(entry["deal_id"], "public", reader)
            except NotFound:  # a score slip (成绩单): no cards to follow
                continue
            if frames_of["closed"] or frames_of["total"] > 0:
                following = {**frames_of, "number": entry["number"]}
                break
            held.append({"deal_id": entry["deal_id"], "number": entry["number"],
                         "delayed": frames_of.get("delayed", 0)})
        return {"match_id": table["id"], "table": table["table"], "seat_names": table["seat_names"],
                "status": table["status"], "standing": table["standing"], "following": following, "held": held}

    @names_seats("deal")
    def analyse(self, deal: UUID | str, step: int | None = None, limit_ms: float = DEFAULT_LIMIT_MS,
                reader: Principal = PUBLIC) -> dict[str, Any]:
        """Perfect open-hand play after `step` actions (docs/analysis.md); a live deal's only for readers with
        rights over its match."""
        events, horizon = self._deal_reading(deal)
        return beside_the_loop(lambda: analyse_deal(events, step, Budget(limit_ms=limit_ms), reader,
                                                    released=horizon is None))

    @names_seats("deal")
    def variation(self, deal: UUID | str, step: int, actions: list[Action], reader: Principal = PUBLIC,
                  forced: bool = False, list_plays: bool = True) -> dict[str, Any]:
        """The board of variations at a node (docs/analysis.md): the deal's entries up to `step`, then `actions`
        (with `forced`, and the passes nobody can avoid after them): every hand, the round on the table, the plays
        of the seat to act, the scores once the line ends. Every hand is in it: a live deal's for readers with
        rights only."""
        events, horizon = self._deal_reading(deal)
        return beside_the_loop(lambda: deal_variation(events, step, actions, reader, forced, list_plays,
                                                      released=horizon is None))

    @names_seats("deal")
    def analyse_variation(self, deal: UUID | str, step: int, actions: list[Action],
                          limit_ms: float = DEFAULT_LIMIT_MS, reader: Principal = PUBLIC) -> dict[str, Any]:
        """The analysis of a node of the board: after `step` entries, then `actions` (docs/analysis.md)."""
        events, horizon = self._deal_reading(deal)
        return beside_the_loop(lambda: deal_variation_analysis(events, step, actions, Budget(limit_ms=limit_ms),
                                                               reader, released=horizon is None))

    def pad(self, deal: UUID | str, since: int | None = None) -> dict[str, Any]:
        """What the pad shows of a deal, for its referee or the organiser: the stored version, the referee's view,
        each seat's hand as dealt (升级 declares against the order received), the choices, the game's foul list
        and table, and the last action still standing (what a retraction takes back). `since` = the version the
        pad shows: when nothing changed, only `{"deal_id", "version", "unchanged": true}` (the pad's poll, one
        cached read)."""
        with self.unit():
            d = self.store.load(Deal, deal, "deal")
            if since is not None and since == d.version:
                return {"deal_id": str(d.id), "version": d.version, "unchanged": True}
            state, version, setup = d.state_copy(), d.version, d.setup
            last = last_standing(d.actions)
            summary = {"number": d.number, "match_id": None if d.match_id is None else str(d.match_id),
                       "finished": d.finished, "result": copy.deepcopy(d.result), "actions": len(d.actions),
                       "last_standing": last, "last_action": None if last is None else dict(d.actions[last]),
                       "seed_commitment": d.seed_commitment, "seed": d.seed}
        engine = d.engine
        return {
            "deal_id": str(deal), "version": version, "game": setup.game, "options": dict(setup.options),
            "seats": list(setup.seats), **summary, "status": engine.status(state),
            "view": engine.view(state, Viewpoint("referee")), "dealt": [list(hand) for hand in setup.hands],
            "choices": choices(engine, state),
            "fouls": [{"code": code, "zh": zh, "en": en} for code, zh, en in engine.foul_codes],
            "foul_unit": None if engine.foul_unit is None else {"en": engine.foul_unit[0], "zh": engine.foul_unit[1]},
            "table": game_table(engine),
        }

    def check(self, deal: UUID | str, action: object) -> dict[str, Any]:
        """The pad's dry run (domain/services/pad.py `dry_run`) of `action` on the deal as stored now, with the
        version it was checked against."""
        with self.unit():
            d = self.store.load(Deal, deal, "deal")
            state, version = d.state_copy(), d.version
        return {"deal_id": str(deal), "version": version,
                **dry_run(d.engine, state, action, lambda: deal_namer(self.store, deal))}  # names: only if refused


def deal_setup(game: str, options: dict[str, Any], seats: list[str], first: int | None, default_first: int,
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
            raise not_a_player("bad_setup", "The first to act", "先出的人", engine.seat_count, first=start)
        hands, kitty = deal_from_seed(seed, engine, start)
    if seed is not None or first is None:
        start = engine.first_actor(hands, start)
    return DealSetup(game, options, seats, start, [normalize_all(hand) for hand in hands], normalize_all(kitty),
                     dict(context)), seed


def _setup_key(game: str, options: dict, seats: list, first: int, hands: Any, kitty: Any, context: dict,
               seed: str | None) -> str:
    """The natural key of a stand-alone deal: its whole setup (a fresh server seed: every request is new)."""
    if hands is None and seed is None:
        return f"random:{uuid4()}"
    content = {"game": game, "options": options, "seats": seats, "first": first, "hands": hands, "kitty": kitty,
               "context": context, "seed_commitment": seed_commitment(seed) if seed is not None else None}
    return "setup:" + hashlib.sha256(canonical_json(content).encode()).hexdigest()
