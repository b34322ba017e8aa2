"""WebSocket messages over the limit get a ``too-large`` reply at any size, not a closed socket.

A WebSocket library must hold a whole message before the app sees it, and closes the socket
(1009) past its size limit. Instead, :class:`MessageLimiter` sits in front of uvicorn's
WebSocket protocol and rewrites the client's frames as they arrive: a message that grows past
``limit`` bytes reaches the app as exactly ``limit + 1`` bytes (what arrived within the limit,
then spaces), and the rest is dropped as it streams in. The app answers that as too large, so
the reply is the same for 5 kB or 1 GB, memory stays bounded, and the socket stays open.
Control frames (ping, pong, close) pass unchanged.
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

_END_OF_REQUEST = b"\r\n\r\n"
_MAX_REQUEST = 1 << 16  # a handshake this long is passed on for the library to refuse


class MessageLimiter:
    """Rewrites a client's byte stream (the HTTP upgrade request, then masked frames)."""

    def __init__(self, limit: int):
        self.keep = limit + 1  # bytes of a message the app gets at most
        self.in_request = True
        self.pending = b""  # an incomplete request or frame header
        self.left = 0  # payload bytes of the current frame still to come
        self.dropping = False  # ... and they are dropped
        self.message_size = 0  # bytes of the current message passed on

    def feed(self, data: bytes) -> bytes:
        out: list[bytes] = []
        data = self.pending + data
        self.pending = b""
        if self.in_request:
            end = data.find(_END_OF_REQUEST)
            if end < 0 and len(data) < _MAX_REQUEST:
                self.pending = data
                return b""
            cut = len(data) if end < 0 else end + len(_END_OF_REQUEST)
            out.append(data[:cut])
            data = data[cut:]
            self.in_request = False
        while data:
            if self.left:
                chunk, data = data[: self.left], data[self.left :]
                self.left -= len(chunk)
                if not self.dropping:
                    out.append(chunk)
                continue
            header = _parse_header(data)
            if header is None:
                self.pending = data
                break
            size, length = header
            raw, data = data[:size], data[size:]
            out.append(self._header(raw, length))
        return b"".join(out)

    def _header(self, raw: bytes, length: int) -> bytes:
        """The frame header to pass on; sets what happens to the payload that follows."""
        opcode = raw[0] & 0x0F
        self.left = length
        self.dropping = False
        if opcode >= 8:  # control frames are small and must pass
            return raw
        if opcode != 0:  # a text or binary frame starts a message
            self.message_size = 0
        if self.message_size + length <= self.keep:
            self.message_size += length
            return raw
        # Past the limit: this frame carries spaces up to the limit, its payload is dropped.
        fill = self.keep - self.message_size
        self.message_size = self.keep
        self.dropping = True
        return _masked_header(raw[0], fill) + b" " * fill


def _masked_header(first: int, length: int) -> bytes:
    """A client frame header (masked, with a zero key, so the payload is sent as is)."""
    if length < 126:
        size = bytes([0x80 | length])
    elif length < 1 << 16:
        size = bytes([0x80 | 126]) + length.to_bytes(2, "big")
    else:
        size = bytes([0x80 | 127]) + length.to_bytes(8, "big")
    return bytes([first]) + size + b"\0\0\0\0"


def _parse_header(data: bytes) -> tuple[int, int] | None:
    """(header size, payload length) of the frame at the start of ``data``, or None if the
    header is not all there yet."""
    if len(data) < 2:
        return None
    short = data[1] & 0x7F
    size = 2 + (2 if short == 126 else 8 if short == 127 else 0) + (4 if data[1] & 0x80 else 0)
    if len(data) < size:
        return None
    if short == 126:
        length = int.from_bytes(data[2:4], "big")
    elif short == 127:
        length = int.from_bytes(data[2:10], "big")
    else:
        length = short
    return size, length


def message_limited_protocol(limit: int) -> type[WebSocketsSansIOProtocol]:
    """uvicorn's WebSocket protocol with :class:`MessageLimiter` (``limit``: the app's)."""

    class MessageLimitedProtocol(WebSocketsSansIOProtocol):
        limiter: MessageLimiter | None = None

        def data_received(self, data: bytes) -> None:
            if self.limiter is None:
                self.limiter = MessageLimiter(limit)
            passed = self.limiter.feed(data)
            if passed:
                super().data_received(passed)

    return MessageLimitedProtocol
