"""Hardening that is not a game rule (docs/security.md): response headers, origin checks on
WebSockets, a cap on sockets per address, and access logs that never show a seat token."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable
from itertools import accumulate
from typing import Annotated
from urllib.parse import urlsplit

from fastapi import Header, Path, Query
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("monsterball.web")

# The client is one page, one module and one style sheet from this server, and its socket.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",  # SVG pieces are styled by attribute
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=(), usb=()"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
HSTS = (b"strict-transport-security", b"max-age=31536000")


class SecurityHeaders:
    """Adds HEADERS to every HTTP response (pages, API, static files, errors), and HSTS when
    the request came over HTTPS (behind a proxy: run uvicorn with --proxy-headers, or let
    the proxy send it)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = HEADERS + ([HSTS] if scope.get("scheme") == "https" else [])

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                have = {name.lower() for name, _ in message.get("headers", [])}
                message["headers"] = [
                    *message.get("headers", []),
                    *((n, v) for n, v in extra if n not in have),
                ]
            await send(message)

        await self.app(scope, receive, with_headers)


class ServerErrors:
    """Answers an exception no handler took with ``answer`` (the API's 500) and ends it here.
    Starlette's own last resort re-raises after answering, and uvicorn then closes the
    connection, so the next request a client sent on that keep-alive connection was reset;
    and it logged the traceback a second time. An answer already begun cannot be mended: then
    the connection must close (re-raised)."""

    def __init__(self, app: ASGIApp, answer: Callable[[], ASGIApp]):
        self.app = app
        self.answer = answer

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except Exception:
            log.exception("request failed: %s %s", scope.get("method"), scope.get("path"))
            if started:
                raise
            await self.answer()(scope, receive, send)


class ReadLimit:
    """The per-address limit on API reads (``GET /api/...``): ``take(address)`` raises the
    API's Rejected past it, answered by ``answer(exc)`` before the route runs."""

    def __init__(
        self,
        app: ASGIApp,
        take: Callable[[str], None],
        answer: Callable[[Exception], ASGIApp],
    ):
        self.app = app
        self.take = take
        self.answer = answer

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        reading = scope["type"] == "http" and scope["method"] in ("GET", "HEAD")
        if reading and scope["path"].startswith("/api/"):
            client = scope.get("client")
            try:
                self.take(client[0] if client else "unknown")
            except Exception as exc:  # Rejected: too many
                await self.answer(exc)(scope, receive, send)
                return
        await self.app(scope, receive, send)


class BodyLimit:
    """Refuses request bodies over ``limit`` bytes, by their declared length or as they
    arrive (a chunked body has no length), and JSON nested deeper than MAX_JSON_DEPTH,
    before any handler reads them: the body (at most ``limit`` bytes) is read here first."""

    def __init__(self, app: ASGIApp, limit: int, answer: Callable[[str, str], ASGIApp]):
        self.app = app
        self.limit = limit
        self.answer = answer  # (code, message) -> the response

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(scope, receive, send, "too-large")
            return
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunks.append(message.get("body", b""))
            seen += len(chunks[-1])
            if seen > self.limit:
                await self._refuse(scope, receive, send, "too-large")
                return
            if not message.get("more_body"):
                break
        body = b"".join(chunks)
        if json_depth(body) > MAX_JSON_DEPTH:
            await self._refuse(scope, receive, send, "too-deep")
            return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, why: str) -> None:
        if why == "too-large":
            response = self.answer("too-large", f"request bodies are limited to {self.limit} bytes")
        else:
            response = self.answer(
                "bad-request", f"JSON may nest at most {MAX_JSON_DEPTH} levels deep"
            )
        await response(scope, receive, send)


def origin_allowed(headers: Iterable[tuple[bytes, bytes]], allowed: Iterable[str]) -> bool:
    """A WebSocket handshake may go on: it names no Origin (not a browser), or its Origin is
    the host it was sent to, or one of ``allowed`` (``https://games.example``)."""
    found = dict(headers)
    origin = found.get(b"origin")
    if origin is None:
        return True
    text = origin.decode("latin-1").strip().lower()
    if text in {a.strip().lower().rstrip("/") for a in allowed}:
        return True
    host = found.get(b"host", b"").decode("latin-1").strip().lower()
    return bool(host) and urlsplit(text).netloc == host


class SocketCounter:
    """Open WebSockets per address, to cap them."""

    def __init__(self, limit: int):
        self.limit = limit
        self.open: dict[str, int] = {}

    def enter(self, address: str) -> bool:
        if self.limit > 0 and self.open.get(address, 0) >= self.limit:
            return False
        self.open[address] = self.open.get(address, 0) + 1
        return True

    def leave(self, address: str) -> None:
        left = self.open.get(address, 0) - 1
        if left > 0:
            self.open[address] = left
        else:
            self.open.pop(address, None)


_TOKEN = re.compile(r"(token=)[^&\s\"]*", re.IGNORECASE)


def redact(text: str) -> str:
    return _TOKEN.sub(r"\1[redacted]", text)


class RedactTokens(logging.Filter):
    """Removes seat tokens from log records (uvicorn's access log prints query strings)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        return True


# -- input limits shared by every route --------------------------------------------------

MAX_TOKEN = 64  # seat tokens are 24 characters; longer ones are refused unread
MAX_JSON_DEPTH = 32  # a request body or socket message nested deeper is refused
GameId = Annotated[str, Path(max_length=64)]  # ids are 16 hex digits
URL_SAFE = re.compile(r"[A-Za-z0-9_-]{1,64}")  # game ids and seat tokens (secrets.token_*)


def seat_token(
    token: Annotated[str | None, Query(max_length=MAX_TOKEN)] = None,
    seat_token: Annotated[str | None, Header(max_length=MAX_TOKEN)] = None,
) -> str | None:
    """A request's seat token: the ``Seat-Token`` header (what the browser client sends, out
    of URLs and logs), or ``?token=`` (old links and scripts)."""
    return seat_token or token


# A string, its closing quote optional so that a match never fails and backtracks (linear).
_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"?', re.DOTALL)
_NOT_BRACKET = re.compile(rb"[^\[\]{}]+")


def json_depth(data: bytes) -> int:
    """How deeply the arrays and objects of JSON text nest (brackets inside strings do not
    count); linear in the length, so it is cheap to check before parsing."""
    brackets = _NOT_BRACKET.sub(b"", _JSON_STRING.sub(b"", data)).translate(_OPENS)
    return max(accumulate(1 if b == 1 else -1 for b in brackets), default=0)


_OPENS = bytes.maketrans(b"[{]}", b"\x01\x01\x00\x00")
