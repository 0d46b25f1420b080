"""Find and load task packages: ``<root>/apps/<app>/app.yaml`` and ``<root>/apps/<app>/tasks/<task>/task.yaml``."""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field
from pathlib import Path

from .errors import ConfigError
from .fingerprints import substitute, tokens_for
from .model import App, Task
from .model.evaluation import EvaluationSpec
from .model.loader import load, read_yaml, validate


@dataclass(frozen=True)
class TaskPackage:
    """A task ready to run: fingerprints substituted, with its app and where its files are."""

    app: App
    task: Task
    task_dir: Path
    tokens: dict[str, str]

    @property
    def id(self) -> str:
        return f"{self.app.name}/{self.task.id}"

    @property
    def launch(self) -> str:
        return self.task.launch or self.app.launch


@dataclass
class Catalog:
    root: Path
    apps: dict[str, App] = field(default_factory=dict)
    tasks: dict[str, TaskPackage] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    # Unloadable packages by "app/task" ("app/*" when the app itself is broken), kept as errors so a
    # run can refuse exactly the ones it selects and go on without the others.
    broken: dict[str, ConfigError] = field(default_factory=dict)

    def select(self, spec: EvaluationSpec, source: Path | str = "evaluation") -> list[TaskPackage]:
        for key, error in sorted(self.broken.items()):
            app, task = key.split("/")
            if any(fnmatch.fnmatchcase(key, s) or (task == "*" and fnmatch.fnmatchcase(app, s.split("/")[0]))
                   for s in spec.tasks):
                raise error
        chosen = [pkg for key, pkg in sorted(self.tasks.items()) if spec.selects(pkg.app.name, pkg.task.id)]
        for selector in spec.tasks:
            if not any(fnmatch.fnmatchcase(task_id, selector) for task_id in self.tasks):
                raise ConfigError(f"selector {selector!r} matches no task under {self.root}/apps",
                                  file=source, field="spec.tasks")
        return chosen


def load_app(app_dir: Path) -> App:
    path = app_dir / "app.yaml"
    app = load(App, path)
    if app.name != app_dir.name:
        raise ConfigError(f"name {app.name!r} differs from the directory name {app_dir.name!r}", file=path, field="name")
    return app


def load_task(app: App, task_dir: Path) -> TaskPackage:
    path = task_dir / "task.yaml"
    raw = read_yaml(path)
    if not isinstance(raw, dict):
        raise ConfigError("expected a mapping at the top level", file=path)
    names = raw.get("fingerprints") or []
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ConfigError("must be a list of names", file=path, field="fingerprints")
    tokens = tokens_for(app.name, task_dir.name, names)
    body = {k: v for k, v in raw.items() if k not in ("id", "fingerprints")}
    try:
        resolved = substitute(body, tokens)
    except KeyError as exc:
        field_path, _, reason = str(exc.args[0]).partition(": ")
        raise ConfigError(reason, file=path, field=field_path) from None
    resolved.update({k: raw[k] for k in ("id", "fingerprints") if k in raw})
    task = validate(Task, resolved, path)
    if task.id != task_dir.name:
        raise ConfigError(f"id {task.id!r} differs from the directory name {task_dir.name!r}", file=path, field="id")
    for index, fixture in enumerate(task.fixtures):
        if fixture.source and not (task_dir / fixture.source).is_file():
            raise ConfigError(f"source file {fixture.source!r} not found next to task.yaml",
                              file=path, field=f"fixtures[{index}].source")
    return TaskPackage(app=app, task=task, task_dir=task_dir, tokens=tokens)


def load_catalog(root: Path, *, strict: bool = True) -> Catalog:
    """Load every app and task under ``root``. strict: raise on the first problem; else collect them."""
    root = Path(root)
    apps_dir = root / "apps"
    if not apps_dir.is_dir():
        raise ConfigError("no apps/ directory here: expected <root>/apps/<app>/app.yaml", file=root)
    catalog = Catalog(root=root)

    def attempt(key: str, load, *args):  # type: ignore[no-untyped-def]
        try:
            return load(*args)
        except ConfigError as exc:
            if strict:
                raise
            catalog.problems.append(str(exc))
            catalog.broken[key] = exc
            return None

    for app_dir in sorted(p for p in apps_dir.iterdir() if p.is_dir()):
        app = attempt(f"{app_dir.name}/*", load_app, app_dir)
        if app is None:
            continue
        catalog.apps[app.name] = app
        for task_dir in sorted(p for p in (app_dir / "tasks").glob("*") if p.is_dir()):
            package = attempt(f"{app.name}/{task_dir.name}", load_task, app, task_dir)
            if package is not None:
                catalog.tasks[package.id] = package
    return catalog


def find_benchmark_root(start: Path) -> Path:
    """The nearest directory at or above ``start`` that has an ``apps/`` folder."""
    start = start.resolve()
    for candidate in [start, *start.parents]:
        if (candidate / "apps").is_dir():
            return candidate
    raise ConfigError("no benchmark found: no apps/ directory at or above this file (use --benchmark DIR)", file=start)
