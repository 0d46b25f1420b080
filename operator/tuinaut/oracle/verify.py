"""Judge each assertion against the final snapshot and the sandbox."""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

from ..model import Assertion, AssertionVerdict
from ..model.assertions import (
    CheckFilesystem,
    CheckFilesystemContent,
    CheckScreen,
    CheckScreenAbsent,
    CheckScreenHighlight,
    CheckShell,
)
from ..sandbox.base import Sandbox, sandbox_path
from ..terminal.snapshot import Snapshot
from .highlight import describe, dominant_background, is_highlighted

EVIDENCE_LIMIT = 300


def verify(assertions: Sequence[Assertion], final: Snapshot, sandbox: Sandbox) -> list[AssertionVerdict]:
    """Verdicts in the order given. An assertion that cannot be evaluated fails with the reason."""
    verdicts = []
    for assertion in assertions:
        try:
            passed, evidence = _judge(assertion, final, sandbox)
        except re.error as exc:
            passed, evidence = False, f"invalid regular expression: {exc}"
        verdicts.append(AssertionVerdict(type=assertion.type, description=assertion.description,
                                         passed=passed, evidence=evidence[:EVIDENCE_LIMIT]))
    return verdicts


def _judge(assertion: Assertion, final: Snapshot, sandbox: Sandbox) -> tuple[bool, str]:
    if isinstance(assertion, CheckScreen):
        hits = _screen_hits(assertion, final)
        return bool(hits), _where(hits, final) if hits else f"{_pattern(assertion)} not on the final screen"
    if isinstance(assertion, CheckScreenAbsent):
        hits = _screen_hits(assertion, final)
        return not hits, f"{_pattern(assertion)} shown at {_where(hits, final)}" if hits else "absent"
    if isinstance(assertion, CheckScreenHighlight):
        return _judge_highlight(assertion, final)
    if isinstance(assertion, CheckShell):
        return _judge_shell(assertion, sandbox)
    if isinstance(assertion, CheckFilesystem):
        return _judge_filesystem(assertion, sandbox)
    if isinstance(assertion, CheckFilesystemContent):
        return _judge_content(assertion, sandbox)
    raise TypeError(f"unknown assertion {assertion!r}")


def _pattern(assertion: CheckScreen | CheckScreenAbsent | CheckScreenHighlight) -> str:
    return f"text {assertion.text!r}" if assertion.text is not None else f"regex {assertion.regex!r}"


def _screen_hits(assertion: CheckScreen | CheckScreenAbsent | CheckScreenHighlight,
                 final: Snapshot) -> list[tuple[int, int, int]]:
    if assertion.text is not None:
        return final.find(assertion.text)
    return final.find(assertion.regex or "", regex=True)


def _where(hits: list[tuple[int, int, int]], final: Snapshot) -> str:
    row, start, end = hits[0]
    more = f" (+{len(hits) - 1} more)" if len(hits) > 1 else ""
    return f"row {row}, columns {start}-{end}: {final.lines[row].strip()!r}{more}"


def _judge_highlight(assertion: CheckScreenHighlight, final: Snapshot) -> tuple[bool, str]:
    hits = _screen_hits(assertion, final)
    if not hits:
        return False, f"{_pattern(assertion)} not on the final screen"
    background = dominant_background(final)
    wanted = {"fg": assertion.fg, "bg": assertion.bg}
    for row, start, end in hits:
        cells = final.cells(row, start, end)
        if is_highlighted(cells, background, **wanted):
            return True, f"highlighted at row {row} ({describe(cells)}; screen background {background})"
    row, start, end = hits[0]
    expected = ", ".join(f"{k}={v}" for k, v in wanted.items() if v) or f"reverse, bold or a background other than {background}"
    return False, f"shown but not highlighted: row {row} has {describe(final.cells(row, start, end))}; expected {expected}"


def _judge_shell(assertion: CheckShell, sandbox: Sandbox) -> tuple[bool, str]:
    result = sandbox.exec(assertion.command, timeout_s=assertion.timeout_s)
    if result.timed_out:
        return False, f"timed out after {assertion.timeout_s:g}s"
    output = result.text
    ok = result.exit_code == assertion.exit_code
    evidence = f"exit {result.exit_code} (expected {assertion.exit_code})"
    if assertion.stdout_contains is not None:
        found = assertion.stdout_contains in output
        ok = ok and found
        evidence += f"; output {'contains' if found else 'lacks'} {assertion.stdout_contains!r}"
    tail = output.strip()[-120:] or result.stderr.decode(errors="replace").strip()[-120:]
    return ok, f"{evidence}; output: {tail!r}" if tail else evidence


def _judge_filesystem(assertion: CheckFilesystem, sandbox: Sandbox) -> tuple[bool, str]:
    path = shlex.quote(sandbox_path(assertion.path))
    result = sandbox.exec(f"if [ -d {path} ]; then echo dir; elif [ -e {path} ]; then echo file; else echo none; fi")
    found = result.text.strip() or "none"
    if not assertion.exists:
        return found == "none", f"{assertion.path}: {'absent' if found == 'none' else f'exists ({found})'}"
    ok = found != "none" and assertion.kind in ("any", found)
    return ok, f"{assertion.path}: {found if found != 'none' else 'absent'} (expected {assertion.kind})"


def _judge_content(assertion: CheckFilesystemContent, sandbox: Sandbox) -> tuple[bool, str]:
    path = sandbox_path(assertion.path)
    result = sandbox.exec(f"cat -- {shlex.quote(path)}")
    if result.exit_code != 0:
        return False, f"{assertion.path}: cannot read ({result.stderr.decode(errors='replace').strip()})"
    content = result.text
    failures = []
    if assertion.contains is not None and assertion.contains not in content:
        failures.append(f"lacks {assertion.contains!r}")
    if assertion.not_contains is not None and assertion.not_contains in content:
        failures.append(f"contains {assertion.not_contains!r}")
    if assertion.equals is not None and content.rstrip() != assertion.equals.rstrip():
        failures.append("differs from the expected content")
    if assertion.regex is not None and not re.search(assertion.regex, content, re.MULTILINE):
        failures.append(f"does not match {assertion.regex!r}")
    excerpt = content.strip()[:150]
    if failures:
        return False, f"{assertion.path} {'; '.join(failures)}; content: {excerpt!r}"
    return True, f"{assertion.path} matches; content: {excerpt!r}"
