"""Where the project lives: the ONE place its public repository address is configured, and the links built from it.

The address is ``[project.urls] Repository`` in ``pyproject.toml`` (in a checkout), else the installed distribution's
``Project-URL: Repository`` metadata (the same line, in a wheel). Until the public repository is known it is
:data:`PLACEHOLDER` (``https://github.com/OWNER/REPOSITORY``): set it there, and the docs site's Binder links
(``docs/conf.py``), the embeds' Binder links (:mod:`explorer.render.embed`) follow; the README's badge and the
"install from the repository" lines of README and docs are plain text, and ``tests/test_binder.py`` checks they name
the same address.

The distribution is :data:`DISTRIBUTION` (``explorer`` on the package index is another project's): install it from a
checkout (``pip install .``), a built wheel, or the repository (:func:`install_line`).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

DISTRIBUTION = "tabletop-rules-explorer"
"""The distribution name (the import name and the command stay ``explorer``)."""

PLACEHOLDER = "https://github.com/OWNER/REPOSITORY"
"""``[project.urls] Repository`` until the public repository is known (its links cannot launch anything)."""

BINDER = "https://mybinder.org/v2/gh"
"""Binder's launch prefix for a GitHub repository: ``<BINDER>/<owner>/<repo>/HEAD``."""


def repository_url() -> str:
    """The repository's address (``https://github.com/<owner>/<repo>``): ``pyproject.toml``'s ``[project.urls]
    Repository`` beside the package (a checkout), else the installed distribution's metadata, else
    :data:`PLACEHOLDER`."""
    pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
    if pyproject.is_file():
        url = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("project", {}).get("urls", {}).get("Repository")
        if url:
            return str(url).rstrip("/")
    from importlib import metadata

    try:
        for line in metadata.metadata(DISTRIBUTION).get_all("Project-URL") or []:
            label, _, url = line.partition(",")
            if label.strip().lower() == "repository" and url.strip():
                return url.strip().rstrip("/")
    except metadata.PackageNotFoundError:
        pass
    return PLACEHOLDER


def is_placeholder(repository: str | None = None) -> bool:
    """Whether ``repository`` (default :func:`repository_url`) is still :data:`PLACEHOLDER`."""
    return (repository or repository_url()).rstrip("/") == PLACEHOLDER


def owner_repo(repository: str | None = None) -> str:
    """``"<owner>/<repo>"`` of a GitHub address (default :func:`repository_url`).

    Raises:
        ValueError: not ``https://github.com/<owner>/<repo>``.
    """
    url = (repository or repository_url()).rstrip("/")
    tail = url.removeprefix("https://github.com/")
    if tail == url or tail.count("/") != 1 or not all(tail.split("/")):
        raise ValueError(f"the repository address {url!r} is not https://github.com/<owner>/<repo>")
    return tail


def binder_launch_url(repository: str | None = None) -> str | None:
    """Binder's launch URL of the repository (``https://mybinder.org/v2/gh/<owner>/<repo>/HEAD``), or ``None`` while
    the address is :data:`PLACEHOLDER` (a link that cannot launch is left out)."""
    repository = repository or repository_url()
    if is_placeholder(repository):
        return None
    return f"{BINDER}/{owner_repo(repository)}/HEAD"


def binder_badge(repository: str | None = None) -> str:
    """The README's Binder badge (Markdown) for the repository: opens the Panel apps' index (``?urlpath=panel``)."""
    return (f"[![Binder](https://mybinder.org/badge_logo.svg)]({BINDER}/{owner_repo(repository)}/HEAD"
            "?urlpath=panel)")


def install_line(extra: str = "", repository: str | None = None) -> str:
    """The ``pip install`` line that installs the distribution from the repository, with ``extra`` (e.g. ``"docs"``):
    ``pip install 'tabletop-rules-explorer[docs] @ git+https://github.com/<owner>/<repo>'``."""
    name = f"{DISTRIBUTION}[{extra}]" if extra else DISTRIBUTION
    return f"pip install '{name} @ git+{repository or repository_url()}'"
