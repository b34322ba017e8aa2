"""The API's one error shape, ``{"error": code, "message": text}`` with the code's status
(docs/web.md, "Errors"), for every failure: a refusal, a routing or body error, a crash."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from monsterball.web.hardening.security import HEADERS
from monsterball.web.live.game import Rejected

STATUS = {
    "bad-request": 400,
    "illegal": 400,
    "bad-json": 400,
    "spectator": 403,
    "wrong-seat": 403,
    "bad-token": 403,
    "csrf": 403,
    "locked": 403,
    "blocked": 403,
    "login-required": 401,
    "bad-login": 401,
    "taken": 409,
    "gone": 409,
    "not-found": 404,
    "stale": 409,
    "finished": 409,
    "refused": 409,
    "not-finished": 409,
    "too-large": 413,
    "too-many": 429,
    "busy": 503,
    "server-error": 500,
}
SERVER_ERROR = "the server could not do that (it is logged); nothing was changed, try again"
log = logging.getLogger("monsterball.web")


def error(code: str, message: str, retry_after: int | None = None) -> JSONResponse:
    # The security headers here too: a 500 is answered outside the middleware.
    headers = {name.decode(): value.decode() for name, value in HEADERS}
    if retry_after is not None:
        headers["retry-after"] = str(retry_after)
    return JSONResponse(
        {"error": code, "message": message}, status_code=STATUS.get(code, 400), headers=headers
    )


def refusal(exc: Exception) -> JSONResponse:
    """A Rejected raised outside the routes (the read limit), in the API's shape."""
    if isinstance(exc, Rejected):
        return error(exc.code, exc.message, exc.retry_after)
    return error("server-error", SERVER_ERROR)


def server_error() -> JSONResponse:
    return error("server-error", SERVER_ERROR)


def ws_error(code: str, message: str, retry_after: int | None = None) -> dict[str, Any]:
    """The same error as a socket message."""
    reply: dict[str, Any] = {"type": "error", "error": code, "message": message}
    if retry_after is not None:
        reply["retry_after"] = retry_after
    return reply


async def rejected(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, Rejected)
    return error(exc.code, exc.message, exc.retry_after)


async def http_error(_: Request, exc: Exception) -> JSONResponse:
    # Routing and body-parsing errors, in the API's own shape.
    assert isinstance(exc, StarletteHTTPException)
    code = {404: "not-found", 413: "too-large"}.get(exc.status_code, "bad-request")
    response = error(code, str(exc.detail))
    response.status_code = exc.status_code
    response.headers.update(exc.headers or {})  # a 405's Allow
    return response


async def too_deep(_: Request, exc: Exception) -> JSONResponse:
    return error("bad-request", "the JSON body is nested too deeply")


async def failed(_: Request, exc: Exception) -> JSONResponse:
    log.error("request failed", exc_info=exc)
    return error("server-error", SERVER_ERROR)


async def invalid(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    problems = "; ".join(
        f"{'.'.join(str(p) for p in e['loc'] if p != 'body') or 'body'}: {e['msg']}"
        for e in exc.errors()
    )
    return error("bad-request", problems or "malformed request")


def add_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(Rejected, rejected)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(RecursionError, too_deep)
    app.add_exception_handler(Exception, failed)
    app.add_exception_handler(RequestValidationError, invalid)
