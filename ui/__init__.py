"""PySide6 widgets of Noda Desktop. Talks to the engine only through ui.service."""
