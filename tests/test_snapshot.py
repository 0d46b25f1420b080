"""Snapshots: one capture parsed once into cells, colours named by the fixed vocabulary."""

from __future__ import annotations

from tuinaut.terminal.snapshot import parse_capture

ESC = "\x1b"


def test_colours_and_attributes() -> None:
    raw = (f"{ESC}[31mred{ESC}[0m {ESC}[38;5;202mpal{ESC}[0m {ESC}[38;2;1;2;255mrgb{ESC}[0m "
           f"{ESC}[1;7mbr{ESC}[0m {ESC}[4;44mul{ESC}[0m {ESC}[91;103mhi{ESC}[0m {ESC}[38;5;9mn9{ESC}[0m\nsecond")
    snap = parse_capture(raw, width=40, height=3)
    row = snap.rows[0]
    assert (row[0].char, row[0].fg, row[0].bg) == ("r", "red", "default")
    assert row[4].fg == "color_202"
    assert row[8].fg == "#0102ff"
    assert row[12].bold and row[12].reverse
    assert row[15].underline and row[15].bg == "blue"
    assert (row[18].fg, row[18].bg) == ("bright_red", "bright_yellow")
    assert row[21].fg == "bright_red"  # palette indexes below 16 use the named colours
    assert row[3].fg == "default"  # no colour leaks past a reset
    assert snap.lines[1] == "second"


def test_plain_trims_and_keeps_layout() -> None:
    snap = parse_capture("  title   \n\n  body  \n\n", width=20, height=6, cursor=(3, 2))
    assert snap.plain == "  title\n\n  body"
    assert snap.cursor == (3, 2)


def test_attributes_carry_across_rows_like_the_terminal() -> None:
    snap = parse_capture(f"{ESC}[7mtop\nnext{ESC}[0m plain", width=20, height=2)
    assert snap.rows[1][0].reverse and not snap.rows[1][6].reverse


def test_find_reports_cell_columns_after_wide_characters() -> None:
    snap = parse_capture("日本 target", width=20, height=1)
    (row, start, end), = snap.find("target")
    assert (row, start, end) == (0, 5, 11)
    assert "".join(c.char for c in snap.cells(row, start, end)) == "target"


def test_digest_changes_with_cursor() -> None:
    a = parse_capture("x", width=5, height=1, cursor=(0, 0))
    b = parse_capture("x", width=5, height=1, cursor=(1, 0))
    assert a.digest != b.digest


def test_dec_line_drawing_runs_become_box_characters() -> None:
    raw = f"\x0elqqk\x0f\n\x0ex\x0f{ESC}[1mhi{ESC}[0m\x0ex\x0f\n\x0em{ESC}[31mq{ESC}[0mj\x0f plain lqk"
    snap = parse_capture(raw, width=20, height=3)
    assert snap.lines == ["┌──┐", "│hi│", "└─┘ plain lqk"]
    assert snap.rows[2][1].fg == "red"  # the escape inside the run still applies


def test_line_drawing_through_tmux(tmp_path) -> None:
    from tuinaut.model.app import Readiness, Settle
    from tuinaut.sandbox.bwrap import BwrapSandbox
    from tuinaut.terminal.settle import first_screen

    box = BwrapSandbox(tmp_path / "sandbox")
    box.start()
    try:
        # ncurses' terminfo switches to the alternate character set as ncurses apps do for boxes
        pane = box.launch('printf "%slqqk%s hello" "$(tput smacs)" "$(tput rmacs)"; sleep 30', 40, 10, {})
        snap = first_screen(pane, Readiness(pattern="hello", timeout_s=5), Settle())
    finally:
        box.stop()
    assert snap.lines[0] == "┌──┐ hello"
