"""One error shape everywhere: {"error": {"code", "message", "message_zh", "details"}}, and the one place where
each kind of refusal (domain/kernel/errors.py) gets its HTTP status.

400 bad shape (malformed JSON, wrong content type, schema errors, bad query), 401 no or a bad token, 403 not
allowed, 404 unknown ids and routes, 405 wrong method, 409 stale or conflicting writes, 411 a chunked body,
422 the rules refuse, 429 too many failed logins, 500 anything unexpected — logged on the server, never a
traceback to the client.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask, Response, jsonify
from werkzeug.exceptions import HTTPException

from domain.kernel.errors import (
    BadRequest,
    Conflict,
    Forbidden,
    Hidden,
    IllegalAction,
    LengthRequired,
    NotFound,
    Refusal,
    TooManyAttempts,
    Unauthenticated,
)

STATUS: dict[type[Refusal], int] = {
    BadRequest: 400, Unauthenticated: 401, Forbidden: 403, NotFound: 404, Conflict: 409, LengthRequired: 411,
    IllegalAction: 422, TooManyAttempts: 429,
}


def status_of(error: Refusal, anonymous: bool) -> int:
    """The HTTP status of a refusal. Hidden cards: authenticating might help (401) unless a token was already
    accepted (403)."""
    if isinstance(error, Hidden) and anonymous:
        return 401
    return next(STATUS[kind] for kind in type(error).__mro__ if kind in STATUS)


def error_response(status: int, code: str, message: str, message_zh: str,
                   details: dict[str, Any] | None = None) -> tuple[Response, int]:
    body = {"error": {"code": code, "message": message, "message_zh": message_zh, "details": details or {}}}
    return jsonify(body), status


# Werkzeug's own refusals (unknown route, wrong method, body too large …) in the same shape.
_HTTP_CODES: dict[int, tuple[str, str]] = {
    400: ("bad_request", "请求无效。"),
    404: ("not_found", "没有这个地址。"),
    405: ("method_not_allowed", "该地址不支持这个请求方法。"),
    413: ("too_large", "请求体过大。"),
    415: ("bad_content_type", "不支持的内容类型。"),
}


def register_error_handlers(app: Flask, anonymous: Callable[[], bool]) -> None:
    """`anonymous()`: whether the request being answered came without an accepted token."""

    @app.errorhandler(Refusal)
    def _refused(error: Refusal) -> tuple[Response, int]:
        return error_response(status_of(error, anonymous()), error.code, error.message, error.message_zh,
                              error.details)

    @app.errorhandler(HTTPException)
    def _http(error: HTTPException) -> tuple[Response, int]:
        status = error.code or 500
        code, zh = _HTTP_CODES.get(status, ("http_error", "请求失败。"))
        response, _ = error_response(status, code, error.description or error.name, zh)
        if status == 405 and error.get_headers():
            response.headers.update({k: v for k, v in error.get_headers() if k == "Allow"})
        return response, status

    @app.errorhandler(Exception)
    def _unexpected(error: Exception) -> tuple[Response, int]:
        app.logger.exception("unhandled error")
        return error_response(500, "internal_error", "Internal error; it has been logged.",
                              "服务器内部错误，已记录日志。")
