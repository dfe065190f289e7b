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

LOF_GRAZING = RulingOption(
    key="lof_grazing",
    title="A Line of Fire that only touches scenery, a hexagon without tile or a base",
    section="Line of Fire and Distances › Line of Fire",
    readings={
        "touching_does_not_block": "Only a line that enters an obstacle is obstructed: a line through a scenery "
                                   "corner, sliding along a wall, tangent to another base, squeezed through the "
                                   "single point where two obstacles meet, or grazing the top edge of a piece with "
                                   "a height (level with its top there, above it inside) still gives LoF.",
        "touching_blocks": "Obstacles are closed: a line that touches a corner, an edge (a top edge included: a line "
                           "level with a piece's top where it crosses the piece) or a base is obstructed, and so is "
                           "a line through the point where two obstacles meet.",
    },
    default="touching_does_not_block",
    why_default="The rule asks for a line 'without being obstructed'; a line that passes without entering anything "
                "is not obstructed, and the rule joins any points of the two volumes with no margin.",
)

SCENERY_HEIGHT = RulingOption(
    key="scenery_height",
    title="Low scenery and tall Silhouettes on a flat board",
    section="Line of Fire and Distances › Line of Fire; Miner Card › Attributes (Silhouette)",
    readings={
        "all_blocks": "Every scenery piece blocks LoF whatever its height (the flat reading of the LoF rule).",
        "lower_than_both_does_not_block": "A scenery piece lower than both Silhouettes' heights does not block (the "
                                          "line between the tops of the two volumes clears it); others block.",
    },
    default="all_blocks",
    why_default="The LoF rule lists scenery as an obstacle without a height test; heights only appear as 'in case of "
                "doubt' references on the rulers.",
)

TILELESS_OCCUPIED_HEXAGON = RulingOption(
    key="tileless_occupied_hexagon",
    title="The hexagon without tile that a MegaBeast stands in",
    section="Line of Fire and Distances › Line of Fire; MegaBeast › MegaBeast Line of Fire",
    readings={
        "exempt": "A hexagon without tile does not block LoF to or from a Model standing in it (Miners can shoot a "
                  "MegaBeast in its hole); other hexagons without tiles still block Miners.",
        "blocks": "Every hexagon without tile blocks a Miner's LoF, including the MegaBeast's own; Miners then see a "
                  "MegaBeast only by reciprocity (if that applies to MegaBeasts).",
    },
    default="exempt",
    why_default="The rulebook's examples have Miners shoot at a MegaBeast standing in a hexagon without tile.",
)

MEGABEAST_RECIPROCITY = RulingOption(
    key="megabeast_reciprocity",
    title="Does the LoF reciprocity exception apply when the MegaBeast sees a Miner?",
    section="Line of Fire and Distances › Line of Fire (exceptions); MegaBeast › MegaBeast Line of Fire",
    readings={
        "miners_only": "The exception speaks of Miners; the MegaBeast's LoF has its own section, so a Miner needs its "
                       "own clear line to the MegaBeast.",
        "includes_megabeast": "If the MegaBeast can draw LoF to a Miner (even through hexagons without tiles), the "
                              "Miner can draw LoF to it when the MegaBeast is in the Miner's front arc.",
    },
    default="miners_only",
    why_default="The exception's wording names Miners and their targets; the MegaBeast section lists its own LoF "
                "conditions without it.",
)

RANGE_MEASUREMENT = RulingOption(
    key="range_measurement",
    title="Which line the Range Ruler follows",
    section="Distances and Measurements › Range Ruler",
    readings={
        "along_lof": "The ruler follows a clear LoF: the Range is the shortest clear LoF segment from the attacker's "
                     "base edge to the target's Silhouette.",
        "edge_to_edge": "The ruler joins the closest points of the two bases, even when that straight line is "
                        "blocked and LoF exists along another line.",
    },
    default="along_lof",
    why_default="The rule asks the ruler to follow the LoF; both readings agree whenever the direct line is clear.",
)

LOF_ARC_PART = RulingOption(
    key="lof_arc_part",
    title="Must the clear line reach the part of the target inside the arc?",
    section="Line of Fire and Distances › Line of Fire",
    readings={
        "any_part": "The two conditions are separate: the target is at least partly inside the arc, and some clear "
                    "line joins any point of the shooter's Silhouette to any point of the target's.",
        "seen_part_in_arc": "The clear line must end on the part of the target's Silhouette that is inside the arc "
                            "(the parent game's habit).",
    },
    default="any_part",
    why_default="The rule lists the arc and the clear line as two separate conditions and lets the line join any "
                "point of the two volumes.",
)

LOF_SHOOTER_ARC = RulingOption(
    key="lof_shooter_arc",
    title="Where on the shooter may a clear line start?",
    section="Line of Fire and Distances › Line of Fire",
    readings={
        "any_point": "From any point of the Miner's Silhouette: the arc is a condition on the target only (at least "
                     "partly inside the front arc); the clear line may leave the rear half of the shooter's base.",
        "front_half": "From the part of the Miner's Silhouette inside its arc: a line leaving the rear half of its "
                      "base does not count (the parent game's FAQ: the line is drawn from the front 180°).",
    },
    default="any_point",
    why_default="The rule names two separate conditions: the target totally or partially within the front arc, and "
                "a line from 'any point' of the Miner's Silhouette to any point of the target's. It puts no arc "
                "limit on where the line starts; the front-half limit is the parent game's FAQ, not this rulebook. "
                "Handed ruling TR-35 recommends this reading. The default restricts nothing, so traces list this "
                "option only when front_half is chosen.",
)

MEGABEAST_CORNER_SIDE = RulingOption(
    key="megabeast_corner_side",
    title="A Miner exactly in line with a corner of the MegaBeast's hexagon",
    section="MegaBeast › Threat Level",
    readings={
        "higher": "The two sides meeting at that corner both face the Miner; the higher Threat Level applies.",
        "lower": "The two sides meeting at that corner both face the Miner; the lower Threat Level applies.",
    },
    default="higher",
    why_default="The rule gives no tie-break; the MegaBeast's Threat Level is its roll, and the cautious reading "
                "assumes the more dangerous side.",
)

MEGABEAST_FACING_TIE = RulingOption(
    key="megabeast_facing_tie",
    title="MegaBeast facing: several facings have the Active Miner and as many TAGs",
    section="MegaBeast › Deployment and Movement Type (Movement); MegaBeast › Skills, Attacks, and AROs",
    readings={
        "face_active": "Among the facings with the Active Miner and the most TAGs in its Angle of Vision, the one "
                       "pointing most directly at the Active Miner (then the least turn from its current facing).",
        "least_turn": "Among those facings, the one closest to its current facing (the least turn), then the lowest "
                      "angle.",
    },
    default="face_active",
    why_default="The rulebook asks for the Active Miner and the most TAGs in the Angle of Vision and breaks no tie; "
                "its examples have the MegaBeast 'redirect itself towards' the Active TAG or its attacker, and "
                "Deployment has it 'directed towards' a TAG, so pointing at the Active Miner is the closest reading.",
)

# --- Options consulted by the resolution engine (resolve.py) -------------------------------------------------------

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

TESEUM_PER_WOUND = RulingOption(
    key="teseum_per_wound",
    title="Teseum for Wounds that do not kill the TAG",
    section="Neomaterials: Teseum and T-Bezoar Units; Death",
    readings={
        "every_point": "Every Wounds point taken from an enemy TAG gives its attacker's player one Teseum Unit, "
                       "whether or not the TAG dies in that Order (the Neomaterials list: one Unit for each point "
                       "that you take away).",
        "on_death": "Teseum is paid only when the TAG dies: the first step of Death gives each player who removed "
                    "Wounds in that Order one Unit per point; Wounds that leave the TAG alive give nothing.",
    },
    default="every_point",
    why_default="The Neomaterials section lists the ways Units are obtained during a match and puts no condition of "
                "death on the first one; the MinerBot note under Death has players collect their Teseum first and "
                "only then apply the steps of Death, so collecting is not itself a step of Death. Handed ruling "
                "TR-07 (1 Wound lost, the TAG alive: the attacker gains 1 Teseum) takes this reading. The Death "
                "section's first step, read alone, ties the payment to a kill: that is the other reading.",
)

EVADE_MOVEMENT = RulingOption(
    key="evade_movement",
    title="Evade movement after an Evade Roll that faced several attacks",
    section="Common Skills › Evade (Effects)",
    readings={
        "wins_any": "The single Evade Roll is a successful Evade Roll when it keeps its success in any one of the Face "
                    "to Face Rolls it made: the Miner may move one Segment (the attacks it lost still force their "
                    "Saving Rolls).",
        "wins_all": "The single Evade Roll must win (or keep its success in) every Face to Face Roll it made for the "
                    "Miner to move one Segment.",
    },
    default="wins_any",
    why_default="The Effects give the move to 'a successful Evade Roll', and Evade makes one Roll that opposes each "
                "attack individually: a roll that succeeded and beat an attack is a successful Evade Roll, whatever "
                "another attack did. The rulebook's example (the Miner wins both Face to Face Rolls, then moves) fits "
                "both readings. Handed ruling TR-16 recommends this reading.",
)

CC_TARGET_OUT_OF_CONTACT = RulingOption(
    key="cc_target_out_of_contact",
    title="A Close Combat Attack split over several targets, one of them out of Silhouette Contact",
    section="Common Skills › Close Combat Attack (Requirements); Activating a Miner › Order Expenditure Sequence "
            "(step 5)",
    readings={
        "whole_skill_idle": "The Skill as declared fails its Requirements, so the whole Close Combat Attack counts as "
                            "Idle: no share of the Burst is rolled.",
        "share_fails": "Only the shares aimed at targets out of contact fail (their dice are not rolled); the shares "
                       "at targets in contact are resolved.",
    },
    default="whole_skill_idle",
    why_default="Step 5 checks the declared Skill's Requirements and turns a Skill that fails them into Idle; the "
                "rulebook never splits one Skill into a valid and an invalid part.",
)

SPLIT_BURST_WITHOUT_LOF = RulingOption(
    key="split_burst_without_lof",
    title="A Ranged Attack split over several targets, one of them out of the shooter's Line of Fire",
    section="Activating a Miner › Order Expenditure Sequence (step 5); Common Skills › Ranged Attack (Requirements); "
            "Common Skills › Idle",
    readings={
        "whole_skill_idle": "The Skill as declared fails its Requirements (LoF to the target is mandatory), so the "
                            "whole Ranged Attack counts as Idle: no share of the Burst is rolled.",
        "share_lost": "Only the shares aimed at targets out of LoF are lost (their dice are not rolled); the shares at "
                      "targets in LoF are resolved.",
    },
    default="whole_skill_idle",
    why_default="Step 5 checks the Requirements of the declared Skill and says a Skill that fails them counts as "
                "Idle, and Idle treats a Skill the rules do not allow as a whole; nothing there splits one Skill into "
                "a valid and an invalid part. The text leaves it open because the Requirement is worded per target "
                "and Face to Face: Evade treats the targets of one attack separately. Same reading as "
                "cc_target_out_of_contact.",
)

RANGED_ATTACK_ACTIVATION_CONTACT = RulingOption(
    key="ranged_attack_activation_contact",
    title="Silhouette Contact that forbids a Ranged Attack: when in the Order Activation step",
    section="Common Skills › Ranged Attack (Requirements); Activating a Miner › Order Expenditure Sequence (step 1)",
    readings={
        "activation_step": "The whole Activation step counts, its first Skill (Move, step 1.2) included: a Miner in "
                           "Silhouette Contact with an enemy Miner when the Order is activated or when that Move "
                           "ends cannot make a Ranged Attack (Order or ARO).",
        "activation_moment": "Only the moment the Order is activated counts (before the Move): contact made by the "
                             "Active Miner's Move does not forbid a Ranged Attack.",
    },
    default="activation_step",
    why_default="The Requirement names the Order Activation step, and the Order Expenditure Sequence puts the "
                "declaration of Move and the placing of the Miner at its end point inside step 1, Activation.",
)

PARTIAL_COVER_GLYPH = RulingOption(
    key="partial_cover_glyph",
    title="The glyph in the Partial Cover bullet: which Attacks ignore Partial Cover",
    section="Damage › Partial Cover; Orders and AROs (ARO without LoF); Common Skills › Ranged Attack (MODs)",
    readings={
        "lof_symbol": "The glyph is the LoF symbol of the Tool card: an Attack whose card lacks it (it needs no LoF) "
                      "gives its targets no Partial Cover, so neither the -3 to the roll nor the -3 to the Attack "
                      "Damage; an Attack with the LoF symbol meets Partial Cover as usual.",
        "every_ranged_attack": "The glyph is the 'ARO without LoF' mark of the ARO section, which no Attack card "
                               "carries, so the bullet removes Partial Cover from no Ranged Attack: every Ranged "
                               "Attack meets Partial Cover (-3 to the roll, -3 to the Attack Damage), with or "
                               "without the LoF symbol.",
    },
    default="lof_symbol",
    why_default="The draft prints the same glyph in the Partial Cover bullet and beside 'ARO without LoF' in the ARO "
                "section. Read as the ARO mark, the bullet would strip Partial Cover from every ordinary Attack, "
                "against the Ranged Attack MOD for cover and the Two Face to Face Rolls example (-3 for the "
                "Rockeater's Cover); read as the LoF symbol it says what Partial Cover is for: scenery that hides "
                "part of the Silhouette cannot matter to an Attack that needs no LoF. Handed ruling TR-15 takes "
                "this reading.",
)

STATE_ON_DEATH = RulingOption(
    key="state_on_death",
    title="A State caused by the attack that kills the Miner",
    section="States (Important); Death",
    readings={
        "cleared": "Death removes every State Token from the Miner's card and the Miner Respawns: the State it "
                   "suffered does not follow it.",
        "applies_after_respawn": "States take effect at the end of the Order, after Death and Respawn: the "
                                 "respawned Miner enters the State.",
    },
    default="cleared",
    why_default="The Death steps clear the Miner's State Tokens; the end-of-Order timing says when a State starts to "
                "affect the Miner that suffered the Attack, and that Miner has been removed from the table.",
)

MEGABEAST_STATES = RulingOption(
    key="megabeast_states",
    title="A Weapon that causes a State hits the MegaBeast",
    section="States; MegaBeast › Wounds",
    readings={
        "not_affected": "States affect Miners: the MegaBeast does not enter them.",
        "affected": "The MegaBeast enters the State like any target of the Attack.",
    },
    default="not_affected",
    why_default="The States section and the Slowed State speak of Miners (Slowed changes the Move and Evade Skills a "
                "Miner declares); the MegaBeast makes no Saving Rolls and moves by its Behavior.",
)

TOOL_CONTAINER_DRAWS = RulingOption(
    key="tool_container_draws",
    title="One Tool Card from each Tool Container per Game Round: per Miner or per Container",
    section="Tool Containers and Loot",
    readings={
        "per_miner": "Each Miner may draw one Tool Card from each Tool Container per Game Round: a Container another "
                     "Miner drew from this Round still gives this Miner a card.",
        "per_container": "Each Tool Container gives one Tool Card per Game Round in all: once any Miner drew from it, "
                         "nobody draws from it again until the next Round.",
    },
    default="per_miner",
    why_default="The sentence limits what Miners can do (\"Miners can only draw one Tool Card from each Tool Container "
                "per Game Round\"): its subject is the Miner, so the count is kept per Miner and per Container.",
)

LOOT_TOKEN_MEGABEAST = RulingOption(
    key="loot_token_megabeast",
    title="A Loot Token when the MegaBeast was involved in a TAG's death",
    section="Death; Tool Containers and Loot › Loot",
    readings={
        "no_token": "The loot is lost (Tool Cards discarded, Neomaterial Units to the reserve), so no Loot Token is "
                    "placed: Death places one only \"if applicable\".",
        "empty_token": "A Loot Token is placed as on every TAG's death; its Loot Zone is empty, so picking it up "
                       "gives nothing.",
    },
    default="no_token",
    why_default="Death places the Loot Token \"if applicable\", and the Loot section says that with the MegaBeast "
                "involved the loot is lost: there is nothing for a token to stand for.",
)

ELEVATION_OWN_PIECE = RulingOption(
    key="elevation_own_piece",
    title="The scenery piece a Model stands on, as an obstacle to its own Line of Fire",
    section="Common Skills › Move (Effects: climbing up or down); Line of Fire and Distances › Line of Fire",
    readings={
        "blocks": "The piece is scenery like any other: a Model standing back from its edge may not see (or be seen "
                  "from) the ground close below that edge, and the edge may hide the lower part of its Silhouette "
                  "(Partial Cover, through Silhouette Contact with the piece it stands on).",
        "ignored": "The piece a Model stands on never blocks a line to or from that Model: it sees over its own edge "
                   "wherever it stands on top, and that piece gives it no Partial Cover.",
    },
    default="blocks",
    why_default="The LoF rule lists scenery pieces as obstacles with no exception for the one a Miner stands on, and "
                "Move says the climbed position counts for LoF; handed ruling TR-37 has a block's top edge hide part "
                "of the Silhouette of the Miner standing on it. Consulted only when a Model stands on scenery.",
)

CLIMB_SEGMENT = RulingOption(
    key="climb_segment",
    title="How a climb's whole Segment adds up with the rest of the Move",
    section="Common Skills › Move (Effects; example of moving up or down an obstacle)",
    readings={
        "own_segment": "The climb takes a Segment of its own: the distance moved before it is rounded up to whole "
                       "Segments, then the climb uses the next one (1.5 Segments to the foot of a piece and a climb "
                       "use 3).",
        "one_segment_length": "The climb adds one Segment to the distance measured (1.5 Segments and a climb use 2.5).",
    },
    default="own_segment",
    why_default="Move says a climb consumes one entire Segment, and its example has a Miner less than 2 Segments from "
                "the obstacle use its third Segment to get on top: the climb is a Segment of its own. Consulted only "
                "when a route climbs.",
)

EVADE_CLIMB = RulingOption(
    key="evade_climb",
    title="An Evade movement up or down a piece of scenery",
    section="Common Skills › Evade (Effects: move one Segment); Common Skills › Move (Effects: climbing up or down)",
    readings={
        "climbs": "The Evade movement's one Segment may be spent climbing up or down a piece (the climb takes that "
                  "whole Segment, as in a Move): the Miner ends on top of the piece or on the ground below, the leg "
                  "at most one Segment long and nothing moved before or after it.",
        "no_climb": "Climbing is an Effect of the Move Skill only: an Evade movement stays on the surface it starts "
                    "on (on the ground, or on top of the piece the Miner stands on).",
    },
    default="climbs",
    why_default="Evade grants movement measured in Segments like a Move's (the Slowed State takes one Segment from "
                "either alike), and Move states the climb as a cost in Segments whatever the obstacle's height; "
                "Evade's Effects list what its movement may do (enter or leave Silhouette Contact) without excluding "
                "a climb. The rulebook is silent on climbing during an Evade. Consulted only when an Evade movement "
                "changes surface.",
)

RESPAWN_NO_ROOM = RulingOption(
    key="respawn_no_room",
    title="Respawn at a free Access Point round which no position in contact fits the Miner's base",
    section="Respawn",
    readings={
        "reroll": "The Access Point cannot take the Miner: the d20 is rolled again, as for an Access Point with an "
                  "enemy Miner in contact.",
        "centred": "The Miner is deployed there anyway, its base centred on the Access Point token, as the Death "
                   "rule places a Loot Token in the middle of the space when none is left in contact.",
    },
    default="reroll",
    why_default="Respawn asks for a placement in contact with the Access Point and re-rolls when that Access Point "
                "cannot be used; it says nothing of a point every position round which is filled (by other bases or "
                "scenery), and a base on the token is the one placement the contact rule excludes.",
)


ROUTE_FIRE_POINT = RulingOption(
    key="route_fire_point",
    title="Where on its Move the Active Miner fires when the Order names no point",
    section="Activating a Miner › Orders and AROs (the MinerBot example); Activating a Miner › Order Expenditure "
            "Sequence (steps 1.2, 3 and 5); Line of Fire and Distances › Line of Fire (360° LoF along the route)",
    readings={
        "move_start": "From the beginning of the Move, as in the MinerBot example of Orders and AROs (the Active "
                      "Miner's shots are made at the beginning of its Movement), unless the Order declares another "
                      "point (fire_from).",
        "move_end": "From the end of the Move: step 1.2 of the Order Expenditure Sequence places the Miner at the end "
                    "point of its movement before it declares its second Skill, and step 5 makes the measurements "
                    "where it stands; the MinerBot example is then read as a point its players chose (fire_from), "
                    "not the one taken when none is named.",
    },
    default="move_start",
    why_default="The rulebook's only worked case of a Move + Ranged Attack whose firing point matters, the MinerBot "
                "example under 'Everything Happens at Once', makes the Active Miner's shots 'at the beginning of "
                "their Movement', while its target answers at the end of that Movement; Orders and AROs are "
                "simultaneous, so the Miner's placement at the end point in step 1.2 records the Move, not where "
                "the Attack is made. The text leaves it open because a Miner that declared Move draws LoF all along "
                "its route and the Order Expenditure Sequence never says where an undeclared shot is made; the "
                "example is the one place the book answers, so an Order that names no point follows it. A Move of "
                "zero length changes nothing; any other Move + Ranged Attack lists this option in its trace.",
)

ALL_OPTIONS: tuple[RulingOption, ...] = (
    # rolls
    SV_ABOVE_20, MOD_CAP, MEGABEAST_CRITICAL, MEGABEAST_EQUAL,
    # resolution
    MEGABEAST_NO_ARO, EVADE_VS_SPLIT_ATTACK, TESEUM_SEVERAL_ATTACKERS, TESEUM_PER_WOUND, EVADE_MOVEMENT,
    CC_TARGET_OUT_OF_CONTACT, SPLIT_BURST_WITHOUT_LOF, RANGED_ATTACK_ACTIVATION_CONTACT, STATE_ON_DEATH,
    MEGABEAST_STATES, PARTIAL_COVER_GLYPH, ROUTE_FIRE_POINT,
    # geometry (Line of Fire, ranges, MegaBeast sides)
    LOF_GRAZING, SCENERY_HEIGHT, TILELESS_OCCUPIED_HEXAGON, MEGABEAST_RECIPROCITY, RANGE_MEASUREMENT,
    MEGABEAST_CORNER_SIDE, LOF_ARC_PART, LOF_SHOOTER_ARC, MEGABEAST_FACING_TIE,
    ELEVATION_OWN_PIECE, CLIMB_SEGMENT, EVADE_CLIMB,
    # Tool Containers and Loot
    TOOL_CONTAINER_DRAWS, LOOT_TOKEN_MEGABEAST,
    # Death and Respawn
    RESPAWN_NO_ROOM,
)
"""Every TAG Raid ruling option, in display order."""


def rulings(chosen: Mapping[str, str] | None = None) -> Rulings:
    """TAG Raid rulings with defaults, overridden by ``chosen`` (``{key: reading}``).

    Raises:
        ScenarioError: unknown key or reading.
    """
    return Rulings(ALL_OPTIONS, chosen)
