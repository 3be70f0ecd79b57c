"""Answers: search hits into a quoted, cited answer or a refusal, and what is built around one.

``extract.answer`` is the extractive answer (seed /answer): the question read for its terms and the
kind of answer it asks for (question_cues), the hits and their documents' other chunks (documents)
cut into candidate lines (lines), each scored (scoring), the best put in the learned order (ranker),
the first kept or the answer refused (choice), each kept line cited with narrowed anchors (citations) and its answering phrase marked
(span). Around it: the numbered evidence an LLM answers from (llm_context, seed /context), the check
of an answer against that evidence (verify, seed /verify) and the self-contained evidence page
(evidence). Everything here takes a Tenant (or its hits and Documents) and writes nothing.
"""
