"""Read YAML files into models; every failure names the file, the field and the reason."""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from ..errors import ConfigError

M = TypeVar("M", bound=BaseModel)


def read_yaml(path: Path) -> object:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError("file not found", file=path) from None
    except OSError as exc:
        raise ConfigError(f"cannot read: {exc.strerror}", file=path) from exc
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else None
        problem = getattr(exc, "problem", None) or str(exc)
        raise ConfigError(f"not valid YAML: {problem}", file=path, field=where) from exc


def validate(model: type[M], data: object, file: Path | str) -> M:
    """Validate data against a model, turning pydantic's report into one ConfigError."""
    if not isinstance(data, dict):
        raise ConfigError(f"expected a mapping at the top level, got {type(data).__name__}", file=file)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise config_error_from(exc, file) from None


def load(model: type[M], path: Path) -> M:
    return validate(model, read_yaml(path), path)


def config_error_from(exc: ValidationError, file: Path | str) -> ConfigError:
    problems = []
    for error in exc.errors():
        field = _field_path(error["loc"])
        reason = error["msg"]
        if error["type"] == "extra_forbidden":
            reason = "unknown field (check the spelling; fields are camelCase)"
        elif error["type"] == "missing":
            reason = "required field is missing"
        problems.append((field, reason))
    first_field, first_reason = problems[0]
    reason = first_reason
    if len(problems) > 1:
        others = "; ".join(f"{f or '(top)'}: {r}" for f, r in problems[1:4])
        reason += f" (and {len(problems) - 1} more: {others})"
    return ConfigError(reason, file=file, field=first_field or None)


def _field_path(loc: tuple) -> str:
    parts: list[str] = []
    for item in loc:
        if isinstance(item, int):
            parts.append(f"[{item}]")
        elif item in ("check_shell", "check_filesystem", "check_filesystem_content", "check_screen",
                      "check_screen_absent", "check_screen_highlight", "function-after", "type", "press",
                      "wait", "submit") and parts and parts[-1].endswith("]"):
            continue  # union tags pydantic inserts into locations: not a field the user wrote
        else:
            parts.append(("." if parts else "") + str(item))
    return "".join(parts)
