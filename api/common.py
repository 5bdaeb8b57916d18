"""What every /api view uses: `@doc` (its OpenAPI description), the request's service, the JSON body and the
query read through a marshmallow schema (refused in the error shape), and the answer dumped through one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from flask import Response, current_app, jsonify, request
from marshmallow import Schema, ValidationError
from marshmallow.fields import Number

from domain.kernel.errors import BadRequest
from domain.kernel.field_errors import shape_refusal
from domain.records.format import MAX_NUMBER_TEXT, UnstorableText, load_json
from domain.services.fupan import Fupan

F = TypeVar("F", bound=Callable[..., Any])


def doc(
    summary: str, *, body: Schema | dict[str, Any] | None = None, query: Schema | None = None,
    response: Schema | dict[str, Any] | None = None, status: int = 200, errors: tuple[int, ...] = (),
    content_type: str = "application/json", found: Schema | dict[str, Any] | None = None,
) -> Callable[[F], F]:
    """Describe a view for the OpenAPI document (api/openapi.py reads `__apidoc__`). `found`: the answer of
    a create sent again (idempotent by its key): 200 with what already exists, where the first was 201 —
    so a client can tell "made now" from "was there", and either way holds the resource."""

    def attach(view: F) -> F:
        view.__apidoc__ = {  # type: ignore[attr-defined]
            "summary": summary, "body": body, "query": query, "response": response, "status": status,
            "errors": errors, "content_type": content_type, "found": found,
        }
        return view

    return attach


def stores_nothing(view: F) -> F:
    """Mark a POST view that computes and stores nothing (an analysis, a preview, a check): it runs as a read
    (web/units.py), beside every write and waiting for none, and the store refuses it any save. Put it right
    under the route's decorator."""
    view.stores_nothing = True  # type: ignore[attr-defined]
    return view


def service() -> Fupan:
    return current_app.extensions["fupan"]


def json_body() -> Any:
    """The parsed JSON body; 400 for a wrong content type or malformed JSON."""
    if not request.is_json:
        raise BadRequest(
            "bad_content_type",
            "Send the body as JSON (Content-Type: application/json).",
            "请求体必须是 JSON（Content-Type: application/json）。",
            {"content_type": request.content_type},
        )
    try:
        return load_json(request.get_data())  # read (and cached) by the access guard before its unit
    except UnstorableText as error:
        raise BadRequest("bad_text", f"{error}.", "请求中的文字含有无法保存的字符（NUL 或孤立的代理码位）。",
                         {"error": str(error)}) from None
    except ValueError as error:  # UnicodeDecodeError is one too
        raise BadRequest(
            "malformed_json", f"The body is not valid JSON: {error}", "请求体不是合法的 JSON。", {"error": str(error)}
        ) from None


def load(schema: Schema, data: Any) -> Any:
    try:
        return schema.load(data)
    except ValidationError as error:
        english, chinese, in_zh = shape_refusal(error.messages)
        raise BadRequest(
            "invalid_body",
            f"The request does not have the expected shape: {english}",
            f"请求的格式不正确：{chinese}",
            {"fields": error.messages, "fields_zh": in_zh},
        ) from None


def load_query(schema: Schema) -> Any:
    args = request.args.to_dict()
    for name, field in schema.fields.items():
        text = args.get(field.data_key or name)
        # A number's text is bounded before it is read (int() of thousands of digits: work for nothing).
        if isinstance(field, Number) and text is not None and len(text) > MAX_NUMBER_TEXT:
            raise BadRequest("invalid_query", f"Bad query parameters: {name} is a number of at most "
                             f"{MAX_NUMBER_TEXT} characters.", f"查询参数不正确：{name} 必须是不超过 {MAX_NUMBER_TEXT} "
                             "个字符的数字。", {"fields": {name: ["Too long."]}})
    try:
        return schema.load(args)
    except ValidationError as error:
        english, chinese, in_zh = shape_refusal(error.messages)
        raise BadRequest(
            "invalid_query", f"Bad query parameters: {english}", f"查询参数不正确：{chinese}",
            {"fields": error.messages, "fields_zh": in_zh},
        ) from None


def reply(schema: Schema, data: Any, status: int = 200, *, many: bool = False) -> tuple[Response, int]:
    return jsonify(schema.dump(data, many=many)), status
