"""Reading: one file's bytes into Documents (a ZIP gives one per member), never raising.

``parse.parse_path`` / ``parse.parse_bytes`` detect the format by content (detect), run its reader
(formats/, one module per format, each filling a DocumentBuilder), and finish the Document with what
every reader shares: what the document's form states (form_fields: 문서번호, 수신, 담당 …, and the
rows of its 신·구조문대비표: revisions), the heading outline (outline), geometry warnings (review)
and the title. Scans
and pictures are read by OCR (ocr, through PyMuPDF's Tesseract: mupdf); a read that fails ends in an
unreadable Document with its reason (failures). A reader process keeps under its memory limit
(memguard). Nothing here writes a file or opens a connection.
"""
