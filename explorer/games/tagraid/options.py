"""TAG Raid ruling options: every place the rulebook leaves a question open, with both readings.

Use :func:`rulings` to get a :class:`~explorer.options.Rulings` with the defaults (or overrides).
"""

from __future__ import annotations

from collections.abc import Mapping

from explorer.options import RulingOption, Rulings

SV_ABOVE_20 = RulingOption(
    key="sv_above_20",
    title="Success Value above 20",
    section="Rolls › Successful Roll; Rolls › Criticals",
    readings={
        "literal": "Only what TAG Raid says: a die succeeds when it is at most the SV and is a Critical only when it "
                   "equals the SV, so with an SV above 20 no die can be a Critical.",
        "excess_to_die": "The parent game's convention (Infinity N4/CodeOne, not in this rulebook): the SV counts as 20, "
                         "the excess is added to every die, and a result of 20 or more is a Critical.",
    },
    default="literal",
    why_default="TAG Raid has no clause for an SV above 20; the literal text is the only rule in this rulebook.",
)

MOD_CAP = RulingOption(
    key="mod_cap",
    title="Cap on the total of MODs",
    section="Rolls › Modifiers (MOD)",
    readings={
        "none": "TAG Raid sets no limit: every MOD is added as it is.",
        "cap_12": "The parent game's limit (Infinity N4): the sum of all MODs is clamped to -12..+12.",
    },
    default="none",
    why_default="TAG Raid says nothing about a cap; adding one would import a rule from another game.",
)

MEGABEAST_CRITICAL = RulingOption(
    key="megabeast_critical",
    title="A Critical at or below the MegaBeast's Threat Level",
    section="MegaBeast › Wounds; Rolls › Criticals",
    readings={
        "must_exceed": "The MegaBeast section is specific: a Wound needs a success that exceeds the Threat Level, "
                       "so a Critical at or below it fails and the MegaBeast prevails.",
        "critical_wins": "The general Face to Face rule: a Critical always wins, so it wounds whatever the Threat Level.",
    },
    default="must_exceed",
    why_default="A specific rule beats a general one; the Threat Level example asks for a result higher than the level.",
)

MEGABEAST_EQUAL = RulingOption(
    key="megabeast_equal",
    title="A success equal to the MegaBeast's Threat Level",
    section="MegaBeast › Threat Level; Rolls › Face to Face Rolls (Breaking Ties)",
    readings={
        "megabeast_prevails": "Only a success higher than the Threat Level wounds; anything else means the MegaBeast "
                              "prevailed and its Behavior's Attack is applied.",
        "tie": "The Threat Level is the MegaBeast's roll, so an equal success is a Face to Face tie: nothing happens "
               "to either side.",
    },
    default="megabeast_prevails",
    why_default="The Threat Level example says a roll that does not exceed the level means the MegaBeast prevailed.",
)

ALL_OPTIONS: tuple[RulingOption, ...] = (SV_ABOVE_20, MOD_CAP, MEGABEAST_CRITICAL, MEGABEAST_EQUAL)


def rulings(chosen: Mapping[str, str] | None = None) -> Rulings:
    """TAG Raid rulings with defaults, overridden by ``chosen`` (``{key: reading}``).

    Raises:
        ScenarioError: unknown key or reading.
    """
    return Rulings(ALL_OPTIONS, chosen)
