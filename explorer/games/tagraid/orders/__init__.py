"""TAG Raid Orders on the table: the Order Expenditure Sequence as small step functions over immutable game state,
played by the sequence kernel (:mod:`explorer.kernel`: ``step(state, ctx)``, one :class:`~explorer.kernel.Frame` per
step, refusals as :class:`~explorer.errors.RuleViolation`).

One module per rulebook section:

* :mod:`.state` — Miner Card › Attributes, Activating a Miner (the Order pool), States: the game state as frozen values.
* :mod:`.declarations` — Orders and AROs: what the players declare (the declaration log) and the one refusal
  helper (:func:`.declarations.refused`).
* :mod:`.move` — Common Skills › Move, Moving and Measuring, Special Terrain: checking a declared route.
* :mod:`.aros` — Orders and AROs: who may declare an ARO, and at which step, from the table geometry.
* :mod:`.sequence` — Activating a Miner › Order Expenditure Sequence: the steps, their context (declarations and
  dice), replay, back / forward.
* :mod:`.resolution` — step 5 (Resolution, Effects): the roll exchange built from the board, resolved by the one
  roll resolver (:func:`explorer.games.tagraid.resolve.resolve_detailed`).
* :mod:`.death` — Death, Respawn.
* :mod:`.megabeast` — MegaBeast › Skills, Attacks, and AROs; Deployment and Movement Type: the Behavior movement in
  ARO (Interior hexagon closest to the Active TAG), the facing, redirection at Conclusion.
* :mod:`.round` — Game Sequence › Game Round (Events Phase, MegaBeast deployment, Players Phase, End of the Round),
  Victory Conditions.
* :mod:`.orderfile` — the ``kind = "order"`` scenario files (``parse_order`` / ``resolve_order``).
"""
