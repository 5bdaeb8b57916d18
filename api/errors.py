"""One error shape everywhere (DESIGN.md §7): {"error": {"code", "message", "message_zh", "details"}}.

400 bad shape (malformed JSON, wrong content type, schema errors, bad query), 404 unknown ids and routes,
405 wrong method, 409 stale or conflicting writes, 422 the rules refuse, 500 anything unexpected — logged
on the server, never a traceback to the client.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, jsonify
from werkzeug.exceptions import HTTPException

from domain.application import Conflict, NotFound, ServiceError
from domain.errors import IllegalAction


class ApiError(Exception):
    """A refusal decided by the HTTP layer itself (request shape)."""

    def __init__(self, status: int, code: str, message: str, message_zh: str, details: dict[str, Any] | None = None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.message_zh = message_zh
        self.details = details or {}


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


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def _api_error(error: ApiError) -> tuple[Response, int]:
        return error_response(error.status, error.code, error.message, error.message_zh, error.details)

    @app.errorhandler(IllegalAction)
    def _illegal(error: IllegalAction) -> tuple[Response, int]:
        return error_response(422, error.code, error.message, error.message_zh, error.details)

    @app.errorhandler(ServiceError)
    def _service(error: ServiceError) -> tuple[Response, int]:
        status = 404 if isinstance(error, NotFound) else 409 if isinstance(error, Conflict) else 400
        return error_response(status, error.code, error.message, error.message_zh, error.details)

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
