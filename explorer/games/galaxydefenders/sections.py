"""Section titles of the Galaxy Defenders: Operation Strikeback rulebook (and its Storybook), as cited by every
resolution step.

Titles are facts about the book (its numbered headings); the rule text itself stays out of the project.
The constants are in rulebook order: `explorer rules` and the rule index list the sections in this order.
"""

from explorer.trace import RuleRef

GAME = "Galaxy Defenders"


def ref(section: str) -> RuleRef:
    """A :class:`RuleRef` into the Galaxy Defenders: Operation Strikeback rulebook."""
    return RuleRef(GAME, section)


BARRIER_HEX_SIDE = ref("5.1 Barrier Hex Side")
REFRESH_PHASE = ref("6.1 Refresh Phase")
BATTLE_PHASE = ref("6.2 Battle Phase")
"""Agent and Alien turns are the Core Set's, modified by the rules that follow: the section that sends an agent's
movement cost (one movement point a Hex) to the Core Set, which this rulebook does not restate."""
AGENT_TURN = ref("6.2.1 Agent Turn")
ACTION_ACTIVITY = AGENT_TURN
"""An agent's (plain) Action activity, once per agent turn: a Core Set rule this book restates only in 6.2.1 (the
agent turn and its activities); 6.2.1.1 is the Free Action, which "works like" an Action but repeats."""
FREE_ACTION = ref("6.2.1.1 Free Action Activity")
EVENT_PHASE = ref("6.3 Event Phase")
FLYING = ref("7.1 Flying")
FLYING_ALIENS_NPCS = ref("7.1.2 Aliens and NPCs")
"""An alien or NPC with the Flying power moves through any Barrier Hex Side (7.1.1 is the agents' and drones')."""
BURROWING = ref("7.2 Burrowing")
BURROWING_TARGETING = ref("7.2.1 Targeting and Damaging Burrowing Aliens")
SEIZE = ref("7.3 Seize")
SPECIAL_ATTACK_POWERS = ref("8 Special Attack Powers")
LETHAL = ref("8.1 Lethal")
CRITICAL = ref("8.2 Critical")
CRITICAL_COMPATIBILITY = ref("8.2.1 Compatibility")
CRITICAL_DURATION = ref("8.2.2 Duration")
CRITICAL_EFFECTS = ref("8.2.3 Effects")
MARK = ref("8.3 Mark Locking System")
EXPLOSION = ref("8.4 Explosion")
AREA_DAMAGE = EXPLOSION
"""Area Damage (who an Area or Explosion attack reaches): the Core Set rule, restated in this book only by 8.4
(Explosion "works exactly like Area Damage": the target and every target in its Area). 11.6 Prime Swarm Units adds
that each figure of a Prime Swarm in a reached Area is attacked; 11.8 that a multi-hex alien is reached once."""
AREA_HEALING = ref("8.5 Area Healing")
AGENT_COMBAT = ref("9.2 Combat")
WEAPON_RANGE = AGENT_COMBAT
"""A weapon's Range, "the maximum allowed range" (the tile fields of 9.7.4.2 and 9.7.4.3): a rule of the Core Set
combat system, which 9.2 carries into this book for every attack ("The combat system remains almost unchanged");
10.2.2 plays NPC attacks and 11.12 alien attacks by that same system, and neither says anything about Range. Every
Range check, an agent's, an NPC's or an alien's, cites 9.2 (how Range is counted: ruling ``range_unit``)."""
CORE_SET_DICE = ref("9.2 Combat (dice faces: Core Set, calibrated)")
FIGHTING_POSES = ref("9.2.2 Fighting Poses [Optional Rule, Default=OFF]")
HEALTH_POINTS = ref("9.3.1 Health Points")
POISONED = ref("9.3.2 Poisoned")
ENERGY_BATTERIES = ref("9.4 Energy Batteries")
POWER_SUIT = ref("9.5 Power Suit")
POWER_SUIT_EQUIP = ref("9.5.1 How to Equip a Power Suit")
POWER_SUIT_MOVEMENT = ref("9.5.2.1 Movement")
POWER_SUIT_COMBAT = ref("9.5.2.2 Combat")
POWER_SUIT_SHIELDS = ref("9.5.2.3 Energy Shields")
POWERS_ITEMS = ref("9.7 Powers & Items")
PSIONIC_POWERS = ref("9.7.2 Psionic Powers")
TACTICS = ref("9.7.3 Tactics")
DEVICES = ref("9.7.4 Devices")
HOLOGRAM = ref("9.7.4.1 Hologram")
VIGIL = ref("9.7.4.2 Vigil")
GD5 = ref("9.7.4.3 GD-5")
GD_WINGS = ref("9.8 GD-Wings")
NPC_AI = ref("10.1 Biological Ally Structure [NPC cards]")
NPC_DECK = ref("10.1.1 NPC Deck")
TWINS_IN_ARMS = ref("10.1.1.1 Twins in Arms [Optional rule=OFF]")
NPC_ASSIGNMENT = ref("10.1.2 NPC Assignment")
NPC_ACTIVATION = ref("10.2 NPC Activation")
NPC_MOVEMENT = ref("10.2.1 NPC Movement")
NPC_COMBAT = ref("10.2.2 NPC Combat")
NPC_TACTIC = ref("10.3 NPC Tactic")
NPC_HEALTH = ref("10.4 NPC Health Status")
NPC_BODY_CONDITION = ref("10.4.1 NPC Body Condition")
ALIENS = ref("11 The Aliens")
"""Chapter 11's opening: aliens treat robot drones and NPCs as agents for moving, targeting and attacking."""
MASTER_ALIENS = ref("11.3 Biological Structure [Master Alien Cards]")
MENACE = ref("11.3.1 Fighting Master Aliens [Menacing Agent System]")
ALIEN_ACTIVATION = ref("11.5 Alien Activation [Close Encounter Cards]")
PRIME_SWARM = ref("11.6 Prime Swarm Units")
MULTIPLE_ENERGY_SHIELDS = ref("11.7 Multiple Energy Shielded Armor")
MULTI_HEX = ref("11.8 Multi-hex Aliens")
ALIEN_BODY_CONDITIONS = ref("11.9 Alien Body Conditions")
PARALYZED = ref("11.9.1 Paralyzed")
SIGNALS = ref("11.10 Signals")
NPC_SIGNALS = ref("11.10.1 NPC Signals")
ALIEN_MOVEMENT = ref("11.11 Movement")
ALIEN_COMBAT = ref("11.12 Combat")
MISSION_SETUP = ref("Storybook 2.2 Setup")
SPECIAL_MISSION_RULES = ref("Storybook 2.3 Special Mission Rules")
OBJECTIVES = ref("Storybook 2.4 Objectives")
SPECIAL_EVENT_EFFECTS = ref("Storybook 2.5 Special Event Card Effects")
STANDALONE_MISSIONS = ref("Storybook 4 Playing Standalone Missions")
GD_WINGS_CAMPAIGN = ref("Storybook 5.4 Gain GD-Wings in a Campaign")
HIGH_IMPACT = ref("Storybook 5.5.1 High Impact")
LEVEL_OF_DIFFICULTY = ref("Storybook 6 Level of Difficulty")
