"""An application under test, as described by ``benchmark/apps/<app>/app.yaml``."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import Spec

NAME_PATTERN = r"^[a-z0-9][a-z0-9-]{0,40}$"


class Install(Spec):
    """How the app gets onto a machine: Debian packages, PyPI requirements, or both."""

    apt: list[str] = Field(default_factory=list, description="Debian package names (version pins allowed: pkg=ver).")
    pip: list[str] = Field(default_factory=list, description="PyPI requirement strings, pinned (name==version).")


class Pane(Spec):
    """The fixed terminal size the TUI sees."""

    width: int = Field(160, ge=20, le=500, description="Columns.")
    height: int = Field(40, ge=5, le=200, description="Rows.")


class Readiness(Spec):
    """When provisioning is over: the first stable screen, optionally showing a pattern."""

    pattern: str | None = Field(None, description="Regular expression the first screen must show.")
    timeout_s: float = Field(20.0, gt=0, description="Seconds before the TUI counts as never rendered.")


class Settle(Spec):
    """How long the screen must stay unchanged before it counts as settled after an action."""

    quiet_ms: int = Field(40, ge=5, le=5000, description="Unchanged for this long means settled.")
    poll_ms: int = Field(5, ge=1, le=1000, description="Pause between two captures.")
    max_ms: int = Field(3000, ge=50, le=60000, description="Give up waiting for stability after this long.")


class SandboxPolicy(Spec):
    """What the sandbox lets the app reach beyond the system directories and its own files."""

    network: Literal["none", "loopback"] = Field(
        "none", description="'loopback': the app starts services it talks to on 127.0.0.1 (never the outside)."
    )
    read_only_paths: list[str] = Field(
        default_factory=list, description="Extra host paths made visible read-only (e.g. a venv holding the app)."
    )


class App(Spec):
    """One TUI program and how to run it."""

    name: str = Field(pattern=NAME_PATTERN, description="Short id, also the directory name.")
    version: str = Field(description="The exact version the benchmark pins.")
    domain: str = Field("", description="What kind of tool it is, e.g. 'text editor'.")
    description: str = Field("", description="One line for humans.")
    install: Install = Field(default_factory=Install)
    launch: str = Field(description="Shell command that starts the TUI (run with sh -c inside the sandbox).")
    env: dict[str, str] = Field(default_factory=dict, description="Extra environment for the TUI.")
    pane: Pane = Field(default_factory=Pane)
    ready: Readiness = Field(default_factory=Readiness)
    settle: Settle = Field(default_factory=Settle)
    sandbox: SandboxPolicy = Field(default_factory=SandboxPolicy)
