"""What the agent sidecar runs (``tuinaut pod agent``): one attempt against the app container.

The work comes as JSON in ``TUINAUT_ATTEMPT`` (written by the operator into the Pod spec). The
attempt runs with the ordinary pipeline and a ``PodSandbox``; the full trajectory and result go to
``TUINAUT_RESULTS`` (the results volume) and the compact result to the termination message. The
process exits 0 whenever it produced a result, infra errors included: the operator reads the
verdict from the message, not from the exit code.
"""

from __future__ import annotations

import json
import os
import traceback
from datetime import UTC, datetime
from pathlib import Path

from ..attempt import AttemptSpec, run_attempt
from ..catalog import load_catalog
from ..model import AgentConfig, AttemptResult, Limits
from ..sandbox.pod import RUN_DIR, PodSandbox
from .message import compact, encode

TERMINATION_LOG = Path("/dev/termination-log")


def run_agent(work: dict, benchmark: Path, results: Path, *, run_dir: str = RUN_DIR, run_dir_inside: str = RUN_DIR,
              termination_log: Path = TERMINATION_LOG) -> AttemptResult:
    """``run_dir`` is the shared directory as this process sees it, ``run_dir_inside`` as the app container
    does (the same path in a Pod)."""
    try:
        catalog = load_catalog(benchmark, strict=False)  # one broken app must not stop the others
        package = catalog.tasks.get(work["task"])
        if package is None:
            raise LookupError(f"task {work['task']!r} is not in the agent image's benchmark ({benchmark}); "
                              "rebuild the agent image")
        spec = AttemptSpec(package=package, agent=AgentConfig.model_validate(work["agent"]),
                           repeat=int(work["repeat"]), limits=Limits.model_validate(work.get("limits") or {}))
        result = run_attempt(spec, results, make_sandbox=lambda _spec, _dir: PodSandbox(run_dir, run_dir_inside))
    except Exception as exc:  # the Pod must always report: a harness error is an infrastructure outcome
        app, _, task = str(work.get("task", "?/?")).partition("/")
        result = AttemptResult(attempt_id=str(work.get("attempt", "?")), app=app, task=task,
                               agent=str((work.get("agent") or {}).get("name", "?")),
                               agent_kind=str((work.get("agent") or {}).get("kind", "?")),
                               repeat=int(work.get("repeat", 0)), outcome="infra_error", passed=False,
                               stop_reason="harness_error", error=f"{exc!r}\n{traceback.format_exc(limit=5)}",
                               finished_at=datetime.now(UTC))
        PodSandbox(run_dir, run_dir_inside).stop()  # let the app container finish
    result.infra_attempts = int(work.get("try", 1))
    if (results / "result.json").parent.exists():
        (results / "result.json").write_text(result.model_dump_json(indent=2))
    termination_log.write_text(encode(compact(result, trajectory=str(results / "trajectory.jsonl"))))
    return result


def main_from_env() -> AttemptResult:
    work = json.loads(os.environ["TUINAUT_ATTEMPT"])
    benchmark = Path(os.environ.get("TUINAUT_BENCHMARK", "/opt/tuinaut/benchmark"))
    results = Path(os.environ.get("TUINAUT_RESULTS", "/tmp/tuinaut-attempt"))
    return run_agent(work, benchmark, results, run_dir=os.environ.get("TUINAUT_RUN", RUN_DIR))
