"""Realistic run directories for the analysis tests, written as real ``AttemptResult`` files."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from tuinaut.model.result import AttemptResult, KeyCosts, TokenCosts
from tuinaut.terminal.keys import classify, physical_count

NAV = ["up", "down", "left", "right", "tab", "home", "end"]
CTRL = ["enter", "escape", "ctrl+s", "ctrl+x", "f2"]


def key_sequence(rng: np.random.Generator, length: int, printable_share: float) -> list[str]:
    keys = []
    for _ in range(length):
        r = rng.random()
        if r < printable_share:
            keys.append(str(rng.choice(list("abcdefgh ABC"))))
        elif r < printable_share + (1 - printable_share) * 0.6:
            keys.append(str(rng.choice(NAV)))
        elif r < printable_share + (1 - printable_share) * 0.75:
            keys.append("backspace")
        else:
            keys.append(str(rng.choice(CTRL)))
    return keys


def result(app: str, task: str, agent: str, kind: str, repeat: int, *, passed: bool, keys: list[str],
           reasoning: int = 0, interaction_s: float = 0.0, participant: str | None = None,
           outcome: str | None = None) -> AttemptResult:
    by_class = {"printable": 0, "navigation": 0, "deletion": 0, "control": 0}
    classes: list[str] = []
    for k in keys:
        c = classify(k).value
        by_class[c] += 1
        if not classes or classes[-1] != c:
            classes.append(c)
    outcome = outcome or ("passed" if passed else "failed")
    return AttemptResult(
        attempt_id=f"{app}-{task}-{agent}-{participant or ''}-r{repeat}", app=app, task=task, agent=agent,
        agent_kind=kind, repeat=repeat, participant=participant, outcome=outcome, passed=passed,
        stop_reason="submitted" if outcome != "infra_error" else "sandbox_error",
        keys=KeyCosts(ake=len(keys), ake_physical=sum(physical_count(k) for k in keys), by_class=by_class,
                      sequence=keys, class_sequence=classes),
        tokens=TokenCosts(reasoning=reasoning), turns=max(1, len(keys) // 3), duration_s=1.0 + len(keys),
        interaction_s=interaction_s,
    )


def write(root: Path, results: list[AttemptResult], summary: bool = True) -> Path:
    """Lay results out as <run>/attempts/<app>/<task>/<agent>/r<repeat>/result.json (+ summary.json)."""
    for r in results:
        who = f"{r.agent}-{r.participant}" if r.participant else r.agent
        d = root / "attempts" / r.app / r.task / who / f"r{r.repeat}"
        d.mkdir(parents=True, exist_ok=True)
        (d / "result.json").write_text(r.model_dump_json())
        (d / "trajectory.jsonl").write_text("")
    if summary:
        (root / "summary.json").write_text(json.dumps({"attempts": [r.summary_row() for r in results]}))
    return root


def synthetic_results(seed: int = 0, apps: int = 4, tasks_per_app: int = 3, participants: int = 3,
                      agents: tuple[str, ...] = ("plain-pro", "semantic-pro"), runs: int = 3,
                      cost_shift: float = 0.0, success_shift: float = 0.0) -> list[AttemptResult]:
    """Humans and LLM agents on the same tasks, sharing a latent task difficulty (so costs correlate)."""
    rng = np.random.default_rng(seed)
    out = []
    for a in range(apps):
        for t in range(tasks_per_app):
            difficulty = rng.uniform(0, 1)
            base_len = int(4 + 30 * difficulty)
            for p in range(participants):
                n = max(1, int(base_len * rng.uniform(0.8, 1.6)))
                out.append(result(f"app{a}", f"t{t}", "human", "human", 0, participant=f"P{p + 1}",
                                  passed=bool(rng.random() > difficulty * 0.6), keys=key_sequence(rng, n, 0.45),
                                  interaction_s=float(20 + 100 * difficulty * rng.uniform(0.7, 1.3))))
            for agent in agents:
                for r in range(runs):
                    n = max(1, int((base_len + cost_shift) * rng.uniform(0.9, 1.2)))
                    out.append(result(f"app{a}", f"t{t}", agent, "llm", r,
                                      passed=bool(rng.random() > difficulty * 0.5 - success_shift),
                                      keys=key_sequence(rng, n, 0.7),
                                      reasoning=int(500 + 4000 * difficulty * rng.uniform(0.8, 1.2))))
    return out
