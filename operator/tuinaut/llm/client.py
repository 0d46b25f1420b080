"""One gateway to an OpenAI-compatible Chat Completions endpoint, with our own retry policy.

Why our own retries instead of the openai client's: the client's backoff constants are fixed
module globals, while we need them in the agent configuration (tiny in tests, generous against a
rate-limited provider) and we need to count and log each retry. So the client runs with
``max_retries=0`` and this module retries timeouts, connection errors, 408/409/429 and 5xx with
exponential backoff and full jitter, honouring ``Retry-After`` / ``retry-after-ms``. When the budget
is spent it raises ``InfraError("endpoint_unavailable")``: the attempt then ends as an
infrastructure error, which the executor retries and the statistics leave out.

The API key is handed to the openai client and nowhere else: it is never logged, never put into
an exception message, and never stored on objects that end up in trajectories.
"""

from __future__ import annotations

import email.utils
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import openai

from ..errors import ConfigError, InfraError

log = logging.getLogger(__name__)

_RETRYABLE_STATUS = {408, 409, 429}


@dataclass(frozen=True)
class RetryPolicy:
    """How long to keep trying one request."""

    retries: int = 5
    initial_delay_s: float = 1.0
    max_delay_s: float = 60.0

    def backoff(self, retry: int, retry_after: float | None, rng: random.Random) -> float:
        """Delay before retry number ``retry`` (0-based): the server's wish, else jittered doubling."""
        if retry_after is not None:
            return min(max(retry_after, 0.0), self.max_delay_s)
        ceiling = min(self.initial_delay_s * (2 ** retry), self.max_delay_s)
        return ceiling * (0.5 + 0.5 * rng.random())  # jitter keeps parallel attempts from retrying in step


@dataclass
class ChatReply:
    """What one successful request returned, reduced to what the actor records."""

    content: str
    reasoning: str | None
    finish_reason: str | None
    usage: Any  # the openai CompletionUsage object, or None when the endpoint sends none
    model: str | None
    latency_s: float
    retries: int
    retry_log: list[str] = field(default_factory=list)


def parse_retry_after(headers: Any) -> float | None:
    """Seconds the server asked us to wait: ``retry-after-ms``, ``Retry-After`` seconds or HTTP date."""
    if headers is None:
        return None
    millis = headers.get("retry-after-ms")
    if millis:
        try:
            return float(millis) / 1000
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return float(value)
    except ValueError:
        parsed = email.utils.parsedate_to_datetime(value) if value else None
        if parsed is None:
            return None
        return max(parsed.timestamp() - time.time(), 0.0)


class ChatEndpoint:
    """A configured endpoint: ``complete(messages)`` returns one reply or raises a typed error."""

    def __init__(self, *, model: str, api_key: str, base_url: str | None, timeout_s: float,
                 policy: RetryPolicy, request_options: dict[str, Any] | None = None,
                 key_source: str = "the API key", sleep: Callable[[float], None] = time.sleep,
                 seed: int | None = None) -> None:
        self.model = model
        self.base_url = base_url
        self.policy = policy
        self.request_options = dict(request_options or {})
        self._key_source = key_source
        self._sleep = sleep
        self._rng = random.Random(seed)
        self._client = openai.OpenAI(api_key=api_key, base_url=base_url, timeout=timeout_s, max_retries=0)

    def close(self) -> None:
        self._client.close()

    def complete(self, messages: list[dict[str, Any]]) -> ChatReply:
        retry_log: list[str] = []
        for retry in range(self.policy.retries + 1):
            started = time.monotonic()
            try:
                completion = self._client.chat.completions.create(
                    model=self.model, messages=messages, stream=False, **self.request_options)  # type: ignore[arg-type]
            except (openai.APITimeoutError, openai.APIConnectionError) as exc:
                problem, retry_after = _describe(exc), None
            except openai.APIStatusError as exc:
                status = exc.status_code
                if status in (401, 403):
                    raise ConfigError(f"the endpoint refused the credentials ({status}); check {self._key_source}",
                                      field="agents[].apiKeyEnv") from None
                if status not in _RETRYABLE_STATUS and status < 500:
                    raise InfraError("endpoint_unavailable",
                                     f"{self._where()} rejected the request with HTTP {status} (not retried): "
                                     f"{_short(exc.message)}") from None
                problem, retry_after = f"HTTP {status}", parse_retry_after(exc.response.headers)
            else:
                return self._reply(completion, time.monotonic() - started, retry, retry_log)
            if retry == self.policy.retries:
                retry_log.append(problem)
                break
            delay = self.policy.backoff(retry, retry_after, self._rng)
            retry_log.append(f"{problem}; retry {retry + 1}/{self.policy.retries} in {delay:.2f}s")
            log.warning("model endpoint %s: %s; retry %d/%d in %.2fs",
                        self._where(), problem, retry + 1, self.policy.retries, delay)
            self._sleep(delay)
        raise InfraError("endpoint_unavailable",
                         f"{self._where()} failed {self.policy.retries + 1} times: {'; '.join(retry_log[-3:])}")

    def _where(self) -> str:
        return self.base_url or "the default OpenAI endpoint"

    def _reply(self, completion: Any, latency_s: float, retries: int, retry_log: list[str]) -> ChatReply:
        if not completion.choices:
            raise InfraError("endpoint_unavailable", f"{self._where()} returned no choices")
        choice = completion.choices[0]
        message = choice.message
        # DeepSeek and vLLM put thinking text in ``reasoning_content``; some servers say ``reasoning``.
        extra = getattr(message, "model_extra", None) or {}
        reasoning = extra.get("reasoning_content") or extra.get("reasoning") or None
        if reasoning is not None and not isinstance(reasoning, str):
            reasoning = str(reasoning)
        return ChatReply(content=message.content or "", reasoning=reasoning, finish_reason=choice.finish_reason,
                         usage=completion.usage, model=completion.model, latency_s=latency_s, retries=retries,
                         retry_log=retry_log)


def _describe(exc: Exception) -> str:
    if isinstance(exc, openai.APITimeoutError):
        return "timed out"
    cause = exc.__cause__ or exc.__context__
    return f"connection error ({type(cause).__name__ if cause else type(exc).__name__})"


def _short(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[:limit] + "..."
