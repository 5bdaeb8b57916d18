"""The Deal aggregate: one hand, from its setup to its result.

A Deal never stores an event the rules engine has not accepted: its command methods run the engine first
and trigger the event only when the engine raised nothing. Each event carries a running SHA-256 (`digest`,
domain/model/chain.py). Every event class has an explicit, stable TOPIC (DESIGN.md §4).
"""

from __future__ import annotations

import copy
import dataclasses
from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate

from domain.games import get_engine
from domain.kernel.cards import normalize_all
from domain.kernel.dealing import seed_commitment
from domain.kernel.engine import Action, DealSetup, Engine
from domain.kernel.errors import Conflict, IllegalAction
from domain.kernel.integrity import GENESIS, next_digest
from domain.model.chain import digest_payload
from domain.records.annotations import checked_annotation
from domain.records.format import judge
from domain.records.retraction import RETRACT, check_retraction, is_retraction, normalize_retraction, standing_state
from domain.records.slips import RESULT_ONLY

# What one role may add to one deal again and again, bounded (docs/SECURITY.md §6b): every page, export and PDF
# of the deal carries it to every reader, so one token must not make them megabytes (1,000 notes of 10 KB made
# the deal's answer 20 MB and its PDF a minute of work).
MAX_ANNOTATIONS = 200  # annotations on one deal
MAX_ANNOTATION_TEXT = 100_000  # characters of all its annotations (text, English text and author together)
MAX_FOULS = 50  # fouls recorded in one deal (a foul may follow the deal's end, so the deal does not bound them)
MAX_RETRACTIONS = 50  # actions taken back in one deal


def _too_many(code: str, what: str, what_zh: str, limit: int) -> IllegalAction:
    return IllegalAction(code, f"A deal holds at most {limit} {what}; nothing was written.",
                         f"一副牌最多 {limit} {what_zh}；本次未写入。", {"limit": limit})


class Deal(Aggregate):
    """One hand: its setup, every accepted action, the result, annotations — each event hash-chained.

    `_state` is the engine's state after the recorded actions. It is not an event field: it is rebuilt by
    applying the events, and on the write path the already-validated state is reused (see `record`).
    """

    TOPIC = "fupan:Deal"

    class Event(Aggregate.Event):
        pass

    class Created(Event, Aggregate.Created):
        TOPIC = "fupan:Deal.Created"
        game: str
        options: dict[str, Any]
        seats: list[str]
        first: int
        hands: list[list[str]]
        kitty: list[str]
        context: dict[str, Any]
        match_id: UUID | None
        number: int | None
        seed_commitment: str | None
        sealed_seed: str | None  # kept out of the chain and out of every API answer until SeedRevealed
        meta: dict[str, Any]
        recorded_by: dict[str, Any]
        digest: str

    class ActionRecorded(Event):
        TOPIC = "fupan:Deal.ActionRecorded"
        action: dict[str, Any]
        recorded_by: dict[str, Any]
        digest: str

        def apply(self, aggregate: Deal) -> None:
            # The command already ran the engine on this very action object: don't do the work twice.
            if aggregate._validated is not self.action:
                aggregate.engine.apply_normalized(aggregate._state, self.action)
            aggregate._validated = None
            aggregate.actions.append(self.action)
            aggregate.digest = self.digest
            aggregate.notes_since_move = 0

    class Retracted(Event):
        """The recorder took back the action at index `at` of the deal's entries (domain/records/retraction.py)."""

        TOPIC = "fupan:Deal.Retracted"
        at: int
        reason: str
        recorded_by: dict[str, Any]
        digest: str

        def entry(self) -> dict[str, Any]:
            """The deal's entry it adds (the record's form)."""
            return {"type": RETRACT, "at": self.at, "reason": self.reason}

        def apply(self, aggregate: Deal) -> None:
            aggregate.actions.append(self.entry())
            aggregate._state = standing_state(aggregate.engine, aggregate.setup, aggregate.actions)
            aggregate.digest = self.digest
            aggregate.notes_since_move = 0

    class Finished(Event):
        TOPIC = "fupan:Deal.Finished"
        result: dict[str, Any]
        recorded_by: dict[str, Any]
        digest: str

        def apply(self, aggregate: Deal) -> None:
            aggregate.result = self.result
            aggregate.digest = self.digest
            # What a round's digest covers (domain/services/digests.py): the deal as it closed, whatever follows.
            aggregate.finished_at, aggregate.finished_digest = self.timestamp, self.digest
            aggregate.notes_since_move = 0

    class SeedRevealed(Event):
        TOPIC = "fupan:Deal.SeedRevealed"
        seed: str
        recorded_by: dict[str, Any]
        digest: str

        def apply(self, aggregate: Deal) -> None:
            aggregate.seed = self.seed
            aggregate.digest = self.digest
            aggregate.notes_since_move = 0

    class Annotated(Event):
        """An annotation as stored before glyphs and English text (read, no longer written): `at` is the index
        of the action it follows, so its step is at + 1. Commented replaced it rather than a class_version
        upcast, which would change the fields the hash chain covers."""

        TOPIC = "fupan:Deal.Annotated"
        at: int
        text: str
        author: str
        recorded_by: dict[str, Any]
        digest: str

        def note(self) -> dict[str, Any]:
            return {"step": self.at + 1, "glyph": "", "text": self.text, "text_en": "", "author": self.author}

        def apply(self, aggregate: Deal) -> None:
            aggregate.annotations.append(self.note())
            aggregate.digest = self.digest
            aggregate.notes_since_move += 1

    class Commented(Event):
        """A commentator's annotation at a step (domain/records/annotations.py): glyph, Chinese and English text."""

        TOPIC = "fupan:Deal.Commented"
        step: int
        glyph: str
        text: str
        text_en: str
        author: str
        recorded_by: dict[str, Any]
        digest: str

        def note(self) -> dict[str, Any]:
            return {"step": self.step, "glyph": self.glyph, "text": self.text, "text_en": self.text_en,
                    "author": self.author}

        def apply(self, aggregate: Deal) -> None:
            aggregate.annotations.append(self.note())
            aggregate.digest = self.digest
            aggregate.notes_since_move += 1

    def __init__(
        self, game: str, options: dict[str, Any], seats: list[str], first: int, hands: list[list[str]],
        kitty: list[str], context: dict[str, Any], match_id: UUID | None, number: int | None,
        seed_commitment: str | None, sealed_seed: str | None, meta: dict[str, Any], digest: str,
    ):
        self.setup = DealSetup(game, options, seats, first, hands, kitty, context)
        self.match_id = match_id
        self.number = number
        self.seed_commitment = seed_commitment
        self._sealed_seed = sealed_seed
        self.seed: str | None = None
        self.meta = meta
        self.digest = digest
        self.actions: list[Action] = []
        self.annotations: list[dict[str, Any]] = []
        # Annotations stored since the last move: a note about the deal is not a move of it, so the versions
        # they added are still current for a pad (`expect_version`; issue 27).
        self.notes_since_move = 0
        self.result: dict[str, Any] | None = None
        self.finished_at: datetime | None = None
        self.finished_digest: str | None = None
        # A result-only deal (a score slip, domain/records/slips.py) has no cards, so no engine state: it is over.
        self._state = None if meta.get(RESULT_ONLY) else self.engine.new_deal(self.setup)
        self._validated: Action | None = None

    @classmethod
    def start(
        cls, deal: UUID, setup: DealSetup, *, match: UUID | None = None, number: int | None = None,
        seed: str | None = None, seed_commitment: str | None = None, meta: dict[str, Any] | None = None,
        recorded_by: dict[str, Any],
    ) -> Deal:
        """A new deal; IllegalAction (bad deck, bad options…) before any event exists."""
        engine = get_engine(setup.game)
        setup = dataclasses.replace(setup, options=engine.resolve_options(setup.options))
        engine.new_deal(setup)  # validates seats, first and the deck before the Created event exists
        fields: dict[str, Any] = {
            "game": engine.game, "options": setup.options, "seats": list(setup.seats), "first": setup.first,
            "hands": [list(hand) for hand in setup.hands], "kitty": list(setup.kitty),
            "context": dict(setup.context), "match_id": match, "number": number,
            "seed_commitment": seed_commitment, "sealed_seed": seed, "meta": dict(meta or {}),
            "recorded_by": recorded_by,
        }
        return cls._chained_create(deal, fields)

    @classmethod
    def _chained_create(cls, deal: UUID, fields: dict[str, Any]) -> Deal:
        timestamp = cls.Created.create_timestamp()
        digest = next_digest(GENESIS, digest_payload(cls.Created.TOPIC, deal, cls.INITIAL_VERSION, timestamp, fields))
        return cls._create(cls.Created, id=deal, timestamp=timestamp, digest=digest, **fields)

    @classmethod
    def from_slip(cls, deal: UUID, setup: DealSetup, facts: dict[str, Any], result: dict[str, Any], *,
                  match: UUID | None, number: int | None, recorded_by: dict[str, Any],
                  meta: dict[str, Any] | None = None) -> Deal:
        """A result-only deal: the score slip's checked facts and the result they score (domain/records/slips.py), no
        cards and no actions; created and finished at once."""
        fields: dict[str, Any] = {
            "game": setup.game, "options": setup.options, "seats": list(setup.seats), "first": setup.first,
            "hands": [], "kitty": [], "context": dict(setup.context), "match_id": match, "number": number,
            "seed_commitment": None, "sealed_seed": None, "meta": {**(meta or {}), RESULT_ONLY: True, "slip": facts},
            "recorded_by": recorded_by,
        }
        slip = cls._chained_create(deal, fields)
        slip._trigger_chained(cls.Finished, result=result, recorded_by=recorded_by)
        return slip

    @property
    def result_only(self) -> bool:
        return bool(self.meta.get(RESULT_ONLY))

    def _slip_has_no_cards(self) -> IllegalAction:
        return IllegalAction("result_only", "This deal was entered as a score slip: it has no cards to play.",
                             "该牌局是以成绩单录入的，没有可出的牌。", {"deal_id": str(self.id)})

    @property
    def engine(self) -> Engine:
        return get_engine(self.setup.game)

    def expect_version(self, expected: int | None) -> None:
        """Conflict if the caller's `expected` version (when given) is not the stored one — or one the last
        move left, followed only by annotations: a commentator's notes must not turn a pad's next tap into a 409
        ("another pad"). A move since (an action, a retraction) still refuses it: the store's own optimistic
        concurrency (the next version is unique) is unchanged, this only says which versions a caller may
        have seen."""
        if expected is not None and not self.version - self.notes_since_move <= expected <= self.version:
            raise Conflict("conflict", f"The deal is at version {self.version}, not {expected}; nothing was written.",
                           f"牌局当前版本为 {self.version}，不是 {expected}；本次未写入。",
                           {"expected_version": expected, "version": self.version})

    def check_same(self, hands: Any, kitty: Any, first: int | None, seed: str | None) -> None:
        """Conflict unless a create with these (optional) parts re-submits this deal."""
        if hands is None and first is not None:  # with a seed, `first` said where dealing started
            first = self.engine.first_actor(self.setup.hands, first)
        same = ((hands is None or [normalize_all(h) for h in hands] == self.setup.hands)
                and (kitty is None or normalize_all(kitty) == self.setup.kitty)
                and (first is None or first == self.setup.first)
                and (seed is None or seed_commitment(seed) == self.seed_commitment))
        if not same:
            raise Conflict("already_exists", "That deal already exists with a different setup.",
                           "该牌局已存在，且设置不同。", {"deal_id": str(self.id)})

    def outcome(self, declared: dict[str, Any] | None) -> dict[str, Any]:
        """The result a record of this deal states: IllegalAction unless it is over, as `declared` says."""
        return judge(self.engine, self._state, declared)

    @property
    def finished(self) -> bool:
        return self.result is not None

    def status(self) -> dict[str, Any]:
        if self._state is None:
            return {"phase": "finished", "to_act": None, "finished": True, RESULT_ONLY: True}
        return self.engine.status(self._state)

    def state_copy(self) -> Any:
        """A copy of the engine's state after the recorded actions, for questions that must change nothing (the
        recording pad's choices and dry runs, domain/services/pad.py). A score slip's deal has none: refused."""
        if self._state is None:
            raise self._slip_has_no_cards()
        return copy.deepcopy(self._state)

    def _trigger_chained(self, event_class: type[Aggregate.Event], **fields: Any) -> None:
        timestamp = event_class.create_timestamp()
        payload = digest_payload(event_class.TOPIC, self.id, self.version + 1, timestamp, fields)
        self.trigger_event(event_class, timestamp=timestamp, digest=next_digest(self.digest, payload), **fields)

    def record(self, action: Action, recorded_by: dict[str, Any], *, normalized: bool = False) -> None:
        """Validate `action` with the engine, then record it; when it ends the deal, record the end too.
        `normalized`: the action is already in its stored form (an import normalises a record's actions first).

        An IllegalAction leaves the aggregate exactly as it was: the engine validates completely before it
        mutates, and no event has been triggered yet.
        """
        if self._state is None:
            raise self._slip_has_no_cards()
        if (isinstance(action, dict) and action.get("type") == "foul"
                and sum(1 for entry in self.actions if entry.get("type") == "foul") >= MAX_FOULS):
            raise _too_many("too_many_fouls", "fouls", "次犯规记录", MAX_FOULS)
        engine = self.engine
        if normalized:
            normal = action
            engine.apply_normalized(self._state, normal)
        else:
            normal = engine.apply(self._state, action)
        self._validated = normal
        self._trigger_chained(self.ActionRecorded, action=normal, recorded_by=recorded_by)
        result = None if self.finished else engine.result(self._state)  # a foul after the end changes nothing
        if result is not None:
            self._trigger_chained(self.Finished, result=result, recorded_by=recorded_by)
            if self._sealed_seed is not None:
                self._trigger_chained(self.SeedRevealed, seed=self._sealed_seed, recorded_by=recorded_by)

    def retract(self, at: int, reason: str, recorded_by: dict[str, Any]) -> None:
        """Take back the last action still standing of a live deal, with the reason; the engine's state is
        then the one after the actions still standing (domain/records/retraction.py)."""
        entry = normalize_retraction({"at": at, "reason": reason})
        check_retraction(self.actions, entry["at"], self.finished)
        if sum(1 for done in self.actions if is_retraction(done)) >= MAX_RETRACTIONS:
            raise _too_many("too_many_retractions", "retractions", "次撤回", MAX_RETRACTIONS)
        self._trigger_chained(self.Retracted, at=entry["at"], reason=entry["reason"], recorded_by=recorded_by)

    @classmethod
    def imported(cls, deal: UUID, setup: DealSetup, actions: list[Action], declared: dict[str, Any] | None,
                 meta: dict[str, Any], annotations: list[Any], recorded_by: dict[str, Any]) -> Deal:
        """A deal from a record (its setup and actions already normalised): every action through the engine,
        complete, with the declared result if it states one, then its annotations; IllegalAction names the
        first refused action by its index."""
        imported = cls.start(deal, setup, meta=meta, recorded_by=recorded_by)
        for index, action in enumerate(actions):
            try:
                if is_retraction(action):
                    imported.retract(action["at"], action["reason"], recorded_by)
                else:
                    imported.record(action, recorded_by, normalized=True)
            except IllegalAction as error:
                raise IllegalAction(error.code, error.message, error.message_zh,
                                    {**error.details, "action": index}) from None
        imported.outcome(declared)
        for note in annotations:
            imported.annotate(note, recorded_by)
        return imported

    def annotate(self, note: dict[str, Any], recorded_by: dict[str, Any]) -> None:
        """A comment at a step of the deal, 0 … the actions so far (domain/records/annotations.py checks it, or
        `bad_annotation`); allowed during and after the deal, never edited; at most MAX_ANNOTATIONS of them,
        MAX_ANNOTATION_TEXT characters in all (`too_many_annotations`)."""
        checked = checked_annotation(note, len(self.actions))
        if len(self.annotations) >= MAX_ANNOTATIONS:
            raise _too_many("too_many_annotations", "annotations", "条注释", MAX_ANNOTATIONS)
        if sum(map(_note_size, self.annotations)) + _note_size(checked) > MAX_ANNOTATION_TEXT:
            raise _too_many("too_many_annotations", "characters of annotations", "个字符的注释",
                            MAX_ANNOTATION_TEXT)
        self._trigger_chained(self.Commented, **checked, recorded_by=recorded_by)


def _note_size(note: dict[str, Any]) -> int:
    return len(note["text"]) + len(note["text_en"]) + len(note["author"])
