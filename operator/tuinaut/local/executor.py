"""The embedded executor: an evaluation's attempts on this machine, in parallel, resumable.

Layout of a run directory::

    <out>/evaluation.yaml                          the evaluation as run (a rerun must match it)
    <out>/summary.json                             one row per finished attempt
    <out>/attempts/<app>/<task>/<agent>/r<N>/      trajectory.jsonl, result.json, final_screen.*

A rerun into the same directory skips attempts whose result is final (passed or failed) and redoes
the rest: interrupted ones (no result) and infrastructure errors.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ..attempt import AttemptSpec, run_attempt
from ..catalog import Catalog, find_benchmark_root, load_catalog
from ..errors import ConfigError
from ..model import AttemptResult, Evaluation
from ..model.loader import load
from ..record import AttemptFiles, atomic_write, read_result
from ..sandbox.bwrap import require_bwrap
from ..terminal.tmux import require_tmux
from .summary import write_summary


@dataclass
class RunPlan:
    evaluation: Evaluation
    source: Path
    catalog: Catalog
    attempts: list[AttemptSpec]


def plan_evaluation(path: Path, benchmark: Path | None = None) -> RunPlan:
    """Load an evaluation file and expand it into attempts (tasks x agents x repeats)."""
    evaluation = load(Evaluation, path)
    root = benchmark or find_benchmark_root(path.parent)
    catalog = load_catalog(root, strict=False)  # a broken package stops the run only if selected
    spec = evaluation.spec
    attempts = [
        AttemptSpec(package=package, agent=agent, repeat=repeat, limits=spec.limits)
        for package in catalog.select(spec, source=path)
        for agent in spec.agents
        for repeat in range(1, spec.repeats + 1)
    ]
    return RunPlan(evaluation=evaluation, source=path, catalog=catalog, attempts=attempts)


def attempt_dir(out: Path, spec: AttemptSpec) -> Path:
    return out / "attempts" / spec.package.app.name / spec.package.task.id / spec.agent.name / f"r{spec.repeat}"


@dataclass
class RunOutcome:
    results: list[AttemptResult] = field(default_factory=list)
    skipped: int = 0
    interrupted: bool = False


Callback = Callable[[AttemptSpec, AttemptResult | None], None]


def preflight(plan: RunPlan | None = None) -> None:
    """Fail fast, before any sandbox starts: a missing program (with its install hint) or a
    missing API key for an LLM agent (naming the variable, never a value)."""
    require_tmux()
    require_bwrap()
    for index, agent in enumerate(plan.evaluation.spec.agents if plan else ()):
        if agent.kind == "human":
            raise ConfigError(f"agent {agent.name!r} is a person: run it with `tuinaut human --evaluation "
                              f"{plan.source} --participant ID --out DIR`", file=plan.source,
                              field=f"spec.agents[{index}].kind")
        if agent.kind == "llm":
            from ..actors.llm import resolve_api_key

            try:
                resolve_api_key(agent)
            except ConfigError as exc:
                raise ConfigError(exc.reason, file=plan.source, field=exc.field) from None


def run_plan(plan: RunPlan, out: Path, *, parallel: int | None = None, on_start: Callback | None = None,
             on_finish: Callback | None = None, cancel: threading.Event | None = None) -> RunOutcome:
    """Run every attempt not yet final; infrastructure errors are retried up to the limit."""
    preflight(plan)
    out.mkdir(parents=True, exist_ok=True)
    _pin_evaluation(plan, out)
    outcome = RunOutcome()
    todo = []
    for spec in plan.attempts:
        previous = read_result(attempt_dir(out, spec))
        if previous is not None and previous.outcome != "infra_error":
            outcome.results.append(previous)
            outcome.skipped += 1
        else:
            todo.append(spec)
    cancel = cancel or threading.Event()
    lock = threading.Lock()

    def work(spec: AttemptSpec) -> AttemptResult:
        if on_start:
            on_start(spec, None)
        tries = 0
        while True:
            tries += 1
            result = run_attempt(spec, attempt_dir(out, spec), cancel=cancel)
            if result.outcome != "infra_error" or tries > spec.limits.infra_retries or cancel.is_set():
                break
        if tries > 1:  # run_attempt wrote the result of its one try; record how many it took
            result.infra_attempts = tries
            AttemptFiles(attempt_dir(out, spec)).write_result(result)
        with lock:
            outcome.results.append(result)
            write_summary(out, plan.evaluation.metadata.name, len(plan.attempts), outcome.results)
        if on_finish:
            on_finish(spec, result)
        return result

    workers = max(1, parallel or plan.evaluation.spec.parallelism)
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="attempt")
    pending: set[Future[AttemptResult]] = {pool.submit(work, spec) for spec in todo}
    try:
        while pending:
            done, pending = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
            for future in done:
                future.result()  # surface harness bugs that escaped run_attempt
    except KeyboardInterrupt:
        outcome.interrupted = True
        cancel.set()
        for future in pending:
            future.cancel()
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    finally:
        pool.shutdown(wait=True)
        with lock:
            write_summary(out, plan.evaluation.metadata.name, len(plan.attempts), outcome.results)
    return outcome


def _pin_evaluation(plan: RunPlan, out: Path) -> None:
    """Keep the evaluation beside its results. More tasks or repeats may be added to a run, but
    results made with other agent settings or limits must not be mixed into it."""
    pinned = out / "evaluation.yaml"
    current = plan.evaluation.dump()
    if pinned.exists():
        previous = yaml.safe_load(pinned.read_text()) or {}
        for key in ("agents", "limits"):
            if previous.get("spec", {}).get(key) != current["spec"].get(key):
                raise ConfigError(f"{out} holds results made with different spec.{key}; use a new --out directory",
                                  file=plan.source, field=f"spec.{key}")
    atomic_write(pinned, yaml.safe_dump(current, sort_keys=False))
