"""Every user-facing Korean sentence is in a catalogue, once, and every way of asking for one fills it.

The catalogues are engine/wording/ (what the engine, the CLI, the API, the evidence page and the About box
say) and ui/texts.py (the window's own words). The scans read the source with ``ast``, so a new message
written as a literal where people are spoken to fails here, and so does a call that forgets a placeholder.
"""
from __future__ import annotations

import ast
import inspect
import re
import string
from pathlib import Path

import pytest

from engine import wording
from ui import texts

ROOT = Path(__file__).resolve().parent.parent
HANGUL = re.compile(r"[\uac00-\ud7a3\u3131-\u318e]")
UNFILLED = re.compile(r"\{[A-Za-z_]\w*\}")

# Where people are spoken to. The reading, search and answer stages hold Korean rule data (question cue
# words, letter field labels, list markers, stop words) and reach people through codes, so they are not here.
SPEAKING = ["ui", "noda_desktop", "engine/api", "engine/gateway", "engine/library"]
CATALOGUES = {"ui/texts.py"}
# Korean that is not a message, by where it stands: API documentation beside its route or tool (the route
# table's summaries and tool descriptions, the HTTP server's own routes and responses, the MCP server's
# instructions to agents), and the word the analyzer is warmed up with.
API_DOC_KEYWORDS = {"noda_desktop/http_api.py": {"summary", "description", "responses"},
                    "engine/api/routes.py": {"summary", "tool"}}
API_DOC_NAMES = {"noda_desktop/mcp_server.py": {"INSTRUCTIONS"}}
RULE_DATA_CALLS = {"korean_terms"}

# keyed accessors: name -> the table their first argument is a key of
KEYED = {"tenant_text": wording.TENANT_TEXTS, "answer_text": wording.ANSWER_TEXTS,
         "evidence_text": wording.EVIDENCE_TEXTS, "api_text": wording.API_TEXTS,
         "gateway_text": wording.GATEWAY_TEXTS, "warning_text": wording.WARNINGS}


def _sources(*roots: str):
    for root in roots:
        for path in sorted((ROOT / root).rglob("*.py")):
            yield path.relative_to(ROOT).as_posix(), ast.parse(path.read_text(encoding="utf-8"))


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _allowed(module: str, tree: ast.AST) -> set[int]:
    """ids of the string constants that are API documentation or rule data, by where they stand."""
    subtrees = []
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg in API_DOC_KEYWORDS.get(module, ()):
            subtrees.append(node.value)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id in API_DOC_NAMES.get(module, ()) for t in targets):
                subtrees.append(node.value)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) \
                in RULE_DATA_CALLS:
            subtrees.extend(node.args)
    return {id(n) for sub in subtrees if sub is not None for n in ast.walk(sub)}


def test_no_korean_message_is_written_outside_the_catalogues():
    stray = []
    for module, tree in _sources(*SPEAKING):
        if module in CATALOGUES:
            continue
        skip = _docstrings(tree) | _allowed(module, tree)
        stray += [f"{module}:{node.lineno}: {node.value[:60]!r}" for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and isinstance(node.value, str)
                  and HANGUL.search(node.value) and id(node) not in skip]
    assert stray == [], "Korean for people belongs in engine/wording/ or ui/texts.py:\n" + "\n".join(stray)


def test_the_scan_sees_a_literal_message():
    """The scan above would catch a sentence written in place (so an empty result means something)."""
    tree = ast.parse('def f():\n    print("폴더를 고르십시오")\n')
    assert any(isinstance(n, ast.Constant) and HANGUL.search(str(n.value)) and id(n) not in _docstrings(tree)
               for n in ast.walk(tree))


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _tables():
    for name in ("REASONS", "WARNINGS", "TENANT_TEXTS", "GATEWAY_TEXTS", "EVIDENCE_TEXTS", "ANSWER_TEXTS",
                 "API_TEXTS"):
        for key, value in getattr(wording, name).items():
            for template in (value if isinstance(value, tuple) else (value,)):
                yield f"{name}[{key}]", template


@pytest.mark.parametrize("where,template", list(_tables()), ids=lambda v: str(v)[:40])
def test_every_template_fills_with_its_named_values(where, template):
    values = {name: f"<{name}>" for name in _fields(template)}
    text = template.format(**values)
    assert not UNFILLED.search(text) and all(v in text for v in values.values())


def _typed_accessors():
    for module in (wording.cli, wording.about, wording.gateway, wording.names, wording.reasons,
                   wording.library, wording.evidence, wording.answer, wording.api, wording.fields):
        for name, func in inspect.getmembers(module, inspect.isfunction):
            params = inspect.signature(func).parameters.values()
            if func.__module__ == module.__name__ and params and all(p.kind is p.KEYWORD_ONLY for p in params):
                yield f"{module.__name__}.{name}", func


def test_there_are_typed_accessors():
    assert {"engine.wording.cli.not_found", "engine.wording.gateway.question_prompt"} \
        <= {name for name, _ in _typed_accessors()}


@pytest.mark.parametrize("name,func", list(_typed_accessors()), ids=lambda v: v if isinstance(v, str) else "")
def test_a_typed_accessor_says_every_value_it_is_given(name, func):
    values = {p.name: (701 + i if p.annotation in (int, "int") else f"<{p.name}>")
              for i, p in enumerate(inspect.signature(func).parameters.values())}
    text = func(**values)
    assert isinstance(text, str) and HANGUL.search(text) or name.endswith("question_prompt")
    assert not UNFILLED.search(text) and all(str(v) in text for v in values.values())


def test_the_summary_lines_say_their_values():
    line = wording.cli.summary_line("공고.pdf", True, "pdf", 12, 3, 4, None)
    assert "공고.pdf" in line and "12" in line and "3" in line and "4쪽" in line and not UNFILLED.search(line)
    assert wording.reason_text("EMPTY") in wording.cli.summary_line("빈.hwp", False, "hwp", 0, 0, None, "EMPTY")
    assert wording.cli.folder_summary(5, 3, 2) == "모두 5개 중 3개 읽음, 2개 못 읽음"


def _calls():
    """(where, accessor, key, keyword names) of every keyed call with a literal key; None names for **values."""
    for module, tree in _sources("engine", "ui", "noda_desktop"):
        aliases = {t.id: getattr(node.value, "attr", getattr(node.value, "id", None))    # _t = wording.evidence_text
                   for node in ast.walk(tree) if isinstance(node, ast.Assign) for t in node.targets
                   if isinstance(t, ast.Name) and getattr(node.value, "attr", getattr(node.value, "id", None)) in KEYED}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "attr", getattr(node.func, "id", None))
            name = aliases.get(name, name)
            if name in KEYED and node.args and isinstance(node.args[0], ast.Constant):
                names = None if any(k.arg is None for k in node.keywords) else {k.arg for k in node.keywords}
                yield f"{module}:{node.lineno}", name, node.args[0].value, names


def test_every_keyed_call_names_an_existing_sentence_and_fills_exactly_its_placeholders():
    checked, wrong = 0, []
    for where, accessor, key, names in _calls():
        table = KEYED[accessor]
        if key not in table:
            wrong.append(f"{where}: {accessor}({key!r}) names no sentence")
            continue
        if names is not None:
            checked += 1
            if names != _fields(table[key]):
                wrong.append(f"{where}: {accessor}({key!r}) gives {sorted(names)}, "
                             f"the sentence needs {sorted(_fields(table[key]))}")
    assert wrong == [] and checked > 60, "\n".join(wrong)


def test_every_window_text_call_fills_exactly_its_placeholders():
    wrong = []
    for module, tree in _sources("ui"):
        for node in ast.walk(tree):
            func = getattr(node, "func", None)
            if isinstance(node, ast.Call) and isinstance(func, ast.Attribute) and func.attr == "format" \
                    and isinstance(func.value, ast.Attribute) and getattr(func.value.value, "id", None) == "texts":
                template = getattr(texts, func.value.attr)
                names = {k.arg for k in node.keywords}
                if None not in names and names != _fields(template):
                    wrong.append(f"{module}:{node.lineno}: texts.{func.value.attr} given {sorted(names)}")
    assert wrong == [], "\n".join(wrong)


def _sentences(values) -> list[str]:
    """The strings among catalogue values (dicts, lists and tuples opened), placeholders made alike."""
    found = []
    for value in values:
        if isinstance(value, dict):
            found += _sentences(value.values())
        elif isinstance(value, (list, tuple)):
            found += _sentences(value)
        elif isinstance(value, str) and HANGUL.search(value):
            found.append(re.sub(r"\{\w*\}", "{}", value).strip(" .:—"))
    return found


def test_the_window_and_the_engine_do_not_both_write_one_sentence():
    """A sentence both say is engine.wording's; ui/texts.py names it instead of copying it. Single words
    (labels like 읽음, 파일) are not sentences."""
    engine_side = set(_sentences(v for m in (wording.reasons, wording.names, wording.library, wording.gateway,
                                                  wording.evidence, wording.answer, wording.api, wording.cli,
                                                  wording.about, wording.fields)
                                 for k, v in vars(m).items() if k.isupper()))
    tree = ast.parse((ROOT / "ui/texts.py").read_text(encoding="utf-8"))
    own = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and id(n) not in _docstrings(tree)]
    window = [s for s in _sentences(own) if " " in s]
    assert sorted(set(window) & engine_side) == []
    assert sorted({s for s in window if window.count(s) > 1}) == []
