"""Marvel D.A.G.G.E.R.: the world map as a graph, game state as immutable values, the Nemesis Phase as step functions.

Modules: :mod:`.worldmap` (spaces, lines, regions, bases, Asgard, the Bifrost; distances, nearby, nearest operational
base), :mod:`.state` (heroes, enemies, missions, event cards, the nemesis sheet, :class:`.state.GameState`),
:mod:`.nemesis` (the Nemesis Phase steps, End of Round, Winning and Losing), :mod:`.nemesis_scenario` (scenario kind
``"nemesis"``), :mod:`.game` (the registry entry).
"""
