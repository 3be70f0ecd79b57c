"""Every Korean sentence a user can see comes from here, one group of sentences per module.

- ``reasons``: why a file could not be read and what to do (by reason code), warnings (by warning code)
- ``names``: the product's name, file formats, how a text was read, who locked a file
- ``library``: a folder's notices by code and the words about a folder several faces share
- ``answer``, ``evidence``: what made an answer, the evidence page (and the words the window shares with it)
- ``gateway``: the LLM gateway's refusals and flags (by code) and what it asks the model
- ``api``: the local API's and MCP's refusals (by error code) and the server's own lines
- ``fields``: what a request's fields mean (the API's field descriptions, the CLI's help for the same options)
- ``cli``: the ``noda`` command's own lines (folders read, answers, verify, purge, gateway status) and help;
  ``about``: the About box and the licence notice

Codes are the contract (the window and scripts branch on them), so sentences a code names are looked up by
it (``reason_text(code)``, ``gateway_text(code)``…). Every other sentence is a typed accessor: a constant, or
a function whose named parameters are the sentence's placeholders. The window's own labels and buttons are
in ``ui/texts.py``; a sentence the window and another face both say lives here. The names below are the ones
callers used when this was one module.
"""
from __future__ import annotations

from engine.wording import about, cli, fields  # noqa: F401  (typed accessors: wording.cli.…, wording.about.…)
from engine.wording.answer import ANSWER_TEXTS, answer_text
from engine.wording.api import API_TEXTS, api_text
from engine.wording.cli import folder_summary, summary_line
from engine.wording.evidence import EVIDENCE_TEXTS, evidence_text, made_by_text
from engine.wording.gateway import GATEWAY_TEXTS, gateway_text
from engine.wording.library import TENANT_TEXTS, tenant_text
from engine.wording.names import (DRM_VENDORS, EXTRACTOR_NAMES, FORMAT_NAMES, PRODUCT_NAME, extractors_text,
                                  format_name)
from engine.wording.reasons import REASONS, WARNINGS, next_step, reason_parts, reason_text, warning_text

__all__ = [
    "ANSWER_TEXTS", "API_TEXTS", "DRM_VENDORS", "EVIDENCE_TEXTS", "EXTRACTOR_NAMES", "FORMAT_NAMES",
    "GATEWAY_TEXTS", "PRODUCT_NAME", "REASONS", "TENANT_TEXTS", "WARNINGS", "about", "answer_text", "api_text",
    "cli", "evidence_text", "extractors_text", "fields", "folder_summary", "format_name", "gateway_text",
    "made_by_text", "next_step", "reason_parts", "reason_text", "summary_line", "tenant_text", "warning_text",
]
