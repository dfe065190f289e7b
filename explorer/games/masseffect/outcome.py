"""The plain-text answer printed after a Mass Effect trace (``explorer resolve me-…``, the gallery, the ``{explorer}``
directive): the verdict first, then the key numbers, for each scenario kind.

Rulebook sections summarised (each step of the trace cites its own): Interacting with the Mission Map (adjacency,
distances, Line of Fire: ``map``), Playing a Mission › Step A (the Strategy Roll and its odds: ``strategy``),
Attacking › Squadmate Damage / Damaging Enemies, Elites, End Phase (``damage``), Step C: Hazard Card (enemy
activation: ``activation``).

Everything is read from the typed outcome (``Trace.result``, :mod:`.results`, as the kinds' ``resolve_*`` functions
write it, with the typed record of what happened); nothing is recomputed, no step fact is read.
"""

from __future__ import annotations

from explorer.text import join_words, plural
from explorer.trace import Trace

from .map_outcome import map_text as _map_text
from .results import (ActivationOutcome, Attack, BioticEffect, DamageOutcome, Downed, EliteDamaged, EnemyAdvanced,
                      EnemyReacted, EnemyAt, InvalidActivation, MapOutcome, MediGel, MinionDamaged,
                      NotActivated, OnPointPassed, OpportunityAttack, Refused, Revealed, Revived, SquadmateAt, SquadmateDamaged,
                      SquadmateMoved,
                      Spawned, StrategyOutcome, Stunned, TargetTie)

__all__ = ["outcome_text", "kind_of"]

FACE_WORDS = {"move_2": "Move 2", "move_3": "Move 3", "standard": "Standard", "enhanced": "Enhanced",
              "move_2_or_standard": "Move 2 / Standard", "core": "Core icon"}


def kind_of(result) -> str:
    """The scenario kind of a typed outcome (:mod:`.results`): ``"map"``, ``"strategy"``, ``"damage"`` or
    ``"activation"``."""
    return result.kind


def _p(x: tuple[float, str]) -> str:
    """``0.980 (3061/3125)``: a probability as ``(float, exact)``, the fraction when it is not a whole number."""
    return f"{x[0]:.3f}" + (f" ({x[1]})" if "/" in x[1] else "")


# ------------------------------------------------------------------------------------------------------ map
# (the map text: .map_outcome.map_text)


# ------------------------------------------------------------------------------------------------- strategy


def _strategy_text(o: StrategyOutcome) -> list[str]:
    counts = [f"{n} {FACE_WORDS.get(f, f)}" for f, n in o.final_counts if n]
    fill = o.can_fill
    verdict = (f"{o.squadmate} can fill Move + Standard + Enhanced ({', '.join(fill)})" if fill else
               f"{o.squadmate} cannot fill Move + Standard + Enhanced")
    lines = [f"Outcome: {verdict}; the roll ends with " + ", ".join(counts)]
    lines.append(f"  {o.core_ability} triggered {plural(o.triggers, 'time')} over {plural(o.roll_rounds, 'roll round')}"
                 + (f"; icons per roll round {join_words(o.icons_per_round, 'then')}" if o.icons_per_round else "")
                 + (f"; Renegade tokens used {o.renegade_used}" if o.renegade_used else ""))
    lines.append(f"  Pool {plural(o.pool_size, 'die')}" + (f", {o.locked} Locked" if o.locked else "")
                 + ("; On Point (no Lock)" if o.on_point else ""))
    if o.taken is not None:
        lines.append("  Allocated: " + (", ".join(f"{d} on {sp}" for d, sp in o.taken) or "none")
                     + f"; {plural(len(o.pool_left or ()), 'die')} left in the Pool")
    odds = o.odds
    if odds:
        locked = f", {FACE_WORDS.get(odds.locked, odds.locked)} Locked" if odds.locked else ""
        lines.append(f"  Odds before the roll ({plural(odds.pool, 'Strategy die', 'Strategy dice')}{locked}): P(fill Move + Standard + "
                     f"Enhanced) {_p(odds.p_fill)}; P(at least one Enhanced) "
                     f"{_p(odds.p_enhanced)}; expected triggers "
                     f"{odds.expected_triggers:.3f}")
    return lines


# --------------------------------------------------------------------------------------- damage and activation

def _damage_phrase(d: SquadmateDamaged) -> str:
    """``"2 Damage to Shields"`` / ``"1 to Shields, 2 to Hit Points"`` of a Squadmate's Damage."""
    if d.already_downed:
        return "no effect (already Downed)"
    if d.amount == 0:
        return "0 Damage, no Shield or Hit Point lost"
    if d.hits == 0:
        return f"{d.shields} Damage to Shields"
    if d.shields == 0:
        return f"{d.hits} Damage to Hit Points"
    return f"{d.shields} Damage to Shields, {d.hits} to Hit Points"


def _and(names, word: str = "and") -> str:
    """``"Wrex and Tali"``, ``"Wrex, Tali and Garrus"``."""
    names = list(names)
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {word} {names[-1]}"


def _suffers(enemy: str, amount: int, by: str) -> str:
    return f"{enemy} suffers {amount} Damage" + (f" from {by}" if by else "")


def _events(events) -> list[str]:
    """One phrase per thing that happened to a character, in order (the typed records of :mod:`.results`)."""
    out: list[str] = []
    attack: tuple[str, str] | None = None       # (phrase, Squadmate attacked): its Damage follows
    for ev in events:
        if isinstance(ev, Refused):
            out.append(ev.text)
        elif isinstance(ev, TargetTie):            # a tie for the target: a player's choice
            # Step C: Hazard Card › Attacking: equally low Hit Points, the current Squadmate's player may choose
            out.append(f"tie for the target: {_and(ev.tied)} have {ev.tie_value} {ev.measure} each, so "
                       f"{ev.chooser}'s player chooses (Step C: Hazard Card › Attacking); this trace follows "
                       f"{ev.target} ({'your choice' if ev.by_choice else 'default: seating order'}; "
                       f"{_and([n for n in ev.tied if n != ev.target], 'or')} is as valid)")
        elif isinstance(ev, Attack):
            attack = (f"{ev.enemy} Attacks {ev.target}", ev.target)
        elif isinstance(ev, OpportunityAttack):
            attack = (f"{ev.enemy}'s Opportunity Attack on {ev.squadmate}", ev.squadmate)
        elif isinstance(ev, SquadmateMoved):
            said = f"{ev.squadmate} moves {' → '.join(ev.path)}" + (" (forced)" if ev.forced else "")
            if ev.stopped_by:
                said += (f" and stops there ({ev.stopped_by} ends the Move; planned {' → '.join(ev.planned)}"
                         + (f"; {plural(ev.lost, 'unspent Movement Point')} lost)" if ev.lost is not None
                            else "; unspent Movement Points lost)"))
            elif ev.lost:
                said += f" ({plural(ev.lost, 'unspent Movement Point')} lost)"
            out.append(said)
        elif isinstance(ev, SquadmateDamaged):
            phrase = _damage_phrase(ev)
            if attack and attack[1] == ev.squadmate:
                out.append(f"{attack[0]}: {phrase}")
            elif ev.by:
                out.append(f"{ev.squadmate} suffers {phrase} from {ev.by}")
            else:
                out.append(f"{ev.squadmate} suffers {phrase}")
            attack = None
        elif isinstance(ev, (Downed, NotActivated, InvalidActivation, OnPointPassed, Revealed, EnemyReacted,
                             Revived)):
            out.append(ev.text)
        elif isinstance(ev, EnemyAdvanced):
            out.append(f"{ev.enemy} Advances {ev.start} → {ev.end}" + (f" ({ev.why})" if ev.why else ""))
        elif isinstance(ev, Spawned):
            out.append(f"{ev.enemy} spawns at {ev.hex}")
        elif isinstance(ev, EliteDamaged):         # an Elite's Resilience Tracker
            name = _suffers(ev.enemy, ev.amount, ev.by)
            if ev.defeated:
                out.append(f"{name}: defeated")
            elif ev.exhausted:                      # the level was exhausted
                out.append(f"{name}: level {ev.level} exhausted, {ev.discarded} excess disregarded")
            else:                                   # Damage below the level's Shield Value
                out.append(f"{name}: {ev.damage} of {ev.shield_value} Damage on Resilience level {ev.level}")
        elif isinstance(ev, MinionDamaged):
            out.append(_suffers(ev.enemy, ev.amount, ev.by) + (": defeated" if ev.defeated else ""))
        elif isinstance(ev, Stunned):
            out.append(f"{ev.enemy} is already Stunned" if ev.already else f"{ev.enemy} is Stunned")
        elif isinstance(ev, BioticEffect):
            out.append(f"{ev.enemy} already has a Biotic Effect token: a second cannot be placed" if ev.already else
                       f"{ev.enemy} gets a Biotic Effect token: Attack Value {ev.attack_value} counts as "
                       f"{ev.counts_as}")
        elif isinstance(ev, MediGel):
            out.append(f"{ev.user} uses Medi-gel on {ev.squadmate}: +{ev.gained} Hit Points "
                       f"({ev.before} -> {ev.hit_points})" + (" and no longer Downed" if ev.revived else ""))
    return out


def _units_lines(o: DamageOutcome | ActivationOutcome) -> list[str]:
    lines = []
    if o.squadmates:
        def one(v: SquadmateAt):
            where = f" at {v.hex}" if v.hex is not None else ""
            down = " Downed" if v.downed else ""
            return f"{v.name}{where} Shields {v.shield_points}, Hit Points {v.hit_points}{down}"
        lines.append("  Squadmates: " + "; ".join(one(v) for v in o.squadmates))
    if o.enemies:
        def foe(v: EnemyAt):
            bits = [f"at {v.hex}"] if v.hex is not None else []
            if v.damage:
                bits.append(f"{v.damage} Damage")
            if v.exhausted:
                bits.append(f"{plural(v.exhausted, 'Resilience level')} exhausted")
            if v.to_defeat is not None:
                bits.append(f"{v.to_defeat} more Damage defeats it")
            if v.stunned:
                bits.append("Stunned")
            if v.biotic_effect:
                bits.append("Biotic Effect")
            return v.name + (" " + ", ".join(bits) if bits else "")
        lines.append("  Enemies: " + "; ".join(foe(v) for v in o.enemies))
    if o.returned_to_bag:
        lines.append("  Returned to the Enemy Bag: " + ", ".join(o.returned_to_bag))
    if o.removed:
        lines.append("  Removed: " + ", ".join(o.removed))
    if o.on_point:
        lines.append(f"  On Point: {o.on_point}")
    return lines


def _units_text(o: DamageOutcome | ActivationOutcome) -> list[str]:
    events = _events(o.events)
    if isinstance(o.rejected, str):                 # the refused Move is said once, not again as an event
        events = [e for e in events if e != f"Not allowed: {o.rejected}"]
    head = []
    if o.mission_failed:
        head.append("The Mission ends in failure (Shepard is Downed)")
    elif getattr(o, "ending", None):                # a round file with Mission Objectives or a time limit
        head.append(f"The Mission ends: {o.ending}")
    if o.rejected:
        head.append("not allowed: " + (o.rejected if isinstance(o.rejected, str) else
                                       f"{'event' if len(o.rejected) == 1 else 'events'} "
                                       f"{join_words(i + 1 for i in o.rejected)}"))
    head += events or ["nothing happens to any character"]
    lines = ["Outcome: " + "; ".join(head)] + _units_lines(o)
    mines = getattr(o, "mines", None)               # a round file with Proximity Mines unlocked
    if mines is not None:
        whose = mines[0] + ("'" if mines[0].endswith("s") else "'s")
        lines.append(f"  {whose} Proximity Mine tokens left: {mines[1]}")
    return lines


def outcome_text(trace: Trace) -> str:
    """The outcome of a Mass Effect scenario in plain text: ``Outcome: <verdict>``, then the key numbers (map: each
    question's answer; strategy: the faces, triggers, allocation and the odds before the roll; damage and activation:
    who did what to whom, then every character's Shields, Hit Points, Damage and position). Read from the typed
    ``trace.result`` (:mod:`.results`)."""
    o = trace.result
    if isinstance(o, MapOutcome):
        lines = _map_text(o)
    elif isinstance(o, StrategyOutcome):
        lines = _strategy_text(o)
    else:
        lines = _units_text(o)
    return "\n".join(lines)
