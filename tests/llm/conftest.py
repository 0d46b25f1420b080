from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from chat_server import KEY_ENV, TEST_KEY, ChatServer

from tuinaut.model import AgentConfig


@pytest.fixture
def chat_server() -> Iterator[ChatServer]:
    server = ChatServer().start()
    yield server
    server.stop()


@pytest.fixture
def api_key(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv(KEY_ENV, TEST_KEY)
    return TEST_KEY


@pytest.fixture
def make_agent(chat_server: ChatServer, api_key: str):  # type: ignore[no-untyped-def]
    """An llm agent pointed at the scripted server, with tiny retry delays."""

    def make(**overrides: Any) -> AgentConfig:
        fields: dict[str, Any] = {"name": "scripted", "kind": "llm", "model": "scripted-model",
                                  "baseURL": chat_server.url, "apiKeyEnv": KEY_ENV, "timeoutS": 5.0,
                                  "retries": 3, "retryInitialDelayS": 0.01, "retryMaxDelayS": 0.05}
        fields.update(overrides)
        return AgentConfig.model_validate(fields)

    return make
