"""What an extractive answer says made it (the answer layer; the LLM's answers say theirs in gateway.py).

The CLI's lines about answers, contexts and verification are in cli.py; the evidence page's in evidence.py.
"""
from __future__ import annotations

ANSWER_TEXTS: dict[str, str] = {
    "made_by": "발췌 (LLM 없음)",
}


def answer_text(key: str, **values) -> str:
    """An answer sentence with its placeholders filled."""
    return ANSWER_TEXTS[key].format(**values)
