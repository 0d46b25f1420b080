"""Fingerprints: short per-task tokens that prove an outcome came from this task's run.

A token is derived from SHA-256 of ``<app>/<task>/<name>``, so it is the same for every actor and
every repeat of a task, and unguessable from the task text alone. ``{{fp.NAME}}`` in a task's text
fields is replaced by the token.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

PLACEHOLDER = re.compile(r"\{\{\s*fp\.([A-Za-z0-9_-]+)\s*\}\}")
TOKEN_LENGTH = 8


def fingerprint(app: str, task: str, name: str) -> str:
    """The token for one name: 'fp' plus the first hex digits of the digest (starts with a letter)."""
    digest = hashlib.sha256(f"{app}/{task}/{name}".encode()).hexdigest()
    return f"fp{digest[:TOKEN_LENGTH]}"


def tokens_for(app: str, task: str, names: list[str]) -> dict[str, str]:
    return {name: fingerprint(app, task, name) for name in names}


def substitute(value: Any, tokens: dict[str, str], where: str = "") -> Any:
    """Replace placeholders in every string inside ``value``; an undeclared name raises KeyError(where)."""
    if isinstance(value, str):
        def replace(match: re.Match[str]) -> str:
            name = match.group(1)
            if name not in tokens:
                raise KeyError(f"{where}: '{{{{fp.{name}}}}}' is not declared in fingerprints")
            return tokens[name]
        return PLACEHOLDER.sub(replace, value)
    if isinstance(value, list):
        return [substitute(item, tokens, f"{where}[{i}]") for i, item in enumerate(value)]
    if isinstance(value, dict):
        return {key: substitute(item, tokens, f"{where}.{key}" if where else str(key)) for key, item in value.items()}
    return value
