"""Section titles of the TAG Raid rulebook, as cited by every resolution step.

Titles are facts about the book (its table of contents); the rule text itself stays out of the project.
The constants are in rulebook order: `explorer rules` and the rule index list the sections in this order.
"""

from explorer.trace import RuleRef

GAME = "TAG Raid"


def ref(section: str) -> RuleRef:
    """A :class:`RuleRef` into the TAG Raid rulebook."""
    return RuleRef(GAME, section)


VICTORY_CONDITIONS = ref("Victory Conditions")
NEOMATERIALS = ref("Neomaterials: Teseum and T-Bezoar Units")
TIMELINE = ref("Game Sequence › Timeline")
INITIAL_DEPLOYMENT = ref("Game Sequence › Initial Deployment")
GAME_ROUND = ref("Game Sequence › Game Round")
EVENTS_PHASE = ref("Game Sequence › Game Round › Events Phase")
PLAYERS_PHASE = ref("Game Sequence › Game Round › Players Phase")
END_OF_ROUND = ref("Game Sequence › Game Round › End of the Round")
SECURED = ref("Miner Card › Additional Information (Secured)")
ORDERS_AND_AROS = ref("Activating a Miner › Orders and AROs")
ORDER_EXPENDITURE_SEQUENCE = ref("Activating a Miner › Order Expenditure Sequence")
WAREHOUSE = ref("Prospecting Control Panel › Warehouse")
LINE_OF_FIRE = ref("Line of Fire and Distances › Line of Fire")
DISTANCES = ref("Line of Fire and Distances › Distances and Measurements")
MOVEMENT_RULER = ref("Distances and Measurements › Movement Ruler")
RANGE_RULER = ref("Distances and Measurements › Range Ruler")
RANGE_IN_HEXAGONS = ref("Line of Fire and Distances › Range in Hexagons")
AREAS_AND_SILHOUETTES = ref("Line of Fire and Distances › Interaction with Areas and Silhouettes")
ROLLS = ref("Rolls")
SUCCESSFUL_ROLL = ref("Rolls › Successful Roll")
MODIFIERS = ref("Rolls › Modifiers (MOD)")
CRITICALS = ref("Rolls › Criticals")
NORMAL_ROLL = ref("Rolls › Normal Roll")
FACE_TO_FACE = ref("Rolls › Face to Face Rolls")
BREAKING_TIES = ref("Rolls › Face to Face Rolls › Breaking Ties")
FACE_TO_FACE_EVADE = ref("Rolls › Face to Face Rolls › Face to Face: Evade")
DAMAGE = ref("Damage")
PARTIAL_COVER = ref("Damage › Partial Cover")
SAVING_ROLL = ref("Damage › Saving Roll")
DEATH = ref("Death")
RESPAWN = ref("Respawn")
CLOSE_COMBAT_ATTACK = ref("Common Skills › Close Combat Attack")
CLOSE_COMBAT_REQUIREMENTS = ref("Common Skills › Close Combat Attack › Requirements")
RANGED_ATTACK = ref("Common Skills › Ranged Attack")
RANGED_ATTACK_REQUIREMENTS = ref("Common Skills › Ranged Attack › Requirements")
EVADE = ref("Common Skills › Evade")
EVADE_REQUIREMENTS = ref("Common Skills › Evade › Requirements")
MOVE = ref("Common Skills › Move")
IDLE = ref("Common Skills › Idle")
TOOLS = ref("Skills and Tools › Tools")
AMMUNITION = ref("Skills and Tools › Ammunition")
TRAITS = ref("Skills and Tools › Traits")
STATES = ref("States")
SLOWED_STATE = ref("States › Slowed State")
TOOL_CONTAINERS_AND_LOOT = ref("Tool Containers and Loot")
LOOT = ref("Tool Containers and Loot › Loot")
DEATH_OF_A_TAG = ref("Tool Containers and Loot › Loot (Death of a TAG)")
TOOL_CONTAINER = ref("Tool Containers and Loot › In contact with a Tool Container")
LOOT_TOKEN = ref("Tool Containers and Loot › In contact with a Loot Token")
TERRAIN = ref("Terrain")
SPECIAL_TERRAIN = ref("Special Terrain")
MEGABEAST_SILHOUETTE = ref("MegaBeast › Silhouette")
MEGABEAST_DEPLOYMENT = ref("MegaBeast › Deployment and Movement Type")
MEGABEAST_WOUNDS = ref("MegaBeast › Wounds")
MEGABEAST_RAGE = ref("MegaBeast › Rage Level")
MEGABEAST_THREAT = ref("MegaBeast › Threat Level")
MEGABEAST_AROS = ref("MegaBeast › Skills, Attacks, and AROs")
MEGABEAST_EVENTS = ref("MegaBeast › MegaBeast Events and MegaBeast's Behavior")
MEGABEAST_LOF = ref("MegaBeast › MegaBeast Events and MegaBeast's Behavior (MegaBeast Line of Fire)")
