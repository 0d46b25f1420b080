"""The three observation encoders, from one snapshot each."""

from __future__ import annotations

import io
import re

from PIL import Image
from screens import screen

from tuinaut.observe.image import colour_rgb, palette_rgb, renderer
from tuinaut.observe.plain import describe_cursor, encode_plain
from tuinaut.observe.semantic import encode_semantic

TAG = re.compile(r"</?(?:fg|bg)(?::[#\w]+)?>|</?(?:bold|reverse|underline)>")


def test_plain_is_the_visible_text_with_cursor_apart() -> None:
    snap = screen()
    text = encode_plain(snap)
    assert text.splitlines()[2] == "  > notes.txt"
    assert all(line == line.rstrip() for line in text.splitlines())
    assert describe_cursor(snap) == "Cursor: row 3, column 5"
    assert text == snap.plain  # nothing drawn into the cells


def test_semantic_tags_each_run_once() -> None:
    text = encode_semantic(screen("\x1b[31m" + "r" * 40 + "\x1b[0m tail", width=60, height=2))
    assert text == "<fg:red>" + "r" * 40 + "</fg> tail"


def test_semantic_never_leaks_past_a_reset_or_a_row() -> None:
    text = encode_semantic(screen())
    for line in text.splitlines():
        opened = [t for t in TAG.findall(line) if not t.startswith("</")]
        closed = [t for t in TAG.findall(line) if t.startswith("</")]
        assert len(opened) == len(closed), line  # every tag closes on its own row
    assert "<fg:red>broken.cfg</fg> (error)" in text
    assert "<reverse>> notes.txt       </reverse>" in text  # a styled bar keeps its trailing spaces
    assert text.splitlines()[0] == "<bg:blue> <fg:white><bold>File  Edit  View</bold></fg>" + " " * 35 + "</bg>"


def test_semantic_without_tags_equals_plain() -> None:
    for snap in (screen(), screen(PANEL, width=40, height=4)):
        lines = encode_semantic(snap).splitlines()
        if lines[0].startswith("screen default:"):
            lines = lines[1:]
        untagged = [TAG.sub("", line).rstrip() for line in lines]
        assert untagged == encode_plain(snap).splitlines()


# A file-manager panel: white on blue everywhere, a black-on-cyan selection bar, an error in red,
# and a last row in the terminal's own colours.
PANEL = "\n".join([
    "\x1b[37;44m│ alpha" + " " * 15 + "│" + " " * 17,
    "\x1b[37;44m│ \x1b[30;46mgamma.txt" + " " * 11 + "\x1b[37;44m│" + " " * 17,
    "\x1b[37;44m│ \x1b[31mbroken\x1b[37m" + " " * 14 + "│" + " " * 17,
    "\x1b[0mHint: plain",
])


def test_semantic_declares_a_painted_screen_default_once_and_tags_only_deviations() -> None:
    assert encode_semantic(screen(PANEL, width=40, height=4)).splitlines() == [
        "screen default: fg=white bg=blue (untagged text and blank row ends; not a screen row)",
        "│ alpha               │",  # the painted row end is the screen default: trimmed like plain
        "│ <bg:cyan><fg:black>gamma.txt</fg>           </bg>│",  # the selection bar keeps its width
        "│ <fg:red>broken</fg>              │",
        "<bg:default><fg:default>Hint: plain</fg>" + " " * 29 + "</bg>",  # terminal colours are a deviation
    ]


def test_semantic_keeps_the_terminal_default_when_a_declaration_would_cost_more() -> None:
    text = encode_semantic(screen("\x1b[38;5;208morange\x1b[0m ok", width=30, height=1))
    assert text == "<fg:color_208>orange</fg> ok"  # most letters are orange, but one tag is cheaper


def test_semantic_nests_a_highlight_inside_a_bar_instead_of_reopening_it() -> None:
    # htop's column header: a green bar with the sort column in cyan; one bar tag, one highlight tag.
    raw = "\x1b[30;42m PID USER \x1b[46m CPU% \x1b[42m MEM% \x1b[0m"
    assert encode_semantic(screen(raw, width=60, height=1)) == \
        "<bg:green> <fg:black>PID USER <bg:cyan> CPU% </bg> MEM%</fg> </bg>"
    # mc's key bar: the background of each label is opened once, its spaces included.
    raw = "\x1b[30;46mHelp\x1b[0m\x1b[46m      \x1b[0m\x1b[97;40m 2\x1b[0m"
    assert encode_semantic(screen(raw, width=30, height=1)) == \
        "<bg:cyan><fg:black>Help</fg>      </bg><bg:black> <fg:bright_white>2</fg></bg>"


def test_semantic_spaces_do_not_split_runs_and_lookalike_tags_are_escaped() -> None:
    raw = "\x1b[32mok \x1b[1m\x1b[0m\x1b[32m done\x1b[0m <fg:red> literal"
    assert encode_semantic(screen(raw, width=60, height=1)) == "<fg:green>ok  done</fg> &lt;fg:red> literal"


def test_semantic_256_and_truecolour_names() -> None:
    raw = "\x1b[38;5;208morange\x1b[0m \x1b[48;2;16;32;48mdeep\x1b[0m"
    assert encode_semantic(screen(raw, width=30, height=1)) == "<fg:color_208>orange</fg> <bg:#102030>deep</bg>"


def test_image_is_a_png_on_the_font_grid() -> None:
    snap = screen()
    r = renderer(16)
    png = r.png(snap)
    image = Image.open(io.BytesIO(png))
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert image.size == (snap.width * r.cell_width, snap.height * r.cell_height)
    # The menu bar's blue background is drawn where the text says it is.
    assert image.convert("RGB").getpixel((r.cell_width * 30, r.cell_height // 2)) == colour_rgb("blue", (0, 0, 0))
    assert r.data_url(snap).startswith("data:image/png;base64,iVBORw0KGgo")


def test_palette() -> None:
    assert palette_rgb(16) == (0, 0, 0) and palette_rgb(231) == (255, 255, 255) and palette_rgb(232) == (8, 8, 8)
    assert colour_rgb("#ff8000", (0, 0, 0)) == (255, 128, 0)
    assert colour_rgb("bright_blue", (0, 0, 0)) == (92, 92, 255)
