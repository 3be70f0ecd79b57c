"""One reader module per file format, each filling a DocumentBuilder."""
