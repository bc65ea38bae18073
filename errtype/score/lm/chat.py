"""A client of the OpenAI-compatible chat completions API (OpenAI, vLLM, Ollama, llama.cpp's
server, LiteLLM, ...) over HTTP with the standard library: what the LLM judges send their
prompts through.

``POST {base_url}/chat/completions`` with ``{"model", "messages", ...}``; the answer is the first
choice's message content. The base URL is the ``base_url`` argument, else ``$OPENAI_BASE_URL``,
else OpenAI's (``http`` or ``https``; its query string is kept); the API key is read from the
environment variable named by ``api_key_env`` (default ``OPENAI_API_KEY``; empty: none) and sent
as a bearer token when set (local servers need none); ``user:password@`` in the URL is sent as
HTTP basic authentication instead.

Credentials never travel in clear text unasked: a key (the variable's, the URL's user
information, or a secret-looking query parameter such as ``api_key=``) for a plain ``http``
URL whose host is not loopback (``localhost``, ``127.0.0.0/8``, ``::1``) is refused before
any request unless ``allow_http_key``. Wherever a URL is shown (errors, the judges'
signatures) its user information and the values of secret-looking query parameters are
``***`` (:func:`redact_url`), and no message repeats a secret.

Failures that may pass are retried (``retries`` more attempts, waiting ``backoff`` seconds,
doubled each time, or the server's ``Retry-After``): no connection, a timeout, HTTP 408, 409,
429 and 5xx, a body that is not the API's JSON, and an answer the caller rejects. Other HTTP
errors (a wrong key, model or URL) stop at once. Every error is a
:class:`~errtype.errors.ServiceError` naming the URL and what went wrong.
"""

from __future__ import annotations

import base64
import ipaddress
import json
import os
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...errors import ServiceError

__all__ = ["DEFAULT_BASE_URL", "ChatClient", "redact_url"]

DEFAULT_BASE_URL = "https://api.openai.com/v1"
#: HTTP statuses worth another attempt
RETRY_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504})
#: the longest wait a server's Retry-After may ask for, in seconds
MAX_WAIT = 120.0
#: query parameter names whose values are secrets (``key``, ``api_key``, ``token``, ...)
SECRET_PARAM = re.compile(r"key|token|secret|passw|pwd|auth|sig|credential|session", re.I)
#: secrets this short are not scrubbed from messages (they would mangle ordinary words)
_MIN_SECRET = 6


def _redact_pairs(text: str) -> str:
    """``a=1&api_key=***``: the values of secret-looking parameters replaced."""
    out = []
    for pair in text.split("&"):
        name, sep, _ = pair.partition("=")
        secret = SECRET_PARAM.search(urllib.parse.unquote_plus(name))
        out.append(f"{name}{sep}***" if sep and secret else pair)
    return "&".join(out)


def redact_url(url: str) -> str:
    """``url`` as it may be shown: user information and the values of secret-looking query
    (and fragment) parameters replaced by ``***``."""
    parts = urllib.parse.urlsplit(url)
    netloc = parts.netloc
    if "@" in netloc:
        netloc = "***@" + netloc.rpartition("@")[2]
    return urllib.parse.urlunsplit((parts.scheme, netloc, parts.path,
                                    _redact_pairs(parts.query) if parts.query else "",
                                    _redact_pairs(parts.fragment) if parts.fragment else ""))


def _secrets_of(parts: urllib.parse.SplitResult) -> list[str]:
    """The secrets a URL carries: its user information, secret-looking parameter values."""
    found = [urllib.parse.unquote(x) for x in (parts.username, parts.password) if x]
    for text in (parts.query, parts.fragment):
        for name, value in urllib.parse.parse_qsl(text, keep_blank_values=True):
            if value and SECRET_PARAM.search(name):
                found += [value, urllib.parse.quote_plus(value)]
    return found


def is_loopback(host: str | None) -> bool:
    """Whether ``host`` (a URL's host name, as written) is this machine's loopback."""
    if not host:
        return False
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


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
    allow_http_key: bool = False
    #: the metric this client asks for (named in hints: ``-O llm-s.allow_http_key=true``)
    owner: str = ""
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False)

    def __post_init__(self) -> None:
        base = (self.base_url or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL).strip()
        parts = urllib.parse.urlsplit(base)
        try:
            parts.port  # noqa: B018 - raises ValueError for a port that is no number
        except ValueError as exc:
            raise ServiceError(f"{redact_url(base)}: not a URL ({exc})") from None
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ServiceError(f"{redact_url(base)}: the API's base URL must be an http or "
                               "https URL")
        path = parts.path.rstrip("/")
        self.base_url = urllib.parse.urlunsplit(parts._replace(path=path))
        host = parts.netloc.rpartition("@")[2]
        #: where requests go (no user information) and how the URL is shown
        self.url = urllib.parse.urlunsplit((parts.scheme, host, f"{path}/chat/completions",
                                            parts.query, ""))
        self.shown = redact_url(urllib.parse.urlunsplit(
            parts._replace(path=f"{path}/chat/completions", fragment="")))
        self._basic = (f"{urllib.parse.unquote(parts.username or '')}:"
                       f"{urllib.parse.unquote(parts.password or '')}"
                       if "@" in parts.netloc else None)
        self._secrets = _secrets_of(parts)
        self._plain = parts.scheme == "http" and not is_loopback(parts.hostname)
        self._host = parts.hostname
        self.check_plain_http()

    def _env_key(self) -> str | None:
        """The key in ``$api_key_env`` (None: unset, empty, or no variable named)."""
        return (os.environ.get(self.api_key_env) or None) if self.api_key_env else None

    def _key(self) -> str | None:
        key = self._env_key()
        if key is None and self._basic is None and self.base_url == DEFAULT_BASE_URL:
            raise ServiceError(f"{self.shown}: no API key: set ${self.api_key_env} (or point "
                               "base_url at a server that needs none)")
        return key

    def _credentials(self) -> list[str]:
        """What of a key this client would send, in words (empty: nothing)."""
        what = []
        if self._basic is not None:  # sent instead of the variable's key
            what.append("the user information of the base URL")
        elif self._env_key():
            what.append(f"the API key in ${self.api_key_env}")
        if any(SECRET_PARAM.search(n) for n, _ in
               urllib.parse.parse_qsl(urllib.parse.urlsplit(self.url).query)):
            what.append("the key in the base URL's query")
        return what

    def check_plain_http(self) -> None:
        """Refuse to send a key in clear text: over plain http to a host that is not loopback,
        unless ``allow_http_key``."""
        if not self._plain or self.allow_http_key:
            return
        what = self._credentials()
        if what:
            raise ServiceError(
                f"{self.shown}: not sending {' and '.join(what)} over plain http to "
                f"{self._host}: use an https base URL, or {self._setting('allow_http_key=true')}"
                f" to send it anyway (a server that needs no key: "
                f"{self._setting('api_key_env=')})")

    def _setting(self, setting: str) -> str:
        return f"-O {self.owner}.{setting}" if self.owner else setting

    def _scrub(self, text: str) -> str:
        """``text`` without any secret of this client (a server may echo one)."""
        key = self._env_key() or ""
        for secret in sorted({*self._secrets, key, *(self._basic or "").split(":")},
                             key=len, reverse=True):
            if len(secret) >= _MIN_SECRET:
                text = text.replace(secret, "***")
        return text

    def _error(self, message: str) -> ServiceError:
        return ServiceError(self._scrub(f"{self.shown}: {message}"))

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
        self.check_plain_http()
        key = self._key()
        if self._basic is not None:
            token = base64.b64encode(self._basic.encode("utf-8")).decode("ascii")
            headers["Authorization"] = f"Basic {token}"
        elif key:
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
        raise self._error(f"gave up after {self.retries + 1} attempts; the last: {last}")

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
            raise self._error(f"HTTP {exc.code}{detail} (model {self.model!r}){hint}") from None
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
