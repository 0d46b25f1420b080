"""A person's session: tasks one after another, each a normal attempt with a human actor.

Every attempt is provisioned, verified and recorded by ``run_attempt``, the code agents run
through, into the same layout as ``tuinaut run``::

    <out>/attempts/<app>/<task>/<participant>/r<N>/   trajectory.jsonl, result.json, final_screen.*,
                                                      sandbox/, keystrokes.jsonl (raw input log)
    <out>/summary.json                                one row per finished attempt (all participants)
    <out>/sessions/<participant>/evaluation.yaml      what this participant's session runs
    <out>/sessions/<participant>/session.jsonl        order, seed, starts, pauses, ends

Between tasks the person sees the next task's description and chooses to start it or stop; a
stopped or interrupted session resumes by running the same command again: finished attempts are
kept, unfinished ones (and infrastructure errors) are done again, in the same seeded order.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import yaml
from pydantic import ValidationError

from ..actors.base import ActorContext
from ..actors.human import HumanActor
from ..attempt import AttemptSpec, run_attempt
from ..catalog import Catalog, find_benchmark_root, load_catalog
from ..errors import ConfigError
from ..local.executor import attempt_dir
from ..local.summary import write_summary as write_run_summary
from ..model import AgentConfig, AttemptResult, Evaluation
from ..model.evaluation import DNS_LABEL, EvaluationSpec, Limits
from ..model.loader import config_error_from, load
from ..record import atomic_write, read_result
from ..sandbox.base import Sandbox
from .decode import KeyDecoder
from .order import seed_for, session_order
from .seat import SeatSandbox
from .terminal import CLEAR, PersonTerminal
from .viewer import status_lines

# Every keystroke of a person is one turn of the loop: the turn cap must not end a human attempt
# (the task's time limit does). Agents' turn caps are unaffected.
HUMAN_MAX_TURNS = 10000
SIZE_RECHECK_S = 0.5


@dataclass
class HumanPlan:
    """What one participant's session runs, in session order."""

    evaluation: Evaluation
    catalog: Catalog
    participant: str
    seed: int
    attempts: list[AttemptSpec]
    source: Path | None = None


@dataclass
class SessionOutcome:
    results: list[AttemptResult] = field(default_factory=list)  # this session's attempts, done now or before
    ran: int = 0
    stopped: bool = False  # the person chose to stop before the end

    @property
    def infra_errors(self) -> int:
        return sum(r.outcome == "infra_error" for r in self.results)


def check_participant(participant: str) -> str:
    if not re.match(DNS_LABEL, participant) or len(participant) > 40:
        raise ConfigError(f"participant id {participant!r} must be lowercase letters, digits and '-' "
                          f"(at most 40, e.g. p01): it names the result directories")
    return participant


def plan_tasks(selectors: list[str], *, participant: str, benchmark: Path | None = None, repeats: int = 1,
               seed: int | None = None, time_limit_s: float | None = None) -> HumanPlan:
    """A session over tasks named on the command line (``app/task``, globs allowed)."""
    check_participant(participant)
    root = benchmark or _default_benchmark()
    limits = Limits(attempt_timeout_s=time_limit_s) if time_limit_s else Limits()
    try:
        evaluation = Evaluation(api_version="tuinaut.dev/v1alpha1", kind="Evaluation",
                                metadata={"name": f"human-{participant}"},
                                spec=EvaluationSpec(tasks=list(selectors), agents=[_agent(participant)],
                                                    repeats=repeats, limits=limits))
    except ValidationError as exc:
        raise config_error_from(exc, "command line") from None
    return _plan(evaluation, load_catalog(root), participant, seed, None)


def plan_from_evaluation(path: Path, *, participant: str, benchmark: Path | None = None,
                         seed: int | None = None) -> HumanPlan:
    """A session over an evaluation's tasks and repeats; its agents are replaced by the participant."""
    check_participant(participant)
    evaluation = load(Evaluation, path)
    evaluation = evaluation.model_copy(update={"spec": evaluation.spec.model_copy(
        update={"agents": [_agent(participant)], "parallelism": 1})})
    root = benchmark or find_benchmark_root(path.parent)
    return _plan(evaluation, load_catalog(root), participant, seed, path)


def _agent(participant: str) -> AgentConfig:
    return AgentConfig(name=participant, kind="human")


def _default_benchmark() -> Path:
    here = Path.cwd()
    if (here / "benchmark" / "apps").is_dir():
        return here / "benchmark"
    return find_benchmark_root(here)


def _plan(evaluation: Evaluation, catalog: Catalog, participant: str, seed: int | None,
          source: Path | None) -> HumanPlan:
    spec = evaluation.spec
    limits = spec.limits.model_copy(update={"max_turns": HUMAN_MAX_TURNS})
    agent = spec.agents[0]
    specs = [AttemptSpec(package=package, agent=agent, repeat=repeat, limits=limits, participant=participant)
             for package in catalog.select(spec, source=source or "command line")
             for repeat in range(1, spec.repeats + 1)]
    seed = seed_for(participant) if seed is None else seed
    ordered = session_order(specs, group=lambda s: s.package.app.name, round_of=lambda s: s.repeat, seed=seed)
    return HumanPlan(evaluation=evaluation, catalog=catalog, participant=participant, seed=seed,
                     attempts=ordered, source=source)


# -- running ----------------------------------------------------------------------------------------

class SessionLog:
    def __init__(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.path = directory / "session.jsonl"

    def write(self, event: str, **fields: object) -> None:
        line = {"event": event, "at": datetime.now(UTC).isoformat(), **fields}
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(line, default=str) + "\n")


def run_session(plan: HumanPlan, out: Path, terminal: PersonTerminal, *,
                on_result: Callable[[AttemptSpec, AttemptResult], None] | None = None) -> SessionOutcome:
    """Run every attempt of ``plan`` not yet final, asking the person before each one."""
    out.mkdir(parents=True, exist_ok=True)
    session_dir = out / "sessions" / plan.participant
    log = SessionLog(session_dir)
    atomic_write(session_dir / "evaluation.yaml", yaml.safe_dump(plan.evaluation.dump(), sort_keys=False))
    log.write("session", participant=plan.participant, seed=plan.seed, order=[s.id for s in plan.attempts])
    outcome = SessionOutcome()
    total = len(plan.attempts)
    note = ""
    try:
        for index, spec in enumerate(plan.attempts, start=1):
            directory = attempt_dir(out, spec)
            previous = read_result(directory)
            if previous is not None and previous.outcome != "infra_error":
                outcome.results.append(previous)
                continue
            if not _briefing(terminal, spec, index, total, note):
                outcome.stopped = True
                log.write("stopped", before=spec.id)
                break
            log.write("start", attempt=spec.id)
            result = _run_one(spec, directory, terminal, header=_header(index, total))
            outcome.results.append(result)
            outcome.ran += 1
            log.write("end", attempt=spec.id, outcome=result.outcome, stop_reason=result.stop_reason,
                      ake=result.keys.ake, interaction_s=result.interaction_s)
            write_summary(out, plan)
            if on_result:
                on_result(spec, result)
            if result.stop_reason == "interrupted":
                outcome.stopped = True
                break
            note = (f"Task {index} recorded. Take a break whenever you like." if result.outcome != "infra_error"
                    else f"Task {index} could not run (a problem on our side); it will be offered again.")
        else:
            log.write("finished")
    except KeyboardInterrupt:
        log.write("interrupted")
        raise
    finally:
        terminal.leave_raw()
        write_summary(out, plan)
    return outcome


def _run_one(spec: AttemptSpec, directory: Path, terminal: PersonTerminal, header: str) -> AttemptResult:
    sandboxes: list[Sandbox] = []

    def make_sandbox(spec: AttemptSpec, directory: Path) -> Sandbox:
        sandbox = SeatSandbox(directory / "sandbox", read_only_paths=spec.package.app.sandbox.read_only_paths)
        sandboxes.append(sandbox)
        return sandbox

    def make_actor(context: ActorContext) -> HumanActor:
        return HumanActor(context, terminal, sandboxes[-1].ctl_host / "tmux.sock", header=header,
                          log_path=directory / "keystrokes.jsonl")

    tries = 0
    while True:
        tries += 1
        terminal.write(CLEAR)
        terminal.write("Starting the app...\n")
        result = run_attempt(spec, directory, make_actor=make_actor, make_sandbox=make_sandbox)
        # Only provisioning failures are retried at once: the person has not seen the task yet.
        seen = (directory / "keystrokes.jsonl").exists()
        if result.outcome != "infra_error" or seen or tries > spec.limits.infra_retries:
            break
    result.infra_attempts = tries
    (directory / "result.json").write_text(result.model_dump_json(indent=2))
    return result


def _header(index: int, total: int) -> str:
    return f" TUINaut - task {index} of {total} - when you are done, press Ctrl+G three times quickly "


def needed_size(spec: AttemptSpec, columns: int) -> tuple[int, int]:
    """Columns and rows the person's terminal needs: the pane plus the task lines above it."""
    pane = spec.package.app.pane
    lines = status_lines(_header(1, 1), spec.package.task.description, max(columns, pane.width))
    return pane.width, pane.height + len(lines)


def _briefing(terminal: PersonTerminal, spec: AttemptSpec, index: int, total: int, note: str) -> bool:
    """Show the next task; True to start it, False to stop the session here."""
    decoder = KeyDecoder()
    with terminal.raw():
        shown = None
        force = False
        while True:
            columns, rows = terminal.size()
            need_cols, need_rows = needed_size(spec, columns)
            small = columns < need_cols or rows < need_rows
            if shown != (columns, rows):
                terminal.write(CLEAR)
                terminal.write(_briefing_text(spec, index, total, note, (columns, rows),
                                                      (need_cols, need_rows) if small else None))
                shown = (columns, rows)
            data = terminal.read(SIZE_RECHECK_S)
            if data == b"":
                return False
            if data is None:
                continue
            for key in decoder.feed(data) + decoder.flush():
                if key.name in ("q", "Q", "ctrl+c", "ctrl+d", "escape"):
                    return False
                if key.name == "enter" and (not small or force):
                    return True
                if key.name in ("s", "S") and small:
                    force = True
                    terminal.write("\nStarting anyway: part of the app may be hidden. Press Enter.\n")


def _briefing_text(spec: AttemptSpec, index: int, total: int, note: str, size: tuple[int, int],
                   too_small: tuple[int, int] | None) -> str:
    repeat = "first attempt" if spec.repeat == 1 else f"attempt {spec.repeat}"
    lines = [f"TUINaut - participant {spec.participant} - task {index} of {total} ({repeat})", ""]
    if note:
        lines += [note, ""]
    lines += ["Your task:", "", f"    {spec.package.task.description.strip()}", "",
              "The app opens below this description, which stays on screen at the top.",
              "Use only the keyboard. When you think the task is done, press Ctrl+G three times quickly.",
              "Your time counts from when the app appears until that Ctrl+G.", ""]
    if too_small:
        lines += [(f"!! Your terminal is {size[0]}x{size[1]}, smaller than this task needs "
                   f"({too_small[0]}x{too_small[1]}): enlarge the window or make the font smaller."),
                  "   This screen rechecks by itself; press s to start anyway.", ""]
    lines += ["Press Enter to start, or q to stop here (run the same command again to resume)."]
    return "\n".join(lines) + "\n"


def write_summary(out: Path, plan: HumanPlan) -> None:
    """summary.json in the shape ``tuinaut run`` writes, over every result in the run directory."""
    results = [r for r in (read_result(p.parent) for p in sorted((out / "attempts").glob("*/*/*/r*/result.json")))
               if r is not None]
    write_run_summary(out, plan.evaluation.metadata.name, len(plan.attempts), results)
