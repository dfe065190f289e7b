"""Death and Respawn of Miners at the end of an Order.

Sections: Death (a Miner at 0 Wounds dies; Teseum to each player who removed Wounds in that Order — already counted
by the roll resolver —; Loot Token; removed from the table; Wounds and State Tokens removed; Respawn; several deaths
in one Order follow the Timeline); Tool Containers and Loot › Loot (half the Neomaterial Units kept, rounding up — the
resolver's :class:`~explorer.games.tagraid.resolve.Loot`); Respawn (a d20 picks the Access Point; a number on an
Access Point with an enemy Miner in contact is re-rolled; the TAG is placed in contact with it); the Loot Token and
Loot Zone of a dead TAG (:func:`.loot.leave_loot`).

Placement, the same rule as Initial Deployment (:mod:`.deployment`, documented, editable defaults): an Access Point
is a token of the table's ``token_radius`` at its position (``access_points`` of the order file); a respawning TAG is
placed *in contact* with it, its base touching the token's edge on the side facing the middle of the board (the
first position that fits, turning round the token in steps of 15°), never standing on it (Silhouette Contact; Move:
no Model stands on top of a Token); another Miner is placed the same way at a position at least partly inside a
Hexagon in contact with the Access Point. An Access Point is taken when an enemy base reaches its token (touching it
or over it). A d20 face that names no Access Point of the table is re-rolled as well, and so is a free Access Point
round which no position in contact fits the base (other Models or scenery fill them: the rulebook does not say;
ruling ``respawn_no_room``: re-rolled by default, or the Miner centred on the token).
"""

from __future__ import annotations

from dataclasses import replace

from explorer.dice import Dice
from explorer.text import plural
from explorer.trace import Step

from .. import sections as S
from .deployment import _taken_by, default_tag_spot, turned_from_inward
from .loot import leave_loot
from .state import OrderState

MAX_RESPAWN_ROLLS = 200
"""Re-rolls before Respawn gives up (every Access Point taken): the Miner then stays off the table."""


def apply_deaths(state: OrderState, dead: tuple[str, ...], respawn_dice: tuple[int, ...], seed: int,
                 loot: dict, no_room: str = "reroll") -> tuple[OrderState, tuple[Step, ...]]:
    """Remove the dead Miners, clear their Wounds and State Tokens and Respawn them, in Timeline order.

    ``loot``: ``{miner: resolve.Loot}`` from the roll exchange (Neomaterial Units kept in the Scoring Zone).
    ``respawn_dice``: the d20 faces given for Respawn, used first; every other Respawn die is rolled by a
    :class:`explorer.dice.Dice` seeded with ``seed + 7919`` (a seed of its own, so that a re-rolled Access Point
    never shifts the dice of the roll exchange).
    ``no_room``: the reading of ruling ``respawn_no_room`` (Respawn leaves open a free Access Point round which
    no position in contact fits the base): ``"reroll"`` rolls the d20 again, ``"centred"`` deploys the Miner
    centred on the token.
    Returns the new state and the explaining steps.
    """
    steps: list[Step] = []
    faces = list(respawn_dice)
    dice = Dice(seed=seed + 7919)
    sec = "5.3 End of the Order"
    for mid in sorted(dead, key=lambda x: state.timeline_key(state.miner(x))):
        if mid in loot and loot[mid] is not None and state.miner(mid).miner_type == "TAG":
            state, lsteps = leave_loot(state, mid, loot[mid], sec)
            steps += lsteps
        m = state.miner(mid)
        kept = loot[mid].kept if mid in loot and loot[mid] is not None else m.scoring_zone
        steps.append(Step(f"{mid} dies: removed from the table, its Wounds and State Tokens removed", S.DEATH,
                          "A Miner whose Wounds reach 0 dies; each player who removed its Wounds this Order has "
                          "already gained Teseum; its Loot goes to the Loot Zone"
                          + (f" and it keeps {plural(kept, 'Neomaterial Unit')} in the Scoring Zone." if mid in loot else "."),
                          {"miner": mid, "scoring_zone": kept}, (mid,), sec))
        m = replace(m, on_table=False, wounds=m.max_wounds, states=(), scoring_zone=kept)
        state = state.with_miner(m)
        aps = dict(state.geometry.access_points)
        if not aps:
            steps.append(Step(f"{mid} cannot Respawn: this table has no Access Points", S.RESPAWN,
                              "Respawn needs the table's numbered Access Points (order file: access_points).",
                              {"miner": mid}, (mid,), sec))
            continue
        tried = []
        placed = None
        for _ in range(MAX_RESPAWN_ROLLS):
            if faces:
                face = faces.pop(0)
            else:
                face = dice.roll(20, f"Respawn {mid}")
                state = replace(state, respawn_drawn=state.respawn_drawn + 1)
            ap = aps.get(face)
            if ap is None:
                tried.append((face, "no such Access Point"))
                continue
            taken = _taken_by(state, m.side, ap)
            if taken:
                tried.append((face, f"enemy Miner {', '.join(taken)} in contact"))
                continue
            spot = default_tag_spot(state, m, ap)
            if spot is None and "respawn_no_room" not in dict(state.consulted):
                state = state.consulting({"respawn_no_room": no_room})
            if spot is None and no_room == "reroll":
                tried.append((face, "no room for its base in contact with it (ruling respawn_no_room = reroll)"))
                continue
            placed = (face, spot or ap, spot is None)   # no spot here: ruling respawn_no_room = centred
            break
        if placed is None:
            steps.append(Step(f"{mid} cannot Respawn: every Access Point is taken", S.RESPAWN, "",
                              {"miner": mid, "rolls": [f for f, _ in tried]}, (mid,), sec))
            continue
        face, (x, y), centred = placed
        ap = aps[face]
        state = state.with_miner(replace(m, x=x, y=y, on_table=True))
        rerolls = "; ".join(f"{f}: {why}, re-rolled" for f, why in tried)
        facts = {"miner": mid, "access_point": face, "rolls": [f for f, _ in tried] + [face],
                 "position": [round(x, 6), round(y, 6)]}
        if centred:
            steps.append(Step(f"{mid} Respawns at Access Point {face}, centred on it: no position in contact fits",
                              S.RESPAWN, (rerolls + "; " if rerolls else "") + f"the d20 shows {face}, a free Access "
                              "Point, but other bases or scenery fill every position in contact with it; ruling "
                              "respawn_no_room = centred: its base is centred on the token, with its full Wounds.",
                              facts | {"centred": True}, (mid,), sec))
            continue
        turn = turned_from_inward(state, ap, x, y)
        side = ("on the side facing the middle of the board" if turn == 0 else
                f"{turn}° round it from the side facing the middle of the board, the first position that fits")
        where = (f"the TAG is deployed in contact with it, its base touching the token {side}" if m.miner_type == "TAG"
                 else f"the {m.miner_type} is deployed in a Hexagon in contact with it, its base touching the token "
                 f"{side}")
        steps.append(Step(f"{mid} Respawns at Access Point {face}, in contact with it", S.RESPAWN,
                          (rerolls + "; " if rerolls else "") + f"the d20 shows {face}, a free Access Point: {where} "
                          "(never on top of it), with its full Wounds.", facts, (mid,), sec))
    return state, tuple(steps)
