"""The human actor: a person at a real terminal sits in the seat; every keystroke is one action.

``act`` blocks until the person presses a key, decodes it (``human.decode``) and returns it as an
action: a printable character as ``type``, anything else the vocabulary names as ``press``, and a
key it cannot name as a ``press`` of ``unknown:<hex>`` (forwarded byte for byte). The loop delivers
each one with tmux ``send-keys`` and records it, timestamped from the first rendered screen, exactly
as for an agent.

Submitting is three Ctrl+G in a row, each within ``SUBMIT_WINDOW_S`` of the one before. Those three
are never forwarded and never counted. A Ctrl+G that does not become part of a submit (another key
comes first, or the window passes) is an ordinary key: it is forwarded and recorded then, so a
TUI's own Ctrl+G (nano's help) stays reachable.

The actor also ends the attempt when the TUI exits or the task's time limit passes while the person
is idle, since the loop only checks those between keys.
"""

from __future__ import annotations

import json
import time
from collections import deque
from pathlib import Path
from typing import IO, Any

from ..errors import ConfigError, InfraError
from ..human.decode import DecodedKey, KeyDecoder
from ..human.seat import unknown_press
from ..human.terminal import PersonTerminal
from ..human.viewer import Viewer
from ..model import PressAction, SubmitAction, TypeAction
from ..terminal.keys import is_printable_char
from ..terminal.tmux import SESSION, TmuxServer
from .base import ActorContext, Decision, Observation, StopAttempt, register

SUBMIT_KEY = "ctrl+g"
SUBMIT_PRESSES = 3
SUBMIT_WINDOW_S = 1.0  # longest gap between the Ctrl+G presses of one submit
ESCAPE_DELAY_S = 0.05  # a lone ESC is the Escape key once this much quiet follows it
PROBE_INTERVAL_S = 0.25  # how often an idle wait checks that the TUI is still running


class KeystrokeLog:
    """``keystrokes.jsonl`` beside the trajectory: every key read, with what became of it."""

    def __init__(self, path: Path | None, start: float) -> None:
        self.start = start
        self._file: IO[str] | None = open(path, "a", encoding="utf-8") if path else None  # noqa: SIM115

    def write(self, event: str, t: float, **fields: Any) -> None:
        if self._file is not None:
            self._file.write(json.dumps({"event": event, "t": round(t - self.start, 4), **fields}) + "\n")
            self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


class HumanActor:
    needs_observation = False  # the person watches the pane live; the loop need not settle it

    def __init__(self, context: ActorContext, terminal: PersonTerminal, socket_path: Path, *,
                 header: str = "", log_path: Path | None = None) -> None:
        self.context = context
        self.terminal = terminal
        self.started = time.monotonic()  # the loop's clock started just before the actor was made
        self.time_limit_s = min(context.package.task.time_limit_s, context.limits.attempt_timeout_s)
        self.log = KeystrokeLog(log_path, self.started)
        self._server = TmuxServer(socket_path)
        self._decoder = KeyDecoder()
        self._queue: deque[Decision] = deque()
        self._held: list[tuple[float, DecodedKey]] = []  # Ctrl+G presses that may become a submit
        self._submitted = False
        self._last_read = 0.0
        self._unflushed = False
        self._last_probe = self.started
        self.viewer = Viewer(terminal, socket_path, header or _default_header(context), context.package.task.description)
        try:
            terminal.enter_raw()
            terminal.discard_input()  # keys typed while the sandbox was provisioned are not part of it
            self.viewer.open()
            ready = self.viewer.wait_ready()
            self.log.write("viewer_ready" if ready else "viewer_not_ready", time.monotonic())
        except BaseException:
            self.close()
            raise

    # -- the actor protocol ------------------------------------------------------------------------
    def act(self, observation: Observation) -> Decision:
        called = time.monotonic()
        while not self._queue:
            now = time.monotonic()
            remaining = self.time_limit_s - (observation.elapsed_s + now - called)
            if remaining <= 0:
                self.log.write("time_limit", now)
                raise StopAttempt("time_limit")
            deadline = min(now + PROBE_INTERVAL_S, now + remaining)
            if self._unflushed:
                deadline = min(deadline, self._last_read + ESCAPE_DELAY_S)
            if self._held:
                deadline = min(deadline, self._held[-1][0] + SUBMIT_WINDOW_S)
            data = self.terminal.read(deadline - now)
            now = time.monotonic()
            if data == b"":
                raise InfraError("interrupted", "the person's terminal closed; this attempt is redone on resume")
            if data:
                self._last_read, self._unflushed = now, True
                self.log.write("read", now, bytes=data.hex())
                keys = self._decoder.feed(data)
            elif self._unflushed and now - self._last_read >= ESCAPE_DELAY_S:
                self._unflushed = False
                keys = self._decoder.flush()
            else:
                keys = []
            for key in keys:
                self._take(key, now)
            if self._held and now - self._held[-1][0] >= SUBMIT_WINDOW_S:
                self._release_held(now)
            if not self._queue and now - self._last_probe >= PROBE_INTERVAL_S:
                self._last_probe = now
                if self._tui_exited():
                    self.log.write("tui_exited", now)
                    raise StopAttempt("tui_exited")
        return self._queue.popleft()

    def close(self) -> None:
        try:
            self.viewer.close()
        finally:
            self.terminal.leave_raw()
            self.log.close()

    # -- internals ---------------------------------------------------------------------------------
    def _take(self, key: DecodedKey, now: float) -> None:
        if self._submitted:
            self.log.write("after_submit", now, key=key.name, raw=key.raw.hex())
            return
        if key.kind == "ignored":
            self.log.write("ignored", now, raw=key.raw.hex())
            return
        if key.name == SUBMIT_KEY:
            self._held.append((now, key))
            self.log.write("held", now, key=key.name, raw=key.raw.hex())
            if len(self._held) == SUBMIT_PRESSES:
                self._held.clear()
                self._submitted = True
                self._queue.append(Decision(SubmitAction()))
                self.log.write("submit", now)
            return
        self._release_held(now)
        self._queue.append(Decision(_action_for(key)))
        self.log.write("key", now, key=key.name, raw=key.raw.hex())

    def _release_held(self, now: float) -> None:
        """Ctrl+G presses that did not make a submit are ordinary keys after all."""
        for pressed_at, key in self._held:
            self._queue.append(Decision(PressAction(key=SUBMIT_KEY)))
            self.log.write("key", now, key=key.name, raw=key.raw.hex(), pressed=round(pressed_at - self.started, 4))
        self._held.clear()

    def _tui_exited(self) -> bool:
        out = self._server.run("display-message", "-p", "-t", f"{SESSION}:0.0", "#{pane_dead}")
        return bool(out) and out[0].strip() == "1"


def _action_for(key: DecodedKey) -> TypeAction | PressAction:
    assert key.name is not None
    if key.unknown:
        return unknown_press(key.name)
    if is_printable_char(key.name):
        return TypeAction(text=key.name)
    return PressAction(key=key.name)


def _default_header(context: ActorContext) -> str:
    return (f" TUINaut  {context.package.id}  -  when done, press Ctrl+G three times "
            f"(quickly). Use only the keyboard. ")


@register("human")
def _factory(context: ActorContext) -> HumanActor:
    raise ConfigError("agent kind 'human' needs a person at a terminal: run it with `tuinaut human` "
                      "(docs/human.md), not `tuinaut run`")
