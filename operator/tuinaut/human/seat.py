"""Glue between a person's seat and the attempt engine, without changing the engine.

- ``SeatSandbox`` is the ordinary bubblewrap sandbox whose pane also forwards ``unknown:<hex>``
  keys byte for byte (``Pane.send_raw``). Everything else about provisioning is unchanged.
- ``unknown_press`` wraps such a key in a ``press`` action. The vocabulary validator rejects
  ``unknown:`` names on purpose (an agent may never send one), so the action is built without it:
  only the human harness creates these, from bytes the person's terminal really sent. The engine's
  own accounting already knows the name (``keys.classify``: control, 1 physical key).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model import PressAction
from ..sandbox.base import SANDBOX_HOME
from ..sandbox.bwrap import BwrapSandbox
from ..terminal.tmux import Pane

UNKNOWN_PREFIX = "unknown:"


@dataclass
class RawKeyPane(Pane):
    """The TUI's pane; a key named ``unknown:<hex>`` is sent as those exact bytes."""

    def send_key(self, name: str) -> None:
        if name.startswith(UNKNOWN_PREFIX):
            self.send_raw(bytes.fromhex(name[len(UNKNOWN_PREFIX):]))
        else:
            super().send_key(name)


class SeatSandbox(BwrapSandbox):
    """A bubblewrap sandbox whose TUI pane accepts the human harness's unknown keys."""

    def launch(self, command: str, width: int, height: int, env: dict[str, str], cwd: str = SANDBOX_HOME) -> Pane:
        pane = super().launch(command, width, height, env, cwd)
        return RawKeyPane(pane.server, pane.target)


def unknown_press(name: str) -> PressAction:
    """A press of a key the vocabulary cannot name (see the module docstring)."""
    if not name.startswith(UNKNOWN_PREFIX) or not name[len(UNKNOWN_PREFIX):]:
        raise ValueError(f"not an unknown key name: {name!r}")
    bytes.fromhex(name[len(UNKNOWN_PREFIX):])  # raises on anything but hex
    return PressAction.model_construct(key=name)
