"""The plain-text answer printed after a Marvel D.A.G.G.E.R. trace (``explorer resolve dg-…``, the gallery, the
``{explorer}`` directive): the verdict first, then the key numbers.

Rulebook sections summarised (each step of the trace cites its own): Nemesis Phase › 1. Advance Threat, 2. Check
Nemesis Mission, 3. Resolve Event Cards (enemy activation and spawns), Final Showdown, Winning and Losing, Additional
Rules › Nearby and Overrun, Damage and Defeat.

Everything here is read from the trace (``Trace.outcome`` and the facts of its steps, as written by
:func:`.nemesis_scenario.resolve_nemesis`); nothing is recomputed.
"""

from __future__ import annotations

from explorer.text import join_words, plural
from explorer.trace import Trace

__all__ = ["outcome_text", "verdict", "hero_outcome_text"]


def _phases(trace: Trace) -> list[str]:
    rounds: list[str] = []
    for s in trace.steps:
        head = s.section.split(" · ")[0]
        if head.startswith("Round ") and head not in rounds:
            rounds.append(head)
    return rounds


def _events(trace: Trace) -> dict[str, list]:
    """What happened, in order: missions completed, bases overrun, heroes defeated / eliminated, enemy actions,
    spawns, side missions revealed, the Final Showdown."""
    ev: dict[str, list] = {k: [] for k in ("missions", "overrun", "defeated", "eliminated", "actions", "spawns",
                                           "side", "showdown", "damage")}
    for s in trace.steps:
        f = s.facts
        if f.get("result") in ("passed", "failed") and "mission" in f:
            kind = "1st strike" if s.title.startswith("1st strike") else "nemesis mission"
            ev["missions"].append((kind, f["mission"], f["result"]))
        elif isinstance(f.get("overrun"), list) and s.marks:
            ev["overrun"].append(s.marks[0])
        elif " is defeated: threat " in s.title and s.marks:
            ev["defeated"].append(s.marks[0])
        elif "eliminated" in f:
            ev["eliminated"].append(f["eliminated"])
        elif "action" in f and "enemy" in f:
            ev["actions"].append(dict(f, power=s.title.rsplit(" for ", 1)[-1] if f["action"] == "attack" else ""))
        elif "enemy" in f and "space" in f:
            ev["spawns"].append((f["enemy"], f["space"]))
        elif "slot" in f and "mission" in f:
            ev["side"].append(f["mission"])
        elif f.get("showdown") is True:
            ev["showdown"].append(s.section)
        elif "hero" in f and "damage" in f:
            ev["damage"].append(f)
            last = ev["actions"][-1] if ev["actions"] else None
            if last is not None and last["action"] == "attack" and last["target"] == f["hero"] and "after" not in last:
                last["after"] = f"{f['damage']}/{f['health']}"
    return ev


def _numbers(gauges: list[str]) -> dict[str, tuple[int, int]]:
    """``{"threat": (value, limit), "bases": (overrun, bases)}`` read from the gauge texts."""
    out: dict[str, tuple[int, int]] = {}
    for g in gauges:
        if g.startswith("threat ") or g.startswith("bases overrun "):
            a, _, b = g.rsplit(" ", 1)[1].partition("/")
            if a.isdigit() and b.isdigit():
                out["threat" if g.startswith("threat") else "bases"] = (int(a), int(b))
    return out


def _closest(o: dict) -> str:
    """How far the heroes are from each loss condition, nearest first."""
    n = _numbers(o.get("gauges", []))
    parts = []
    if "threat" in n:
        t, lim = n["threat"]
        parts.append((lim - t, f"threat {t}/{lim}: {lim - t} more loses"))
    if "bases" in n:
        b, lim = n["bases"]
        parts.append((lim - b, f"{b}/{lim} bases overrun: {lim - b} more loses"))
    left = o.get("events_left", 0)
    if left:
        parts.append((left + 1, f"{plural(left, 'event card')} left: Nemesis Phase {left + 1} from now finds none "
                                "and loses"))
    else:
        # A scenario file lists only the event cards it draws (a position, not a whole game: Setup builds a deck of
        # 9 standard + 3 nemesis events), so an empty deck after the play-out is the file's, not the game's: it is
        # named last and never presented as the nearest loss (dg-loss-no-event, where step 3 finds no card, says
        # so in its "lost" reasons instead).
        parts.append((float("inf"), "event deck: none of its cards is left in this scenario (a scenario lists only "
                                    "the cards it draws; the game's deck starts with 12), so the next step 3 is not "
                                    "modelled"))
    heroes = o.get("heroes", {})
    alive = [v for v in heroes.values() if not v[4]]        # [space, damage, health, shattered, eliminated]
    if heroes:
        to_go = sum(1 if v[3] else 2 for v in alive)         # a shattered hero's next defeat eliminates it
        parts.append((to_go, f"{len(alive)}/{len(heroes)} heroes in play ({sum(1 for v in alive if v[3])} "
                             f"shattered): {plural(to_go, 'more hero defeat')} {'loses' if to_go == 1 else 'lose'}"))
    return "; ".join(t for _, t in sorted(parts, key=lambda p: p[0]))


def _action_text(f: dict) -> str:
    a = f["action"]
    if a == "attack":
        hurt = f" ({f['after']} damage)" if "after" in f else ""
        return f"{f['enemy']} attacks {f['target']} for {f['power']}{hurt}"
    if a == "overrun":
        return f"{f['enemy']} overruns {f['base']}"
    if a == "overrun_again":
        return f"{f['enemy']} stays on overrun {f['base']}"
    if a == "move":
        return f"{f['enemy']} moves {f['start']} → {f['to']} toward {f['target']}"
    if a == "stun_cleared":
        return f"{f['enemy']} clears its stun"
    return f"{f['enemy']} cannot move (no operational base)"


def verdict(trace: Trace) -> str:
    """The answer in one line: how the game stands, the threat before → after, the missions completed, the bases
    overrun, the heroes defeated, the Final Showdown, and the nearest loss."""
    o = trace.outcome
    ev = _events(trace)
    parts = []
    if o.get("lost"):
        parts.append("The heroes LOSE (" + ", ".join(o["lost"]) + ")")
    elif o.get("won"):
        parts.append("The heroes WIN (the nemesis is at 0 health in the Final Showdown)")
    phases = _phases(trace)
    span = f" over {len(phases)} rounds" if len(phases) > 1 else ""
    peak = max((t for _, t in o.get("threat_after", [])), default=o["threat"])
    high = f", peak {peak}" if peak > max(o["threat"], o["threat_start"]) else ""
    parts.append(f"Threat {o['threat_start']} → {o['threat']}{span}{high}")
    for kind, name, result in ev["missions"]:
        label = name if name.lower().startswith(kind) else f"{kind} {name}"
        parts.append(f"{label} {'passes' if result == 'passed' else 'fails'}")
    if ev["showdown"]:
        parts.append("the Final Showdown begins")
    if ev["overrun"]:
        parts.append(", ".join(ev["overrun"]) + " overrun")
    for h in ev["defeated"]:
        parts.append(f"{h} defeated" + (" and eliminated" if h in ev["eliminated"] else ""))
    if not (ev["missions"] or ev["overrun"] or ev["defeated"] or o.get("lost") or o.get("won")):
        parts.append("no mission completed, no base overrun, no hero defeated")
    if not o.get("lost") and not o.get("won"):
        parts.append("nearest loss: " + _closest(o).split("; ")[0])
    return "; ".join(parts)


def _hero_action(a: dict) -> str:
    if a["do"] == "move" or "p" not in a:
        return f"{a['hero']} {a['result']}"
    goal = {"fight": f"defeats {a['target']}", "defy": f"completes {a['target']}",
            "rest": "recovers all its damage"}[a["do"]]
    odds = f"P({a['hero']} {goal}) = {a['p']['float']:.3f} ({a['p']['exact']})"
    if a.get("successes") is None:
        return odds
    return f"{odds}; rolled {a['successes']}: {a['result']}"


def hero_outcome_text(trace: Trace) -> str:
    """The outcome of a ``hero`` scenario: ``Outcome:`` each action's odds and result, then the threat before → after
    (with the Nemesis Phase when it was played); then the odds' numbers and the board after the actions."""
    o = trace.outcome
    head = [_hero_action(a) for a in o["actions"]]
    if o.get("lost"):
        head.insert(0, "The heroes LOSE (" + ", ".join(o["lost"]) + ")")
    elif o.get("won"):
        head.insert(0, "The heroes WIN (the nemesis is at 0 health in the Final Showdown)")
    if o.get("phase"):
        ev = _events(trace)
        after = o["after_actions"]["threat"]
        phase = f"then the Nemesis Phase: threat {after} → {o['threat']}"
        phase += "".join(f"; {n} {'passes' if r == 'passed' else 'fails'}" for _, n, r in ev["missions"])
        if not ev["missions"] and any(s.facts.get("result") == "open" for s in trace.steps):
            phase += "; " + ", ".join(s.facts["mission"] for s in trace.steps if s.facts.get("result") == "open") \
                + " not completed"
        head.append(phase)
    lines = ["Outcome: " + "; ".join(head)]
    for a in o["actions"]:
        if "p" in a:
            lines.append(f"  {a['do'].capitalize()} by {a['hero']} on {a['target']}: {plural(a['dice'], 'die')}, "
                         f"{plural(a['need'], 'success', 'successes')} needed, P = {a['p']['float']:.3f}"
                         + ("" if a.get("empowered") else f" ({a['p_with_empowered']['float']:.3f} with an "
                                                          "empowered token)"))
    aa = o["after_actions"]
    lines.append("  After the actions: threat " + str(aa["threat"]) + "; enemies "
                 + (", ".join(f"{e} {sp} {d} damage" if d else f"{e} {sp}" for e, (sp, d) in aa["enemies"].items())
                    or "none") + "; heroes " + ", ".join(f"{h} {sp or 'off the board'}"
                                                       for h, (sp, _d) in aa["heroes"].items()))
    lines.append(f"  Die faces (successes): {join_words(o['die'])}")
    return "\n".join(lines)


def outcome_text(trace: Trace) -> str:
    """The outcome of a D.A.G.G.E.R. scenario in plain text, the answer first. A ``nemesis`` scenario:
    ``Outcome: <verdict>``, then the threat at the end of each step, the missions, the enemies' activations and
    spawns, the heroes, how close each loss condition is, and the player choices made. A ``hero`` scenario:
    :func:`hero_outcome_text`."""
    o = trace.outcome
    if "actions" in o:
        return hero_outcome_text(trace)
    ev = _events(trace)
    lines = ["Outcome: " + verdict(trace)]
    after = o.get("threat_after", [])
    if after:
        one = len(_phases(trace)) == 1
        lines.append("  Threat at the end of each step: " + "; ".join(
            f"{sec.split(' · ', 1)[-1] if one else sec} {t}" for sec, t in after))
    done = [f"{n} {r}" for _, n, r in ev["missions"]]
    left = o.get("nemesis_missions_left", [])
    side = [m for m in o.get("side_missions", []) if m]
    lines.append("  Missions: " + (", ".join(done) + "; " if done else "none completed; ")
                 + (f"nemesis deck {', '.join(left)}" if left else "no nemesis mission left")
                 + (f"; side missions in play {', '.join(side)}" if side else "; no side mission in play")
                 + (f" (revealed now: {', '.join(ev['side'])})" if ev["side"] else ""))
    if ev["actions"]:
        lines.append(f"  Enemy activations ({len(ev['actions'])}): " + "; ".join(_action_text(f)
                                                                              for f in ev["actions"]))
    else:
        lines.append("  Enemy activations: none")
    if ev["spawns"]:
        lines.append("  Spawned: " + ", ".join(f"{e} on {sp}" for e, sp in ev["spawns"]))
    if ev["damage"]:
        lines.append("  Damage to heroes: " + ", ".join(f"{f['hero']} {f['damage']}/{f['health']}"
                                                        for f in ev["damage"]))
    heroes = o.get("heroes", {})
    if heroes:
        def hero(name, v):
            space, dmg, hp, shattered, out = v
            if out:
                return f"{name} eliminated"
            where = space or "off the board"
            return f"{name} {where} {dmg}/{hp}" + (" shattered" if shattered else "")
        lines.append("  Heroes: " + ", ".join(hero(n, v) for n, v in heroes.items()))
    lines.append("  Overrun bases: " + (", ".join(o.get("overrun", [])) or "none")
                 + f"; team-up {o.get('team_up', 0)}; round {o.get('round')}"
                 + ("; Final Showdown" if o.get("showdown") else ""))
    lines.append("  Loss conditions, nearest first: " + _closest(o))
    ch = o.get("choices", [])
    if ch:
        by_default = sum(1 for c in ch if c.get("default_used"))
        lines.append(f"  Player choices: {len(ch)} ({by_default} by their default; see --json)")
    return "\n".join(lines)
