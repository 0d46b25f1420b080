"""The base every TUINaut file model shares: camelCase in YAML, unknown fields rejected."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel


class Spec(BaseModel):
    """A model read from a user's file: strict about unknown fields, camelCase on the wire."""

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="forbid",
        frozen=False,
    )

    def dump(self) -> dict:
        """The wire form: camelCase keys, defaults left out."""
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)


class Record(BaseModel):
    """A model TUINaut writes (results, trajectories): snake_case, extra fields kept for forward compat."""

    model_config = ConfigDict(extra="allow")
