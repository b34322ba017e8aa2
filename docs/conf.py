"""The documentation site (Sphinx): `make docs` builds it into build/site, offline, with
warnings as errors. The pages are this folder's Markdown (read by MyST): the guides, the
rules and rulings, the record format and the rest; the API reference is rendered from the
docstrings by autodoc (docs/reference/api.md)."""

from __future__ import annotations

import monsterball

project = "monsterball"
author = "the monsterball developers"
copyright = "2026, the monsterball developers"
release = monsterball.__version__
version = release

extensions = ["myst_parser", "sphinx.ext.autodoc"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["*.json", "*.jsonl"]

# Links like [Clocks](web.md#clocks) resolve to the headings' anchors (as on a code host).
myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence"]

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
autoclass_content = "both"  # a class's docstring, then its __init__'s

html_theme = "furo"
html_title = f"monsterball {release}"
html_show_sourcelink = False
