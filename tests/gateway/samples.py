"""Wire samples of the three provider formats, as a server would send them.

The answer text is always "신청기간은 8월 28일까지입니다 [1]." in two parts.
"""
from __future__ import annotations

from tests.gateway.llm_server import sse_event

PARTS = ["신청기간은 ", "8월 28일까지입니다 [1]."]
TEXT = "".join(PARTS)


def chat_stream(parts=PARTS, finish="stop") -> list[str]:
    return ([sse_event({"choices": [{"index": 0, "delta": {"role": "assistant"}, "finish_reason": None}]})]
            + [sse_event({"choices": [{"index": 0, "delta": {"content": p}, "finish_reason": None}]}) for p in parts]
            + [sse_event({"choices": [{"index": 0, "delta": {}, "finish_reason": finish}]}),
               sse_event({"choices": [], "usage": {"prompt_tokens": 12, "completion_tokens": 7}}),
               sse_event("[DONE]")])


def chat_json(text=TEXT, finish="stop") -> dict:
    return {"id": "c1", "object": "chat.completion",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": finish}],
            "usage": {"prompt_tokens": 12, "completion_tokens": 7}}


def responses_stream(parts=PARTS) -> list[str]:
    events = [sse_event({"type": "response.created", "response": {"status": "in_progress"}}, "response.created"),
              sse_event({"type": "response.output_item.added", "item": {"type": "message"}},
                        "response.output_item.added"),
              sse_event({"type": "response.reasoning_summary_text.delta", "delta": "생각"},
                        "response.reasoning_summary_text.delta")]
    events += [sse_event({"type": "response.output_text.delta", "delta": p}, "response.output_text.delta")
               for p in parts]
    events += [sse_event({"type": "response.made_up_event", "x": 1}, "response.made_up_event"),
               sse_event({"type": "response.completed",
                          "response": {"status": "completed", "usage": {"input_tokens": 12, "output_tokens": 7}}},
                         "response.completed")]
    return events


def responses_json(text=TEXT) -> dict:
    return {"id": "r1", "object": "response", "status": "completed", "error": None,
            "output": [{"type": "reasoning", "summary": []},
                       {"type": "message", "role": "assistant",
                        "content": [{"type": "output_text", "text": text, "annotations": []}]}],
            "usage": {"input_tokens": 12, "output_tokens": 7}}


def anthropic_stream(parts=PARTS) -> list[str]:
    events = [sse_event({"type": "message_start",
                         "message": {"role": "assistant", "usage": {"input_tokens": 12, "output_tokens": 1}}},
                        "message_start"),
              sse_event({"type": "content_block_start", "index": 0, "content_block": {"type": "thinking"}},
                        "content_block_start"),
              sse_event({"type": "content_block_delta", "index": 0,
                         "delta": {"type": "thinking_delta", "thinking": "숨은 생각"}}, "content_block_delta"),
              sse_event({"type": "ping"}, "ping")]
    events += [sse_event({"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": p}},
                         "content_block_delta") for p in parts]
    events += [sse_event({"type": "content_block_stop", "index": 1}, "content_block_stop"),
               sse_event({"type": "message_delta", "delta": {"stop_reason": "end_turn"},
                          "usage": {"output_tokens": 7}}, "message_delta"),
               sse_event({"type": "message_stop"}, "message_stop")]
    return events


def anthropic_json(text=TEXT) -> dict:
    return {"id": "m1", "type": "message", "role": "assistant",
            "content": [{"type": "thinking", "thinking": "숨은 생각"}, {"type": "text", "text": text}],
            "stop_reason": "end_turn", "usage": {"input_tokens": 12, "output_tokens": 7}}


STREAMS = {"openai-chat": chat_stream, "openai-responses": responses_stream, "anthropic": anthropic_stream}
BODIES = {"openai-chat": chat_json, "openai-responses": responses_json, "anthropic": anthropic_json}
