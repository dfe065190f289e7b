"""Galaxy Defenders: Operation Strikeback (``shared/rules/galaxy-defenders-operation-strikeback.txt``): combat
resolution (Hit roll, Energy Shields, Lethal, Defend roll, High Impact, Critical tokens, Mark, Poison, Explosion)
with exact odds, and the conditions that change between Refresh phases, each step citing its section
(see :mod:`.sections`).

The dice faces and the Critical token piles are not printed in this rulebook (they come from the Core Set); they are
a user-editable calibration (:mod:`.calibration`, packaged default ``data/calibration.toml``, an assumption).

The game's uniform surface for the registry (:mod:`explorer.games`) is :data:`explorer.games.galaxydefenders.game.GAME`.
"""
