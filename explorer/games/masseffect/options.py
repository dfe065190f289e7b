"""Mass Effect ruling options: every place the rulebook leaves a question open, with both readings.

Each option names the section that leaves the question open, its readings, the default and why. Options are grouped
by the part of the engine that consults them; :data:`ALL_OPTIONS` collects every :class:`RulingOption` defined here.
Use :func:`rulings` to get a :class:`~explorer.options.Rulings` with the defaults (or overrides).
"""

from __future__ import annotations

from collections.abc import Mapping

from explorer.options import RulingOption, Rulings

# --- mission map: adjacency, distances, Line of Fire, elevation, turrets (geometry) -----------------------------


# --- Strategy Pool, Core Abilities, Action Spaces ------------------------------------------------------------------


# --- Squadmates, enemies: damage, Elites, activation, Advancing, Opportunity Attacks ----------------------------


ALL_OPTIONS: tuple[RulingOption, ...] = tuple(v for v in dict(globals()).values() if isinstance(v, RulingOption))
"""Every Mass Effect ruling option, in definition order."""


def rulings(chosen: Mapping[str, str] | None = None) -> Rulings:
    """A :class:`Rulings` over :data:`ALL_OPTIONS` with the defaults, overridden by ``chosen``.

    Raises:
        ScenarioError: an unknown option key or reading (the message lists what is allowed).
    """
    return Rulings(ALL_OPTIONS, chosen)
