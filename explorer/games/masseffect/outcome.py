"""The plain-text answer printed after a Mass Effect trace (``explorer resolve me-…``, the gallery, the ``{explorer}``
directive): the verdict first, then the key numbers, for each scenario kind.

Rulebook sections summarised (each step of the trace cites its own): Interacting with the Mission Map (adjacency,
distances, Line of Fire: ``map``), Playing a Mission › Step A (the Strategy Roll and its odds: ``strategy``),
Attacking › Squadmate Damage / Damaging Enemies, Elites, End Phase (``damage``), Step C: Hazard Card (enemy
activation: ``activation``).

Everything is read from the trace (``Trace.outcome`` and its steps' titles and facts, as the kinds' ``resolve_*``
functions write them); nothing is recomputed. The kind is recognised from the outcome's keys (:func:`kind_of`).
"""

from __future__ import annotations

import re

from explorer.text import join_words, plural
from explorer.trace import Trace

__all__ = ["outcome_text", "kind_of"]

FACE_WORDS = {"move_2": "Move 2", "move_3": "Move 3", "standard": "Standard", "enhanced": "Enhanced",
              "move_2_or_standard": "Move 2 / Standard", "core": "Core icon"}


def kind_of(outcome: dict) -> str:
    """The scenario kind that wrote ``outcome``: ``"map"``, ``"strategy"``, ``"damage"`` or ``"activation"``."""
    if "answers" in outcome:
        return "map"
    if "final_counts" in outcome:
        return "strategy"
    if "on_point" in outcome and "removed" in outcome:
        return "damage"
    return "activation"


def _p(x: dict | None) -> str:
    if not x:
        return "?"
    return f"{x['float']:.3f}" + (f" ({x['exact']})" if "/" in str(x.get("exact", "")) else "")


# ------------------------------------------------------------------------------------------------------ map


def _short_answer(a: dict) -> str:
    ask = a["ask"]
    if ask == "adjacent":
        return "adjacent" if a["adjacent"] else "not adjacent"
    if ask == "step":
        return "may move" if a["allowed"] else "may not move"
    if ask == "distance":
        d = a.get("distance")
        return "no route" if d is None else f"{d} hex{'es' if d != 1 else ''}"
    if ask in ("within", "at_least"):
        return ("yes" if a[ask] else "no") + f" (distance {a.get('distance')})"
    if ask in ("lof", "turret_lof"):
        return ("in Line of Fire" if a["in_lof"] else "not in Line of Fire") + (
            ", but the target is Shrouded" if a.get("target_shrouded") else "")
    if ask == "lof_all":
        return f"{len(a.get('targets', []))} hexes in Line of Fire"
    return "answered"


def _map_text(trace: Trace) -> list[str]:
    o = trace.outcome
    answers = o["answers"]
    head = "; ".join(f"Q{a['question']} {_short_answer(a)}" for a in answers) or "no question asked"
    lines = [f"Outcome: {head}"]
    titles = [s.title for s in trace.steps if re.match(r"Q\d+\b", s.title)]
    lines += [f"  {t}" for t in titles]
    lines.append(f"  Map: {o['map']}; {plural(len(answers), 'question')}")
    return lines


# ------------------------------------------------------------------------------------------------- strategy


def _strategy_text(trace: Trace) -> list[str]:
    o = trace.outcome
    counts = [f"{n} {FACE_WORDS.get(f, f)}" for f, n in o["final_counts"].items() if n]
    fill = o.get("can_fill_move_standard_enhanced")
    verdict = (f"{o['squadmate']} can fill Move + Standard + Enhanced ({', '.join(fill)})" if fill else
               f"{o['squadmate']} cannot fill Move + Standard + Enhanced")
    lines = [f"Outcome: {verdict}; the roll ends with " + ", ".join(counts)]
    lines.append(f"  {o['core_ability']} triggered {plural(o['triggers'], 'time')} over {plural(o['roll_rounds'], 'roll round')}"
                 + (f"; icons per roll round {join_words(o['icons_per_round'], 'then')}" if o.get("icons_per_round") else "")
                 + (f"; Renegade tokens used {o['renegade_used']}" if o.get("renegade_used") else ""))
    lines.append(f"  Pool {plural(o['pool_size'], 'die')}" + (f", {o['locked']} Locked" if o.get("locked") else "")
                 + ("; On Point (no Lock)" if o.get("on_point") else ""))
    if "taken" in o:
        lines.append("  Allocated: " + (", ".join(f"{d} on {sp}" for d, sp in o["taken"].items()) or "none")
                     + f"; {len(o.get('pool_left', {}))} dice left in the Pool")
    odds = o.get("odds")
    if odds:
        locked = f", {FACE_WORDS.get(odds['locked'], odds['locked'])} Locked" if odds.get("locked") else ""
        lines.append(f"  Odds before the roll ({plural(odds['pool'], 'Strategy die', 'Strategy dice')}{locked}): P(fill Move + Standard + "
                     f"Enhanced) {_p(odds.get('p_fill_move_standard_enhanced'))}; P(at least one Enhanced) "
                     f"{_p(odds.get('p_at_least_one_enhanced'))}; expected triggers "
                     f"{odds['triggers']['expected']['float']:.3f}")
    return lines


# --------------------------------------------------------------------------------------- damage and activation

_LOST = re.compile(r"-(\d+) Shield Points?, -(\d+) Hit Points?")


def _damage_phrase(step) -> str:
    """``"2 Damage to Shields"`` / ``"1 to Shields, 2 to Hit Points"`` from a Squadmate Damage step."""
    m = _LOST.search(step.title)
    f = step.facts
    if "already Downed" in step.title:
        return "no effect (already Downed)"
    if not m:
        return f"{f.get('damage')} Damage"
    sh, hp = int(m.group(1)), int(m.group(2))
    if hp == 0:
        return f"{sh} Damage to Shields"
    if sh == 0:
        return f"{hp} Damage to Hit Points"
    return f"{sh} Damage to Shields, {hp} to Hit Points"


def _and(names, word: str = "and") -> str:
    """``"Wrex and Tali"``, ``"Wrex, Tali and Garrus"``."""
    names = list(names)
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {word} {names[-1]}"


def _events(trace: Trace) -> list[str]:
    """One phrase per thing that happened to a character, in order."""
    out: list[str] = []
    attack: str | None = None
    for s in trace.steps:
        f = s.facts
        if f.get("rejected") is True:
            out.append(s.title)
        elif len(f.get("tied", ())) > 1 and "chooser" in f:               # a tie for the target: a player's choice
            # Step C: Hazard Card › Attacking: equally low Hit Points, the current Squadmate's player may choose
            tied = f["tied"]
            out.append(f"tie for the target: {_and(tied)} have {f['tie_value']} {f['measure']} each, so "
                       f"{f['chooser']}'s player chooses (Step C: Hazard Card › Attacking); this trace follows "
                       f"{f['target']} ({'your choice' if f.get('by_choice') else 'default: seating order'}; "
                       f"{_and([n for n in tied if n != f['target']], 'or')} is as valid)")
        elif "attack_value" in f:                                         # an enemy Attack
            attack = f"{f['enemy']} Attacks {f['target']}"
        elif "Opportunity Attack for" in s.title and "enemy" in f and len(s.marks) > 1:
            attack = f"{f['enemy']}'s Opportunity Attack on {s.marks[1]}"
        elif "squadmate" in f and "path" in f:                            # the Squadmate's Move (Step B)
            out.append(f"{f['squadmate']} moves {' → '.join(f['path'])}" + (" (forced)" if f.get("forced") else ""))
        elif "squadmate" in f and "damage" in f and "shield_points" in f:  # Squadmate Damage
            who = attack if attack and f["squadmate"] in attack else None
            src = s.title.split(" from ", 1)[1].split(":", 1)[0] if " from " in s.title else ""
            phrase = _damage_phrase(s)
            if who:
                out.append(f"{who}: {phrase}")
            elif src:
                out.append(f"{f['squadmate']} suffers {phrase} from {src}")
            else:
                out.append(f"{f['squadmate']} suffers {phrase}")
            attack = None
        elif f.get("downed") is True and "squadmate" in f:
            out.append(s.title)
        elif "hex" in f and "path" in f and "enemy" in f:                 # an Advance
            why = s.title.split("): ", 1)[1].replace(" (the current Squadmate)", "") if "): " in s.title else ""
            out.append(f"{f['enemy']} Advances {f['path'][0]} → {f['hex']}" + (f" ({why})" if why else ""))
        elif f.get("activated") is False:
            out.append(s.title)
        elif "spawned" in f:
            out.append(f"{f['spawned']} spawns at {f['hex']}")
        elif "enemy_type" in f:
            out.append(s.title)
        elif "enemy" in f and "level" in f:                              # an Elite's Resilience Tracker
            name = s.title.split(":")[0]
            if f.get("defeated"):
                out.append(f"{name}: defeated")
            elif "discarded" in f:                                        # the level was exhausted
                out.append(f"{name}: level {f['level']} exhausted, {f['discarded']} excess disregarded")
            else:                                                         # Damage below the level's Shield Value
                out.append(f"{name}: {f.get('damage')} of {f.get('shield_value')} Damage on Resilience level "
                           f"{f['level']}")
        elif "enemy" in f and "defeated" in f:
            out.append(s.title.split(":")[0] + (": defeated" if f["defeated"] else ""))
        elif "on_point" in f and "skipped" in f:
            out.append(s.title)
    return out


def _units_lines(o: dict) -> list[str]:
    lines = []
    sq = o.get("squadmates", {})
    if sq:
        def one(n, v):
            where = f" at {v['hex']}" if "hex" in v else ""
            down = " Downed" if v.get("downed") else ""
            return f"{n}{where} Shields {v['shield_points']}, Hit Points {v['hit_points']}{down}"
        lines.append("  Squadmates: " + "; ".join(one(n, v) for n, v in sq.items()))
    en = o.get("enemies", {})
    if en:
        def foe(n, v):
            bits = [f"at {v['hex']}"] if "hex" in v else []
            if v.get("damage"):
                bits.append(f"{v['damage']} Damage")
            if v.get("exhausted"):
                bits.append(f"{plural(v['exhausted'], 'Resilience level')} exhausted")
            if "to_defeat" in v:
                bits.append(f"{v['to_defeat']} more Damage defeats it")
            if v.get("stunned"):
                bits.append("Stunned")
            if v.get("biotic_effect"):
                bits.append("Biotic Effect")
            return n + (" " + ", ".join(bits) if bits else "")
        lines.append("  Enemies: " + "; ".join(foe(n, v) for n, v in en.items()))
    if o.get("returned_to_bag"):
        lines.append("  Returned to the Enemy Bag: " + ", ".join(o["returned_to_bag"]))
    if o.get("removed"):
        lines.append("  Removed: " + ", ".join(o["removed"]))
    if o.get("on_point"):
        lines.append(f"  On Point: {o['on_point']}")
    return lines


def _units_text(trace: Trace) -> list[str]:
    o = trace.outcome
    events = _events(trace)
    head = []
    if o.get("mission_failed"):
        head.append("The Mission ends in failure (Shepard is Downed)")
    if o.get("rejected"):
        head.append("not allowed: " + (o["rejected"] if isinstance(o["rejected"], str) else
                                       f"{'event' if len(o['rejected']) == 1 else 'events'} "
                                       f"{join_words(i + 1 for i in o['rejected'])}"))
    head += events or ["nothing happens to any character"]
    return ["Outcome: " + "; ".join(head)] + _units_lines(o)


def outcome_text(trace: Trace) -> str:
    """The outcome of a Mass Effect scenario in plain text: ``Outcome: <verdict>``, then the key numbers (map: each
    question's answer; strategy: the faces, triggers, allocation and the odds before the roll; damage and activation:
    who did what to whom, then every character's Shields, Hit Points, Damage and position)."""
    kind = kind_of(trace.outcome)
    if kind == "map":
        lines = _map_text(trace)
    elif kind == "strategy":
        lines = _strategy_text(trace)
    else:
        lines = _units_text(trace)
    return "\n".join(lines)
