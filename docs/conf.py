"""Sphinx configuration of the documentation site (``./run docs`` or
``python -m sphinx -b html -W docs docs/_build/html``).

The rulings gallery (``gallery/``) is generated from the built-in scenarios at every build
(:mod:`explorer.render.gallery`); the ``{explorer}`` directive embeds a scenario (:mod:`explorer.render.sphinx`).
Links from embedded demos go to the Panel app at ``$EXPLORER_APP_URL`` (default ``http://localhost:5006``) and, when
``$EXPLORER_BINDER_URL`` is set, to Binder.
"""

import os

project = "Rules Explorer"
author = "Rules Explorer contributors"
copyright = "the Rules Explorer contributors"

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "explorer.render.sphinx",
]

explorer_gallery_dir = "gallery"
explorer_app_url = os.environ.get("EXPLORER_APP_URL", "http://localhost:5006")
explorer_binder_url = os.environ.get("EXPLORER_BINDER_URL", "")

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
nb_execution_mode = "off"  # the tutorials are shown with the outputs stored in them (see index: Notebooks)

exclude_patterns = ["_build", "img/README*", "**/.ipynb_checkpoints"]
suppress_warnings = ["myst.header", "misc.highlighting_failure"]

autodoc_default_options = {"members": True, "undoc-members": False, "show-inheritance": False}
autodoc_typehints = "description"
autodoc_member_order = "bysource"
napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_ivar = True  # dataclass fields are documented once (Attributes: sections), not twice

html_theme = "alabaster"
html_title = "Rules Explorer"
html_theme_options = {"page_width": "1180px", "sidebar_width": "240px"}
