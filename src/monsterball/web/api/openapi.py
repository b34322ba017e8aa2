"""The OpenAPI schema as the API answers (docs/web.md, "API"): every error status the API
may give with its body, `400` where FastAPI would say `422` (the API answers 400), and the
text and NDJSON endpoints declared as such. Checked by schemathesis (tests/web/api/test_schema.py).
"""

from __future__ import annotations

import inspect
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute

ERROR_SCHEMA = {
    "type": "object",
    "required": ["error", "message"],
    "properties": {
        "error": {"type": "string", "description": "a short code (docs/web.md, 'Errors')"},
        "message": {"type": "string", "description": "one line saying what was wrong"},
    },
}
# Every status an API answer may have besides its success (web/app.py's STATUS, the body limit
# and the limits): the same error body for all.
ERRORS = {
    "400": "bad request: a field past its bound, malformed JSON, an illegal move ...",
    "401": "log in first, or a wrong name or password",
    "403": "not this seat's to do, a bad token, a CSRF check failed, locked or blocked",
    "404": "no such game, player or message",
    "409": "stale, taken, gone, finished or not finished yet",
    "413": "the body is over 64 KiB",
    "429": "over a per-client limit (Retry-After says when to try again)",
    "500": "the server could not do it (logged); nothing was changed",
    "503": "the server is busy (Retry-After says when to try again)",
}
RECORD_MEDIA = "application/x-ndjson"
TEXT = {"type": "string"}


def _media_of(route: APIRoute) -> str | None:
    """The media type of a route that answers text (a PlainTextResponse), else None."""
    returns = inspect.signature(route.endpoint).return_annotation
    if "PlainTextResponse" not in str(returns):
        return None
    return RECORD_MEDIA if route.path.endswith("/record") else "text/plain"


def install(app: FastAPI) -> None:
    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = get_openapi(title=app.title, version=app.version, routes=app.routes)
        schemas = schema.setdefault("components", {}).setdefault("schemas", {})
        schemas["Error"] = ERROR_SCHEMA
        for name in ("HTTPValidationError", "ValidationError"):
            schemas.pop(name, None)
        error_ref = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
        media = {
            (route.path_format, method.lower()): _media_of(route)
            for route in app.routes
            if isinstance(route, APIRoute)
            for method in route.methods or ()
        }
        for path, operations in schema.get("paths", {}).items():
            for method, operation in operations.items():
                responses = operation.setdefault("responses", {})
                responses.pop("422", None)
                for code, why in ERRORS.items():
                    responses.setdefault(code, {"description": why, "content": error_ref})
                text = media.get((path, method))
                if text is not None:
                    for code, answer in responses.items():
                        if code.startswith("2"):
                            answer["content"] = {text: {"schema": TEXT}}
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]
