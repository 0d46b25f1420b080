"""The person's own terminal: raw mode, size, reading keystrokes, writing what they should see."""

from __future__ import annotations

import os
import select
import termios
import tty
from collections.abc import Iterator
from contextlib import contextmanager

from ..errors import ConfigError

# Written when the person's terminal goes raw: no mouse reports, no focus events, no bracketed
# paste. Keystrokes are the only input the harness records.
INPUT_MODES_OFF = b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1005l\x1b[?1006l\x1b[?1015l\x1b[?1004l\x1b[?2004l"
# Written after a viewer goes away: main screen, default attributes, whole-screen scroll region,
# visible cursor, normal cursor and keypad keys.
SCREEN_RESET = b"\x1b[?1049l\x1b[r\x1b[0m\x1b[?25h\x1b[?1l\x1b>"
CLEAR = b"\x1b[H\x1b[2J"


class PersonTerminal:
    """Wraps the file descriptors the person types into and looks at (a real TTY)."""

    def __init__(self, fd_in: int = 0, fd_out: int = 1) -> None:
        if not (os.isatty(fd_in) and os.isatty(fd_out)):
            raise ConfigError("tuinaut human needs a terminal: run it in a terminal window, not through a pipe")
        self.fd_in = fd_in
        self.fd_out = fd_out
        self._saved: list | None = None  # type: ignore[type-arg]

    def size(self) -> tuple[int, int]:
        """(columns, rows)."""
        size = os.get_terminal_size(self.fd_out)
        return size.columns, size.lines

    def write(self, data: bytes | str) -> None:
        if isinstance(data, str):
            data = data.replace("\r\n", "\n").replace("\n", "\r\n").encode("utf-8")
        view = memoryview(data)
        while view:
            try:
                written = os.write(self.fd_out, view)
            except BlockingIOError:
                select.select([], [self.fd_out], [], 1.0)
                continue
            view = view[written:]

    def read(self, timeout_s: float) -> bytes | None:
        """Bytes typed, None when nothing came within the timeout, b"" when the terminal closed."""
        ready, _, _ = select.select([self.fd_in], [], [], max(0.0, timeout_s))
        if not ready:
            return None
        try:
            return os.read(self.fd_in, 4096)
        except OSError:
            return b""

    def discard_input(self) -> None:
        """Drop keys typed ahead (e.g. while the sandbox was being provisioned)."""
        termios.tcflush(self.fd_in, termios.TCIFLUSH)

    @property
    def is_raw(self) -> bool:
        return self._saved is not None

    def enter_raw(self) -> None:
        if self._saved is None:
            self._saved = termios.tcgetattr(self.fd_in)
            tty.setraw(self.fd_in, termios.TCSANOW)
            self.write(INPUT_MODES_OFF)

    def leave_raw(self) -> None:
        if self._saved is not None:
            termios.tcsetattr(self.fd_in, termios.TCSADRAIN, self._saved)
            self._saved = None

    @contextmanager
    def raw(self) -> Iterator[PersonTerminal]:
        already = self.is_raw
        self.enter_raw()
        try:
            yield self
        finally:
            if not already:
                self.leave_raw()
