"""Search: Documents into chunks, chunks into one Whoosh index per group, a question into ranked hits.

``chunking`` cuts a Document into chunks (paragraphs and table rows within a budget, each keeping its
heading path and anchors); ``analyzer`` turns text into Kiwi morphemes and character bigrams;
``schema`` is the index's fields (a chunk as stored fields, stored fields as a hit); ``index`` keeps
one index on disk (``ChunkIndex``: writing in batches, merging, purging deleted text, searching),
with ``segments`` its private files and merge policies; ``query`` turns a question into weighted
terms over the fields, ``bm25`` scores them (Whoosh's BM25F with numpy), ``phrases`` keeps a quoted
part as written, and ``rerank`` re-orders the best hits by passage. Nothing here reads files or knows
of folders and permissions: engine/library gives it Documents and keys.
"""
