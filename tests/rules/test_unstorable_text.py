"""Text no store can keep (a NUL, a lone surrogate) is refused at the door by `load_json`, which searches the JSON
source once and walks the parsed value only when the source shows such a character or its escape: it refuses
exactly what a walk of every string refuses, naming the same field."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.records.format import UNSTORABLE, UnstorableText, load_json


def walked(value: Any) -> bool:
    """Whether any string of `value` (a key or a value) holds an unstorable character, by visiting every one."""
    if isinstance(value, str):
        return UNSTORABLE.search(value) is not None
    if isinstance(value, dict):
        return any(walked(key) or walked(item) for key, item in value.items())
    if isinstance(value, list):
        return any(walked(item) for item in value)
    return False


@pytest.mark.parametrize(("source", "field"), [
    ('{"seats": ["x\\u0000"]}', ".seats[0]"),
    ('{"seats": ["\\ud800"]}', ".seats[0]"),
    ('{"seats": ["\\uDBFF"]}', ".seats[0]"),  # an escape's hex digits in either case
    ('{"a": {"b": [1, "\\uDC00x"]}}', ".a.b[1]"),
    ('{"name\\u0000": "x"}', ".'name\\x00'"),
    ('["ok", "\\ud83d"]', "[1]"),  # the first half of a pair alone
    ('"\\ude00\\ud83d"', "the text"),  # both halves, in the wrong order
    ('{"seats": ["s\ud800t"]}', ".seats[0]"),  # the character itself in the source (written by ensure_ascii=False)
])
def test_a_nul_or_a_lone_surrogate_is_refused_naming_its_field(source: str, field: str):
    with pytest.raises(UnstorableText) as refused:
        load_json(source)
    assert str(refused.value) == f"{field} holds a NUL character or a lone surrogate, which no record may hold"


@pytest.mark.parametrize(("source", "value"), [
    ('{"name": "\\ud83d\\ude00"}', {"name": "😀"}),  # a pair of escapes is one character
    ('{"name": "\\\\u0000"}', {"name": "\\u0000"}),  # an escaped backslash, then the letters u0000
    ('{"name": "\\u4e09"}', {"name": "三"}),
])
def test_escapes_that_make_storable_text_are_read(source: str, value: Any):
    assert load_json(source) == value


def test_a_nul_itself_is_no_json():
    with pytest.raises(ValueError, match="Invalid control character") as refused:
        load_json('{"name": "x\x00"}')
    assert not isinstance(refused.value, UnstorableText)


def test_bytes_are_decoded_as_json_decodes_them_and_checked_alike():
    assert load_json('{"name": "张三"}'.encode()) == {"name": "张三"}
    assert load_json('{"name": "张三"}'.encode("utf-16")) == {"name": "张三"}
    with pytest.raises(UnstorableText):
        load_json(b'{"name": "\xed\xa0\x80"}')  # a surrogate encoded as UTF-8 (json reads it: surrogatepass)
    with pytest.raises(UnstorableText):
        load_json(b'{"name": "\\u0000"}')


PIECES = ["a", "三", "\\", "u", "0", "d", "D", "8", "c", "\x00", "\ud800", "\udc00", "\U0001f600", '"']


@settings(max_examples=400, deadline=None)
@given(st.lists(st.text(st.sampled_from(PIECES), max_size=8), max_size=4), st.booleans())
def test_refused_exactly_when_a_walk_of_every_string_finds_one(names: list[str], ascii_only: bool):
    source = json.dumps({name: [name] for name in names}, ensure_ascii=ascii_only)
    value = json.loads(source)
    if walked(value):
        with pytest.raises(UnstorableText):
            load_json(source)
    else:
        assert load_json(source) == value
