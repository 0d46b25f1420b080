"""Operation cost: atomic key events under the two fixed rules, key classes and class sequences."""

from __future__ import annotations

import time
from collections.abc import Iterable

from .model import Action, KeyCosts, KeyEvent, PressAction, TypeAction
from .terminal.keys import classify, physical_count


def keys_of(action: Action) -> list[str]:
    """The key names an action delivers: one per character typed, one per press, none otherwise."""
    if isinstance(action, TypeAction):
        return list(action.text)
    if isinstance(action, PressAction):
        return [action.key]
    return []


def key_events(names: Iterable[str], t: float) -> list[KeyEvent]:
    return [KeyEvent(t=round(t, 4), key=name, key_class=classify(name).value, physical=physical_count(name))
            for name in names]


def collapse(classes: Iterable[str]) -> list[str]:
    """Class sequence with consecutive repeats collapsed (printable x5, enter -> printable, control)."""
    out: list[str] = []
    for item in classes:
        if not out or out[-1] != item:
            out.append(item)
    return out


def tally(events: Iterable[KeyEvent]) -> KeyCosts:
    """Default rule: one AKE per key event (a chord counts one). Physical rule: each key down."""
    costs = KeyCosts()
    classes = []
    for event in events:
        costs.ake += 1
        costs.ake_physical += event.physical
        costs.by_class[event.key_class] = costs.by_class.get(event.key_class, 0) + 1
        costs.sequence.append(event.key)
        classes.append(event.key_class)
    costs.class_sequence = collapse(classes)
    return costs


class Clock:
    """Monotonic seconds since a start mark (the first rendered screen)."""

    def __init__(self) -> None:
        self.start = time.monotonic()

    def reset(self) -> None:
        self.start = time.monotonic()

    def __call__(self) -> float:
        return time.monotonic() - self.start
