"""The key vocabulary shared by agents, reference scripts and humans, and its accounting.

One name per key (ARCHITECTURE.md, fixed): printable characters; named keys; chords
``ctrl+<key>``, ``alt+<key>``, ``shift+<nav key>``, ``ctrl+<nav key>``. This module knows how each
name is classified, what it costs under the two atomic-key-event rules, and how tmux spells it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import lru_cache


class KeyClass(str, enum.Enum):
    printable = "printable"
    navigation = "navigation"
    deletion = "deletion"
    control = "control"


NAVIGATION_KEYS = ("up", "down", "left", "right", "home", "end", "page_up", "page_down", "tab")
DELETION_KEYS = ("backspace", "delete")
FUNCTION_KEYS = tuple(f"f{n}" for n in range(1, 13))
OTHER_NAMED_KEYS = ("enter", "escape", "insert", "space")
NAMED_KEYS = NAVIGATION_KEYS + DELETION_KEYS + FUNCTION_KEYS + OTHER_NAMED_KEYS + ("shift+tab",)

_TMUX_NAMES = {
    "enter": "Enter", "tab": "Tab", "shift+tab": "BTab", "escape": "Escape", "backspace": "BSpace",
    "delete": "DC", "insert": "IC", "up": "Up", "down": "Down", "left": "Left", "right": "Right",
    "home": "Home", "end": "End", "page_up": "PPage", "page_down": "NPage", "space": "Space",
    **{f"f{n}": f"F{n}" for n in range(1, 13)},
}
_MODIFIERS = {"ctrl": "C-", "alt": "M-", "shift": "S-"}

# Characters typed with Shift held on a US layout: the physical rule counts the Shift key down too.
_SHIFTED_SYMBOLS = set('~!@#$%^&*()_+{}|:"<>?')


class KeyNameError(ValueError):
    """A key name outside the vocabulary."""


@dataclass(frozen=True)
class Key:
    """A parsed key name: ``base`` is a named key or one printable character."""

    name: str
    modifier: str | None
    base: str

    @property
    def key_class(self) -> KeyClass:
        return classify(self.name)

    @property
    def tmux(self) -> str:
        return tmux_key(self.name)


def is_printable_char(char: str) -> bool:
    return len(char) == 1 and (char == " " or char.isprintable())


@lru_cache(maxsize=512)
def parse_key(name: str) -> Key:
    """Validate a key name and split it into modifier and base.

    >>> parse_key("ctrl+s")
    Key(name='ctrl+s', modifier='ctrl', base='s')
    >>> parse_key("A").base
    'A'
    """
    if not isinstance(name, str) or not name:
        raise KeyNameError("a key name must be a non-empty string")
    if is_printable_char(name):
        return Key(name, None, name)
    lowered = name.lower()
    if lowered in NAMED_KEYS:
        return Key(lowered, None, lowered)
    if "+" in name and len(name) > 2:
        modifier, _, base = name.partition("+")
        modifier = modifier.lower()
        if modifier in _MODIFIERS and base:
            base_norm = base if is_printable_char(base) else base.lower()
            if modifier == "ctrl" and len(base_norm) == 1:
                base_norm = base_norm.lower()  # ctrl+A and ctrl+a are the same key press
            if base_norm == "shift+tab" or (base_norm not in NAMED_KEYS and not is_printable_char(base_norm)):
                raise KeyNameError(f"unknown key {base!r} in chord {name!r}")
            if modifier == "shift" and base_norm not in NAVIGATION_KEYS:
                raise KeyNameError(
                    f"shift+ applies to navigation keys only ({', '.join(NAVIGATION_KEYS)}); "
                    f"type the uppercase character instead of {name!r}"
                )
            if modifier == "shift" and base_norm == "tab":
                return Key("shift+tab", None, "shift+tab")
            return Key(f"{modifier}+{base_norm}", modifier, base_norm)
    raise KeyNameError(
        f"unknown key {name!r}: use one printable character, a named key "
        f"({', '.join(NAMED_KEYS)}) or a chord such as ctrl+s, alt+x, shift+up, ctrl+left"
    )


def classify(name: str) -> KeyClass:
    """Key class by the fixed rule: modified navigation keys stay navigation."""
    key = _split(name)
    if key.modifier is None and is_printable_char(key.base):
        return KeyClass.printable
    if key.base in NAVIGATION_KEYS or key.base == "shift+tab":
        return KeyClass.navigation
    if key.modifier is None and key.base in DELETION_KEYS:
        return KeyClass.deletion
    if key.modifier is None and key.base == "space":
        return KeyClass.printable
    return KeyClass.control


def physical_count(name: str) -> int:
    """Key-down events under the physical rule (W3C KeyboardEvent codes)."""
    if name.startswith("unknown:"):
        return 1
    key = _split(name)
    if key.modifier is None and is_printable_char(key.base):
        return 2 if _needs_shift(key.base) else 1
    if key.base == "shift+tab":
        return 2
    base_cost = 2 if len(key.base) == 1 and _needs_shift(key.base) else 1
    return base_cost + (1 if key.modifier else 0)


def tmux_key(name: str) -> str:
    """The tmux send-keys spelling of a key name (not for printable text: send that literally)."""
    key = _split(name)
    base = _TMUX_NAMES.get(key.base, key.base)
    return f"{_MODIFIERS[key.modifier]}{base}" if key.modifier else base


def _split(name: str) -> Key:
    # Trajectories may carry "unknown:<bytes>" keys from the human harness: they are control keys.
    if name.startswith("unknown:"):
        return Key(name, "unknown", name)
    return parse_key(name)


def _needs_shift(char: str) -> bool:
    return char.isupper() or char in _SHIFTED_SYMBOLS
