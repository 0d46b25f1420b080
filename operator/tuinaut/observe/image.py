"""The image observation: the snapshot rendered as a PNG, the way a terminal would draw it.

Rendering from the same Snapshot as the text modes (instead of screenshotting a terminal emulator)
keeps all three modes in agreement and needs no display server. The cell grid comes from the
monospace font's advance width and line metrics, so box drawing and columns line up as on screen.
Colours follow the xterm palette; the defaults are light grey on black.
"""

from __future__ import annotations

import base64
import io
import math
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from ..errors import MissingToolError
from ..terminal.snapshot import DEFAULT, NAMED_COLOURS, Cell, Snapshot

RGB = tuple[int, int, int]

DEFAULT_FG: RGB = (229, 229, 229)
DEFAULT_BG: RGB = (0, 0, 0)
_XTERM_16: tuple[RGB, ...] = (
    (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
    (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255),
    (255, 255, 255),
)
_CUBE_LEVELS = (0, 95, 135, 175, 215, 255)

# Debian's fonts-dejavu-core first; matplotlib (a dependency) ships the same font as a fallback.
_FONT_DIRS = ("/usr/share/fonts/truetype/dejavu",)


def palette_rgb(index: int) -> RGB:
    """xterm's 256-colour palette: 16 named colours, a 6x6x6 cube, then 24 greys."""
    if index < 16:
        return _XTERM_16[index]
    if index < 232:
        n = index - 16
        return (_CUBE_LEVELS[n // 36], _CUBE_LEVELS[(n // 6) % 6], _CUBE_LEVELS[n % 6])
    grey = 8 + 10 * (index - 232)
    return (grey, grey, grey)


@lru_cache(maxsize=512)
def colour_rgb(name: str, default: RGB) -> RGB:
    """Any colour name of the snapshot vocabulary ('default', named, 'color_N', '#rrggbb') as RGB."""
    if name == DEFAULT:
        return default
    if name in NAMED_COLOURS:
        return _XTERM_16[NAMED_COLOURS.index(name)]
    if name.startswith("color_"):
        return palette_rgb(int(name[6:]) % 256)
    if name.startswith("#") and len(name) == 7:
        return (int(name[1:3], 16), int(name[3:5], 16), int(name[5:7], 16))
    return default  # an unexpected name must not break a run; it renders as the default


def _font_path(file_name: str) -> Path:
    candidates = [Path(d) / file_name for d in _FONT_DIRS]
    try:
        import matplotlib
        candidates.append(Path(matplotlib.get_data_path()) / "fonts" / "ttf" / file_name)
    except ImportError:  # matplotlib is a declared dependency; tolerate its absence all the same
        pass
    for path in candidates:
        if path.is_file():
            return path
    raise MissingToolError(file_name, "apt-get install fonts-dejavu-core (or pip install matplotlib)")


class TerminalRenderer:
    """Draws snapshots with one font size; reuse one renderer per attempt (fonts load once)."""

    def __init__(self, font_size: int = 16) -> None:
        self.regular = ImageFont.truetype(str(_font_path("DejaVuSansMono.ttf")), font_size)
        self.bold = ImageFont.truetype(str(_font_path("DejaVuSansMono-Bold.ttf")), font_size)
        ascent, descent = self.regular.getmetrics()
        self.cell_width = math.ceil(self.regular.getlength("M"))
        self.cell_height = ascent + descent
        self.baseline = ascent

    def render(self, snapshot: Snapshot) -> Image.Image:
        cw, ch = self.cell_width, self.cell_height
        image = Image.new("RGB", (snapshot.width * cw, snapshot.height * ch), DEFAULT_BG)
        draw = ImageDraw.Draw(image)
        for y, row in enumerate(snapshot.rows):
            top = y * ch
            # Backgrounds first, one rectangle per run of equal colour.
            start = 0
            while start < len(row):
                bg = self._colours(row[start])[1]
                end = start + 1
                while end < len(row) and self._colours(row[end])[1] == bg:
                    end += 1
                if bg != DEFAULT_BG:
                    draw.rectangle((start * cw, top, end * cw - 1, top + ch - 1), fill=bg)
                start = end
            for x, cell in enumerate(row):
                if not cell.char:
                    continue
                fg, _ = self._colours(cell)
                if cell.char != " ":
                    draw.text((x * cw, top), cell.char, font=self.bold if cell.bold else self.regular, fill=fg)
                if cell.underline:
                    line_y = top + self.baseline + 1
                    draw.line((x * cw, line_y, (x + 1) * cw - 1, line_y), fill=fg)
        return image

    @staticmethod
    def _colours(cell: Cell) -> tuple[RGB, RGB]:
        fg = colour_rgb(cell.fg, DEFAULT_FG)
        bg = colour_rgb(cell.bg, DEFAULT_BG)
        return (bg, fg) if cell.reverse else (fg, bg)

    def png(self, snapshot: Snapshot) -> bytes:
        buffer = io.BytesIO()
        self.render(snapshot).save(buffer, format="PNG", optimize=False, compress_level=6)
        return buffer.getvalue()

    def data_url(self, snapshot: Snapshot) -> str:
        """The PNG as a ``data:`` URL, the form Chat Completions accepts in an ``image_url`` part."""
        return "data:image/png;base64," + base64.b64encode(self.png(snapshot)).decode("ascii")


@lru_cache(maxsize=4)
def renderer(font_size: int = 16) -> TerminalRenderer:
    """A shared renderer per font size: loading the fonts costs more than drawing a screen."""
    return TerminalRenderer(font_size)


def encode_png(snapshot: Snapshot, font_size: int = 16) -> bytes:
    return renderer(font_size).png(snapshot)
