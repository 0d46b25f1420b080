"""Check task packages: the schema always; with ``execute``, that every task is sound.

Sound means: the reference path passes every time, the noop actor (submit at once) fails, and
each recorded near-miss path fails. A task that a do-nothing actor passes measures nothing.
"""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from .actors.reference import ScriptedActor
from .attempt import AttemptSpec, run_attempt
from .catalog import Catalog, TaskPackage, load_app, load_catalog, load_task
from .errors import ConfigError
from .local.executor import preflight
from .model import AgentConfig, AttemptResult
from .model.assertions import CheckShell

REFERENCE = AgentConfig(name="reference", kind="reference")
NOOP = AgentConfig(name="noop", kind="noop")


@dataclass
class ValidationReport:
    apps: int = 0
    tasks: int = 0
    fingerprinted: int = 0
    problems: list[str] = field(default_factory=list)
    checks: int = 0

    def as_json(self) -> dict:
        return {"apps": self.apps, "tasks": self.tasks, "fingerprinted": self.fingerprinted, "problems": self.problems}


def load_for_validation(path: Path) -> Catalog:
    """Accept a benchmark root (with apps/), one app directory, or one task directory."""
    path = path.resolve()
    if (path / "apps").is_dir():
        return load_catalog(path, strict=False)
    catalog = Catalog(root=path)
    try:
        if (path / "app.yaml").is_file():
            app = load_app(path)
            catalog.apps[app.name] = app
            task_dirs = sorted(p for p in (path / "tasks").glob("*") if p.is_dir())
        elif (path / "task.yaml").is_file():
            app = load_app(path.parent.parent)
            catalog.apps[app.name] = app
            task_dirs = [path]
        else:
            raise ConfigError("not a benchmark root (apps/), an app (app.yaml) or a task (task.yaml)", file=path)
    except ConfigError as exc:
        catalog.problems.append(str(exc))
        return catalog
    for task_dir in task_dirs:
        try:
            package = load_task(app, task_dir)
            catalog.tasks[package.id] = package
        except ConfigError as exc:
            catalog.problems.append(str(exc))
    return catalog


def shell_syntax_problems(package: TaskPackage) -> list[str]:
    """``sh -n`` over the task's shell text: catches, e.g., a YAML ` #` that silently cut a command."""
    scripts = [("init", package.task.init), ("launch", package.launch)]
    scripts += [(f"assertions[{i}].command", a.command) for i, a in enumerate(package.task.assertions)
                if isinstance(a, CheckShell)]
    problems = []
    for field_name, script in scripts:
        if not script.strip():
            continue
        done = subprocess.run(["sh", "-n"], input=script, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            problems.append(f"{package.task_dir / 'task.yaml'}: {field_name}: shell syntax error: "
                            f"{done.stderr.strip().replace('sh: ', '')}")
    return problems


@dataclass(frozen=True)
class _Check:
    package: TaskPackage
    label: str  # "reference #2", "noop", "near-miss 'wrong-file'"
    agent: AgentConfig
    must_pass: bool
    actor: Callable | None = None  # a near-miss script; None = the agent kind's own actor


def validate(path: Path, *, execute: bool = False, repeats: int = 1, parallel: int = 2,
             workdir: Path | None = None, on_check: Callable[[str, bool], None] | None = None) -> ValidationReport:
    catalog = load_for_validation(path)
    report = ValidationReport(apps=len(catalog.apps), tasks=len(catalog.tasks), problems=list(catalog.problems))
    report.fingerprinted = sum(1 for p in catalog.tasks.values() if p.task.fingerprints)
    for package in catalog.tasks.values():
        report.problems += shell_syntax_problems(package)
    if not execute or not catalog.tasks:
        return report
    preflight()
    checks = []
    for package in catalog.tasks.values():
        checks += [_Check(package, f"reference #{n}", REFERENCE, True) for n in range(1, repeats + 1)]
        checks.append(_Check(package, "noop", NOOP, False))
        for miss in package.task.near_misses:
            checks.append(_Check(package, f"near-miss {miss.name!r}", REFERENCE, False,
                                 actor=lambda _ctx, path=miss.path: ScriptedActor(path)))
    with tempfile.TemporaryDirectory(prefix="tuinaut-validate-") as tmp:
        base = workdir or Path(tmp)

        def run(index_check: tuple[int, _Check]) -> tuple[_Check, AttemptResult]:
            index, check = index_check
            spec = AttemptSpec(package=check.package, agent=check.agent, repeat=index)
            kwargs = {"make_actor": check.actor} if check.actor else {}
            return check, run_attempt(spec, base / f"check-{index}", **kwargs)

        with ThreadPoolExecutor(max_workers=max(1, parallel)) as pool:
            for check, result in pool.map(run, enumerate(checks)):
                report.checks += 1
                problem = _judge(check, result)
                if problem:
                    report.problems.append(problem)
                if on_check:
                    on_check(f"{check.package.id}: {check.label}", problem is None)
    return report


def _judge(check: _Check, result: AttemptResult) -> str | None:
    where = f"{check.package.id}: {check.label}"
    if result.outcome == "infra_error":
        return f"{where}: infrastructure error {result.stop_reason}: {(result.error or '').splitlines()[0][:300]}"
    if check.must_pass and not result.passed:
        failed = [f"{v.type} ({v.evidence})" for v in result.assertions if not v.passed]
        return f"{where}: must pass but failed (stop: {result.stop_reason}): {'; '.join(failed)[:400]}"
    if not check.must_pass and result.passed:
        return f"{where}: must fail but passed: the oracle does not tell this path from the goal"
    return None
