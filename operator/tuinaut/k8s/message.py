"""The agent sidecar's termination message: a compact result that fits in Kubernetes' 4 KiB.

The full result and trajectory go to the results volume; the message carries what the Attempt's
status shows. Evidence and descriptions are shortened until the JSON fits.
"""

from __future__ import annotations

import json
from typing import Any

from ..model import AttemptResult
from .resources import AttemptResultStatus

MESSAGE_LIMIT = 4096
_SAFE_LIMIT = 3900  # kubelet counts bytes; keep a margin


def compact(result: AttemptResult, trajectory: str | None = None) -> AttemptResultStatus:
    return AttemptResultStatus(
        outcome=result.outcome, passed=result.passed, stop_reason=result.stop_reason,
        error=(result.error or None) and result.error[:600],
        assertions=[{"type": a.type, "description": a.description, "passed": a.passed, "evidence": a.evidence}
                    for a in result.assertions],
        turns=result.turns, invalid_actions=result.invalid_actions,
        ake=result.keys.ake, ake_physical=result.keys.ake_physical, ake_by_class=dict(result.keys.by_class),
        reasoning_tokens=result.tokens.reasoning, prompt_tokens=result.tokens.prompt,
        completion_tokens=result.tokens.completion,
        duration_s=round(result.duration_s, 3), interaction_s=round(result.interaction_s, 3),
        trajectory=trajectory,
    )


def encode(status: AttemptResultStatus) -> str:
    """JSON under the termination-message limit: long texts are cut, longest first, until it fits."""
    data = status.dump()
    for cap in (400, 160, 60, 0):
        text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
        if len(text.encode()) <= _SAFE_LIMIT:
            return text
        for assertion in data.get("assertions", []):
            assertion["evidence"] = _cut(assertion.get("evidence", ""), cap)
            assertion["description"] = _cut(assertion.get("description", ""), max(cap, 40))
        if data.get("error"):
            data["error"] = _cut(data["error"], max(cap, 200))
    data["assertions"] = [{"type": a["type"], "passed": a["passed"]} for a in data.get("assertions", [])]
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)[:_SAFE_LIMIT]


def decode(message: str | None) -> AttemptResultStatus | None:
    """The compact result from a termination message; None when absent or not ours."""
    if not message or not message.strip().startswith("{"):
        return None
    try:
        return AttemptResultStatus.model_validate(json.loads(message))
    except ValueError:
        return None


def _cut(text: str, cap: int) -> str:
    return text if len(text) <= cap else (text[: max(cap - 1, 0)] + "…" if cap else "")


def as_status(status: AttemptResultStatus) -> dict[str, Any]:
    return status.dump()
