"""The three provider formats against a real loopback server: exact requests, normalised answers, error shapes."""
from __future__ import annotations

import pytest

from engine.gateway import Gateway, GatewayConfig, GatewayError, Reply, Stop, Text, Usage
from tests.gateway import samples
from tests.gateway.llm_server import Answer, LLMServer, sse_event

KEY = "sk-test-key-0123456789"
FORMATS = ["openai-chat", "openai-responses", "anthropic"]
ENDPOINTS = {"openai-chat": "/v1/chat/completions", "openai-responses": "/v1/responses",
             "anthropic": "/v1/messages"}


def gateway(base: str, fmt: str = "openai-chat", key: str = KEY, **settings) -> Gateway:
    sleeps: list[float] = []
    gw = Gateway(GatewayConfig(format=fmt, base_url=base, model="local-model", **settings), key,
                 sleep=sleeps.append)
    gw.sleeps = sleeps
    return gw


def expected_body_keys(fmt: str, stream: bool) -> set[str]:
    return {"openai-chat": {"model", "messages", "max_tokens", "stream"} | ({"stream_options"} if stream else set()),
            "openai-responses": {"model", "input", "instructions", "max_output_tokens", "store", "stream"},
            "anthropic": {"model", "messages", "system", "max_tokens", "stream"}}[fmt]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("suffix", ["", "/", "/v1", "/v1/"])
def test_streamed_answer_and_exact_request(fmt, suffix):
    with LLMServer([Answer(sse=samples.STREAMS[fmt]())]) as server:
        gw = gateway(server.base + suffix, fmt)
        events = list(gw.stream("신청기간은?", system="근거로만 답하십시오."))
    assert [e.text for e in events if isinstance(e, Text)] == samples.PARTS
    assert events[-2:] == [Usage(12, 7), Stop("end")]
    [req] = server.received
    assert req.path == ENDPOINTS[fmt]                       # /v1 never doubled, never missing
    assert req.headers["content-type"] == "application/json"
    assert set(req.body) == expected_body_keys(fmt, stream=True)
    assert req.body["stream"] is True and req.body["model"] == "local-model"
    if fmt == "openai-chat":
        assert req.headers["authorization"] == f"Bearer {KEY}"
        assert req.body["messages"] == [{"role": "system", "content": "근거로만 답하십시오."},
                                        {"role": "user", "content": "신청기간은?"}]
    elif fmt == "openai-responses":
        assert req.headers["authorization"] == f"Bearer {KEY}"
        assert req.body["store"] is False
        assert req.body["instructions"] == "근거로만 답하십시오."
        assert req.body["input"] == [{"role": "user", "content": "신청기간은?"}]
    else:
        assert req.headers["x-api-key"] == KEY and "authorization" not in req.headers
        assert req.headers["anthropic-version"] == "2023-06-01"
        assert req.body["max_tokens"] == 8192
        assert req.body["system"] == "근거로만 답하십시오."


@pytest.mark.parametrize("fmt", FORMATS)
def test_whole_json_answer_gives_the_same_reply(fmt):
    with LLMServer([Answer(json=samples.BODIES[fmt]())]) as server:
        reply = gateway(server.base, fmt, stream=False).complete("신청기간은?", system="지시")
    assert reply == Reply(samples.TEXT, "end", Usage(12, 7))
    assert server.received[0].body["stream"] is False
    assert set(server.received[0].body) == expected_body_keys(fmt, stream=False)


@pytest.mark.parametrize("fmt", FORMATS)
def test_pasted_full_endpoint_is_not_doubled(fmt):
    with LLMServer([Answer(json=samples.BODIES[fmt]())]) as server:
        gateway(server.base + ENDPOINTS[fmt], fmt, stream=False).complete("질문")
    assert server.received[0].path == ENDPOINTS[fmt]


def test_openai_base_with_its_own_prefix_is_kept():
    with LLMServer([Answer(json=samples.chat_json())]) as server:
        gateway(server.base + "/api", stream=False).complete("질문")
    assert server.received[0].path == "/api/chat/completions"


def test_chat_sends_exactly_one_max_token_key():
    with LLMServer([Answer(json=samples.chat_json())]) as server:
        gateway(server.base, stream=False, max_tokens_key="max_completion_tokens", max_tokens=300).complete("q")
    body = server.received[0].body
    assert body["max_completion_tokens"] == 300 and "max_tokens" not in body


def test_full_history_is_sent_and_anthropic_merges_same_role_turns():
    history = [{"role": "user", "content": "첫 질문"}, {"role": "assistant", "content": "첫 답"},
               {"role": "user", "content": "둘째"}, {"role": "user", "content": "셋째"}]
    with LLMServer([Answer(json=samples.responses_json()), Answer(json=samples.anthropic_json())]) as server:
        gateway(server.base, "openai-responses", stream=False).complete(history)
        gateway(server.base, "anthropic", stream=False).complete(history)
    assert server.received[0].body["input"] == history
    assert server.received[1].body["messages"][-1] == {"role": "user", "content": "둘째\n\n셋째"}
    assert len(server.received[1].body["messages"]) == 3


def test_no_key_sends_no_auth_header():
    with LLMServer([Answer(json=samples.chat_json())]) as server:
        gateway(server.base, key="", stream=False).complete("q")
    assert "authorization" not in server.received[0].headers


def test_max_tokens_stop_is_reported():
    with LLMServer([Answer(sse=samples.chat_stream(finish="length"))]) as server:
        reply = gateway(server.base).complete("q")
    assert reply.stop == "max_tokens" and reply.text == samples.TEXT


# ---- errors inside a 200 --------------------------------------------------
ERROR_IN_200 = {
    "openai-chat": {"error": {"message": "model is overloaded", "type": "server_error"}},
    "openai-responses": {"id": "r", "status": "failed", "output": [],
                         "error": {"code": "server_error", "message": "model is overloaded"}},
    "anthropic": {"type": "error", "error": {"type": "overloaded_error", "message": "model is overloaded"}},
}
ERROR_IN_STREAM = {
    "openai-chat": [sse_event({"choices": [{"delta": {"content": "부분"}, "finish_reason": None}]}),
                    sse_event({"error": {"message": "model is overloaded", "type": "server_error"}})],
    "openai-responses": [sse_event({"type": "response.output_text.delta", "delta": "부분"}),
                         sse_event({"type": "response.failed", "response": {
                             "status": "failed", "error": {"code": "server_error",
                                                           "message": "model is overloaded"}}})],
    "anthropic": [sse_event({"type": "message_start", "message": {"usage": {}}}, "message_start"),
                  sse_event({"type": "error", "error": {"type": "overloaded_error",
                                                        "message": "model is overloaded"}}, "error")],
}


@pytest.mark.parametrize("fmt", FORMATS)
def test_error_object_in_a_200_is_an_error_and_not_retried(fmt):
    with LLMServer([Answer(json=ERROR_IN_200[fmt])]) as server:
        with pytest.raises(GatewayError) as info:
            gateway(server.base, fmt, stream=False).complete("q")
    assert info.value.code == "GATEWAY_PROVIDER_ERROR"
    assert "model is overloaded" in info.value.detail
    assert len(server.received) == 1


@pytest.mark.parametrize("fmt", FORMATS)
def test_error_event_in_a_stream_is_an_error(fmt):
    with LLMServer([Answer(sse=ERROR_IN_STREAM[fmt])]) as server:
        with pytest.raises(GatewayError) as info:
            gateway(server.base, fmt).complete("q")
    assert info.value.code == "GATEWAY_PROVIDER_ERROR"
    assert len(server.received) == 1


def test_vllm_style_error_object_is_an_error():
    body = {"object": "error", "message": "max_tokens is too large", "type": "BadRequestError", "code": 400}
    with LLMServer([Answer(json=body)]) as server:
        with pytest.raises(GatewayError) as info:
            gateway(server.base, stream=False).complete("q")
    assert info.value.code == "GATEWAY_PROVIDER_ERROR" and "max_tokens is too large" in info.value.detail


# ---- broken streams -----------------------------------------------------------
@pytest.mark.parametrize("fmt", FORMATS)
def test_mid_stream_drop_is_an_error_and_never_retried(fmt):
    events = samples.STREAMS[fmt]()
    cut = next(i for i, e in enumerate(events) if samples.PARTS[0] in e) + 1   # after the first text
    with LLMServer([Answer(sse=events, drop_after=cut), Answer(sse=events)]) as server:
        got = []
        with pytest.raises(GatewayError) as info:
            for event in gateway(server.base, fmt).stream("q"):
                got.append(event)
    assert info.value.code == "GATEWAY_INTERRUPTED"
    assert got == [Text(samples.PARTS[0])]                 # what arrived was passed on, then the error
    assert len(server.received) == 1                         # no retry once the stream started


@pytest.mark.parametrize("fmt", FORMATS)
def test_stream_that_just_ends_without_its_final_event_is_interrupted(fmt):
    events = samples.STREAMS[fmt]()[:-1]                     # complete chunks, but no [DONE]/completed/stop
    if fmt == "openai-chat":
        events = [e for e in events if '"finish_reason": "stop"' not in e]
    with LLMServer([Answer(sse=events)]) as server:
        with pytest.raises(GatewayError) as info:
            gateway(server.base, fmt).complete("q")
    assert info.value.code == "GATEWAY_INTERRUPTED"


def test_non_json_answer_is_a_bad_response():
    with LLMServer([Answer(text="<html>login page</html>")]) as server:
        with pytest.raises(GatewayError) as info:
            gateway(server.base, stream=False).complete("q")
    assert info.value.code == "GATEWAY_BAD_RESPONSE"


def test_unexpected_json_shape_is_a_bad_response():
    with LLMServer([Answer(sse=[sse_event({"choices": ["not an object"]}), sse_event("[DONE]")])]) as server:
        with pytest.raises(GatewayError) as info:
            gateway(server.base).complete("q")
    assert info.value.code == "GATEWAY_BAD_RESPONSE"


# ---- empty answers ---------------------------------------------------------------
def test_chat_empty_answer_is_asked_again_with_the_full_prompt():
    empty = Answer(sse=samples.chat_stream(parts=[]))
    with LLMServer([empty, empty, Answer(sse=samples.chat_stream())]) as server:
        gw = gateway(server.base)
        reply = gw.complete("신청기간은?", system="지시")
    assert reply.text == samples.TEXT
    assert len(server.received) == 3
    assert server.received[0].body == server.received[2].body
    assert gw.sleeps == []                                   # not an establishment retry: no backoff


def test_chat_answer_that_stays_empty_is_an_error_after_two_retries():
    with LLMServer([Answer(json=samples.chat_json(text=""))]) as server:
        with pytest.raises(GatewayError) as info:
            gateway(server.base, stream=False).complete("q")
    assert info.value.code == "GATEWAY_EMPTY"
    assert len(server.received) == 3


def test_empty_retries_are_configurable():
    with LLMServer([Answer(json=samples.chat_json(text=""))]) as server:
        with pytest.raises(GatewayError):
            gateway(server.base, stream=False, empty_retries=0).complete("q")
    assert len(server.received) == 1


@pytest.mark.parametrize("fmt", ["openai-responses", "anthropic"])
def test_other_formats_do_not_retry_an_empty_answer(fmt):
    with LLMServer([Answer(sse=samples.STREAMS[fmt](parts=[]))]) as server:
        with pytest.raises(GatewayError) as info:
            gateway(server.base, fmt).complete("q")
    assert info.value.code == "GATEWAY_EMPTY"
    assert len(server.received) == 1


def test_empty_answer_cut_by_max_tokens_is_not_asked_again():
    with LLMServer([Answer(sse=samples.chat_stream(parts=[], finish="length"))]) as server:
        with pytest.raises(GatewayError) as info:
            gateway(server.base).complete("q")
    assert info.value.code == "GATEWAY_EMPTY" and "max_tokens" in info.value.detail
    assert len(server.received) == 1
