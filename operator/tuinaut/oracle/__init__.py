"""Verification: the six oracle primitives, judged after submit or TUI exit.

Screen assertions read the final snapshot; shell and filesystem assertions run inside the attempt's
sandbox (the same filesystem, processes and loopback the TUI had). Each assertion yields a verdict
with evidence; an attempt passes only if every assertion passes.
"""

from .highlight import is_highlighted
from .verify import verify

__all__ = ["is_highlighted", "verify"]
