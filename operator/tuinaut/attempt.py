"""One attempt: provision -> execute -> verify -> record. The same code runs in every executor.

Provision builds the sandbox, places fixtures, runs the init script and starts the TUI, ending at
its first stable screen. Execute loops observe -> decide -> act until the actor submits or a limit
is hit. Verify judges the oracle on the final snapshot and the sandbox; no key is sent after submit.
Record writes the trajectory as it happens and the result at the end.
"""

from __future__ import annotations

import shutil
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from .actors import Actor, ActorContext, Decision, Observation, StopAttempt, create_actor
from .catalog import TaskPackage
from .costs import Clock, key_events, keys_of, tally
from .errors import InfraError, TuinautError
from .model import (
    AgentConfig,
    AttemptResult,
    KeyEvent,
    Limits,
    PressAction,
    SubmitAction,
    TokenCosts,
    TypeAction,
    WaitAction,
)
from .oracle import verify
from .record import AttemptFiles, TrajectoryWriter
from .sandbox.base import Sandbox
from .sandbox.bwrap import BwrapSandbox
from .terminal.settle import first_screen, settle, wait_until
from .terminal.snapshot import Snapshot
from .terminal.tmux import Pane

INIT_TIMEOUT_S = 120.0


@dataclass(frozen=True)
class AttemptSpec:
    """One unit of work: a task, an agent configuration, a repeat number."""

    package: TaskPackage
    agent: AgentConfig
    repeat: int
    limits: Limits = field(default_factory=Limits)
    participant: str | None = None

    @property
    def id(self) -> str:
        return f"{self.package.app.name}/{self.package.task.id}/{self.agent.name}/r{self.repeat}"

    @property
    def time_limit_s(self) -> float:
        return min(self.package.task.time_limit_s, self.limits.attempt_timeout_s)


SandboxFactory = Callable[[AttemptSpec, Path], Sandbox]
ActorFactory = Callable[[ActorContext], Actor]


def local_sandbox(spec: AttemptSpec, directory: Path) -> Sandbox:
    return BwrapSandbox(directory / "sandbox", read_only_paths=spec.package.app.sandbox.read_only_paths)


@dataclass
class _Loop:
    """Mutable state of the execute phase, folded into the result at the end."""

    keys: list[KeyEvent] = field(default_factory=list)
    tokens: TokenCosts = field(default_factory=TokenCosts)
    turns: int = 0
    invalid: int = 0
    stop_reason: str = "max_turns"


def run_attempt(spec: AttemptSpec, directory: Path, *, make_actor: ActorFactory = create_actor,
                make_sandbox: SandboxFactory = local_sandbox, cancel: threading.Event | None = None) -> AttemptResult:
    """Run one attempt into ``directory`` (wiped first) and return its result, also written to disk.

    Infrastructure failures become a result with outcome ``infra_error``; KeyboardInterrupt
    propagates (the attempt has no result file and is redone on the next run). Setting ``cancel``
    ends the attempt at its next turn as ``interrupted``, an infrastructure outcome also redone later.
    """
    if directory.exists():
        shutil.rmtree(directory)
    files = AttemptFiles(directory)
    started = datetime.now(UTC)
    wall = time.monotonic()
    package = spec.package
    result_fields: dict = dict(
        attempt_id=spec.id, app=package.app.name, task=package.task.id, agent=spec.agent.name,
        agent_kind=spec.agent.kind, repeat=spec.repeat, participant=spec.participant,
        fingerprints=package.tokens, started_at=started,
    )
    sandbox = make_sandbox(spec, directory)
    with TrajectoryWriter(files.trajectory) as trajectory:
        trajectory.write("header", schema_version=1, attempt_id=spec.id, app=package.app.name,
                         task=package.task.id, agent=spec.agent.name, agent_kind=spec.agent.kind,
                         description=package.task.description, pane=package.app.pane.dump())
        loop = _Loop()
        clock = Clock()
        try:
            pane, first = _provision(spec, sandbox)
            clock.reset()  # interaction time and key timestamps count from the first rendered screen
            actor = make_actor(ActorContext(agent=spec.agent, package=package, limits=spec.limits,
                                            participant=spec.participant))
            try:
                _execute(spec, pane, first, actor, loop, clock, trajectory, cancel or threading.Event())
            finally:
                actor.close()
            interaction_s = clock()
            # The screen at submit or exit, once the app has finished with the last key (no key is
            # sent after submit; a starved app may still be handling the previous one).
            final, _ = settle(pane, package.app.settle)
            files.write_final_screen(final)
            verdicts = verify(package.task.assertions, final, sandbox)
            passed = all(v.passed for v in verdicts)
            result = AttemptResult(**result_fields, outcome="passed" if passed else "failed", passed=passed,
                                   stop_reason=loop.stop_reason, assertions=verdicts, keys=tally(loop.keys),
                                   tokens=loop.tokens, turns=loop.turns, invalid_actions=loop.invalid,
                                   interaction_s=round(interaction_s, 3))
        except InfraError as exc:
            result = _infra_result(result_fields, loop, exc.code, str(exc))
        except TuinautError as exc:
            result = _infra_result(result_fields, loop, "harness_error", str(exc))
        except Exception as exc:  # a bug must not kill a whole evaluation: record it, keep going
            result = _infra_result(result_fields, loop, "harness_error",
                                   f"{exc!r}\n{traceback.format_exc(limit=8)}")
        finally:
            sandbox.stop()
        result.duration_s = round(time.monotonic() - wall, 3)
        result.finished_at = datetime.now(UTC)
        trajectory.write("stop", t=clock(), stop_reason=result.stop_reason, outcome=result.outcome)
    files.write_result(result)
    return result


def _infra_result(fields: dict, loop: _Loop, code: str, message: str) -> AttemptResult:
    return AttemptResult(**fields, outcome="infra_error", passed=False, stop_reason=code, error=message,
                         keys=tally(loop.keys), tokens=loop.tokens, turns=loop.turns, invalid_actions=loop.invalid)


def _provision(spec: AttemptSpec, sandbox: Sandbox) -> tuple[Pane, Snapshot]:
    package = spec.package
    sandbox.start()
    for fixture in package.task.fixtures:
        if fixture.path.endswith("/"):
            sandbox.make_dir(fixture.path)
            continue
        data = ((package.task_dir / fixture.source).read_bytes() if fixture.source
                else (fixture.content or "").encode())
        sandbox.put_file(fixture.path, data, fixture.mode)
    if package.task.init.strip():
        result = sandbox.exec(package.task.init, timeout_s=INIT_TIMEOUT_S)
        if result.exit_code != 0:
            detail = "timed out" if result.timed_out else f"exited {result.exit_code}"
            raise InfraError("init_failed", f"init script {detail}: "
                                            f"{result.stderr.decode(errors='replace').strip()[-300:]}")
    app = package.app
    pane = sandbox.launch(package.launch, app.pane.width, app.pane.height, app.env)
    return pane, first_screen(pane, app.ready, app.settle)


def _execute(spec: AttemptSpec, pane: Pane, snapshot: Snapshot, actor: Actor, loop: _Loop, clock: Clock,
             trajectory: TrajectoryWriter, cancel: threading.Event) -> None:
    settle_policy = spec.package.app.settle
    feedback: str | None = None
    consecutive_invalid = 0
    last_digest = None
    for turn in range(spec.limits.max_turns):
        if cancel.is_set():
            raise InfraError("interrupted", "the run was interrupted; this attempt is redone on the next run")
        if snapshot.exited:
            loop.stop_reason = "tui_exited"
            trajectory.write("tui_exited", t=clock(), exit_status=snapshot.exit_status)
            return
        if clock() > spec.time_limit_s:
            loop.stop_reason = "time_limit"
            return
        if actor.needs_observation:
            changed = snapshot.digest != last_digest
            trajectory.write("observation", t=clock(), turn=turn, digest=snapshot.digest, cursor=list(snapshot.cursor),
                             **({"screen": snapshot.plain} if changed else {}))
            last_digest = snapshot.digest
        try:
            decision = actor.act(Observation(snapshot=snapshot, turn=turn, elapsed_s=clock(), feedback=feedback))
        except StopAttempt as stop:
            loop.stop_reason = stop.reason
            return
        loop.turns = turn + 1
        _record_model_turn(decision, loop, clock, turn, trajectory)
        if decision.action is None:
            loop.invalid += 1
            consecutive_invalid += 1
            feedback = decision.invalid_reason or "invalid action"
            trajectory.write("invalid_action", t=clock(), turn=turn, raw=decision.raw, reason=feedback)
            if consecutive_invalid >= spec.limits.max_consecutive_invalid:
                loop.stop_reason = "invalid_actions"
                return
            continue
        consecutive_invalid, feedback = 0, None
        action = decision.action
        if isinstance(action, SubmitAction):
            loop.stop_reason = "submitted"
            trajectory.write("action", t=clock(), turn=turn, action=action.model_dump(), keys=[])
            return
        events = _deliver(pane, action, clock)
        loop.keys.extend(events)
        trajectory.write("action", t=clock(), turn=turn, action=action.model_dump(exclude_none=True),
                         keys=[e.model_dump() for e in events])
        if isinstance(action, WaitAction) and action.until:
            snapshot = wait_until(pane, action.until, action.ms / 1000, settle_policy) or pane.capture()
        elif actor.needs_observation:
            snapshot, _ = settle(pane, settle_policy)
        else:
            snapshot = pane.capture()
    loop.stop_reason = "max_turns"


def _deliver(pane: Pane, action: TypeAction | PressAction | WaitAction, clock: Clock) -> list[KeyEvent]:
    if isinstance(action, WaitAction):
        if not action.until:
            time.sleep(action.ms / 1000)
        return []
    events = key_events(keys_of(action), clock())
    if isinstance(action, TypeAction):
        pane.send_text(action.text)
    else:
        pane.send_key(action.key)
    return events


def _record_model_turn(decision: Decision, loop: _Loop, clock: Clock, turn: int, trajectory: TrajectoryWriter) -> None:
    if decision.tokens is None and decision.reasoning is None and not decision.extra:
        return
    if decision.tokens is not None:
        t = decision.tokens
        loop.tokens.prompt += t.prompt
        loop.tokens.completion += t.completion
        loop.tokens.cached += t.cached
        loop.tokens.reasoning += t.reasoning
        loop.tokens.reasoning_estimated |= t.reasoning_estimated
        if t.cost_usd is not None:
            loop.tokens.cost_usd = round((loop.tokens.cost_usd or 0.0) + t.cost_usd, 6)
    trajectory.write("model_turn", t=clock(), turn=turn, raw=decision.raw, reasoning=decision.reasoning,
                     tokens=decision.tokens.model_dump() if decision.tokens else None, **decision.extra)
