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


# --- Options added by the resolution engine (resolve.py) ----------------------------------------------------------

MEGABEAST_NO_ARO = RulingOption(
    key="megabeast_no_aro",
    title="Attacking a MegaBeast that declared no ARO",
    section="MegaBeast › Wounds; MegaBeast › Threat Level; MegaBeast › Skills, Attacks, and AROs",
    readings={
        "threat_level": "The Threat Level of the side attacked from still sets how hard the MegaBeast is to injure: "
                        "only successes above it wound. The MegaBeast declared nothing, so it cannot prevail and its "
                        "Behavior is not applied.",
        "normal_roll": "With no ARO there is no Face to Face Roll: the attack is a Normal Roll and every success "
                       "wounds (one Wound per Saving Roll produced).",
    },
    default="threat_level",
    why_default="The Threat Level section says it sets how hard the MegaBeast is to injure, and MegaBeasts never make "
                "Saving Rolls; the Wounds section only describes the Face to Face case, so nothing lowers the bar.",
)

EVADE_VS_SPLIT_ATTACK = RulingOption(
    key="evade_vs_split_attack",
    title="Evading an Attack whose Burst is split over several targets",
    section="Rolls › Face to Face Rolls (Face to Face: Evade); Common Skills › Evade",
    readings={
        "own_dice": "The Evade Roll is opposed only by the dice aimed at the evading Miner (each target is its own "
                    "Face to Face Roll, as in the two Face to Face Rolls example).",
        "all_dice": "The Evade Roll opposes the whole Attack: every attack die (whatever its target) can cancel the "
                    "Evade success, but only the dice aimed at the evading Miner can hit it.",
    },
    default="own_dice",
    why_default="The rulebook resolves a split Burst as one Face to Face Roll per target and says Evade only affects "
                "the attack against the evading Miner.",
)

TESEUM_SEVERAL_ATTACKERS = RulingOption(
    key="teseum_several_attackers",
    title="Teseum when several players wound the same TAG in one Order beyond its Wounds",
    section="Neomaterials: Teseum and T-Bezoar Units; Death; Game Sequence › Timeline",
    readings={
        "timeline": "The Wounds the TAG really had are credited in Timeline order (the first Reactive player first, "
                    "the MegaBeast, which gains nothing and has no place in the Timeline, last); points below 0 give "
                    "nothing, so the total never exceeds the Wounds it had.",
        "each_attacker": "Each player gains Teseum for the points their own attack removed, each capped at the Wounds "
                         "the TAG had (the MinerBot note: each of them obtains Teseum).",
    },
    default="timeline",
    why_default="Points below 0 give no Teseum, and the Timeline is the rulebook's tie-breaker for who resolves an "
                "effect first.",
)

EVADE_MOVEMENT = RulingOption(
    key="evade_movement",
    title="Evade movement after an Evade Roll that faced several attacks",
    section="Common Skills › Evade (Effects)",
    readings={
        "wins_all": "The single Evade Roll must win (or keep its success in) every Face to Face Roll it made for the "
                    "Miner to move one Segment.",
        "wins_any": "Winning any one of those Face to Face Rolls is a successful Evade Roll and allows the move.",
    },
    default="wins_all",
    why_default="The Evade example moves the Miner after it wins the Face to Face Rolls (all of them); an Evade "
                "success cancelled by one attacker was not a successful Evade against that attack.",
)

ENGINE_OPTIONS: tuple[RulingOption, ...] = (MEGABEAST_NO_ARO, EVADE_VS_SPLIT_ATTACK, TESEUM_SEVERAL_ATTACKERS,
                                            EVADE_MOVEMENT)
ALL_OPTIONS = ALL_OPTIONS + ENGINE_OPTIONS
