"""The LLM agent driving real benchmark TUIs (tmux + bubblewrap) through the local executor,
with the model replaced by a scripted Chat Completions server reached over HTTP."""

from __future__ import annotations

import base64
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from chat_server import KEY_ENV, TEST_KEY, ChatServer, action, error, reply
from PIL import Image

from tuinaut.catalog import load_catalog
from tuinaut.local.executor import attempt_dir, plan_evaluation, run_plan
from tuinaut.model import AttemptResult
from tuinaut.observe.image import renderer

REPO_BENCHMARK = Path(__file__).resolve().parents[2] / "benchmark"
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def benchmark_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Just the apps these tests drive (linked), so other apps being edited cannot break them."""
    root = tmp_path_factory.mktemp("benchmark")
    (root / "apps").mkdir()
    for app in ("nano", "mc"):
        (root / "apps" / app).symlink_to(REPO_BENCHMARK / "apps" / app)
    return root


def run(tmp_path: Path, benchmark: Path, server: ChatServer, task: str, agent: dict[str, Any] | None = None,
        limits: dict[str, Any] | None = None) -> tuple[AttemptResult, Path]:
    """Write an Evaluation file for one attempt, run it with the real executor, return its result."""
    evaluation = {
        "apiVersion": "tuinaut.dev/v1alpha1", "kind": "Evaluation", "metadata": {"name": "llm-e2e"},
        "spec": {"tasks": [task], "repeats": 1, "parallelism": 1,
                 "limits": {"maxTurns": 20, "attemptTimeoutS": 60, "infraRetries": 0, **(limits or {})},
                 "agents": [{"name": "scripted", "kind": "llm", "model": "scripted-model", "baseURL": server.url,
                             "apiKeyEnv": KEY_ENV, "timeoutS": 5, "retries": 2, "retryInitialDelayS": 0.01,
                             "retryMaxDelayS": 0.05, **(agent or {})}]},
    }
    path = tmp_path / "evaluation.yaml"
    path.write_text(yaml.safe_dump(evaluation))
    plan = plan_evaluation(path, benchmark=benchmark)
    out = tmp_path / "out"
    outcome = run_plan(plan, out)
    (result,) = outcome.results
    return result, attempt_dir(out, plan.attempts[0])


def trajectory(directory: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (directory / "trajectory.jsonl").read_text().splitlines()]


def assert_no_key_anywhere(root: Path) -> None:
    for path in root.rglob("*"):
        if path.is_file():
            assert TEST_KEY not in path.read_text(errors="replace"), path


def test_a_correct_run_passes_and_records_tokens_and_reasoning(tmp_path: Path, chat_server: ChatServer,
                                                               api_key: str, benchmark_root: Path) -> None:
    package = load_catalog(benchmark_root).tasks["nano/write-note"]
    file_name = f"{package.tokens['file']}.txt"
    chat_server.add(
        action({"action": "type", "text": "buy oat milk"}, reasoning="nano is open; type the line.",
               reasoning_tokens=9),
        action({"action": "press", "key": "ctrl+o"}, reasoning="Write Out is ^O.", reasoning_tokens=5),
        action({"action": "type", "text": file_name}, reasoning="It asks for a file name.", reasoning_tokens=6),
        action({"action": "press", "key": "enter"}, reasoning="Confirm.", reasoning_tokens=2),
        reply('```json\n{"action": "submit"}\n```', reasoning="It says Wrote 1 line.", reasoning_tokens=7),
    )
    result, directory = run(tmp_path, benchmark_root, chat_server, "nano/write-note",
                            agent={"priceInputPerMtok": 0.5, "priceOutputPerMtok": 2.0})

    assert result.passed, (result.stop_reason, result.error, result.assertions)
    assert result.stop_reason == "submitted" and result.turns == 5 and result.invalid_actions == 0
    assert result.tokens.reasoning == 29 and result.tokens.reasoning_estimated is False
    assert result.tokens.prompt == 5 * 120 and result.tokens.completion == 5 * 30
    assert result.tokens.cost_usd == pytest.approx((600 * 0.5 + 150 * 2.0) / 1e6)
    assert result.keys.ake == len("buy oat milk") + 1 + len(file_name) + 1
    turns = [event for event in trajectory(directory) if event["kind"] == "model_turn"]
    assert [t["reasoning"] for t in turns][:2] == ["nano is open; type the line.", "Write Out is ^O."]
    assert turns[0]["observation_mode"] == "plain" and turns[0]["tokens"]["reasoning"] == 9

    first = chat_server.bodies[0]["messages"][1]["content"]
    assert first.startswith(f"Your task:\n{package.task.description}")
    assert package.tokens["file"] in first and "{{" not in first  # fingerprints substituted
    assert "GNU nano" in first and "^X Exit" in first  # the real screen, as plain text
    assert "buy oat milk" not in first.split("\n", 2)[2].split("Turn 1.")[1]  # nothing typed yet
    assert "equals" not in json.dumps(chat_server.bodies)  # the oracle never reaches the model
    assert_no_key_anywhere(tmp_path)


def test_consecutive_invalid_replies_end_the_attempt(tmp_path: Path, chat_server: ChatServer, api_key: str, benchmark_root: Path) -> None:
    chat_server.add(reply("Let me open the help first."), action({"action": "press", "key": "super+h"}),
                    action({"action": "press", "key": "down"}))
    result, directory = run(tmp_path, benchmark_root, chat_server, "nano/show-help", limits={"maxConsecutiveInvalid": 2})
    assert result.stop_reason == "invalid_actions" and result.outcome == "failed"
    assert result.invalid_actions == 2 and result.keys.ake == 0  # no key was sent
    invalid = [event for event in trajectory(directory) if event["kind"] == "invalid_action"]
    assert [event["raw"] for event in invalid] == ["Let me open the help first.", '{"action": "press", "key": "super+h"}']
    second = chat_server.bodies[1]["messages"]
    assert second[2] == {"role": "assistant", "content": "Let me open the help first."}
    assert "Your previous reply was not carried out: the reply is not a single JSON object" in second[3]["content"]
    assert len(chat_server.requests) == 2


def test_an_endpoint_that_keeps_failing_is_an_infrastructure_error(tmp_path: Path, chat_server: ChatServer,
                                                                   api_key: str, benchmark_root: Path) -> None:
    chat_server.add(*[error(500, "overloaded")] * 3)
    result, _ = run(tmp_path, benchmark_root, chat_server, "nano/show-help")
    assert result.outcome == "infra_error" and result.stop_reason == "endpoint_unavailable"
    assert "failed 3 times" in (result.error or "")
    assert len(chat_server.requests) == 3
    assert_no_key_anywhere(tmp_path)


@pytest.mark.parametrize("mode", ["plain", "semantic", "image"])
def test_each_observation_mode_on_a_real_file_manager(tmp_path: Path, chat_server: ChatServer, api_key: str,
                                                      mode: str, benchmark_root: Path) -> None:
    chat_server.add(action({"action": "press", "key": "end"}), action({"action": "press", "key": "up"}),
                    action({"action": "submit"}))
    result, _ = run(tmp_path, benchmark_root, chat_server, "mc/select-file", agent={"observation": mode})
    assert result.passed, result.assertions
    package = load_catalog(benchmark_root).tasks["mc/select-file"]
    target = f"{package.tokens['name']}.txt"
    last = chat_server.bodies[2]["messages"][-1]["content"]
    if mode == "plain":
        assert target in last and "<bg:" not in last and "\x1b" not in last
    elif mode == "semantic":
        # The selection bar (black on cyan) sits on the target file in the last screen.
        selected = [line for line in last.splitlines() if target in line][0]
        assert re.search(rf"<bg:cyan>(<fg:black>)? ?(<fg:black>)?{re.escape(target)}", selected), selected
        assert "\x1b" not in last
    else:
        text, image = last
        assert "Cursor:" in text["text"]
        png = base64.b64decode(image["image_url"]["url"].split(",", 1)[1])
        draw = renderer(16)
        assert Image.open(io.BytesIO(png)).size == (120 * draw.cell_width, 30 * draw.cell_height)
        earlier = chat_server.bodies[2]["messages"][1]["content"]
        assert isinstance(earlier, str) and earlier.endswith("(screenshot omitted)")
