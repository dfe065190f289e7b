"""One ``[[map.edges]]`` entry of a Galaxy Defenders map of Areas (an ``activation``'s, a ``combat``'s, a
``round``'s map): its pydantic model, on its own so that a format that only names it (the combat file,
:mod:`.combat_file`) does not import the activation rules and :mod:`explorer.board` with it (issue 18)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from explorer.schema import Strict


class EdgeModel(Strict):
    """A barrier, wall or door on the side between two hexes: ``edge`` (``"q1,r1|q2,r2"``), ``kind``, ``open``
    (a door's state)."""

    edge: str = Field(max_length=40)
    kind: Literal["barrier", "wall", "door"] = "barrier"
    open: bool = False
