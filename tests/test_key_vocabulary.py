"""The key vocabulary, key classes and the two atomic-key-event rules (fixed in ARCHITECTURE.md)."""

from __future__ import annotations

import pytest

from tuinaut.costs import collapse, key_events, keys_of, tally
from tuinaut.model import PressAction, SubmitAction, TypeAction, WaitAction
from tuinaut.terminal.keys import KeyClass, KeyNameError, classify, parse_key, physical_count, tmux_key


@pytest.mark.parametrize("name, expected", [
    ("a", KeyClass.printable), ("A", KeyClass.printable), (" ", KeyClass.printable), ("%", KeyClass.printable),
    ("space", KeyClass.printable),
    ("up", KeyClass.navigation), ("page_down", KeyClass.navigation), ("tab", KeyClass.navigation),
    ("shift+tab", KeyClass.navigation), ("shift+up", KeyClass.navigation), ("ctrl+left", KeyClass.navigation),
    ("home", KeyClass.navigation), ("end", KeyClass.navigation),
    ("backspace", KeyClass.deletion), ("delete", KeyClass.deletion),
    ("enter", KeyClass.control), ("escape", KeyClass.control), ("insert", KeyClass.control),
    ("f5", KeyClass.control), ("ctrl+s", KeyClass.control), ("alt+x", KeyClass.control),
    ("unknown:1b5b3939", KeyClass.control),
])
def test_classes(name: str, expected: KeyClass) -> None:
    assert classify(name) is expected


@pytest.mark.parametrize("name, downs", [
    ("a", 1), ("A", 2), ("%", 2), (" ", 1), ("7", 1), ("enter", 1), ("ctrl+a", 2), ("alt+x", 2),
    ("shift+tab", 2), ("shift+up", 2), ("ctrl+left", 2), ("f12", 1), ("alt+X", 3),
])
def test_physical_rule(name: str, downs: int) -> None:
    assert physical_count(name) == downs


@pytest.mark.parametrize("name, tmux", [
    ("enter", "Enter"), ("shift+tab", "BTab"), ("backspace", "BSpace"), ("delete", "DC"), ("page_up", "PPage"),
    ("ctrl+s", "C-s"), ("ctrl+S", "C-s"), ("alt+x", "M-x"), ("ctrl+up", "C-Up"), ("shift+right", "S-Right"),
    ("f10", "F10"), ("insert", "IC"),
])
def test_tmux_names(name: str, tmux: str) -> None:
    assert tmux_key(name) == tmux


@pytest.mark.parametrize("bad", ["", "ctrl+", "enterr", "hyper+a", "shift+a", "ctrl+shift+tab", "\n", "ab"])
def test_unknown_keys_are_rejected(bad: str) -> None:
    with pytest.raises(KeyNameError):
        parse_key(bad)


def test_names_are_normalised() -> None:
    assert parse_key("Enter").name == "enter"
    assert parse_key("CTRL+x").name == "ctrl+x"
    assert parse_key("shift+tab").name == "shift+tab"


def test_default_and_physical_tallies() -> None:
    actions = [TypeAction(text="Hi!"), PressAction(key="ctrl+s"), WaitAction(ms=10), PressAction(key="left"),
               PressAction(key="left"), PressAction(key="backspace"), SubmitAction()]
    events = [event for action in actions for event in key_events(keys_of(action), 0.0)]
    costs = tally(events)
    assert costs.ake == 3 + 1 + 0 + 1 + 1 + 1  # wait and submit count zero; a chord counts one
    assert costs.ake_physical == (2 + 1 + 2) + 2 + 1 + 1 + 1  # H and ! need Shift; ctrl+s is two keys down
    assert costs.by_class == {"printable": 3, "control": 1, "navigation": 2, "deletion": 1}
    assert costs.sequence == ["H", "i", "!", "ctrl+s", "left", "left", "backspace"]
    assert costs.class_sequence == ["printable", "control", "navigation", "deletion"]


def test_collapse() -> None:
    assert collapse(["a", "a", "b", "a", "a"]) == ["a", "b", "a"]
    assert collapse([]) == []
