"""Marshmallow schemas made from the typed values of the layers below (domain/kernel/values.py, projections/rows.py).

A TypedDict declares a value's keys, their types and (`Doc`) their descriptions once, where the value is computed;
this module turns it into the schema that dumps it and that the OpenAPI document describes, so the API never
writes the shape a second time. Types map as JSON does: int, str, bool, float, lists, dicts, `X | None`
(nullable), a nested TypedDict (a nested schema); anything else is a raw value.
"""

from __future__ import annotations

import types
from typing import Annotated, Any, Union, get_args, get_origin, get_type_hints

from marshmallow import Schema, fields

from domain.kernel.values import Doc

_SCALARS: dict[Any, type[fields.Field]] = {int: fields.Integer, str: fields.String, bool: fields.Boolean,
                                           float: fields.Float}


def _is_typed_dict(kind: Any) -> bool:
    return isinstance(kind, type) and issubclass(kind, dict) and hasattr(kind, "__required_keys__")


def _field(kind: Any, **options: Any) -> fields.Field:
    if get_origin(kind) is Annotated:
        kind, *extras = get_args(kind)
        doc = next((e.text for e in extras if isinstance(e, Doc)), None)
        if doc:
            options.setdefault("metadata", {})["description"] = doc
    if get_origin(kind) in (Union, types.UnionType):
        members = [a for a in get_args(kind) if a is not type(None)]
        if len(members) < len(get_args(kind)):
            options["allow_none"] = True
        kind = members[0] if len(members) == 1 else Any
    origin = get_origin(kind)
    if kind in _SCALARS:
        return _SCALARS[kind](**options)
    if origin is list:
        (item,) = get_args(kind) or (Any,)
        return fields.List(_field(item), **options)
    if kind is dict or origin is dict:
        return fields.Dict(**options)
    if _is_typed_dict(kind):
        return fields.Nested(schema_for(kind), **options)
    return fields.Raw(**options)


_made: dict[type, type[Schema]] = {}


def schema_for(value: type, name: str | None = None) -> type[Schema]:
    """The schema of a TypedDict: its keys as fields, required where the TypedDict requires them."""
    if value not in _made:
        hints = get_type_hints(value, include_extras=True)
        declared = {key: _field(kind, required=key in value.__required_keys__) for key, kind in hints.items()}
        _made[value] = Schema.from_dict(declared, name=name or f"{value.__name__}Schema")
    return _made[value]


def described_dict(value: type, **options: Any) -> fields.Dict:
    """An open dict field (a game adds keys of its own) whose description lists the keys `value` declares."""
    hints = get_type_hints(value, include_extras=True)
    keys = ", ".join(f"`{key}`" + ("" if key in value.__required_keys__ else "?") for key in hints)
    doc = (value.__doc__ or "").strip().split("\n")[0]
    options.setdefault("metadata", {})["description"] = f"{doc} Keys: {keys}."
    return fields.Dict(**options)

