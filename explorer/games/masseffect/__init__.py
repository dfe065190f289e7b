"""Mass Effect: Priority Hagalaz (``shared/rules/mass-effect-priority-hagalaz.txt``): mission maps, Line of Fire,
the Strategy Pool, and the enemies' activation, each step citing its section (see :mod:`.sections`).

The game's uniform surface for the registry (:mod:`explorer.games`) is :data:`explorer.games.masseffect.game.GAME`.
"""
