"""TAG Raid's Burst counts and Range MOD names, read off a validated roll scenario's Miners: the resolver's own small
rules, in a module without pydantic, so that resolving a cached scenario (a :mod:`explorer.plain` snapshot of the
models of :mod:`.model`) never imports it. :mod:`.model` re-exports them.

Sections: Orders and AROs; Skills and Tools › Tools; Rolls › Modifiers (MOD); Distances and Measurements › Range Ruler.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .model import ActiveMiner, ReactiveMiner

_RANGE_WORD = re.compile(r"\brange\b", re.IGNORECASE)


def is_range_mod(name: str) -> bool:
    """Whether a named MOD is a Range MOD (its name has the word "Range": ``Range``, ``Long Range``,
    ``Out of Range``; not ``Ranged ...``). Range MODs only modify Ranged Attacks (Rolls › Modifiers (MOD);
    Distances and Measurements › Range Ruler): the resolver ignores them, in a cited step, on any other Skill."""
    return bool(_RANGE_WORD.search(name))


def attack_burst(active: ActiveMiner) -> int:
    """The Active Miner's Burst: its Weapon's Burst plus its Burst MOD, floored at 0 (Skills and Tools › Tools: Burst
    is a number of dice; the resolver says so in a step when the floor applies)."""
    return max(0, (active.weapon.burst if active.weapon else 0) + active.burst_mod)


def aro_burst(miner: ReactiveMiner) -> int:
    """Dice a Reactive Miner rolls: attack AROs have Burst 1 plus any Burst MOD (Orders and AROs); Evade rolls one
    die; Idle and no ARO roll none. A Burst MOD below -1 floors the Burst at 0 (the resolver says so in a step)."""
    if miner.skill in ("ranged_attack", "close_combat_attack"):
        return max(0, 1 + miner.burst_mod)
    return 1 if miner.skill == "evade" else 0


def active_dice(active: ActiveMiner) -> int:
    """Dice the Active Miner rolls as declared: its attack Burst (all targets), 1 for Evade, 0 for Idle."""
    if active.skill in ("ranged_attack", "close_combat_attack"):
        return attack_burst(active)
    return 1 if active.skill == "evade" else 0
