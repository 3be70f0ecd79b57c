"""The About box text: version, the licences of what the installer carries, what they ask of whoever passes it on.

The sentences and the list of components are in engine/wording/about.py; this puts them together.
"""
from __future__ import annotations

import html

from engine import __version__
from engine.wording import about as said
from engine.wording.about import COMPONENTS, HANCOM_NOTICE, OBLIGATIONS  # noqa: F401  (the installer's names)
from engine.wording.names import PRODUCT_NAME

APP_LICENCE = "AGPL-3.0-or-later"


def about_html() -> str:
    """Rich text for the About box: version, what Noda does, the Hancom notice, licences and obligations."""
    rows = "".join(f"<li>{html.escape(name)} — {html.escape(licence)}</li>" for name, _, licence in COMPONENTS)
    duties = "".join(f"<p>{html.escape(text)}</p>" for text in OBLIGATIONS)
    return (f"<h3>{PRODUCT_NAME} {html.escape(__version__)}</h3>"
            f"<p>{said.SUMMARY}</p>"
            f"<p>{html.escape(HANCOM_NOTICE)}</p>"
            f"<p>{said.licence(licence=APP_LICENCE)}</p>"
            f"<p>{said.COMPONENTS_HEAD}</p><ul>{rows}</ul>{duties}")


def licences_text() -> str:
    """The same facts as plain text (the .deb's copyright file, `noda-desktop` folder's NOTICE)."""
    lines = [f"Noda Desktop {__version__} — {APP_LICENCE}", "", HANCOM_NOTICE, "", "Bundled components:"]
    lines += [f"  {name}: {licence}" for name, _, licence in COMPONENTS]
    lines += [""] + OBLIGATIONS
    return "\n".join(lines) + "\n"
