"""A real terminal for the interactive tests: a command in a tmux pane (its own tmux server
on a private socket), keys sent as a person types them, and the screen (with its
scrollback) read back as a person would see it."""

from __future__ import annotations

import os
import shlex
import subprocess
import time
import uuid
from collections.abc import Callable, Mapping
from pathlib import Path


class Pane:
    """One tmux session running ``command`` at ``width`` x ``height``."""

    def __init__(
        self,
        command: list[str],
        *,
        cwd: Path,
        env: Mapping[str, str] | None = None,
        width: int = 120,
        height: int = 40,
    ) -> None:
        self.socket = f"mb-test-{uuid.uuid4().hex[:10]}"
        self.status = cwd / f"{self.socket}.status"
        environment = {**os.environ, **(env or {}), "TERM": "xterm-256color"}
        # The exit status is written to a file: the pane stays for the last screen.
        # The shell traps Ctrl-C (a handler, not an ignore: the command gets it as usual).
        shell = (
            f"trap true INT; {shlex.join(command)}; echo $? > {shlex.quote(str(self.status))}; "
            "sleep 600"
        )
        self._tmux(
            "new-session", "-d", "-s", "t", "-x", str(width), "-y", str(height), "sh", "-c",
            shell, cwd=cwd, env=environment,
        )  # fmt: skip
        self._tmux("set-option", "-t", "t", "history-limit", "5000")

    def _tmux(self, *args: str, **kwargs: object) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, *args],
            capture_output=True,
            text=True,
            check=True,
            **kwargs,  # type: ignore[call-overload]
        )
        return str(done.stdout)

    def send(self, *keys: str, literal: bool = False) -> None:
        """Keys by tmux name (``Enter``, ``Up``, ``C-c``), or text with ``literal``."""
        self._tmux("send-keys", "-t", "t", *(["-l"] if literal else []), *keys)

    def type(self, line: str) -> None:
        self.send(line, literal=True)
        self.send("Enter")

    def screen(self) -> str:
        return self._tmux("capture-pane", "-p", "-t", "t")

    def everything(self) -> str:
        """The screen with all of the scrollback a user could scroll back to."""
        return self._tmux("capture-pane", "-p", "-S", "-", "-E", "-", "-t", "t")

    def wait_for(
        self, what: str | Callable[[str], bool], timeout: float = 30.0, *, whole: bool = False
    ) -> str:
        test = (lambda text: what in text) if isinstance(what, str) else what
        deadline = time.monotonic() + timeout
        while True:
            text = self.everything() if whole else self.screen()
            if test(text):
                return text
            if time.monotonic() > deadline:
                raise AssertionError(f"waited {timeout} s for {what!r}; the screen:\n{text}")
            time.sleep(0.1)

    def exit_code(self, timeout: float = 30.0) -> int:
        deadline = time.monotonic() + timeout
        while not self.status.exists() or not self.status.read_text().strip():
            if time.monotonic() > deadline:
                raise AssertionError(f"still running after {timeout} s:\n{self.screen()}")
            time.sleep(0.1)
        return int(self.status.read_text())

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)

    def __enter__(self) -> Pane:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
