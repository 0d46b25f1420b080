"""Wait for the screen to settle: poll captures until unchanged for a quiet period, never a fixed sleep."""

from __future__ import annotations

import re
import time

from ..errors import InfraError
from ..model.app import Readiness, Settle
from .snapshot import Snapshot
from .tmux import Pane, snapshot_from


def settle(pane: Pane, policy: Settle) -> tuple[Snapshot, bool]:
    """The first screen that stayed the same for ``quiet_ms``; (snapshot, settled).

    Compares the raw capture text (cheap) and parses only the final one. Returns unsettled after
    ``max_ms`` for screens that never stop changing (clocks, spinners). A dead pane is final at once.
    """
    start = last_change = time.monotonic()
    raw, state = pane.capture_raw()
    while True:
        if state.split(" ")[3] == "1":  # pane_dead: nothing will change any more
            return snapshot_from(raw, state), True
        time.sleep(policy.poll_ms / 1000)
        now = time.monotonic()
        new_raw, new_state = pane.capture_raw()
        if (new_raw, new_state) != (raw, state):
            raw, state, last_change = new_raw, new_state, now
        elif (now - last_change) * 1000 >= policy.quiet_ms:
            return snapshot_from(raw, state), True
        if (now - start) * 1000 >= policy.max_ms:
            return snapshot_from(raw, state), False


def wait_until(pane: Pane, text: str, timeout_s: float, policy: Settle) -> Snapshot | None:
    """Poll until the settled screen shows ``text``; None on timeout."""
    deadline = time.monotonic() + timeout_s
    while True:
        snapshot, _ = settle(pane, policy)
        if text in snapshot.plain or snapshot.exited:
            return snapshot
        if time.monotonic() >= deadline:
            return None
        time.sleep(policy.poll_ms / 1000)


def first_screen(pane: Pane, ready: Readiness, policy: Settle) -> Snapshot:
    """Provisioning ends here: the first stable, non-blank screen (matching the ready pattern if any)."""
    pattern = re.compile(ready.pattern) if ready.pattern else None
    deadline = time.monotonic() + ready.timeout_s
    snapshot = None
    while time.monotonic() < deadline:
        snapshot, settled = settle(pane, policy)
        if snapshot.exited:
            raise InfraError("tui_never_rendered",
                             f"the TUI exited (status {snapshot.exit_status}) before its first screen; "
                             f"last screen: {snapshot.plain[-300:]!r}")
        if settled and not snapshot.blank and (pattern is None or pattern.search(snapshot.plain)):
            return snapshot
        time.sleep(policy.poll_ms / 1000)
    shown = snapshot.plain[-300:] if snapshot is not None else ""
    what = f"screen matching {ready.pattern!r}" if pattern else "stable non-blank screen"
    raise InfraError("tui_never_rendered", f"no {what} within {ready.timeout_s:g}s; last screen: {shown!r}")
