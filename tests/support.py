"""Helpers shared by the tests: throwaway benchmarks built around real programs."""

from __future__ import annotations

import textwrap
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
BENCHMARK = REPO / "benchmark"


def write_yaml(path: Path, data: dict | str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(data) if isinstance(data, str) else yaml.safe_dump(data, sort_keys=False))
    return path


class BenchmarkBuilder:
    """Builds ``<root>/apps/<app>/...`` trees for tests."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def app(self, name: str, launch: str, **fields) -> Path:  # type: ignore[no-untyped-def]
        data = {"name": name, "version": "test", "launch": launch, "pane": {"width": 80, "height": 24}, **fields}
        return write_yaml(self.root / "apps" / name / "app.yaml", data)

    def task(self, app: str, task_id: str, **fields) -> Path:  # type: ignore[no-untyped-def]
        data = {"id": task_id, "description": f"test task {task_id}", "difficulty": "easy", "type": "navigate",
                **fields}
        return write_yaml(self.root / "apps" / app / "tasks" / task_id / "task.yaml", data)

    def evaluation(self, name: str = "test", tasks: list[str] | None = None, agents: list[dict] | None = None,
                   **spec) -> Path:  # type: ignore[no-untyped-def]
        data = {"apiVersion": "tuinaut.dev/v1alpha1", "kind": "Evaluation", "metadata": {"name": name},
                "spec": {"tasks": tasks or ["*/*"], "agents": agents or [{"name": "reference", "kind": "reference"}],
                         **spec}}
        return write_yaml(self.root / "evaluations" / f"{name}.yaml", data)
