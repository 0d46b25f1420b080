"""Byte sequences -> vocabulary names, through prompt_toolkit's parser (no terminal needed)."""

from __future__ import annotations

import pytest

from tuinaut.human.decode import KeyDecoder
from tuinaut.terminal.keys import parse_key


def decode(*chunks: bytes) -> list[str | None]:
    decoder = KeyDecoder()
    names: list[str | None] = []
    for chunk in chunks:
        names += [k.name for k in decoder.feed(chunk)]
    return names + [k.name for k in decoder.flush()]


@pytest.mark.parametrize("data, name", [
    (b"q", "q"), (b"Q", "Q"), (b" ", " "), (b"%", "%"), ("é".encode(), "é"),
    (b"\r", "enter"), (b"\t", "tab"), (b"\x7f", "backspace"), (b"\x08", "backspace"), (b"\x1b", "escape"),
    (b"\x1b[A", "up"), (b"\x1bOA", "up"), (b"\x1b[H", "home"), (b"\x1b[F", "end"), (b"\x1b[5~", "page_up"),
    (b"\x1b[6~", "page_down"), (b"\x1b[2~", "insert"), (b"\x1b[3~", "delete"), (b"\x1b[Z", "shift+tab"),
    (b"\x1b[1;2A", "shift+up"), (b"\x1b[1;5C", "ctrl+right"), (b"\x1b[1;3B", "alt+down"),
    (b"\x1bOP", "f1"), (b"\x1bOS", "f4"), (b"\x1b[15~", "f5"), (b"\x1b[24~", "f12"),
    (b"\x01", "ctrl+a"), (b"\x07", "ctrl+g"), (b"\x00", "ctrl+space"), (b"\x1c", "ctrl+\\"), (b"\n", "ctrl+j"),
    (b"\x1bx", "alt+x"), (b"\x1bX", "alt+X"), (b"\x1b ", "alt+space"), (b"\x1b\r", "alt+enter"),
    (b"\x1b\x1b", "alt+escape"), (b"\x1b[", "alt+["),
])
def test_named_keys(data: bytes, name: str) -> None:
    assert decode(data) == [name]
    assert parse_key(name).name == name  # every name is in the shared vocabulary


@pytest.mark.parametrize("data", [b"\x1b[25~", b"\x1b[99~", b"\x1bOZ", b"\x1b[3;2~", b"\x1b\x18", b"\xff",
                                  b"\x1b[27;5;103~", b"\x1b[1;6A"])
def test_keys_outside_the_vocabulary_are_unknown_with_their_bytes(data: bytes) -> None:
    assert decode(data) == [f"unknown:{data.hex()}"]


def test_escape_then_key_in_separate_bursts_is_two_keys() -> None:
    decoder = KeyDecoder()
    assert decoder.feed(b"\x1b") == []
    assert [k.name for k in decoder.flush()] == ["escape"]  # the quiet period ended the burst
    assert [k.name for k in decoder.feed(b"x")] == ["x"]


def test_several_keys_in_one_read_and_split_sequences() -> None:
    assert decode(b"ab\x1b[Ac\x07\x07\x07") == ["a", "b", "up", "c", "ctrl+g", "ctrl+g", "ctrl+g"]
    assert decode(b"\x1b[1", b"5~") == ["f5"]  # one key split over two reads
    assert decode(b"\xc3", b"\xa9") == ["é"]


def test_mouse_reports_are_not_keystrokes_and_pastes_are_their_keys() -> None:
    decoder = KeyDecoder()
    keys = decoder.feed(b"\x1b[<0;3;4M") + decoder.flush()
    assert [(k.name, k.kind) for k in keys] == [(None, "ignored")]
    assert decode(b"\x1b[200~hi\r\x1b[201~") == ["h", "i", "enter"]
