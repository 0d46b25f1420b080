"""The semantic observation loses nothing a user can see: decode it back and compare with the snapshot.

The decoder below reads only the semantic text (the optional ``screen default`` line, the tags, the
``&lt;`` escape) and rebuilds each cell's character and (fg, bg, bold, reverse, underline). It must
agree with the snapshot on every non-space cell entirely, and on every space's background, reverse
and underline (a space's text colour and boldness are invisible, so the encoder may drop them).
Cells past the end of a row's text, and rows past the last one, are blank in the screen default.

Checked on every real screen kept under runs/starter (final_screen.ansi of each attempt; create it
with ``tuinaut run benchmark/evaluations/starter.yaml --out runs/starter``) and on seeded random
screens that mix 16/256/true colours, emphasis, wide characters and tag look-alikes.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from screens import screen

from tuinaut.observe.plain import encode_plain
from tuinaut.observe.semantic import encode_semantic
from tuinaut.terminal.snapshot import DEFAULT, Snapshot, parse_capture

ROOT = Path(__file__).resolve().parents[2]
STARTER = ROOT / "runs" / "starter"

HEADER = re.compile(r"screen default: fg=(\S+) bg=(\S+) \(")
TOKEN = re.compile(r"<(fg|bg):([^<>\s]+)>|<(bold|reverse|underline)>|</(fg|bg|bold|reverse|underline)>|&lt;|.", re.S)
TAG = re.compile(r"</?(?:fg|bg)(?::[#\w]+)?>|</?(?:bold|reverse|underline)>")
FIELDS = ("fg", "bg", "bold", "reverse", "underline")

Decoded = tuple[dict[str, object], list[list[tuple[str, dict[str, object]]]]]


def decode(text: str) -> Decoded:
    """The screen default and, per row, (character, style) for each character written."""
    lines = text.split("\n") if text else []
    base: dict[str, object] = {"fg": DEFAULT, "bg": DEFAULT, "bold": False, "reverse": False, "underline": False}
    if lines and (match := HEADER.match(lines[0])):
        base.update(fg=match[1], bg=match[2])
        lines = lines[1:]
    rows = []
    for line in lines:
        stack: list[tuple[str, object]] = []
        cells = []
        for token in TOKEN.finditer(line):
            if token[1]:
                stack.append((token[1], token[2]))
            elif token[3]:
                stack.append((token[3], True))
            elif token[4]:
                assert stack and stack[-1][0] == token[4], f"</{token[4]}> closes {stack} in {line!r}"
                stack.pop()
            else:
                style = dict(base)
                style.update(stack)  # innermost wins
                cells.append(("<" if token[0] == "&lt;" else token[0], style))
        assert not stack, f"tags left open at the end of {line!r}"
        rows.append(cells)
    return base, rows


def assert_round_trip(snapshot: Snapshot, label: str = "") -> None:
    base, rows = decode(encode_semantic(snapshot))
    assert len(rows) <= snapshot.height, label
    for y, row in enumerate(snapshot.rows):
        cells = [cell for cell in row if cell.char != ""]  # "" is the right half of a wide character
        decoded = rows[y] if y < len(rows) else []
        assert len(decoded) <= len(cells), (label, y)
        for x, cell in enumerate(cells):
            char, style = decoded[x] if x < len(decoded) else (" ", base)  # the blank end of a row
            where = f"{label} row {y + 1} char {x + 1} {cell!r} decoded {char!r} {style}"
            assert char == cell.char, where
            wanted = dict(zip(FIELDS, cell.style, strict=True))
            seen = ("bg", "reverse", "underline") if cell.char == " " else FIELDS
            assert {k: style[k] for k in seen} == {k: wanted[k] for k in seen}, where


def assert_guarantees(snapshot: Snapshot, label: str = "", *, reopen_free: bool = False) -> None:
    text = encode_semantic(snapshot)
    lines = text.splitlines()
    if lines and HEADER.match(lines[0]):
        lines = lines[1:]
    # Without tags it is the plain observation (styled blank cells aside, which plain trims).
    untagged = [TAG.sub("", line).replace("&lt;", "<").rstrip() for line in lines]
    while untagged and not untagged[-1]:
        untagged.pop()
    assert untagged == encode_plain(snapshot).splitlines(), label
    if not reopen_free:
        return
    for line in lines:
        # Between two characters no tag is closed and reopened with the same value: a run of one
        # value is tagged once. (On arbitrary screens proper nesting can force it, e.g. a run that
        # starts inside one tag and ends inside another; the real screens never need it.)
        stack: list[tuple[str, str]] = []
        closed_here: list[tuple[str, str]] = []
        for token in TOKEN.finditer(line):
            if token[1] or token[3]:
                tag = (token[1] or token[3], token[2] or "")
                assert tag not in closed_here, (label, line)
                stack.append(tag)
            elif token[4]:
                closed_here.append(stack.pop())
            else:
                closed_here = []


def final_screens(run: Path) -> list[tuple[str, Snapshot]]:
    screens: dict[str, tuple[str, Snapshot]] = {}
    for path in sorted(run.glob("attempts/*/*/*/*/final_screen.ansi")):
        header = json.loads((path.parent / "trajectory.jsonl").read_text(encoding="utf-8").splitlines()[0])
        pane = header["pane"]
        snap = parse_capture(path.read_text(encoding="utf-8"), width=pane["width"], height=pane["height"])
        screens.setdefault(snap.digest, (str(path.parent.relative_to(run / "attempts")), snap))
    return list(screens.values())


@pytest.fixture(scope="module")
def real_screens(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, Snapshot]]:
    """Final screens of the starter benchmark's real TUIs: from runs/starter when it exists, otherwise
    from a few reference attempts run here (so the proof never silently skips)."""
    if STARTER.is_dir() and final_screens(STARTER):
        return final_screens(STARTER)
    from tuinaut.local.executor import plan_evaluation, run_plan

    out = tmp_path_factory.mktemp("screens")
    evaluation = out / "screens.yaml"
    evaluation.write_text(
        "apiVersion: tuinaut.dev/v1alpha1\nkind: Evaluation\nmetadata: {name: screens}\n"
        "spec:\n  tasks: [mc/select-file, mc/delete-file, htop/sort-by-memory, htop/tree-view, nano/show-help,"
        " nano/fix-typo]\n  agents: [{name: reference, kind: reference}]\n  parallelism: 2\n")
    run_plan(plan_evaluation(evaluation, STARTER.parent.parent / "benchmark"), out / "run")
    screens = final_screens(out / "run")
    assert len(screens) >= 6
    return screens


def test_real_screens_round_trip(real_screens: list[tuple[str, Snapshot]]) -> None:
    for label, snap in real_screens:
        assert_round_trip(snap, label)
        assert_guarantees(snap, label, reopen_free=True)


def test_real_screens_cover_a_painted_background(real_screens: list[tuple[str, Snapshot]]) -> None:
    """The file manager paints its own background, so the screen-default path is exercised for real."""
    headers = [label for label, snap in real_screens if HEADER.match(encode_semantic(snap))]
    assert any(label.startswith("mc/") for label in headers), headers


_BASE = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]
_COLOURS = [DEFAULT, "red", "bright_white", "blue", "cyan", "color_208", "color_4", "#102030"]


def _sgr(fg: str, bg: str, bold: bool, reverse: bool, underline: bool) -> str:
    codes = ["0"]
    for base, name in ((30, fg), (40, bg)):
        if name == DEFAULT:
            continue
        if name.startswith("color_"):
            codes.append(f"{base + 8};5;{name[6:]}")
        elif name.startswith("#"):
            codes.append(f"{base + 8};2;{int(name[1:3], 16)};{int(name[3:5], 16)};{int(name[5:7], 16)}")
        elif name.startswith("bright_"):
            codes.append(str(base + 60 + _BASE.index(name[7:])))
        else:
            codes.append(str(base + _BASE.index(name)))
    codes += [code for flag, code in ((bold, "1"), (reverse, "7"), (underline, "4")) if flag]
    return f"\x1b[{';'.join(codes)}m"


def random_screen(rng: random.Random, width: int = 40, height: int = 6) -> Snapshot:
    theme = rng.choice([(DEFAULT, DEFAULT), ("white", "blue"), ("black", "cyan")])
    lines = []
    for _ in range(height):
        used, parts = 0, []
        while used < width - 8 and rng.random() < 0.9:
            themed = rng.random() < 0.6
            fg = theme[0] if themed else rng.choice(_COLOURS)
            bg = theme[1] if themed else rng.choice(_COLOURS)
            flags = [rng.random() < 0.15 for _ in range(3)]
            text = "".join(rng.choice(["a", "b", " ", " ", "│", "<", "日", "<fg:red>", "</bold>"])
                           for _ in range(rng.randint(1, 5)))
            text = text[:max(1, width - 8 - used)]
            used += sum(2 if ch == "日" else 1 for ch in text)
            parts.append(_sgr(fg, bg, *flags) + text)
        if theme != (DEFAULT, DEFAULT) and rng.random() < 0.7:  # a painted row end, as mc draws
            parts.append(_sgr(theme[0], theme[1], False, False, False) + " " * (width - used))
        lines.append("".join(parts) + "\x1b[0m")
    return parse_capture("\n".join(lines), width=width, height=height)


@pytest.mark.parametrize("seed", range(150))
def test_random_screens_round_trip(seed: int) -> None:
    snap = random_screen(random.Random(seed))
    assert_round_trip(snap, f"seed {seed}")
    assert_guarantees(snap, f"seed {seed}")


def test_the_synthetic_menu_round_trips() -> None:
    assert_round_trip(screen())
    assert_guarantees(screen(), reopen_free=True)
