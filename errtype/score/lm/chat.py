"""A client of the OpenAI-compatible chat completions API (OpenAI, vLLM, Ollama, llama.cpp's
server, LiteLLM, ...) over HTTP with the standard library: what the LLM judges send their
prompts through.

``POST {base_url}/chat/completions`` with ``{"model", "messages", ...}``; the answer is the first
choice's message content. The base URL is the ``base_url`` argument, else ``$OPENAI_BASE_URL``,
else OpenAI's; the API key is read from the environment variable named by ``api_key_env``
(default ``OPENAI_API_KEY``) and sent as a bearer token when set (local servers need none).

Failures that may pass are retried (``retries`` more attempts, waiting ``backoff`` seconds,
doubled each time, or the server's ``Retry-After``): no connection, a timeout, HTTP 408, 409,
429 and 5xx, a body that is not the API's JSON, and an answer the caller rejects. Other HTTP
errors (a wrong key, model or URL) stop at once. Every error is a
:class:`~errtype.errors.ServiceError` naming the URL and what went wrong.
"""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...errors import ServiceError

__all__ = ["DEFAULT_BASE_URL", "ChatClient"]

DEFAULT_BASE_URL = "https://api.openai.com/v1"
#: HTTP statuses worth another attempt
RETRY_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504})
#: the longest wait a server's Retry-After may ask for, in seconds
MAX_WAIT = 120.0

class _Retry(Exception):
    """A failure that another attempt may not meet (``wait``: what the server asked for)."""

    def __init__(self, reason: str, wait: float | None = None) -> None:
        super().__init__(reason)
        self.wait = wait


@dataclass
class ChatClient:
    """Chat completions of one model at one server (see the module docstring)."""

    model: str
    base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    timeout: float = 120.0
    retries: int = 4
    backoff: float = 2.0
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False)

    def __post_init__(self) -> None:
        base = self.base_url or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL
        self.base_url = base.rstrip("/")
        self.url = f"{self.base_url}/chat/completions"

    def _key(self) -> str | None:
        key = os.environ.get(self.api_key_env) or None
        if key is None and self.base_url == DEFAULT_BASE_URL:
            raise ServiceError(f"{self.url}: no API key: set ${self.api_key_env} (or point "
                               "base_url at a server that needs none)")
        return key

    def complete(self, messages: Sequence[Mapping[str, str]], *,
                 accept: Callable[[str], Any] | None = None,
                 **options: Any) -> tuple[Any, dict[str, Any]]:
        """``(accept(content), response)`` for the chat ``messages``; ``options`` are further
        request fields (``seed``, ``temperature``, ``response_format``, ...; None ones are left
        out). ``accept`` raises ValueError for an answer that cannot be used (retried)."""
        body = {"model": self.model, "messages": list(messages),
                **{k: v for k, v in options.items() if v is not None}}
        data = json.dumps(body).encode("utf-8")
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        key = self._key()
        if key:
            headers["Authorization"] = f"Bearer {key}"
        wait = self.backoff
        last = ""
        for attempt in range(self.retries + 1):
            if attempt:
                self.sleep(wait)
                wait *= 2
            try:
                response = self._post(data, headers)
                content = _content(response)
                try:
                    return (accept(content) if accept else content), response
                except ValueError as exc:
                    raise _Retry(f"unusable answer ({exc}): {_excerpt(content)}") from None
            except _Retry as exc:
                last = str(exc)
                if exc.wait is not None:
                    wait = min(max(exc.wait, 0.0), MAX_WAIT)
        raise ServiceError(f"{self.url}: gave up after {self.retries + 1} attempts; the last: "
                           f"{last}")

    def _post(self, data: bytes, headers: dict[str, str]) -> dict[str, Any]:
        request = urllib.request.Request(self.url, data=data, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as reply:
                raw = reply.read()
        except urllib.error.HTTPError as exc:
            detail = _error_message(exc)
            if exc.code in RETRY_STATUS:
                raise _Retry(f"HTTP {exc.code}{detail}", _retry_after(exc)) from None
            hint = {401: f"; check the key in ${self.api_key_env}",
                    403: f"; check the key in ${self.api_key_env}",
                    404: "; check the base URL and the model name",
                    400: "; a server without structured outputs (JSON schemas) needs the "
                         "judge's structured=False"
                    }.get(exc.code, "")
            raise ServiceError(f"{self.url}: HTTP {exc.code}{detail} (model "
                               f"{self.model!r}){hint}") from None
        except (urllib.error.URLError, OSError) as exc:  # refused, unreachable, timed out
            reason = getattr(exc, "reason", exc)
            raise _Retry(f"no answer: {reason}") from None
        try:
            response = json.loads(raw)
        except ValueError:
            raise _Retry(f"not JSON: {_excerpt(raw.decode('utf-8', 'replace'))}") from None
        if not isinstance(response, dict):
            raise _Retry(f"not a chat completion: {_excerpt(str(response))}")
        return response


def _content(response: dict[str, Any]) -> str:
    try:
        message = response["choices"][0]["message"]
    except (KeyError, IndexError, TypeError):
        raise _Retry(f"no choices[0].message in {_excerpt(json.dumps(response))}") from None
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, str):
        refusal = message.get("refusal") if isinstance(message, dict) else None
        raise _Retry(f"refused: {refusal}" if refusal else "an answer without content")
    return content


def _error_message(exc: urllib.error.HTTPError) -> str:
    """``: <the API's error message>`` from an error body, when it has one."""
    try:
        body = json.loads(exc.read() or b"{}")
    except (ValueError, OSError):
        return ""
    error = body.get("error") if isinstance(body, dict) else None
    message = error.get("message") if isinstance(error, dict) else error
    return f": {message}" if message else ""


def _retry_after(exc: urllib.error.HTTPError) -> float | None:
    value = exc.headers.get("Retry-After") if exc.headers else None
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def _excerpt(text: str, size: int = 200) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= size else text[:size] + "...")
