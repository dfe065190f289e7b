"""Marvel D.A.G.G.E.R.: the world map as a graph, game state as immutable values, the Nemesis Phase as step functions
on the sequence kernel (:mod:`explorer.kernel`).

Modules: :mod:`.worldmap` (spaces, lines, regions, bases, Asgard, the Bifrost; distances, nearby, nearest operational
base), :mod:`.state` (heroes, enemies, missions, event cards, the nemesis sheet, :class:`.state.GameState`, the
choices made and the typed events it records), :mod:`.nemesis` (the Nemesis Phase steps, End of Round, Winning and
Losing: :data:`.nemesis.NEMESIS_PHASE`), :mod:`.hero_phase` (the Hero Phase helpers: Move, Fight, Defy, Rest and their
exact odds), :mod:`.nemesis_scenario` and :mod:`.hero_scenario` (scenario kinds ``"nemesis"`` and ``"hero"``),
:mod:`.results` (their typed outcomes), :mod:`.outcome` (the outcome text), :mod:`.game` (the registry entry).
"""
