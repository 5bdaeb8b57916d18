"""Numbers are bounded before they are read (`load_json`, MAX_NUMBER_TEXT): a look at the source decides whether
the integers need the bound's hook at all (issue 25 scope 4: `fupan check` called it for every integer of every
record). Whatever the look decides, the answer is the one the hook on every number gives."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.records.format import MAX_NUMBER_TEXT, _bounded_float, _bounded_int, _no_constant, load_json


def hooked(source: str) -> object:
    """The reading with every number through its bound, as before the look."""
    return json.loads(source, parse_int=_bounded_int, parse_float=_bounded_float, parse_constant=_no_constant)


@pytest.mark.parametrize("number", ["1" * 25, "-" + "9" * 24, "1" * 4301, "-" + "1" * 30])
def test_an_integer_longer_than_the_bound_is_refused(number: str):
    with pytest.raises(ValueError, match=f"a number of {len(number)} characters \\(at most {MAX_NUMBER_TEXT}\\)"):
        load_json(f'{{"actions": [], "meta": {{"n": {number}}}}}')


@pytest.mark.parametrize("number", ["9" * 24, "-" + "9" * 23, "0", "-0", "17"])
def test_an_integer_within_the_bound_is_read(number: str):
    assert load_json(f'{{"n": [{number}]}}') == {"n": [int(number)]}


def test_a_long_run_of_digits_in_a_string_is_text():
    source = json.dumps({"note": "1" * 40, "n": 12, "x": 1.5, "三": "二" + "2" * 30})
    assert load_json(source) == json.loads(source)


def test_bounds_hold_for_floats_and_constants_whatever_the_look_decides():
    for source in ('{"x": 1e400}', '[NaN]', '{"x": -Infinity}', '[' + "1" * 30 + ".5]"):
        with pytest.raises(ValueError):
            load_json(source)


NUMBER_TEXT = st.one_of(
    st.integers(min_value=-(10 ** 30), max_value=10 ** 30).map(str),
    st.text("0123456789", min_size=1, max_size=32).map(lambda digits: digits.lstrip("0") or "0"),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(NUMBER_TEXT, st.text(st.sampled_from("0123456789a三 "), max_size=40).map(json.dumps)),
                max_size=6))
def test_read_exactly_as_with_the_bound_on_every_number(items: list[str]):
    source = "[" + ", ".join(items) + "]"
    try:
        expected = hooked(source)
    except ValueError as refusal:
        with pytest.raises(ValueError) as refused:
            load_json(source)
        assert str(refused.value) == str(refusal)
    else:
        assert load_json(source) == expected
