from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from support import BenchmarkBuilder

# A TUI that shows what it receives: the terminal echoes each key (control keys as ^X), cat -v the line.
ECHO_APP = "echo ready; exec cat -v"


@pytest.fixture
def echo_bench(bench: BenchmarkBuilder) -> BenchmarkBuilder:
    """Apps ``alpha`` and ``beta``, two tasks each, all passing once the screen shows 'ready'."""
    for app in ("alpha", "beta"):
        bench.app(app, ECHO_APP, ready={"pattern": "ready"})
        for task in ("one", "two"):
            bench.task(app, task, description=f"Task {task} of {app}: press keys, then submit.",
                       assertions=[{"type": "check_screen", "text": "ready"}], reference=[{"press": "enter"}])
    return bench
