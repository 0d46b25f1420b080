"""The source layout ARCHITECTURE.md fixes, and pyproject's explicit package list kept in step with it."""

from __future__ import annotations

import tomllib

from support import REPO


def test_every_package_directory_is_listed_in_pyproject() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    listed = set(config["tool"]["setuptools"]["packages"])
    on_disk = {
        ".".join(("tuinaut", *init.parent.relative_to(REPO / "operator" / "tuinaut").parts)).rstrip(".")
        for init in (REPO / "operator" / "tuinaut").rglob("__init__.py")
    }
    on_disk.add("tuinaut.analysis")
    assert on_disk == listed


def test_operator_directory_is_never_a_package() -> None:
    assert not (REPO / "operator" / "__init__.py").exists()  # `operator` is a standard-library module


def test_analysis_is_flat_and_imports_under_the_namespace() -> None:
    import tuinaut.analysis

    assert not [p for p in (REPO / "analysis").iterdir() if p.is_dir() and (p / "__init__.py").exists()]
    assert tuinaut.analysis.__file__.startswith(str(REPO / "analysis"))
