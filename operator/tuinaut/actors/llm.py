"""The LLM keyboard agent: a model behind any OpenAI-compatible endpoint in the user's seat.

Each attempt gets a fresh conversation holding only the action protocol and the task description
(fingerprints already substituted). Every turn adds one observation of the current screen, in the
configured mode, and asks for exactly one action. The actor never sees the task's reference path,
assertions, fixtures or oracle output: ``ActorContext`` carries them, and this module reads nothing
but ``package.task.description``.

Budgets (``maxTurns`` override, ``timeBudgetS``, ``tokenBudget``) are enforced here by raising
``StopAttempt`` with the task stop reason, so they work the same under any executor.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from typing import Any

from ..errors import ConfigError
from ..llm.client import ChatEndpoint, RetryPolicy
from ..llm.context import Conversation
from ..llm.parse import parse_action
from ..llm.prompt import system_prompt, task_message
from ..llm.tokens import tokenizer_name, turn_costs
from ..model import AgentConfig
from ..observe.image import renderer
from ..observe.plain import describe_cursor, encode_plain
from ..observe.semantic import encode_semantic
from .base import ActorContext, Decision, Observation, StopAttempt, register

log = logging.getLogger(__name__)


def resolve_api_key(agent: AgentConfig, environ: Mapping[str, str] = os.environ) -> str:
    """The key from the configured environment variable; the error names the variable, never a value."""
    key = environ.get(agent.api_key_env, "").strip()
    if not key:
        where = f" for {agent.base_url}" if agent.base_url else ""
        raise ConfigError(f"environment variable {agent.api_key_env} is not set; it must hold the API key{where} "
                          f"(or set apiKeyEnv to the variable that does)",
                          field=f"agents[{agent.name}].apiKeyEnv")
    return key


def request_options(agent: AgentConfig) -> dict[str, Any]:
    """Per-request parameters from the agent configuration; unset ones are left to the endpoint."""
    options: dict[str, Any] = {}
    if agent.temperature is not None:
        options["temperature"] = agent.temperature
    if agent.max_tokens is not None:
        options["max_tokens"] = agent.max_tokens
    if agent.reasoning_effort is not None:
        options["reasoning_effort"] = agent.reasoning_effort
    if agent.extra_body:
        options["extra_body"] = dict(agent.extra_body)
    return options


class LLMActor:
    needs_observation = True

    def __init__(self, agent: AgentConfig, description: str, *, environ: Mapping[str, str] = os.environ,
                 endpoint: ChatEndpoint | None = None) -> None:
        if not agent.model:
            raise ConfigError("kind llm needs 'model'", field=f"agents[{agent.name}].model")
        self.agent = agent
        self.endpoint = endpoint or ChatEndpoint(
            model=agent.model, api_key=resolve_api_key(agent, environ), base_url=agent.base_url,
            timeout_s=agent.timeout_s, request_options=request_options(agent), key_source=agent.api_key_env,
            policy=RetryPolicy(agent.retries, agent.retry_initial_delay_s, agent.retry_max_delay_s))
        self.conversation = Conversation(system_prompt(agent.observation), task_message(description),
                                         keep_last_observations=agent.keep_last_observations,
                                         keep_last_images=agent.keep_last_images)
        self.tokens_spent = 0

    # -- the actor protocol

    def act(self, observation: Observation) -> Decision:
        self._check_budgets(observation)
        payload_bytes = self._observe(observation)
        reply = self.endpoint.complete(self.conversation.messages())
        self.conversation.add_reply(reply.content)
        agent = self.agent
        costs = turn_costs(reply.usage, reply.reasoning, price_input=agent.price_input_per_mtok,
                           price_cached=agent.price_cached_input_per_mtok, price_output=agent.price_output_per_mtok)
        self.tokens_spent += costs.prompt + costs.completion
        extra: dict[str, Any] = {"model": reply.model or agent.model, "observation_mode": agent.observation,
                                 "observation_bytes": payload_bytes, "latency_s": round(reply.latency_s, 3),
                                 "finish_reason": reply.finish_reason, "retries": reply.retries}
        if reply.retry_log:
            extra["retry_log"] = reply.retry_log
        if costs.reasoning_estimated:
            extra["reasoning_tokenizer"] = tokenizer_name()
        parsed = parse_action(reply.content)
        log.debug("turn %d: %s", observation.turn, parsed.action or parsed.error)
        if parsed.action is None:
            reason = parsed.error or "invalid action"
            if reply.finish_reason == "length":
                reason = f"your reply was cut off at the token limit before it was complete; {reason}"
            return Decision(None, raw=reply.content, invalid_reason=reason, tokens=costs,
                            reasoning=reply.reasoning, extra=extra)
        return Decision(parsed.action, raw=reply.content, tokens=costs, reasoning=reply.reasoning, extra=extra)

    def close(self) -> None:
        self.endpoint.close()

    # -- helpers

    def _check_budgets(self, observation: Observation) -> None:
        agent = self.agent
        if agent.max_turns is not None and observation.turn >= agent.max_turns:
            raise StopAttempt("max_turns", f"agent {agent.name} reached maxTurns={agent.max_turns}")
        if agent.time_budget_s is not None and observation.elapsed_s >= agent.time_budget_s:
            raise StopAttempt("time_limit", f"agent {agent.name} spent its timeBudgetS={agent.time_budget_s}")
        if agent.token_budget is not None and self.tokens_spent >= agent.token_budget:
            raise StopAttempt("token_budget",
                              f"agent {agent.name} spent {self.tokens_spent} of tokenBudget={agent.token_budget}")

    def _observe(self, observation: Observation) -> int:
        """Add the screen to the conversation in the configured mode; returns the payload size in bytes."""
        snapshot = observation.snapshot
        lines = [f"Turn {observation.turn + 1}. Screen {snapshot.width}x{snapshot.height}."]
        if observation.feedback:
            lines.append(f"Your previous reply was not carried out: {observation.feedback}")
        lines.append(describe_cursor(snapshot))
        header = "\n".join(lines)
        mode = self.agent.observation
        if mode == "image":
            url = renderer(self.agent.image_font_size).data_url(snapshot)
            self.conversation.add_observation(header, image_url=url)
            return len(url)
        screen = encode_semantic(snapshot) if mode == "semantic" else encode_plain(snapshot)
        self.conversation.add_observation(header, screen=screen)
        return len(screen.encode())


@register("llm")
def _factory(context: ActorContext) -> LLMActor:
    return LLMActor(context.agent, context.package.task.description)
