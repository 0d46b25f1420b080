"""Turn a model reply into one action, or into the reason it is not one.

The reply must be a single JSON object naming one of the four actions. A Markdown code fence
around it is tolerated (models add them out of habit); anything else, such as prose around the
JSON, two objects, or a list, is an invalid action. The reason text goes back to the model on the
next turn, so it says what was wrong and what a valid reply looks like.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from pydantic import ValidationError

from ..model.actions import ACTION_ADAPTER, Action, WaitAction

_FENCE = re.compile(r"^```[A-Za-z0-9_-]*[ \t]*\n(?P<body>.*?)\n?```$", re.DOTALL)
_HINT = 'Reply with exactly one JSON object, e.g. {"action": "press", "key": "enter"}.'


@dataclass(frozen=True)
class Parsed:
    action: Action | None
    error: str | None = None


def _unfence(text: str) -> str:
    match = _FENCE.match(text)
    return match.group("body").strip() if match else text


def parse_action(reply: str) -> Parsed:
    """The action a reply names, or an error to feed back."""
    text = _unfence(reply.strip())
    if not text:
        return Parsed(None, f"empty reply. {_HINT}")
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        return Parsed(None, f"the reply is not a single JSON object ({exc.msg} at position {exc.pos}). {_HINT}")
    if not isinstance(value, dict):
        kind = "a list (one action per turn)" if isinstance(value, list) else f"a JSON {type(value).__name__}"
        return Parsed(None, f"the reply is {kind}, not one action object. {_HINT}")
    try:
        action = ACTION_ADAPTER.validate_python(value)
    except ValidationError as exc:
        return Parsed(None, f"invalid action: {_first_error(exc)}. {_HINT}")
    if isinstance(action, WaitAction) and action.until is not None:
        return Parsed(None, "wait takes only 'ms'; 'until' is not available to you. " + _HINT)
    return Parsed(action)


def _first_error(exc: ValidationError) -> str:
    error = exc.errors(include_url=False)[0]
    where = ".".join(str(part) for part in error.get("loc", ()) if part not in ("type", "press", "wait", "submit"))
    message = str(error.get("msg", "invalid")).removeprefix("Value error, ")
    if error.get("type") == "union_tag_invalid":
        return "'action' must be one of type, press, wait, submit"
    if error.get("type") == "union_tag_not_found":
        return "the object needs an 'action' field (type, press, wait or submit)"
    if error.get("type") == "extra_forbidden":
        return f"unexpected field {where!r} for this action"
    return f"{where}: {message}" if where else message
