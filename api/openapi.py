"""OpenAPI 3 document generated from the marshmallow schemas and the `@doc` of each view, plus a local docs
page (plain HTML, no CDN: a venue may have no internet).
"""

from __future__ import annotations

import re
from html import escape
from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask import Blueprint, Flask, Response, current_app, jsonify

from api.auth import ANYONE, NDJSON, policy_of, requires
from api.schemas import ErrorSchema

_STATUS_TEXT = {400: "Bad shape", 401: "No valid token", 403: "Not allowed", 404: "Not found", 409: "Conflict",
                413: "Body too large", 422: "Refused by the rules", 429: "Too many failed authentications"}
_PARAM = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")

docs = Blueprint("apidocs", __name__, url_prefix="/api")

# Every write accepts it (api/idempotency.py; docs/SECURITY.md §6a).
IDEMPOTENCY_KEY = {
    "in": "header", "name": "Idempotency-Key", "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[!-~]+$"},
    "description": "Send the same key again with the same body to get the first answer (same status and body, "
                   "header `Idempotent-Replayed: true`) without storing anything new; the same key with another "
                   "body or route is 409 `idempotency_conflict`. Kept per token, durably, across processes.",
}

# A server-sent event as OpenAPI 3.0/3.1 describes a text/event-stream's items: its fields, the data a JSON text
# (docs/streams.md names each event and its data's fields).
SSE_EVENT = {"type": "object", "required": ["data"], "properties": {
    "event": {"type": "string"}, "id": {"type": "string"}, "retry": {"type": "integer"},
    "data": {"type": "string", "contentMediaType": "application/json"}}}


def _schema_name(schema: Any) -> str:
    name = type(schema).__name__
    return name[: -len("Schema")] if name.endswith("Schema") else name


def build_spec(app: Flask) -> dict[str, Any]:
    spec = APISpec(
        title="fupan 复盘 API", version="0.1.0", openapi_version="3.0.3",
        info={"description": "Event-sourced match recording and replay for Chinese card-game tournaments. "
                             "Errors always have the shape of the `Error` schema."},
        plugins=[MarshmallowPlugin(schema_name_resolver=_schema_name)],
    )
    spec.components.schema("Error", schema=ErrorSchema)
    spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer",
                                               "description": "a token from `fupan token create` (docs/SECURITY.md)"})
    error_ref = {"$ref": "#/components/schemas/Error"}
    paths: dict[str, dict[str, Any]] = {}
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        view = app.view_functions.get(rule.endpoint)
        meta = getattr(view, "__apidoc__", None)
        if meta is None:
            continue
        policy = policy_of(app, rule.endpoint)
        protected = policy is not None and policy.rule != ANYONE
        path = _PARAM.sub(r"{\1}", rule.rule)
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            operation: dict[str, Any] = {
                "summary": meta["summary"], "tags": [rule.endpoint.split(".")[0]],
                "operationId": rule.endpoint.replace(".", "_"),
                "parameters": [
                    {"in": "path", "name": name, "required": True, "schema": {"type": "string"}}
                    for name in _PARAM.findall(rule.rule)
                ],
                "responses": {},
            }
            if meta["query"] is not None:
                operation["parameters"].append({"in": "query", "schema": meta["query"]})
            if method != "GET":
                operation["parameters"].append(IDEMPOTENCY_KEY)
            if meta["body"] is not None:
                content = {"application/json": {"schema": meta["body"]}}
                if policy is not None and NDJSON in policy.content_types:
                    content[NDJSON] = {"schema": {"type": "string", "description": "JSON Lines: one per line"}}
                operation["requestBody"] = {"required": True, "content": content}
            ok: dict[str, Any] = {"description": "OK"}
            if meta["response"] is not None:
                ok["content"] = {meta["content_type"]: {"schema": meta["response"]}}
            elif meta["content_type"] == "text/event-stream":
                ok["content"] = {meta["content_type"]: {"schema": SSE_EVENT}}
            elif meta["content_type"] != "application/json":
                ok["content"] = {meta["content_type"]: {"schema": {"type": "string"}}}
            operation["responses"][str(meta["status"])] = ok
            if meta.get("found") is not None:
                operation["responses"]["200"] = {
                    "description": "Already there (sent again; idempotent by its key): what exists, unchanged",
                    "content": {"application/json": {"schema": meta["found"]}}}
            if policy is not None:
                operation["description"] = f"Who may call it: {policy.rule.name}."
            if protected:
                operation["security"] = [{"bearer": []}]
            # Any presented token may be refused (401, 429); a protected route also refuses the wrong one. Any
            # write may be refused for its headers or body before the view: a bad Idempotency-Key or content
            # type, malformed JSON (400), a body too large (413), and a key in use (409).
            writes = (400, 409, 413) if method != "GET" else ()
            refusals = (*meta["errors"], *writes, *((401, 403) if protected else (401,)), 429, 500)
            for status in sorted(set(refusals), key=refusals.index):
                operation["responses"][str(status)] = {
                    "description": _STATUS_TEXT.get(status, "Internal error"),
                    "content": {"application/json": {"schema": error_ref}},
                }
            paths.setdefault(path, {})[method.lower()] = operation
    for path, operations in paths.items():
        spec.path(path=path, operations=operations)
    return spec.to_dict()


def _spec() -> dict[str, Any]:
    """Built once per app, on first use, when every blueprint has been registered."""
    spec = current_app.extensions.get("fupan.openapi")
    if spec is None:
        spec = current_app.extensions["fupan.openapi"] = build_spec(current_app)
    return spec


@docs.get("/openapi.json")
@requires(ANYONE)
def openapi_json() -> Response:
    return jsonify(_spec())


@docs.get("/docs")
@requires(ANYONE)
def docs_page() -> Response:
    spec = _spec()
    rows = []
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            codes = ", ".join(sorted(operation["responses"]))
            rows.append(
                f"<tr><td><code>{escape(method.upper())}</code></td><td><code>{escape(path)}</code></td>"
                f"<td>{escape(operation['summary'])}</td><td>{escape(codes)}</td></tr>"
            )
    html = f"""<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>fupan 复盘 API</title>
<style>body{{font-family:sans-serif;margin:2em}}table{{border-collapse:collapse}}
td,th{{border:1px solid #ccc;padding:4px 8px;text-align:left}}</style></head>
<body><h1>fupan 复盘 API</h1>
<p>接口一览 · Endpoints. Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a>.
Errors are <code>{{"error": {{"code", "message", "message_zh", "details"}}}}</code>.</p>
<table><tr><th>method</th><th>path</th><th>what</th><th>statuses</th></tr>
{''.join(rows)}
</table></body></html>"""
    return Response(html, mimetype="text/html")
