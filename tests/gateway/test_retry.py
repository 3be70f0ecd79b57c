"""Establishment retries, Retry-After, the token bucket, redirects and proxies — over real loopback HTTP."""
from __future__ import annotations

import socket

import pytest

from engine.gateway import Gateway, GatewayConfig, GatewayError
from engine.gateway.retry import RetryPolicy, TokenBucket, parse_retry_after
from tests.gateway import samples
from tests.gateway.llm_server import Answer, LLMServer
from tests.gateway.test_formats import gateway

OK = Answer(json=samples.chat_json())


class FakeTime:
    """A clock that only moves when something sleeps."""

    def __init__(self):
        self.now = 1000.0
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---- establishment retries ---------------------------------------------------------
def test_server_errors_are_retried_with_doubling_waits():
    with LLMServer([Answer(status=500, text="boom"), Answer(status=502), Answer(status=503), OK]) as server:
        gw = gateway(server.base, stream=False)
        reply = gw.complete("q")
    assert reply.text == samples.TEXT
    assert len(server.received) == 4
    assert gw.sleeps == [0.5, 1.0, 2.0]


@pytest.mark.parametrize("status", [408, 429, 500, 502, 503, 504])
def test_every_retry_status_is_retried(status):
    with LLMServer([Answer(status=status), OK]) as server:
        gateway(server.base, stream=False).complete("q")
    assert len(server.received) == 2


def test_retries_give_up_after_three_with_the_last_status():
    with LLMServer([Answer(status=503, text="unavailable")]) as server:
        gw = gateway(server.base, stream=False)
        with pytest.raises(GatewayError) as info:
            gw.complete("q")
    assert info.value.code == "GATEWAY_HTTP" and info.value.status == 503
    assert "unavailable" in info.value.detail
    assert len(server.received) == 4 and gw.sleeps == [0.5, 1.0, 2.0]


def test_retry_count_and_fixed_interval_are_settings():
    with LLMServer([Answer(status=500)]) as server:
        gw = gateway(server.base, stream=False, retries=1, retry_interval_s=0.25)
        with pytest.raises(GatewayError):
            gw.complete("q")
    assert len(server.received) == 2 and gw.sleeps == [0.25]


@pytest.mark.parametrize("status, code", [(400, "GATEWAY_HTTP"), (401, "GATEWAY_AUTH"), (403, "GATEWAY_AUTH"),
                                          (404, "GATEWAY_HTTP")])
def test_other_statuses_are_not_retried(status, code):
    with LLMServer([Answer(status=status, json={"error": {"message": "no such model"}})]) as server:
        gw = gateway(server.base, stream=False)
        with pytest.raises(GatewayError) as info:
            gw.complete("q")
    assert info.value.code == code and info.value.status == status
    assert "no such model" in info.value.detail                # the body is part of the error
    assert len(server.received) == 1 and gw.sleeps == []


def test_retry_after_is_honoured():
    with LLMServer([Answer(status=429, headers={"Retry-After": "3"}), OK]) as server:
        gw = gateway(server.base, stream=False)
        gw.complete("q")
    assert gw.sleeps == [3.0]


def test_a_retry_after_beyond_a_minute_is_not_waited_for():
    with LLMServer([Answer(status=429, headers={"Retry-After": "600"}), OK]) as server:
        gw = gateway(server.base, stream=False)
        with pytest.raises(GatewayError) as info:
            gw.complete("q")
    assert info.value.code == "GATEWAY_BUSY" and info.value.retry_after == 600
    assert len(server.received) == 1 and gw.sleeps == []


def test_network_errors_are_retried_then_reported_unreachable():
    gw = gateway(f"http://127.0.0.1:{closed_port()}/v1")
    with pytest.raises(GatewayError) as info:
        gw.complete("q")
    assert info.value.code == "GATEWAY_UNREACHABLE"
    assert gw.sleeps == [0.5, 1.0, 2.0]


def test_real_waits_stay_within_bounds():
    """With the real clock: the retry arrives after the wait, and not much later."""
    with LLMServer([Answer(status=500), Answer(status=500), OK]) as server:
        gw = Gateway(GatewayConfig(base_url=server.base, model="m", stream=False, retry_interval_s=0.15))
        gw.complete("q")
    gaps = [b.at - a.at for a, b in zip(server.received, server.received[1:])]
    assert len(gaps) == 2
    assert all(0.15 <= gap < 0.9 for gap in gaps), gaps


def test_backoff_doubles_up_to_eight_seconds():
    policy = RetryPolicy(retries=7)
    assert [policy.wait(n) for n in range(1, 8)] == [0.5, 1, 2, 4, 8, 8, 8]
    assert policy.wait(2, retry_after=5.0) == 5.0


def test_retry_after_accepts_seconds_and_http_dates():
    assert parse_retry_after("7") == 7.0
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412470.0) == pytest.approx(10.0)
    assert parse_retry_after("soon") is None and parse_retry_after(None) is None


# ---- token bucket --------------------------------------------------------------------
def test_token_bucket_per_second():
    t = FakeTime()
    bucket = TokenBucket(per_second=2, clock=t.clock, sleep=t.sleep)
    waits = [bucket.acquire() for _ in range(4)]
    assert waits[:2] == [0, 0]
    assert waits[2] == pytest.approx(0.5) and waits[3] == pytest.approx(0.5)


def test_token_bucket_per_minute_and_no_limit():
    t = FakeTime()
    bucket = TokenBucket(per_second=10, per_minute=2, clock=t.clock, sleep=t.sleep)
    assert [bucket.acquire() for _ in range(2)] == [0, 0]
    assert bucket.acquire() == pytest.approx(30.0)
    assert TokenBucket(clock=t.clock, sleep=t.sleep).acquire() == 0


def test_a_logical_request_takes_one_token_whatever_its_retries():
    t = FakeTime()
    with LLMServer([Answer(status=500), Answer(status=500), OK, OK]) as server:
        gw = Gateway(GatewayConfig(base_url=server.base, model="m", stream=False, per_minute=1),
                     sleep=t.sleep, clock=t.clock)
        gw.complete("first")
        assert t.sleeps == [0.5, 1.0]                  # only the retries waited, not the bucket
        gw.complete("second")
    assert t.sleeps[2:] == [pytest.approx(58.5)]       # the bucket: one token per minute
    assert len(server.received) == 4


# ---- redirects and proxies -----------------------------------------------------------
@pytest.mark.parametrize("location", ["http://llm.example.com/v1/chat/completions", "/v2/chat/completions"])
def test_redirects_are_refused_not_followed(location):
    with LLMServer([Answer(status=307, headers={"Location": location}), OK]) as server:
        with pytest.raises(GatewayError) as info:
            gateway(server.base, stream=False).complete("q")
    assert info.value.code == "GATEWAY_REDIRECT"
    assert len(server.received) == 1
    if location.startswith("http://llm"):
        assert "llm.example.com" in info.value.detail


def test_environment_proxies_are_ignored(monkeypatch):
    with LLMServer([OK]) as proxy, LLMServer([OK]) as server:
        for name in ("HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY"):
            monkeypatch.setenv(name, proxy.base)
        monkeypatch.delenv("NO_PROXY", raising=False)
        monkeypatch.delenv("no_proxy", raising=False)
        gateway(server.base, stream=False).complete("q")
    assert len(server.received) == 1 and proxy.received == []


def test_an_explicit_proxy_carries_the_request():
    with LLMServer([OK]) as proxy, LLMServer([OK]) as server:
        gateway(server.base + "/v1", stream=False, proxy=proxy.base).complete("q")
    assert server.received == []
    [req] = proxy.received
    assert req.path == f"{server.base}/v1/chat/completions"            # absolute form, for the proxy
    assert req.headers["host"] == f"127.0.0.1:{server.port}"


def test_a_dead_proxy_never_falls_back_to_a_direct_connection():
    with LLMServer([OK]) as server:
        gw = gateway(server.base, stream=False, proxy=f"http://127.0.0.1:{closed_port()}")
        with pytest.raises(GatewayError) as info:
            gw.complete("q")
    assert info.value.code == "GATEWAY_UNREACHABLE" and "proxy" in info.value.detail
    assert server.received == []


def test_a_proxy_outside_the_network_is_refused():
    gw = gateway("http://127.0.0.1:8000/v1", proxy="http://proxy.example.com:3128")
    assert not gw.enabled and gw.refusal.code == "GATEWAY_EXTERNAL"
    assert gw.describe()["reason"] == "GATEWAY_EXTERNAL"
