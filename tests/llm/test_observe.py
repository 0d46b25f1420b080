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
    snap = screen()
    untagged = [TAG.sub("", line).rstrip() for line in encode_semantic(snap).splitlines()]
    assert untagged == encode_plain(snap).splitlines()


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
