"""Galaxy Defenders 11.3.1 Menacing Agent System: the Menace token (:class:`Menace`) and what a Master Alien's
entry, activation, attack and wounds do to it, each as ``(new token or target, steps)``.

A rules module of its own so that a ``combat`` (which moves the token after an attack) does not load the phase
scenarios of :mod:`.phases` (which plays the token's events and re-exports these names)."""

from __future__ import annotations

from dataclasses import dataclass

from explorer.trace import Step

from . import sections as S


@dataclass(frozen=True)
class Menace:
    """The Menace token: ``holder`` (the Menacing Agent, ``None`` before a Master Alien entered play), ``level``."""

    holder: str | None = None
    level: int = 0


def activation_starts(m: Menace) -> tuple[str | None, list[Step]]:
    """11.3.1: targeting happens at the start of the Master Alien's activation; an Archenemy targets the Menacing
    Agent and keeps that target for the whole activation, whoever holds the token later. Returns ``(target,
    steps)``."""
    return m.holder, [Step(f"The Master Alien activates: its target is the Menacing Agent, {m.holder}", S.MENACE,
                           "Targeting happens at the start of the activation; the A.I. behavior then selected is "
                           "followed even if the token changes hands during it.", marks=(m.holder,),
                           facts={"target": m.holder})]


def master_alien_attacks(m: Menace, target: str | None) -> tuple[str | None, list[Step]]:
    """11.3.1: the Master Alien attacks the target fixed at the start of its activation (not necessarily the
    current Menacing Agent); its activation ends. Without an activation underway, it targets the Menacing Agent.
    Returns ``(the agent attacked, steps)``."""
    if target is None:
        return m.holder, [Step(f"The Master Alien attacks the Menacing Agent, {m.holder}", S.MENACE,
                               "An Archenemy always targets the Menacing Agent.", marks=(m.holder,),
                               facts={"attacked": m.holder})]
    also = "" if target == m.holder else f" (the token is now {m.holder}'s)"
    return target, [Step(f"The Master Alien attacks {target}, its target since the start of its activation{also}",
                         S.MENACE, "Once its A.I. behavior is selected, the alien follows it even if the conditions "
                         "change.", marks=(target,), facts={"attacked": target})]


def master_alien_enters(m: Menace, alpha: str) -> tuple[Menace, list[Step]]:
    """11.3.1: the Master Alien card and the Menace token, Level 1, go to the Alpha Agent."""
    return Menace(alpha, 1), [Step(f"{alpha} (Alpha Agent) becomes the Menacing Agent: Menace 1", S.MENACE,
                                   "A Master Alien entering play gives its card and the Menace token, Level 1 face "
                                   "up, to the Alpha Agent.", marks=(alpha,), facts={"holder": alpha, "level": 1})]


def master_alien_wounded(m: Menace, agent: str, wounds: int, via: str) -> tuple[Menace, list[Step]]:
    """11.3.1: a wound by the Menacing Agent raises the token to Level 2; a wound by another agent lowers it to
    Level 1, or passes it (Level 1) to that agent when it already was at Level 1. Drones and controlled NPCs wound
    for their agent."""
    how = f"{agent} ({via})" if via in ("attack", "power", "item") else f"{agent}'s {via}"
    if wounds < 1:
        return m, [Step(f"{how} deals no wound: the token does not change", S.MENACE,
                        "Only an attack or effect that deals at least one wound moves the token.", marks=(agent,),
                        facts={"holder": m.holder, "level": m.level})]
    if agent == m.holder:
        new = Menace(agent, 2)
        word = "flips to Level 2" if m.level == 1 else "stays at Level 2"
        return new, [Step(f"{how} is the Menacing Agent and wounds the Master Alien: Menace {word}", S.MENACE,
                          "A wound from the Menacing Agent raises the token to Level 2.", marks=(agent,),
                          facts={"holder": agent, "level": 2})]
    if m.level == 2:
        return Menace(m.holder, 1), [Step(f"{how} wounds the Master Alien: {m.holder}'s Menace drops to Level 1",
                                          S.MENACE, "A wound from another agent lowers the token; it changes "
                                          "agents only at Level 1.", marks=(agent, m.holder), facts={"holder": m.holder,
                                           "level": 1})]
    return Menace(agent, 1), [Step(f"{how} wounds the Master Alien: the Menace token (Level 1) passes from "
                                   f"{m.holder} to {agent}", S.MENACE, "At Level 1 a wound from another agent makes "
                                   "that agent the new Menacing Agent.", marks=(agent,),
                                   facts={"holder": agent, "level": 1})]
