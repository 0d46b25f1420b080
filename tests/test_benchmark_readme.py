"""benchmark/README.md is generated (`tuinaut apps benchmark --readme`): the committed file must match."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from tuinaut.catalog import load_catalog
from tuinaut.cli.apps import command, render_readme

ROOT = Path(__file__).resolve().parent.parent
BENCHMARK = ROOT / "benchmark"


def test_committed_readme_matches_the_generated_one() -> None:
    generated = render_readme(load_catalog(BENCHMARK))
    committed = (BENCHMARK / "README.md").read_text()
    assert committed == generated, (
        "benchmark/README.md is stale: regenerate it with "
        "`tuinaut apps benchmark --readme > benchmark/README.md`")


def test_readme_option_prints_the_same_text() -> None:
    result = CliRunner().invoke(command, [str(BENCHMARK), "--readme"])
    assert result.exit_code == 0, result.output
    assert result.output == render_readme(load_catalog(BENCHMARK))


def test_readme_counts_apps_tasks_primitives_and_fingerprints(bench) -> None:  # type: ignore[no-untyped-def]
    bench.app("alpha", "true", version="1.0", domain="test tool")
    bench.task("alpha", "one", fingerprints=["f"], reference=[{"press": "enter"}],
               assertions=[{"type": "check_screen", "text": "{{fp.f}}"},
                           {"type": "check_shell", "command": "true"}])
    bench.task("alpha", "two", reference=[{"press": "enter"}],
               assertions=[{"type": "check_screen_highlight", "text": "x"}])
    text = render_readme(load_catalog(bench.root))
    assert "| alpha | 1.0 | test tool |" in text
    row = next(line for line in text.splitlines() if line.startswith("| alpha |"))
    assert row.endswith("| 2 | shell, screen, highlight | 1 |")
    assert "**total: 1 apps**" in text and "**2**" in text and "3 of 6" in text
