"""升级's ruleset switches (§3.4–3.14a) and the two seeds' presets (S001, S004): a preset fills the options the
caller left open."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from domain.kernel.options import OptionsResolver, switch, whole

# Options that differ between the seeds: a preset fills those the caller left out (§3.4, §3.10, §3.11, §3.13).
PRESETS: dict[str, dict[str, Any]] = {
    "s001": {
        "sj.selfOvercall": True,
        "sj.kittyTrumpCard": "third",
        "sj.kittyJoker": "noTrump",
        "sj.throwPenalty": "none",
        "sj.levelTable": "s001",
        "sj.goalLevel": 5,
        "sj.timeLimitMinutes": 60,
        "sj.equalLevels": "extraDeal",
    },
    "s004": {
        "sj.selfOvercall": False,
        "sj.kittyTrumpCard": "first",
        "sj.kittyJoker": "nextCard",
        "sj.throwPenalty": "perRetractedCard",
        "sj.levelTable": "s004",
        "sj.goalLevel": 11,
        "sj.timeLimitMinutes": 180,
        "sj.equalLevels": "bigPoints",
    },
}


class ShengjiOptions(Schema):
    """Ruleset switches of §3.4–3.14a. `None` defaults are filled from `sj.preset`."""

    preset = fields.String(data_key="sj.preset", load_default="s004", validate=validate.OneOf(sorted(PRESETS)))
    self_overcall = switch(data_key="sj.selfOvercall", load_default=None)
    big_joker_pair_overcall = switch(data_key="sj.bigJokerPairOvercall", load_default=False)
    mixed_joker_no_trump = switch(data_key="sj.mixedJokerNoTrump", load_default=False)
    kitty_trump_card = fields.String(data_key="sj.kittyTrumpCard", load_default=None,
                                     validate=validate.OneOf(["first", "third"]))
    kitty_joker = fields.String(data_key="sj.kittyJoker", load_default=None,
                                validate=validate.OneOf(["nextCard", "noTrump"]))
    prefer_shorter_tractor = switch(data_key="sj.preferShorterTractor", load_default=False)
    kitty_multiplier = fields.String(data_key="sj.kittyMultiplier", load_default="doubling",
                                     validate=validate.OneOf(["doubling", "linear"]))
    kitty_basis = fields.String(data_key="sj.kittyBasis", load_default="winnerCards",
                                validate=validate.OneOf(["winnerCards", "leadFormat"]))
    throw_penalty = fields.String(data_key="sj.throwPenalty", load_default=None,
                                  validate=validate.OneOf(["perRetractedCard", "flat10", "none"]))
    level_table = fields.String(data_key="sj.levelTable", load_default=None, validate=validate.OneOf(["s001", "s004"]))
    illegal_play = fields.String(data_key="sj.illegalPlay", load_default="reject",
                                 validate=validate.OneOf(["reject", "adjudicate"]))
    revoke_ends_match = switch(data_key="sj.revokeEndsMatch", load_default=False)
    trick_review = fields.String(data_key="sj.trickReview", load_default="lastTrickOnly",
                                 validate=validate.OneOf(["lastTrickOnly", "none", "all"]))
    goal_level = whole(data_key="sj.goalLevel", load_default=None, validate=validate.Range(3, 15))
    time_limit = whole(data_key="sj.timeLimitMinutes", load_default=None, validate=validate.Range(0))
    equal_levels = fields.String(data_key="sj.equalLevels", load_default=None,
                                 validate=validate.OneOf(["extraDeal", "bigPoints"]))


def _apply_preset(resolved: dict[str, Any]) -> None:
    """Options the caller left open take the named preset's value (`sj.preset`: s001 | s004)."""
    for name, value in PRESETS[resolved["sj.preset"]].items():
        if resolved[name] is None:
            resolved[name] = value


OPTIONS = OptionsResolver(ShengjiOptions(), _apply_preset)
