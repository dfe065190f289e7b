"""Galaxy Defenders: Operation Strikeback behind the game registry (:mod:`explorer.games`).

A scenario file names its ``kind``; each kind is resolved by one rules module:

==============  ==================  ===========================================================================
kind            module              what it answers (sections)
==============  ==================  ===========================================================================
``combat``      :mod:`.combat`      attacks turned into wounds: Hit roll, Energy Shields, Lethal, Defend roll,
                                    High Impact, Critical tokens, Mark, Poison, Area/Explosion, Burrowing (8, 9.2,
                                    11.7, 11.12, Storybook 5.5.1); exact odds in :mod:`.odds`
``conditions``  :mod:`.conditions`  Poison, Mark and temporary Criticals through Refresh phases (6.1, 9.3.2, 8.3)
==============  ==================  ===========================================================================
"""

from __future__ import annotations

from collections.abc import Mapping

from explorer.games import Game, Kinds
from explorer.trace import Trace

KINDS: dict[str, tuple[str, str]] = {
    "combat": ("explorer.games.galaxydefenders.combat", "combat"),
    "conditions": ("explorer.games.galaxydefenders.conditions", "conditions"),
}
"""``{scenario kind: (rules module, name)}``; the module defines ``parse_<name>`` and ``resolve_<name>``."""

_KINDS = Kinds("galaxydefenders", "Galaxy Defenders", KINDS)




def _resolve(scenario, rulings: Mapping[str, str] | None = None, seed: int | None = None,
             reroll: bool = False) -> Trace:
    kind, sc = scenario
    if reroll and kind == "combat":
        sc = sc.model_copy(update={"attacks": [a.model_copy(update={"rolled": None}) for a in sc.attacks]})
    return _KINDS.resolve((kind, sc), rulings, seed)


def _options():
    from .options import ALL_OPTIONS

    return ALL_OPTIONS


def outcome_text(trace: Trace) -> str:
    """The outcome of a Galaxy Defenders scenario in plain text."""
    o = trace.outcome
    lines = ["Outcome:"]
    for i, a in enumerate(o.get("attacks", []), 1):
        if a["hits"] is None:
            lines.append(f"  Attack {i} ({a['attacker']}, {a['weapon']}): no target could be attacked")
            continue
        lines.append(f"  Attack {i} ({a['attacker']}, {a['weapon']}): {a['hits']} hit(s)")
        for t in a["targets"]:
            crit = f", Critical {t['critical']}" if t["critical"] else ""
            lines.append(f"    {t['name']}: {t['absorbed']} absorbed, {t['blue_dice']} Blue dice, "
                         f"{t['wounds']} wound(s){crit} -> {t['status']}")
    if "final" in o:
        f = o["final"]
        lines.append(f"  Wounds suffered: {o['wounds_suffered']}; token left: Poison {f['poison']}, Mark {f['mark']}; "
                     f"{f['status']}")
    return "\n".join(lines)


def _cli():
    from .cli import cli_app

    return cli_app()


GAME = Game(
    id="galaxydefenders",
    title="Galaxy Defenders: Operation Strikeback",
    rulebook="galaxy-defenders-operation-strikeback.txt",
    package="explorer.games.galaxydefenders",
    default_scenario="gd-book-mark",
    parse=_KINDS.parse,
    resolve=_resolve,
    ruling_options=_options,
    pages=(),
    cli=_cli,
    outcome_text=outcome_text,
    scenario_order=("gd-01", "gd-01-variant", "gd-03", "gd-04", "gd-05", "gd-05-variant"),
)
"""The Galaxy Defenders entry of the registry."""
