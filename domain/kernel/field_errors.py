"""A refused shape in words, in both languages: marshmallow's field messages (a body, a query, a game's options)
as `field: message` lines, never a Python repr ("{'ddz.foo': ['Unknown field.']}"), with the messages
marshmallow writes in English translated by the map below (a message it does not list stays as written).
"""

from __future__ import annotations

import re
from typing import Any

ZH: dict[str, str] = {
    "Missing data for required field.": "缺少必填字段。",
    "Unknown field.": "未知字段。",
    "Field may not be null.": "不能为 null。",
    "Invalid input type.": "输入类型不正确。",
    "Invalid type.": "类型不正确。",
    "Invalid value.": "值不正确。",
    "Not a valid integer.": "不是有效的整数。",
    "Not a valid number.": "不是有效的数字。",
    "Not a valid string.": "不是有效的字符串。",
    "Not a valid boolean.": "不是有效的布尔值（true 或 false）。",
    "Not a valid list.": "不是有效的列表。",
    "Not a valid tuple.": "不是有效的列表。",
    "Not a valid mapping type.": "不是有效的对象。",
    "Not a valid datetime.": "不是有效的日期时间。",
    "Not a valid date.": "不是有效的日期。",
    "Not a valid UUID.": "不是有效的 UUID。",
    "Not a valid email address.": "不是有效的电子邮件地址。",
    "Not a valid URL.": "不是有效的网址。",
    "String does not match expected pattern.": "格式不正确。",
    "Special numeric values (nan or infinity) are not permitted.": "不允许 nan 或无穷大。",
    "Number too large.": "数字太大。",
}
PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"Must be one of: (.*)\."), "必须是以下之一：{0}。"),
    (re.compile(r"Must be greater than or equal to (\S+) and less than or equal to (\S+)\."),
     "必须在 {0} 到 {1} 之间。"),
    (re.compile(r"Must be greater than (\S+) and less than (\S+)\."), "必须大于 {0} 且小于 {1}。"),
    (re.compile(r"Must be greater than or equal to (\S+)\."), "必须大于或等于 {0}。"),
    (re.compile(r"Must be less than or equal to (\S+)\."), "必须小于或等于 {0}。"),
    (re.compile(r"Must be greater than (\S+)\."), "必须大于 {0}。"),
    (re.compile(r"Must be less than (\S+)\."), "必须小于 {0}。"),
    (re.compile(r"Length must be between (\d+) and (\d+)\."), "长度必须在 {0} 到 {1} 之间。"),
    (re.compile(r"Shorter than minimum length (\d+)\."), "长度不能少于 {0}。"),
    (re.compile(r"Longer than maximum length (\d+)\."), "长度不能超过 {0}。"),
    (re.compile(r"Length must be (\d+)\."), "长度必须为 {0}。"),
]


def in_chinese(message: str) -> str:
    """One marshmallow message in Chinese (one it does not know, as written: a schema's own may be Chinese)."""
    if message in ZH:
        return ZH[message]
    for pattern, chinese in PATTERNS:
        found = pattern.fullmatch(message)
        if found:  # a list of choices reads with 、 in Chinese ("tables、final、playoff")
            return chinese.format(*(group.replace(", ", "、") for group in found.groups()))
    return message


def field_lines(messages: Any, path: str = "") -> list[tuple[str, str]]:
    """marshmallow's nested {field: [messages] | {…}} as (field path, message) pairs: "hands.0", "Not a valid …"."""
    if isinstance(messages, dict):
        return [line for key, value in messages.items()
                for line in field_lines(value, f"{path}.{key}" if path else str(key))]
    if isinstance(messages, list | tuple):
        return [line for value in messages for line in field_lines(value, path)]
    return [(path or "_schema", str(messages))]


def shape_refusal(messages: Any) -> tuple[str, str, dict[str, list[str]]]:
    """What is wrong, as the end of a message in each language ("step: Not a valid integer."), and the Chinese
    messages by field for `details.fields_zh`."""
    lines = field_lines(messages)
    english = "; ".join(f"{field_word(field, 'en')}: {message}" for field, message in lines)
    chinese = "；".join(f"{field_word(field, 'zh')}：{in_chinese(message)}" for field, message in lines)
    by_field: dict[str, list[str]] = {}
    for field, message in lines:
        by_field.setdefault(field, []).append(in_chinese(message))
    return english, chinese, by_field


# What a person calls a field of a request (issue 23: plain words, no backticked field names); a field not listed
# is named as the request spells it, unquoted.
FIELD_WORDS: dict[str, tuple[str, str]] = {
    "members": ("The committee's members", "仲裁委员会成员"), "vote": ("The vote", "表决票数"),
    "reason": ("The reasons", "理由"), "outcome": ("The outcome", "处理结果"), "note": ("The note", "说明"),
    "against": ("What is appealed", "申诉对象"), "against.kind": ("What is appealed", "申诉对象"),
    "against.step": ("The step", "步数"), "statement": ("The statement", "申诉内容"),
    "category": ("The category", "类别"), "from_step": ("The line's first step", "推演的起点"),
    "actions": ("The line's actions", "推演的动作"), "label": ("The label", "名称"),
    "on_behalf_of": ("On behalf of", "代表的选手"), "accept_late": ("The reason to accept it late", "逾期受理理由"),
}


def field_word(field: str, lang: str) -> str:
    """A field as a person reads it: its words when listed, else its name as the request spells it."""
    words = FIELD_WORDS.get(field)
    return field if words is None else words[lang == "zh"]
