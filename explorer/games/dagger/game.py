"""Marvel D.A.G.G.E.R. behind the game registry (:mod:`explorer.games`).

One scenario kind so far:

=============  ===========================  =======================================================================
kind           module                       what it answers (sections)
=============  ===========================  =======================================================================
``nemesis``    :mod:`.nemesis_scenario`     a Nemesis Phase (or several) played out step by step: Advance Threat,
                                            Check Nemesis Mission, Resolve Event Cards, End of Round, Winning and
                                            Losing
=============  ===========================  =======================================================================

Each kind's module exposes ``parse_<name>(data, source)`` and ``resolve_<name>(scenario, rulings, seed) -> Trace``
(:data:`KINDS`).
"""

from __future__ import annotations


from explorer.games import Game, Kinds, Page, outcome_text

KINDS: dict[str, tuple[str, str]] = {
    "nemesis": ("explorer.games.dagger.nemesis_scenario", "nemesis"),
}
"""``{scenario kind: (rules module, name)}``; the module defines ``parse_<name>`` and ``resolve_<name>``."""

_KINDS = Kinds("dagger", "D.A.G.G.E.R.", KINDS)


def _options():
    from .options import ALL_OPTIONS

    return ALL_OPTIONS


PAGES: tuple[Page, ...] = ()

GAME = Game(
    id="dagger",
    title="Marvel D.A.G.G.E.R.",
    rulebook="marvel-dagger.txt",
    package="explorer.games.dagger",
    default_scenario="dg-01",
    parse=_KINDS.parse,
    resolve=_KINDS.resolve,
    ruling_options=_options,
    pages=PAGES,
    outcome_text=outcome_text,
)
"""The Marvel D.A.G.G.E.R. entry of the registry."""
