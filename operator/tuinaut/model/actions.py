"""The four actions an actor may take (fixed): type, press, wait, submit."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator

from ..terminal.keys import KeyNameError, is_printable_char, parse_key


class _Action(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TypeAction(_Action):
    """Type printable text; one atomic key event per character."""

    action: Literal["type"] = "type"
    text: str = Field(min_length=1)

    @field_validator("text")
    @classmethod
    def _printable_only(cls, text: str) -> str:
        bad = [c for c in text if not is_printable_char(c)]
        if bad:
            raise ValueError(f"type text must be printable characters only; use press for {bad[0]!r}")
        return text


class PressAction(_Action):
    """Press one key or chord from the shared vocabulary."""

    action: Literal["press"] = "press"
    key: str

    @field_validator("key")
    @classmethod
    def _known_key(cls, key: str) -> str:
        try:
            return parse_key(key).name
        except KeyNameError as exc:
            raise ValueError(str(exc)) from None


class WaitAction(_Action):
    """Let time pass. ``until`` (reference scripts only) ends the wait early once text shows."""

    action: Literal["wait"] = "wait"
    ms: int = Field(500, ge=0, le=60000)
    until: str | None = None


class SubmitAction(_Action):
    """Declare the task done. Intercepted: never delivered to the TUI."""

    action: Literal["submit"] = "submit"


Action = Annotated[TypeAction | PressAction | WaitAction | SubmitAction, Field(discriminator="action")]
ACTION_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)
