"""The gateway: one configured model endpoint on the internal network, asked through one provider format.

``Gateway`` is off unless the settings name a base URL whose host is
internal (engine/gateway/policy.py); ``describe()`` says where text would go.
A logical request takes one token from the rate limiter, then its HTTP
request is established with retries (engine/gateway/retry.py); once the
answer starts arriving nothing is retried. An OpenAI Chat answer that stops
normally with no text is asked again (``empty_retries``); an answer that
stays empty is an error, never a silent blank. The API key goes only into
request headers: it is never logged and is scrubbed from every error.
"""
from __future__ import annotations

import json
import logging
import time
from typing import Callable, Iterator, Optional, Union

from engine import wording
from engine.gateway import anthropic, http, openai_chat, openai_responses, wire
from engine.gateway.config import GatewayConfig, load_config, load_key
from engine.gateway.events import Event, GatewayError, Reply, Stop, Text, Usage
from engine.gateway.policy import Target, check_internal, is_internal, parse_url, refuse_redirect
from engine.gateway.retry import RETRY_STATUSES, RetryPolicy, TokenBucket, parse_retry_after
from engine.gateway.sse import iter_events

PROVIDERS = {"openai-chat": openai_chat, "openai-responses": openai_responses, "anthropic": anthropic}

log = logging.getLogger("engine.gateway")

Messages = Union[str, list[dict]]


class Gateway:
    """Asks the configured model; off (``enabled`` false, ``refusal`` says why) until it may."""

    def __init__(self, config: GatewayConfig, key: str = "", *,
                 sleep: Callable[[float], None] = time.sleep,
                 clock: Callable[[], float] = time.monotonic):
        self.config = config
        self._key = key.strip()
        self._sleep = sleep
        self._bucket = TokenBucket(config.per_second, config.per_minute, clock=clock, sleep=sleep)
        self._retry = RetryPolicy(retries=max(0, config.retries), fixed_s=config.retry_interval_s)
        self._provider = PROVIDERS.get(config.format)
        self._target: Optional[Target] = None
        self._proxy: Optional[Target] = None
        self.refusal: Optional[GatewayError] = None
        try:
            self._target, self._proxy = self._check()
        except GatewayError as err:
            self.refusal = err

    @classmethod
    def load(cls, config_dir=None, **kwargs) -> "Gateway":
        """The gateway as the administrator saved it (settings and key from the config folder)."""
        return cls(load_config(config_dir), load_key(config_dir), **kwargs)

    @property
    def enabled(self) -> bool:
        return self.refusal is None

    def describe(self) -> dict:
        """Where text would go — host, endpoint, model, external or not — and never the key."""
        cfg = self.config
        try:
            host = parse_url(cfg.base_url).host if cfg.base_url.strip() else None
        except GatewayError:
            host = None
        code = self.refusal.code if self.refusal else None
        return {
            "configured": bool(cfg.base_url.strip()),
            "enabled": self.enabled,
            "format": cfg.format,
            "host": host,
            "endpoint": self._target.url(self._provider.path(self._target.path)) if self._target else None,
            "model": cfg.model or None,
            "external": None if host is None else not is_internal(host, cfg.allowed_hosts),
            "proxy": self._proxy.netloc if self._proxy else None,
            "key": bool(self._key),
            "reason": code,
            "reason_text": wording.gateway_text(code) if code else None,
        }

    # ---- asking ----------------------------------------------------------
    def complete(self, messages: Messages, system: str = "") -> Reply:
        """The whole answer to ``messages`` (a question, or a list of {role, content})."""
        parts, usage, stop = [], Usage(), "end"
        for event in self.stream(messages, system):
            if isinstance(event, Text):
                parts.append(event.text)
            elif isinstance(event, Usage):
                usage = event
            else:
                stop = event.reason
        return Reply("".join(parts), stop, usage)

    def stream(self, messages: Messages, system: str = "") -> Iterator[Event]:
        """The answer as it arrives: Text events, then one Usage and one Stop."""
        try:
            yield from self._stream(messages, system)
        except GatewayError as err:
            raise self._scrubbed(err) from None

    def _stream(self, messages: Messages, system: str) -> Iterator[Event]:
        if self.refusal:
            raise self.refusal
        if isinstance(messages, str):
            messages = [{"role": "user", "content": messages}]
        provider, cfg = self._provider, self.config
        path = provider.path(self._target.path)
        headers = provider.headers(self._key, cfg)
        payload = json.dumps(provider.body(cfg, system, messages, cfg.stream), ensure_ascii=False).encode()
        self._bucket.acquire()                  # one token per logical request
        empty_left = cfg.empty_retries if provider.RETRY_EMPTY else 0
        while True:
            response = self._establish(path, headers, payload)
            held, wrote = [], False
            try:
                if cfg.stream:
                    events = provider.parse_stream(iter_events(response.lines()))
                else:
                    events = iter(provider.parse_body(wire.decode(response.body())))
                for event in events:
                    if isinstance(event, Text):
                        if event.text:
                            wrote = True
                            yield event
                    else:
                        held.append(event)
            except (AttributeError, TypeError, KeyError) as exc:   # a JSON shape we cannot walk
                raise GatewayError("GATEWAY_BAD_RESPONSE",
                                   f"unexpected answer shape ({type(exc).__name__})") from None
            finally:
                response.close()
            stop = next((e.reason for e in held if isinstance(e, Stop)), "end")
            if wrote:
                yield from held
                return
            if stop == "end" and empty_left > 0:
                empty_left -= 1
                log.warning("gateway: empty answer from %s, asking again", self._target.host)
                continue
            raise GatewayError("GATEWAY_EMPTY", f"no text in the answer (stop: {stop})")

    def _establish(self, path: str, headers: dict, payload: bytes) -> http.Response:
        """Send the request until it is answered 200, retrying per the RetryPolicy."""
        retry_no = 0
        while True:
            try:
                response = http.post(self._target, path, headers, payload, timeout_s=self.config.timeout_s,
                                     proxy=self._proxy, ca_file=self.config.ca_file or None)
            except GatewayError as err:
                if err.code != "GATEWAY_UNREACHABLE" or retry_no >= self._retry.retries:
                    raise
                failure, retry_after = err, None
            else:
                log.info("gateway: POST %s%s -> %d", self._target.netloc, path, response.status)
                if response.status == 200:
                    return response
                failure = self._status_error(response)
                retry_after = failure.retry_after
                if (response.status not in RETRY_STATUSES or retry_no >= self._retry.retries
                        or (retry_after or 0) > self._retry.max_retry_after_s):
                    raise failure
            retry_no += 1
            wait = self._retry.wait(retry_no, retry_after)
            log.warning("gateway: retry %d in %.2f s after %s", retry_no, wait, self._scrubbed(failure))
            self._sleep(wait)

    def _status_error(self, response: http.Response) -> GatewayError:
        """The error for a non-200 answer (the connection is closed)."""
        status = response.status
        try:
            if 300 <= status < 400:
                return refuse_redirect(status, response.header("Location"), self._target)
            retry_after = parse_retry_after(response.header("Retry-After"))
            code = {401: "GATEWAY_AUTH", 403: "GATEWAY_AUTH", 429: "GATEWAY_BUSY"}.get(status, "GATEWAY_HTTP")
            return GatewayError(code, f"HTTP {status}: {response.error_text()[:500]}",
                                status=status, retry_after=retry_after)
        finally:
            response.close()

    def _check(self) -> tuple[Target, Optional[Target]]:
        cfg = self.config
        if not cfg.base_url.strip():
            raise GatewayError("GATEWAY_OFF")
        if self._provider is None:
            raise GatewayError("GATEWAY_BAD_CONFIG", f"unknown format {cfg.format!r}")
        if not cfg.model.strip():
            raise GatewayError("GATEWAY_BAD_CONFIG", "no model name")
        if self._key and not (self._key.isascii() and self._key.isprintable() and " " not in self._key):
            raise GatewayError("GATEWAY_BAD_KEY", "the key holds characters a request header cannot carry")
        target = check_internal(cfg.base_url, cfg.allowed_hosts)
        proxy = check_internal(cfg.proxy, cfg.allowed_hosts, "proxy") if cfg.proxy.strip() else None
        if proxy is not None and (proxy.scheme != "http" or proxy.path):
            raise GatewayError("GATEWAY_BAD_URL", "the proxy must be http://host:port")
        return target, proxy

    def _scrubbed(self, err: GatewayError) -> GatewayError:
        """The same error with the key cut out of its detail."""
        if not self._key or self._key not in err.detail:
            return err
        return GatewayError(err.code, err.detail.replace(self._key, "***"), status=err.status,
                            retry_after=err.retry_after)

