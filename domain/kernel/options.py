"""Ruleset options: a game's marshmallow schema with defaults, resolved once per distinct option set.

Every record carries its options, and `fupan check` resolves them per record; a marshmallow `load` costs
more than checking a whole 斗地主 deal, so resolutions are cached by the options' content.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from marshmallow import Schema, ValidationError, fields

from domain.kernel.errors import IllegalAction
from domain.kernel.field_errors import shape_refusal


class Switch(fields.Boolean):
    """A yes/no ruleset switch: JSON `true` or `false`; "yes", "on", "true", 1 or 0 are refused, not guessed
    (Python's 1 == True would let a number through a set of truthy values)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if type(value) is not bool:
            raise self.make_error("invalid", input=value)
        return value


def switch(**kwargs: Any) -> fields.Boolean:
    return Switch(**kwargs)


def whole(**kwargs: Any) -> fields.Integer:
    """A whole-number ruleset option: `2`, not "2" or 2.0."""
    return fields.Integer(strict=True, **kwargs)


class OptionsResolver:
    """`resolve(options)`: the options with the schema's defaults filled in, then `complete` applied (e.g. a
    preset filling what the caller left open); IllegalAction('bad_options') when the schema refuses them."""

    def __init__(self, schema: Schema, complete: Callable[[dict[str, Any]], None] | None = None):
        self._schema = schema
        self._complete = complete
        self._cached = lru_cache(maxsize=64)(self._load_key)

    def resolve(self, options: object) -> dict[str, Any]:
        if not isinstance(options, dict):
            raise IllegalAction("bad_options", "Options must be an object.", "规则选项必须是对象。")
        values = tuple(options.values())
        # The value's type is part of the key: 1 == True and 2 == 2.0 in Python, but not as options. Read without a
        # step in Python per option (every record resolves its options, twice): the same options in another order
        # are another key of the same answer.
        key = (tuple(options), tuple(map(type, values)), values)
        try:
            hash(key)
        except TypeError:  # unhashable values: let the schema explain what is wrong
            return self._load(options)
        return dict(self._cached(key))

    def _load_key(self, key: tuple[tuple[str, ...], tuple[type, ...], tuple[Any, ...]]) -> dict[str, Any]:
        names, _, values = key
        return self._load(dict(zip(names, values, strict=True)))

    def _load(self, options: dict[str, Any]) -> dict[str, Any]:
        try:
            loaded = self._schema.load(options)
        except ValidationError as error:
            english, chinese, in_zh = shape_refusal(error.messages)
            raise IllegalAction(
                "bad_options", f"Invalid ruleset options: {english}", f"规则选项无效：{chinese}",
                {"fields": error.messages, "fields_zh": in_zh},
            ) from None
        resolved = self._schema.dump(loaded)
        if self._complete is not None:
            self._complete(resolved)
        return resolved
