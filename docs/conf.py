"""Sphinx configuration of the documentation site (``./run docs`` or
``python -m sphinx -b html -W docs docs/_build/html``).

The rulings gallery (``gallery/``) is generated from the built-in scenarios at every build
(:mod:`explorer.render.gallery`), and so is the rule index (``rule-index/``, :mod:`explorer.render.rule_pages`); the
``{explorer}`` directive embeds a scenario (:mod:`explorer.render.sphinx`).
Links from embedded demos go to the Panel app at ``$EXPLORER_APP_URL`` (default ``http://localhost:5006``) and, when
to Binder: ``$EXPLORER_BINDER_URL``, else the repository's own Binder link built from ``pyproject.toml``'s
``[project.urls] Repository`` (:mod:`explorer.repository`; none while that address is the placeholder).

The notebooks (``notebooks/``) and tutorials (``tutorials/``), linked into the source tree, are executed at every build
through MyST-NB's cache (``jupyter-cache``, in ``docs/_build/.jupyter_cache``: a notebook runs again only when its code
changes; offline). Their widgets carry a static picture (:mod:`explorer.widgets.static`, switched on by
``EXPLORER_STATIC_WIDGETS=1``, which the kernels inherit from here): a canvas's drawing replayed as SVG, preferred over
the widget view, whose JavaScript (ipycanvas) no public CDN serves.
"""

import os

from explorer.repository import binder_launch_url

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
explorer_rule_index_dir = "rule-index"
explorer_app_url = os.environ.get("EXPLORER_APP_URL", "http://localhost:5006")
# Binder links from the ONE repository address (pyproject.toml [project.urls] Repository, explorer.repository);
# none while it is the placeholder
explorer_binder_url = os.environ.get("EXPLORER_BINDER_URL") or binder_launch_url() or ""

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
os.environ["EXPLORER_STATIC_WIDGETS"] = "1"  # executed notebooks' widgets carry static pictures (explorer.widgets.static)
nb_execution_mode = os.environ.get("EXPLORER_NB_EXECUTION", "cache")  # "force": run every notebook again
nb_execution_cache_path = os.environ.get("EXPLORER_NB_CACHE", os.path.join(os.path.dirname(__file__), "_build",
                                                                           ".jupyter_cache"))
nb_execution_timeout = 600
nb_execution_raise_on_error = True  # a notebook cell that fails fails the build
nb_mime_priority_overrides = [("*", "text/html", 5)]  # a widget's static picture before its (blank) widget view

exclude_patterns = ["_build", "img/README*", "**/.ipynb_checkpoints", "notebooks/README*", "tutorials/README*"]
suppress_warnings = ["myst.header", "misc.highlighting_failure"]

autodoc_default_options = {"members": True, "undoc-members": False, "show-inheritance": False}
autodoc_typehints = "description"
autodoc_member_order = "bysource"
napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_ivar = True  # dataclass fields are documented once (Attributes: sections), not twice

html_theme = "alabaster"
html_static_path = ["_static"]  # custom.css: the site at 390 px
html_title = "Rules Explorer"
html_theme_options = {"page_width": "1180px", "sidebar_width": "240px"}
