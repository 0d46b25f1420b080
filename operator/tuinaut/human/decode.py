"""Decode a person's raw terminal bytes into the shared key vocabulary.

The byte-level decoding is prompt_toolkit's VT100 input parser (a maintained table of what real
terminals send: arrows in both cursor modes, function keys, modified keys, Shift+Tab, Ctrl
chords). This module only renames its key names into ours (``c-a`` -> ``ctrl+a``, ``pageup`` ->
``page_up``, ``s-tab`` -> ``shift+tab``) and validates every result with ``parse_key``. Anything the
vocabulary cannot name becomes ``unknown:<hex bytes>`` and is still forwarded byte for byte.

Two things the parser leaves to its caller, handled here:

- **Alt chords.** A terminal sends Alt+x as ESC followed by x in one write; the parser reports an
  Escape key followed by ``x``. An Escape followed by another key from the same burst of input is
  one Alt chord; an Escape alone is reported only once the caller calls ``flush`` after a short
  quiet period (the same escape-time rule tmux and editors use).
- **Unrecognised escape sequences.** The parser splits a sequence it does not know (``ESC [ 9 9 ~``)
  into characters. A CSI (``ESC [`` parameter bytes, intermediate bytes, one final byte, as ECMA-48
  defines them) or SS3 (``ESC O`` plus one byte) arriving in one burst is kept together as one
  unknown key instead of turning into Alt+[ and typed digits.

Mouse reports and cursor-position reports are not keystrokes: they are returned as ``ignored``.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass
from typing import Literal

from prompt_toolkit.input.vt100_parser import Vt100Parser
from prompt_toolkit.key_binding.key_processor import KeyPress
from prompt_toolkit.keys import Keys

from ..terminal.keys import KeyNameError, is_printable_char, parse_key

Kind = Literal["key", "unknown", "ignored"]

# prompt_toolkit names whose meaning in our vocabulary is not a mechanical rename.
_ALIASES = {
    Keys.ControlM.value: "enter",  # CR: the Enter key
    Keys.ControlI.value: "tab",  # HT: the Tab key
    Keys.ControlH.value: "backspace",  # DEL or BS: the Backspace key
    Keys.ControlAt.value: "ctrl+space",  # NUL: Ctrl+Space (also Ctrl+@)
    Keys.BackTab.value: "shift+tab",
}
_NOT_KEYSTROKES = {Keys.Vt100MouseEvent, Keys.WindowsMouseEvent, Keys.CPRResponse, Keys.ScrollUp, Keys.ScrollDown}
_ESC = "\x1b"


@dataclass(frozen=True)
class DecodedKey:
    """One keystroke: ``name`` is a vocabulary name, ``unknown:<hex>``, or None when ignored."""

    name: str | None
    raw: bytes
    kind: Kind

    @property
    def unknown(self) -> bool:
        return self.kind == "unknown"


def unknown_name(raw: bytes) -> str:
    return f"unknown:{raw.hex()}"


def _raw(data: str) -> bytes:
    return data.encode("utf-8", "surrogateescape")


def vocabulary_name(press: KeyPress) -> str | None:
    """Our name for one parsed key, or None when the vocabulary has none."""
    key = press.key
    if not isinstance(key, Keys):
        return key if is_printable_char(key) else None
    value = key.value
    name = _ALIASES.get(value)
    if name is None:
        if value.startswith(("c-s-", "<")):
            return None
        name = value.replace("pageup", "page_up").replace("pagedown", "page_down")
        if name.startswith("c-"):
            name = "ctrl+" + name[2:]
        elif name.startswith("s-"):
            name = "shift+" + name[2:]
    try:
        return parse_key(name).name
    except KeyNameError:
        return None


def _alt_name(press: KeyPress) -> str | None:
    base = vocabulary_name(press)
    if base is None or "+" in base[1:]:
        return None  # Alt plus a chord (Alt+Ctrl+x) has no name in the vocabulary
    if base == " ":
        base = "space"
    try:
        return parse_key(f"alt+{base}").name
    except KeyNameError:
        return None


def _is_param_or_intermediate(char: str) -> bool:
    return len(char) == 1 and 0x20 <= ord(char) <= 0x3F


def _is_final(char: str) -> bool:
    return len(char) == 1 and 0x40 <= ord(char) <= 0x7E


class KeyDecoder:
    """Feed raw bytes as they are read; get keys back. Call ``flush`` after a quiet period."""

    def __init__(self) -> None:
        self._utf8 = codecs.getincrementaldecoder("utf-8")("surrogateescape")
        self._emitted: list[KeyPress] = []
        self._parser = Vt100Parser(self._emitted.append)
        self._escape: KeyPress | None = None  # an Escape that may prefix the next key (Alt chord)
        self._sequence: list[KeyPress] | None = None  # ESC [ ... or ESC O ... being collected

    def feed(self, data: bytes) -> list[DecodedKey]:
        text = self._utf8.decode(data)
        if text:
            self._parser.feed(text)
        return self._drain(final=False)

    def flush(self) -> list[DecodedKey]:
        """End of a burst: a lone Escape is the Escape key; a half-read sequence is what it is."""
        tail = self._utf8.decode(b"", final=True)
        if tail:
            self._parser.feed(tail)
        self._parser.flush()
        return self._drain(final=True)

    @property
    def pending(self) -> bool:
        return self._escape is not None or self._sequence is not None

    # -- internals ---------------------------------------------------------------------------------
    def _drain(self, *, final: bool) -> list[DecodedKey]:
        out: list[DecodedKey] = []
        presses, self._emitted[:] = list(self._emitted), []
        for press in presses:
            self._take(press, out)
        if final:
            self._settle(out)
        return out

    def _take(self, press: KeyPress, out: list[DecodedKey]) -> None:
        if self._sequence is not None and self._continue_sequence(press, out):
            return
        if self._escape is not None:
            escape, self._escape = self._escape, None
            if escape.data == _ESC and press.key in ("[", "O") and press.data == press.key:
                self._sequence = [escape, press]
                return
            name = _alt_name(press)
            raw = _raw(escape.data + press.data)
            out.append(DecodedKey(name, raw, "key") if name else DecodedKey(unknown_name(raw), raw, "unknown"))
            return
        if press.key == Keys.Escape:
            self._escape = press  # decided by the next key of this burst, or by flush
            return
        if press.key == Keys.BracketedPaste:
            inner = KeyDecoder()  # a paste is the keys it contains, one by one
            out.extend(inner.feed(_raw(press.data)) + inner.flush())
            return
        if press.key in _NOT_KEYSTROKES:
            out.append(DecodedKey(None, _raw(press.data), "ignored"))
            return
        name = vocabulary_name(press)
        raw = _raw(press.data)
        out.append(DecodedKey(name, raw, "key") if name else DecodedKey(unknown_name(raw), raw, "unknown"))

    def _continue_sequence(self, press: KeyPress, out: list[DecodedKey]) -> bool:
        """Extend an ESC [ / ESC O sequence; True when ``press`` was consumed by it."""
        assert self._sequence is not None
        char = press.key if not isinstance(press.key, Keys) and press.data == press.key else None
        introducer = self._sequence[1].key
        if char is not None and introducer == "[" and _is_param_or_intermediate(char):
            self._sequence.append(press)
            return True
        if char is not None and _is_final(char):
            raw = _raw("".join(p.data for p in self._sequence) + char)
            self._sequence = None
            out.append(DecodedKey(unknown_name(raw), raw, "unknown"))
            return True
        self._unwind_sequence(out)
        return False

    def _unwind_sequence(self, out: list[DecodedKey]) -> None:
        """Not a sequence after all: Alt+[ (or Alt+O) followed by whatever was typed."""
        assert self._sequence is not None
        escape, introducer, *rest = self._sequence
        self._sequence = None
        name = _alt_name(introducer)
        raw = _raw(escape.data + introducer.data)
        out.append(DecodedKey(name, raw, "key") if name else DecodedKey(unknown_name(raw), raw, "unknown"))
        for press in rest:
            self._take(press, out)

    def _settle(self, out: list[DecodedKey]) -> None:
        if self._sequence is not None:
            self._unwind_sequence(out)
        if self._escape is not None:
            escape, self._escape = self._escape, None
            raw = _raw(escape.data)
            if escape.data == _ESC:
                out.append(DecodedKey("escape", raw, "key"))
            else:
                out.append(DecodedKey(unknown_name(raw), raw, "unknown"))
