"""Harness overhead per action on a static screen, against the bare tmux round trip.

For each action the harness sends a key, settles (polls captures until the screen has been
unchanged for the quiet period) and encodes the observation (parse once + plain text). The
baseline, measured in the same run on the same pane, is one bare `tmux send-keys` plus one
`tmux capture-pane`. Reports medians, the ratio, and the settle overhead (harness - baseline),
next to the published implementation's fixed 1.0 s wait before every observation.

    python benchmark/perf/settle_overhead.py [--actions 60] [--quiet-ms 40]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from tuinaut.model.app import Readiness, Settle
from tuinaut.sandbox.bwrap import BwrapSandbox
from tuinaut.terminal.settle import first_screen, settle

# A TUI that draws once and then swallows every key without redrawing: a static screen.
STATIC_TUI = "stty raw -echo; printf 'static screen\\r\\nkeys are read and ignored'; cat > /dev/null"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=60)
    parser.add_argument("--quiet-ms", type=int, default=Settle().quiet_ms)
    args = parser.parse_args()
    policy = Settle(quiet_ms=args.quiet_ms)
    with tempfile.TemporaryDirectory() as tmp:
        box = BwrapSandbox(Path(tmp) / "sandbox")
        box.start()
        try:
            pane = box.launch(STATIC_TUI, 160, 40, {})
            first_screen(pane, Readiness(timeout_s=5), policy)
            socket = str(box.ctl_host / "tmux.sock")
            baseline, harness = [], []
            for _ in range(args.actions):  # interleaved, so machine noise hits both alike
                start = time.perf_counter()
                subprocess.run(["tmux", "-S", socket, "send-keys", "-t", pane.target, "x"], check=True)
                subprocess.run(["tmux", "-S", socket, "capture-pane", "-p", "-e", "-t", pane.target],
                               check=True, capture_output=True)
                baseline.append(time.perf_counter() - start)
                start = time.perf_counter()
                pane.send_key("x")
                snapshot, _ = settle(pane, policy)
                _ = snapshot.plain
                harness.append(time.perf_counter() - start)
        finally:
            box.stop()
    base_ms, harness_ms = statistics.median(baseline) * 1000, statistics.median(harness) * 1000
    print(f"actions: {args.actions}, quiet period: {policy.quiet_ms} ms, poll: {policy.poll_ms} ms")
    print(f"bare tmux send-keys + capture-pane: median {base_ms:.1f} ms")
    print(f"harness send + settle + encode:     median {harness_ms:.1f} ms "
          f"(p90 {statistics.quantiles(harness, n=10)[-1] * 1000:.1f} ms)")
    print(f"ratio harness / bare:               {harness_ms / base_ms:.1f}x")
    print(f"settle overhead (harness - bare):   median {harness_ms - base_ms:.1f} ms "
          f"(published implementation: a fixed 1000 ms wait)")


if __name__ == "__main__":
    main()
