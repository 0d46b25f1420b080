"""Fixtures shared by the tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from support import BenchmarkBuilder


@pytest.fixture
def bench(tmp_path: Path) -> BenchmarkBuilder:
    return BenchmarkBuilder(tmp_path / "bench")
