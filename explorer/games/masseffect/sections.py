"""Section titles of the Mass Effect: Priority Hagalaz rulebook, as cited by every resolution step.

Titles are facts about the book (its table of contents and headings); the rule text itself stays out of the project.
The constants are in rulebook order: `explorer rules` and the rule index list the sections in this order.
"""

from explorer.trace import RuleRef

GAME = "Mass Effect"


def ref(section: str) -> RuleRef:
    """A :class:`RuleRef` into the Mass Effect: Priority Hagalaz rulebook."""
    return RuleRef(GAME, section)


STUNNED_ENEMIES = ref("Components › Enemy Tokens › Stunned Enemies")
ELITE_ENEMIES = ref("Components › Enemy Tokens › Elite Enemies")
MISSION_MAP_PAGE = ref("The Mission Book › Mission Map Page")
HEXES = ref("The Mission Book › Hexes")
MAP_ICONOGRAPHY = ref("The Mission Book › Map Iconography")
OUT_OF_BOUNDS = ref("Interacting with the Mission Map › Out of Bounds")
ADJACENCY = ref("Interacting with the Mission Map › Adjacency")
COUNTING_DISTANCES = ref("Interacting with the Mission Map › Counting Distances")
LINE_OF_FIRE = ref("Interacting with the Mission Map › Line of Fire")
SHROUDED_AREAS = ref("Interacting with the Mission Map › Shrouded Areas")
SQUADMATE_SHEETS = ref("Squadmate Sheets")
DOWNED_SQUADMATES = ref("Squadmate Sheets › Downed Squadmates")
MISSION_COMMANDER = ref("Squadmate Sheets › Mission Commander")
SEQUENCE_OF_PLAY = ref("Playing a Mission › Sequence of Play")
ON_POINT = ref("Playing a Mission › Sequence of Play › On Point")
STRATEGY_POOL = ref("Playing a Mission › Sequence of Play › The Strategy Pool")
STRATEGY_DIE_ICONS = ref("Playing a Mission › Sequence of Play › Strategy Die Icons")
PREPARATION_PHASE = ref("Playing a Mission › Preparation Phase")
SQUADMATE_PHASE = ref("Playing a Mission › Squadmate Phase")
STRATEGY_ROLL = ref("Playing a Mission › Squadmate Phase › Step A: Strategy Roll")
CORE_ABILITIES = ref("Playing a Mission › Squadmate Phase › Core Abilities")
ACTIONS = ref("Playing a Mission › Squadmate Phase › Step B: Actions")
ACTION_SPACES = ref("Playing a Mission › Squadmate Phase › Action Spaces")
BASIC_ACTIONS = ref("Playing a Mission › Squadmate Phase › Basic Actions")
PIN_TAG = ref("Playing a Mission › Squadmate Phase › Basic Actions › The Pin Tag")
ABILITY_ACTIONS = ref("Playing a Mission › Squadmate Phase › Ability Actions")
ENHANCED_ACTIONS = ref("Playing a Mission › Squadmate Phase › Ability Actions › Enhanced Actions")
DAMAGING_ENEMIES = ref("Playing a Mission › Damaging Enemies")
REACT_TAG = ref("Playing a Mission › Damaging Enemies › The React Tag")
RANGED_TAG = ref("Playing a Mission › Damaging Enemies › The Ranged Tag")
HAZARD_CARD = ref("Playing a Mission › Step C: Hazard Card")
INVALID_ACTIVATIONS = ref("Playing a Mission › Step C: Hazard Card › Invalid Activations")
ATTACKING = ref("Playing a Mission › Step C: Hazard Card › Attacking")
SQUADMATE_DAMAGE = ref("Playing a Mission › Step C: Hazard Card › Attacking › Squadmate Damage")
ADVANCING = ref("Playing a Mission › Step C: Hazard Card › Advancing")
RUSH_TAG = ref("Playing a Mission › Step C: Hazard Card › Advancing › The Rush Tag")
SPAWNING_MINIONS = ref("Playing a Mission › Step C: Hazard Card › Spawning Minions")
END_PHASE = ref("Playing a Mission › End Phase")
UNLOCKING_ABILITIES = ref("Additional Rules › Unlocking Abilities")
EARNING_XP = ref("Additional Rules › Earning XP")
PARAGON_DICE = ref("Additional Rules › Paragon Dice and Renegade Tokens › Paragon Dice")
RENEGADE_TOKENS = ref("Additional Rules › Paragon Dice and Renegade Tokens › Renegade Tokens")
LOOT_TOKENS = ref("Additional Rules › Loot Tokens")
GRENADES = ref("Additional Rules › Grenade and Grenade Cache Tokens")
MEDI_GEL = ref("Additional Rules › Medi-gel Tokens")
INTEL_CACHES = ref("Additional Rules › Intel Cache Tokens")
TURRETS = ref("Additional Rules › Turrets")
OPPORTUNITY_ATTACKS = ref("Additional Enemy Rules › Opportunity Attacks")
ELITES = ref("Additional Enemy Rules › Elites")
STUNNING_ENEMIES = ref("Additional Enemy Rules › Stunning Enemies")
BIOTIC_EFFECTS = ref("Additional Enemy Rules › Biotic Effects")
MISSION_OBJECTIVES = ref("Mission Objectives")
ENDING_A_MISSION = ref("Ending a Mission")
MAP_FEATURES = ref("Map Features")
BONUS_LOOT = ref("Map Features › Bonus Loot Icons")
FAST_TRAVEL = ref("Map Features › Fast Travel Icons")
INFERNO = ref("Map Features › Inferno Icons")
COOLANT_LEAKS = ref("Map Features › Coolant Leaks")
TERMINALS = ref("Map Features › Terminal Icons")
ELEVATION_CHANGE = ref("Map Features › Elevation Change Icons")
SQUADMATE_COMMENTARY = ref("Squadmate Commentary")
LIARA_COMMENTARY = ref("Squadmate Commentary › Liara T'Soni")
COMMENTARY_LIARA = ref("Squadmate Commentary › Liara T'Soni › Analysis")
