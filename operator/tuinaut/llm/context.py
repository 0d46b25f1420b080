"""The conversation one attempt builds up, and the policy for how much of it is re-sent.

A fresh conversation per attempt holds the protocol (system message), the task, and then one user
message per observed screen and one assistant message per reply. Reasoning text is never re-sent:
it is recorded in the trajectory only.

Two knobs keep long runs inside a context window:

* ``keep_last_observations`` (K): only the last K screens are sent in full; older ones shrink to a
  one-line note. Replies stay, so the model still knows what it did. Unset keeps everything, which
  is the method's default.
* ``keep_last_images``: screenshots are the expensive part of image mode, so by default only the
  latest one is sent; older ones become a note even when K would keep their turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class _Turn:
    header: str
    screen: str | None = None  # text modes
    image_url: str | None = None  # image mode
    reply: str | None = None


class Conversation:
    def __init__(self, system: str, task: str, *, keep_last_observations: int | None = None,
                 keep_last_images: int = 1) -> None:
        self.system = system
        self.task = task
        self.keep_last_observations = keep_last_observations
        self.keep_last_images = keep_last_images
        self._turns: list[_Turn] = []

    def __len__(self) -> int:
        return len(self._turns)

    def add_observation(self, header: str, *, screen: str | None = None, image_url: str | None = None) -> None:
        """A new screen; ``header`` is a short text (turn, feedback, cursor) shown before it."""
        self._turns.append(_Turn(header=header, screen=screen, image_url=image_url))

    def add_reply(self, text: str) -> None:
        """The model's answer to the latest observation, exactly as it came (not its reasoning)."""
        self._turns[-1].reply = text

    def messages(self) -> list[dict[str, Any]]:
        """The Chat Completions ``messages`` for the next request, with the context policy applied."""
        out: list[dict[str, Any]] = [{"role": "system", "content": self.system}]
        count = len(self._turns)
        for index, turn in enumerate(self._turns):
            age = count - 1 - index  # 0 for the latest screen
            keep = self.keep_last_observations is None or age < self.keep_last_observations
            prefix = f"{self.task}\n\n" if index == 0 else ""
            if turn.image_url is not None:
                if keep and age < self.keep_last_images:
                    out.append({"role": "user", "content": [
                        {"type": "text", "text": prefix + turn.header},
                        {"type": "image_url", "image_url": {"url": turn.image_url}},
                    ]})
                else:
                    out.append({"role": "user", "content": f"{prefix}{turn.header}\n(screenshot omitted)"})
            elif keep:
                out.append({"role": "user", "content": f"{prefix}{turn.header}\n{turn.screen or ''}"})
            else:
                out.append({"role": "user", "content": f"{prefix}{turn.header}\n(screen omitted)"})
            if turn.reply is not None:
                out.append({"role": "assistant", "content": turn.reply})
        return out
