"""The six oracle primitives (fixed names) as data. Their evaluation lives in ``tuinaut.oracle``."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from .base import Spec


class _Assertion(Spec):
    description: str = Field("", description="What this checks, in words, for reports.")


class _TextMatch(_Assertion):
    """Either a literal ``text`` or a ``regex``: exactly one."""

    text: str | None = Field(None, description="Literal text to look for.")
    regex: str | None = Field(None, description="Python regular expression to look for.")

    @model_validator(mode="after")
    def _one_of(self):  # type: ignore[no-untyped-def]
        if (self.text is None) == (self.regex is None):
            raise ValueError("give exactly one of 'text' or 'regex'")
        return self


class CheckShell(_Assertion):
    """Run a shell command in the attempt's sandbox; pass on the expected exit code (and output)."""

    type: Literal["check_shell"]
    command: str = Field(description="Run with sh -c inside the sandbox, cwd = HOME.")
    exit_code: int = Field(0, description="Exit code that means pass.")
    stdout_contains: str | None = Field(None, description="Text the standard output must contain.")
    timeout_s: float = Field(10.0, gt=0)


class CheckFilesystem(_Assertion):
    """A path exists (or not) in the sandbox."""

    type: Literal["check_filesystem"]
    path: str = Field(description="Absolute, or relative to HOME (~/ allowed).")
    exists: bool = True
    kind: Literal["any", "file", "dir"] = "any"


class CheckFilesystemContent(_Assertion):
    """A file's content matches: every given condition must hold."""

    type: Literal["check_filesystem_content"]
    path: str
    contains: str | None = None
    not_contains: str | None = None
    equals: str | None = Field(None, description="Whole content, compared after stripping trailing whitespace.")
    regex: str | None = None

    @model_validator(mode="after")
    def _some_condition(self):  # type: ignore[no-untyped-def]
        if all(v is None for v in (self.contains, self.not_contains, self.equals, self.regex)):
            raise ValueError("give at least one of contains, notContains, equals, regex")
        return self


class CheckScreen(_TextMatch):
    """The final screen shows the text."""

    type: Literal["check_screen"]


class CheckScreenAbsent(_TextMatch):
    """The final screen does not show the text."""

    type: Literal["check_screen_absent"]


class CheckScreenHighlight(_TextMatch):
    """The text is on the final screen and highlighted: reverse, bold or a background change
    (``fg``/``bg`` pin the exact colours, e.g. for TUIs that mark the current item by text colour)."""

    type: Literal["check_screen_highlight"]
    fg: str | None = Field(None, description="Required foreground colour (a name, color_N or #rrggbb).")
    bg: str | None = Field(None, description="Required background colour.")


Assertion = Annotated[
    CheckShell | CheckFilesystem | CheckFilesystemContent | CheckScreen | CheckScreenAbsent | CheckScreenHighlight,
    Field(discriminator="type"),
]
SCREEN_ASSERTIONS = (CheckScreen, CheckScreenAbsent, CheckScreenHighlight)
PRIMITIVES = ("check_shell", "check_filesystem", "check_filesystem_content",
              "check_screen", "check_screen_absent", "check_screen_highlight")
