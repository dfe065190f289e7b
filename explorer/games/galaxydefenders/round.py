"""A round of Galaxy Defenders, first increment: the Refresh phase, each agent's turn (its activities in the order
the players chose them, with NPC activation) and the Event phase's signals, with a cited one-line refusal for every
choice the rules do not allow.

Sections: 6.1 Refresh Phase (Poison, Mark, temporary Criticals and the Power Suit's Battery, simultaneous; 9.3.2, 8.3,
8.2.2, 9.5), 10.4.1 NPC Body Condition (Paralyzed and Immobilized tokens go in the Refresh phase), 6.2.1 Agent Turn
(one turn per agent per round), 6.2.1.1 Free Action Activity (any number of Free Actions; the Action activity once
per turn), 6.2.1.2 Activate NPCs and 10.2 NPC Activation (an agent's NPCs are activated before its first activity or
after its last, never in between, and every assigned NPC every turn), 10.4.1 (a Paralyzed NPC skips its activation;
an Immobilized one follows only behavior without movement), 10.4 NPC Health Status (a dead NPC is off the map), 6.3
Event Phase (the Alpha Agent draws; signals teleported by the balancer). The Alpha Agent is the first agent of
the file; when it is eliminated (bleeding) the role follows ruling ``alpha_agent_succession`` (the book leaves the
Alpha Agent to the Core Set; :func:`alpha_succession`), and 11.5, 6.3 and 10.1.2 read the Alpha Agent now.

Powers, Items and Devices (9.7; :mod:`.cards`): an activity may ``use`` a card (its category decides the activity,
once per turn; Psionic Powers, Tactics and Devices change state as 9.7.2-9.7.4 say; the Refresh phase flips Psionic
Powers up) or, on an Action, activate a ``drone`` deployed earlier (9.7.4.2, 9.7.4.3). The card data is a STAND-IN.
The Menace token (11.3.1): ``[master_alien]`` and ``menace`` on an Action. NPC Tactics (10.3): ``tactic = true``
on an NPC activation, kind ``npc_tactic`` outside it, each colour with its timing, once per mission. The Power Suit
(9.5): ``suit = "equip"`` / ``"unequip"`` / ``"recall"`` on an Action (9.5.1, the movement bonus 9.5.2.1; on a map
the empty suit is a figure on ``power_suit.at`` and an unequip steps to ``place``), ``suit = "weapon"`` on
the Combat activity (9.5.2.2); its energy shields refresh in the Refresh phase (9.5.2.3). Seize (7.3): ``seize``
on a Free Action next to a Movement activity, one agent per turn, an Immobilized, Paralyzed or Bleeding one.
Fighting Poses (9.2.2, ``fighting_poses = true``): ``pose`` on a Movement activity, Prone stops movement, Crouching
costs 2 points per Hex, a card that ``moves`` returns the agent to Standing, a Power Suit only Standing; on a map
each pose token's Range Attack Bonus, Range Defense Bonus and Melee Defense Penalty apply to the attacks
(:mod:`.poses`: STAND-IN numbers, ``[fighting_pose_tokens.<pose>]`` replaces them; a weapon's ``melee`` says
whether an attack is melee).

On a map (a ``[map]`` table, :mod:`.round_map`): every agent, NPC and alien stands on a hex (``at``); a ``move``
with ``to`` walks the agent along the shortest legal walking path, one movement point a Hex (two Crouching, 9.2.2),
against its ``movement`` plus the Power Suit's bonus (9.5.2.1) and a Movement card's ``movement`` (9.7); figures on
the way per ruling ``agent_path_figures``; a ``combat`` with ``target`` resolves the attack with the ``combat``
kind's attack sequence (line of sight, the weapon or the Power Suit's with ``suit = "weapon"``, the ``bonus_hits``
/ ``bonus_dice`` of the card used with it or of a Free Action / Action card used earlier in the turn, fixed dice in
``rolled``); an NPC with an A.I. section (``rules``) is activated on the map by the ``activation`` kind's sequence
and attacks with its weapon (10.2, 10.2.2); a turn's ``[turns.close_encounter]`` draws the Close Encounter card after
it and each alien it lists follows its A.I. section on the map and attacks (11.5, 11.11, 11.12; Paralyzed aliens skip,
11.9.1). A killed alien or NPC leaves the map. A multi-hex alien (``base``, 11.8) occupies both hexes, is attacked
when one base hex is in line of sight, is reached once by Area Damage and walks with its base (:mod:`.round_map`). The card data (Powers, Items, Devices), the agents' ``movement``
default and the Power Suit's weapon without a ``weapon`` table are STAND-INs.

An "Activate X aliens" card (21-25) with no ``activates`` list selects its aliens as the ``close_encounter`` kind
does (11.5: each alien's ``controller`` and ``rank``, ``x`` for card 21; Paralyzed aliens passed over, 11.9.1).

NPC signals and drones on a map (:mod:`.round_signals`): ``[[signals]]`` on the map, a ``move``'s ``reveal`` list
turning each NPC signal into the top card of ``[[npc_deck]]`` assigned by 10.1.2 (``npc_specialist``: the exception),
ruling ``revealed_npc_activation``; a Device's figure placed with ``place`` (9.7.4), ``[[drones]]`` deployed
earlier, a ``drone`` Action with ``to`` and ``target`` (the tiles are STAND-INs, ``[drone_tiles.<kind>]``).

Alien and Human signals (11.10, :mod:`.round_signals`): an Alien signal's ``reveal`` brings the ``[[aliens]]`` entry
naming it in ``signal`` onto the signal's hex (which alien is a Core Set rule: the file says it), ruling
``revealed_alien_activation``; a Human signal's token is only discarded (this book prints no effect for it). Prime
Swarm units (11.6, :mod:`.round_map`): ``swarm`` on an alien gives its second figure, ``"<name> (2nd figure)"``,
with its own Health points; one alien for Close Encounter cards, ruling ``prime_swarm_paralyzed``.

Engagement and Evade on a map (:func:`.round_map.evade_step`): an agent next to an alien that is not Burrowing is
engaged in combat and walks away only with ``evade = true`` on its ``move`` (the Core Set's Evade test passed; this
book names it in 7.3, 10.2.1 and 11.11 but does not print it); next to Burrowing aliens it moves away freely (7.2);
standing up while engaged takes the entire movement activity (9.2.2); an NPC or alien whose A.I. walk leaves an
engagement disengages without an Evade test, a cited step (10.2.1, 11.11).

Not yet in this increment (issue 21): the Event phase's signals on the map.

The round is a kernel sequence (:data:`ROUND_SEQUENCE`: Refresh phase; the Battle phase, one entry per agent turn,
Close Encounter card and alien activation; Event phase) of plain step functions over the frozen :class:`RoundState`;
the result is a typed :class:`RoundOutcome`.

Scenario kind ``round`` (TOML)::

    game = "galaxydefenders"
    kind = "round"
    title = "..."
    round = 3
    [[cards]]                         # optional: cards added to (or replacing by id) the STAND-IN list (cards.py)
    id = "stim-pack"
    name = "Stim Pack"
    kind = "item"                     # skill | psionic | tactic | device | item | ability
    category = "standard"             # standard | movement | combat | passive | reaction (9.7)
    [[agents]]                        # turn order of the players; the first is the Alpha Agent
    name = "Marine"
    health = 8                        # Health points (STAND-IN default 8: the Core Set sheet prints it)
    wounds = 0
    poison = 1                        # Poison / Mark tokens (0..2)
    mark = 0
    agent_class = "Marine"            # for class restrictions (GD-5: Biotech)
    rank = "earth"                    # gold | earth | moon | galaxy (9.8: Tactics are Free Actions from earth)
    cards = ["basic-tactic", "stim-pack", "vigil"]
    face_down = []                    # used before the round: Psionic Powers (up again in Refresh), Tactics
    rotated = []                      # once-per-mission Psionic Powers used
    deployed = ["vigil"]              # figures its Devices deployed in an earlier round
    [[npcs]]
    name = "Sgt. Rock"
    controller = "Marine"             # the agent the NPC card is assigned to (10.1.2)
    health = 5
    paralyzed = false                 # 10.4.1 tokens, removed in the Refresh phase
    immobilized = false
    tactic = "attack"                 # optional NPC Tactic (10.3): passive | attack | reaction; tactic_used = false
    [power_suit]                      # optional: a Power Suit in play (9.5)
    batteries = 2
    equipped_by = "Marine"            # optional: its wearer
    suit_model = "mark_i"             # optional: mark_i (+2 movement) | mark_ii (+3), 9.5.2.1
    energy_shields = 3                # optional: refreshed each Refresh phase (9.5.2.3); shields_left = 1
    flying = false                    # optional: the sheet's Flying ability (9.5; 7.1.1): crosses Barrier Hex Sides
    at = "2,1"                        # on a map, unequipped: the empty suit's Hex (9.5)
    recall = false                    # the mission gives the Recall Power Suit special Action (9.5.1)
    [master_alien]                    # optional: a Master Alien in play and the Menace token (11.3.1)
    name = "Wormoon"
    holder = "Marine"                 # default: the Alpha Agent
    level = 1
    [[turns]]                         # the agents' turns in the order played
    agent = "Marine"
    activities = [{kind = "activate_npc", npc = "Sgt. Rock"}, {kind = "move"}, {kind = "free_action", use =
                  "basic-tactic"}, {kind = "action", drone = "vigil"}, {kind = "combat", what = "attack"}]
    [[signals]]                       # on a map: signal tokens (11.10); kind = npc | alien | human
    name = "S1"
    at = "4,1"
    kind = "npc"
    [[npc_deck]]                      # on a map: the NPC deck, top first (10.1.1): name, health, tactic, flying,
    name = "Knight"                   #   rules, weapon (as [[npcs]]); twin_of = "Marine": the agent it is the NPC
                                      #   version of, refused while that agent is in play unless drone = true or
                                      #   twins_in_arms = true (10.1.1.1 Twins in Arms, optional, default OFF)
    [[npc_discard]]                   # on a map: the NPC discard pile (as [[npc_deck]]); with the cards of NPCs
    name = "Archon"                   #   dying in the round it is reshuffled when the deck runs out (order:
                                      #   npc_reshuffles, else the seed)
    [[drones]]                        # on a map: drones deployed in an earlier round (9.7.4)
    kind = "vigil"                    # hologram | vigil | gd-5 (in the owner's deployed list)
    owner = "Marine"
    at = "2,1"
    [drone_tiles.vigil]               # optional: the Device tile (health, movement, flying, weapon); STAND-IN default
    health = 3
    [event]                           # optional: the Event phase's signals (6.3)
    balancer = "aliens"               # aliens | aliens_and_signals
    aliens = 2
    signals = 1

A round on a map adds (all optional; see ``scenarios/gd-round-map.toml``)::

    seed = 1                          # dice not fixed by ``rolled`` are rolled from it
    high_impact = true                # Storybook 5.5.1 for the attacks (default On)
    friendly_fire = false             # Storybook 6 (default OFF; ON at HARD): an NPC's, agent's or drone's Area
                                      #   or Explosion attack also reaches its allies (10.2.2, ruling
                                      #   friendly_fire_reach)
    npc_reshuffles = [["Archon", "Sgt. Rock"]]   # optional: the new NPC deck's order (top first) each time the
                                      #   deck runs out (10.1.1; the pile's cards, each once; else: the seed)
    [map.areas]                       # the activation map format: [map.areas], [map.centres], map.blocking,
    A = ["0,0", "1,0"]                #   [[map.edges]]
    B = ["2,0", "3,0"]
    [[agents]]                        # ... plus:
    at = "0,0"                        # its hex (every agent and NPC needs one on a map)
    movement = 4                      # movement points (STAND-IN default 4: the Core Set sheet prints it)
    flying = false                    # crosses Barrier Hex Sides (5.1)
    weapon = { name = "Rifle", dice = { red = 2, yellow = 1 } }   # or fixed_hits; effects, effect_symbols, damage,
                                                                  # range (9.2, ruling range_unit)
    [[npcs]]                          # ... plus at, flying, weapon and its A.I. section:
    [[npcs.rules]]                    # the activation kind's behavior rules; attack_after = true: "move ... and
    condition = "adjacent"            #   attack" (the figure attacks its target after the move)
    action = "attack"
    [[aliens]]
    name = "Xeno"
    kind = "alien"                    # alien | master_alien
    at = "3,0"
    health = 5
    energy_shields = [1]              # one entry per shield icon (11.7)
    flying = false                    # burrowing, archenemy, paralyzed (11.9.1), wounds, mark, poison
    base = "4,0"                      # optional: a multi-hex alien's second base hex, adjacent to at (11.8)
    # swarm = "5,0"                   # or: a Prime Swarm's second figure (11.6), "Xeno (2nd figure)";
                                      #   swarm_wounds = 0 (its wounds)
    # signal = "S2"                   # instead of at: the Alien signal whose reveal brings it (11.10)
    weapon = { name = "Bite", fixed_hits = 2 }
    rules = [{ condition = "adjacent", action = "attack" }]
    [[turns]]
    agent = "Marine"
    activities = [{ kind = "move", to = "1,0", reveal = ["S1"] },   # reveal: the signals the move revealed
                  { kind = "action", drone = "vigil", to = "3,0", target = "Xeno" },  # or use = "gd-5", place = "0,1"
                                                     # rolled: the combat kind's fixed dice (also on an
                  { kind = "combat", target = "Xeno", rolled = { hit = { red = ["hit", "hit"] } } }]  # activate_npc)
    [turns.close_encounter]           # the Close Encounter card drawn after this turn (11.5)
    card = 12
    activates = ["Xeno"]              # the aliens it activates, in order (omit on cards 21-25: selected by 11.5
                                      #   from the aliens' controller = "agent" and rank; x = N for card 21)
    [turns.close_encounter.rolled.Xeno]
    defend = { Marine = ["shield", "blank"] }
    [mission]                         # optional: the Storybook mission this round belongs to (missions.py)
    mission = 1
    drawn = 2                         # Event cards drawn before this round
    counters = { flames = 1 }         # the mission's counters after this round's Agents' phase
    event = "B"                       # the Event card this round draws (a special event letter, or "")
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Annotated, Literal

from pydantic import Field, PrivateAttr

from explorer.errors import RuleViolation, ScenarioError
from explorer.hexgrid import Hex, distance
from explorer.kernel import Context, Each, Outcome, play, trace_of
from explorer.scenario import validate
from explorer.schema import MAX_TITLE, Strict
from explorer.text import plural
from explorer.trace import Step, Trace

from . import sections as S
from .header import GdScenarioHeader
from .cards import MAX_CARDS, AgentCards, DroneKind, CardId, CardModel, CardRefusal, activate_drone, card_table, refresh_cards, \
    stand_in_cards, use_card
from .activation import RuleModel
from .combat import (CombatMapModel, EffectModel, EffectSymbol, RolledModel, TargetState, with_source,
                     wound_tally)
from .conditions import PowerSuit, PowerSuitModel, power_suit_energy, refresh
from .missions import MissionState, RoundMissionModel, check_round_mission, condition_text, round_mission, \
    rule_in_force
from .menace import Menace
from .round_map import MapNote, Placed
from .poses import PoseName, PoseTokenEdit, is_stand_in, pose_tokens
from .options import rulings as make_rulings

Name = Annotated[str, Field(min_length=1, max_length=40)]
MAX_NPC_PILE = 29
"""Cards in one reshuffled NPC discard pile at most: ``[[npc_discard]]`` (12), ``[[npc_deck]]`` (12) and ``[[npcs]]``
(5) all dead in the round."""
MAX_NPC_RESHUFFLES = 20
"""Entries of ``npc_reshuffles``: one reshuffle needs an NPC signal revealed with the deck empty (at most 20
``[[signals]]``)."""
MAX_ACTIVITIES = 20
"""Activities listed in one agent turn."""
Pose = Literal["standing", "crouching", "prone"]
MAX_HELD = 20
"""Powers, Items and Devices one agent holds."""


HexKey = Annotated[str, Field(min_length=1, max_length=20)]


class RoundWeapon(Strict):
    """A weapon on a map (the ``combat`` kind's attack fields): ``dice`` ``{colour: n}`` or ``fixed_hits``, its
    ``effects`` and ``effect_symbols``, ``damage`` (single | area | explosion), ``range`` (its Range, 9.2; omitted:
    not checked)."""

    name: Name = "weapon"
    dice: dict[Name, Annotated[int, Field(ge=0, le=12)]] = Field(default_factory=dict, max_length=4)
    fixed_hits: int | None = Field(None, ge=0, le=20)
    effects: list[EffectModel] = Field(default_factory=list, max_length=8)
    effect_symbols: list[EffectSymbol] = Field(default_factory=lambda: ["bolt"], min_length=1, max_length=5)
    damage: Literal["single", "area", "explosion"] = "single"
    range: int | None = Field(None, ge=0, le=30)
    """The weapon's Range, its card's maximum allowed range (9.2; counted per ruling ``range_unit``: Areas by
    default). ``None`` (omitted): the file does not limit it and no Range is checked."""
    melee: bool | None = None
    """Whether it is a melee weapon (the card says it; the Core Set's rule): with Fighting Poses on, a pose's
    bonus or penalty depends on it (9.2.2). ``None`` (omitted): not said; an attack a pose's number depends on is
    then refused."""


class RoundAlien(Strict):
    """An alien on the map (round played on a ``[map]``): its card's Health, Energy Shield stacks, movement powers,
    A.I. section (``rules``, the ``activation`` kind's format) and weapon."""

    name: Name
    kind: Literal["alien", "master_alien"] = "alien"
    at: HexKey | None = None
    """Its hex (a multi-hex alien's face hex; a Prime Swarm's first figure). Omitted only with ``signal``."""
    signal: Name | None = None
    """The Alien signal whose reveal brings this alien into play (11.10; which alien a signal brings is a Core Set
    rule, so the file says it): off the map until then, it enters on the signal's hex. ``None``: in play."""
    health: int = Field(ge=1, le=40)
    wounds: int = Field(0, ge=0, le=40)
    energy_shields: list[Annotated[int, Field(ge=0, le=10)]] = Field(default_factory=list, max_length=3)
    mark: int = Field(0, ge=0, le=2)
    poison: int = Field(0, ge=0, le=2)
    flying: bool = False
    burrowing: bool = False
    archenemy: bool = False
    paralyzed: bool = False
    rules: list[RuleModel] = Field(default_factory=list, max_length=12)
    weapon: RoundWeapon | None = None
    controller: Name | None = None
    rank: Literal["purple", "red", "blue", "green"] = "green"
    base: HexKey | None = None
    """A multi-hex alien's second base hex (11.8), adjacent to ``at`` (its face hex). ``None``: a one-hex alien."""
    swarm: HexKey | None = None
    """A Prime Swarm unit's second figure's hex (11.6): two figures, each with ``health`` Health points (the card's
    double Heart), one alien. The figure is named ``"<name> (2nd figure)"`` (:func:`.round_map.second_name`).
    ``None``: one figure."""
    swarm_wounds: int = Field(0, ge=0, le=40)
    """Wounds on the Prime Swarm's second figure (``wounds`` are the first figure's)."""


class RoundCloseEncounter(Strict):
    """The Close Encounter card drawn after an agent turn (11.5): its number, the aliens it activates in order (or,
    left empty on an "Activate X aliens" card 21-25, selected as 11.5 says: ``x`` for card 21; each alien's
    ``controller`` and ``rank``), and fixed dice of each alien's attack (``rolled.<alien>``, the ``combat`` kind's
    ``rolled`` format)."""

    card: int = Field(ge=1, le=40)
    activates: list[Name] = Field(default_factory=list, max_length=20)
    x: int | None = Field(None, ge=1, le=5)
    rolled: dict[Name, RolledModel] = Field(default_factory=dict, max_length=20)


class RoundAgent(Strict):
    name: Name
    health: int = Field(8, ge=1, le=40)
    """Health points (the Core Set agent sheet prints them; this book does not): STAND-IN default 8 when omitted."""
    wounds: int = Field(0, ge=0, le=40)
    poison: int = Field(0, ge=0, le=2)
    mark: int = Field(0, ge=0, le=2)
    agent_class: Name | None = None
    rank: Literal["gold", "earth", "moon", "galaxy"] = "gold"
    cards: list[CardId] = Field(default_factory=list, max_length=MAX_HELD)
    face_down: list[CardId] = Field(default_factory=list, max_length=MAX_HELD)
    rotated: list[CardId] = Field(default_factory=list, max_length=MAX_HELD)
    deployed: list[DroneKind] = Field(default_factory=list, max_length=3)
    seize_power: bool = False
    immobilized: bool = False
    paralyzed: bool = False
    pose: Pose = "standing"
    at: HexKey | None = None
    movement: int = Field(4, ge=0, le=12)
    flying: bool = False
    weapon: RoundWeapon | None = None


class RoundNpc(Strict):
    name: Name
    controller: Name
    health: int = Field(5, ge=1, le=40)
    wounds: int = Field(0, ge=0, le=40)
    poison: int = Field(0, ge=0, le=2)
    mark: int = Field(0, ge=0, le=2)
    paralyzed: bool = False
    immobilized: bool = False
    tactic: Literal["passive", "attack", "reaction"] | None = None
    tactic_used: bool = False
    at: HexKey | None = None
    flying: bool = False
    rules: list[RuleModel] = Field(default_factory=list, max_length=12)
    weapon: RoundWeapon | None = None
    twin_of: Name | None = None
    """The playable agent this NPC card is the "ally" version of (10.1.1.1 Twins in Arms): with the optional rule
    OFF (``twins_in_arms``, the default) it cannot be in a round where that agent is in play, unless a ``drone``."""
    drone: bool = False
    """A drone NPC: multiples can always be present, whatever Twins in Arms (10.1.1.1)."""


class ActivityModel(Strict):
    """One activity of an agent turn: ``move``, ``action`` (the one Action activity), ``free_action`` (any
    number, 6.2.1.1), ``combat`` (the Combat activity, ruling ``combat_activity``) or ``activate_npc`` (``npc``
    names it); ``what`` labels it ("attack", "Tactic"); ``use`` names a card used with it (9.7); ``drone`` (on an
    ``action``) activates the agent's deployed Vigil or GD-5 (9.7.4.2, 9.7.4.3); ``suit`` equips or unequips the
    Power Suit (an ``action``, 9.5.1) or fires its weapon (a ``combat``, 9.5.2.2); ``tactic`` on an
    ``activate_npc``: the NPC uses its NPC Tactic during this activation, and kind ``npc_tactic`` (``npc`` names it)
    uses it outside the NPC's activation (10.3); ``menace`` on an ``action`` spends it on the Menace token (11.3.1:
    ``raise`` / ``lower`` by the Menacing Agent, ``lower`` / ``take`` by another agent); ``seize`` on a
    ``free_action`` names the agent seized (7.3); ``pose`` on a ``move`` spends movement to assume a Fighting Pose
    (9.2.2, with ``fighting_poses = true``)."""

    kind: Literal["move", "action", "free_action", "combat", "activate_npc", "npc_tactic"]
    npc: Name | None = None
    what: str = Field("", max_length=60)
    use: CardId | None = None
    drone: DroneKind | None = None
    suit: Literal["equip", "unequip", "weapon", "recall"] | None = None
    tactic: bool = False
    menace: Literal["raise", "lower", "take"] | None = None
    seize: Name | None = None
    pose: Pose | None = None
    to: HexKey | None = None
    target: Name | None = None
    rolled: RolledModel | None = None
    reveal: list[Name] = Field(default_factory=list, max_length=6)
    """On a ``move`` (on a map): the signals this movement revealed (the Core Set decides when; 11.10.1 replaces an
    NPC signal with a new NPC)."""
    place: HexKey | None = None
    """On an ``action`` using a Device that deploys a figure (on a map): the Hex it is placed on (9.7.4)."""
    evade: bool | Literal["failed"] = False
    """On a ``move`` with ``to``, or a ``drone`` Action with ``to`` (on a map): the agent (its drone), engaged in
    combat (an adjacent alien that is not Burrowing), took its Evade test, a Core Set test this book names but does
    not print (7.3, 10.2.1, 11.11): ``true`` it passed, ``"failed"`` it failed (it stays where it is; what else
    follows: ruling ``failed_evade``, a STAND-IN). Without it an engaged figure's walk is refused."""


class RoundSignal(Strict):
    """A signal token on the map (11.10): ``kind`` npc | alien | human. Revealed (a ``move``'s ``reveal``): an NPC
    signal becomes the top NPC card (11.10.1), an Alien signal the ``[[aliens]]`` entry whose ``signal`` names it, a
    Human signal's token is discarded."""

    name: Name
    at: HexKey
    kind: Literal["npc", "alien", "human"] = "npc"


class RoundNpcCard(Strict):
    """A card of the NPC deck (10.1.1), top first: what an NPC brought by a revealed NPC signal is (its Health
    points, NPC Tactic, Flying, A.I. section and weapon, as ``[[npcs]]``)."""

    name: Name
    health: int = Field(5, ge=1, le=40)
    tactic: Literal["passive", "attack", "reaction"] | None = None
    flying: bool = False
    rules: list[RuleModel] = Field(default_factory=list, max_length=12)
    weapon: RoundWeapon | None = None
    twin_of: Name | None = None
    """The playable agent this NPC card is the "ally" version of (10.1.1.1 Twins in Arms): with the optional rule
    OFF (``twins_in_arms``, the default) it cannot be in a round where that agent is in play, unless a ``drone``."""
    drone: bool = False
    """A drone NPC: multiples can always be present, whatever Twins in Arms (10.1.1.1)."""


class RoundDrone(Strict):
    """A drone deployed in an earlier round, on the map (9.7.4): its ``kind``, ``owner`` (the agent whose Device
    deployed it; it must list the kind in ``deployed``), hex and wounds."""

    kind: DroneKind
    owner: Name
    at: HexKey
    wounds: int = Field(0, ge=0, le=40)


class DroneTile(Strict):
    """A drone's Device tile (9.7.4.2, 9.7.4.3): Health points, movement in Hexes, Flying and weapon. The book does
    not print the tiles: see the STAND-IN :data:`.round_signals.DRONE_TILES`."""

    health: int = Field(ge=1, le=40)
    movement: int = Field(0, ge=0, le=12)
    flying: bool = False
    weapon: RoundWeapon | None = None


class TurnModel(Strict):
    agent: Name
    activities: list[ActivityModel] = Field(default_factory=list, max_length=MAX_ACTIVITIES)
    close_encounter: RoundCloseEncounter | None = None


class RoundSuitModel(PowerSuitModel):
    """The round's Power Suit (9.5): the ``conditions`` fields plus its ``suit_model`` (Mark I: +2 movement, Mark
    II: +3, 9.5.2.1), its rechargeable ``energy_shields`` (full value) with ``shields_left`` (9.5.2.3) and whether
    its sheet gives the ``seize`` ability (9.5, 7.3)."""

    suit_model: Literal["mark_i", "mark_ii"] | None = None
    energy_shields: int | None = Field(None, ge=0, le=10)
    shields_left: int | None = Field(None, ge=0, le=10)
    seize: bool = False
    flying: bool = False
    """The sheet gives the Flying ability (9.5: "the ability to move through Barrier Hexes"; 7.1.1: agents acquire
    Flying in a temporary way, thanks to power suits): its wearer's walk may cross Barrier Hex Sides (5.1)."""
    weapon: RoundWeapon | None = None
    at: HexKey | None = None
    """On a map: the Hex of the empty (unequipped) suit's figure (9.5: it occupies its Hex; agents, aliens and NPCs
    cross it, only an agent who equips it ends its movement there). Required on a map when no agent wears it;
    omitted when one does (the suit is where its wearer is)."""
    recall: bool = False
    """The mission gives the Recall Power Suit special Action (9.5.1: "in the later missions"; the Storybook's
    mission special rules say which): ``suit = "recall"`` on an Action equips the suit wherever it is."""


SUIT_BONUS = {"mark_i": 2, "mark_ii": 3}
"""9.5.2.1: movement points a Power Suit adds to its agent's standard movement."""


class RoundMasterAlien(Strict):
    """A Master Alien in play (11.3) and the Menace token (11.3.1): ``holder`` (default: the Alpha Agent, who
    receives it when the Master Alien enters play) and ``level``."""

    name: Name = "Master Alien"
    holder: Name | None = None
    level: int = Field(1, ge=1, le=2)


class RoundEventModel(Strict):
    balancer: Literal["aliens", "aliens_and_signals"] = "aliens"
    aliens: int = Field(0, ge=0, le=40)
    signals: int = Field(0, ge=0, le=40)


class RoundScenario(GdScenarioHeader):
    """A validated ``round`` scenario (see the module docstring)."""

    kind: Literal["round"] = "round"
    title: str = Field("A round", max_length=MAX_TITLE)
    round: int = Field(1, ge=1, le=30)
    agents: list[RoundAgent] = Field(min_length=1, max_length=6)
    npcs: list[RoundNpc] = Field(default_factory=list, max_length=5)
    power_suit: RoundSuitModel | None = None
    cards: list[CardModel] = Field(default_factory=list, max_length=MAX_CARDS)
    master_alien: RoundMasterAlien | None = None
    fighting_poses: bool = False
    fighting_pose_tokens: dict[PoseName, PoseTokenEdit] = Field(default_factory=dict, max_length=3)
    """With ``fighting_poses = true``: the numbers on your Fighting Pose tokens (9.2.2), replacing the STAND-IN
    values of ``card_data/fighting-poses.toml`` field by field (:mod:`.poses`)."""
    twins_in_arms: bool = False
    """10.1.1.1 Twins in Arms [Optional rule=OFF]: ON, an NPC card may be the twin (``twin_of``) of an agent in play."""
    turns: list[TurnModel] = Field(default_factory=list, max_length=6)
    event: RoundEventModel | None = None
    map: CombatMapModel | None = None
    aliens: list[RoundAlien] = Field(default_factory=list, max_length=12)
    high_impact: bool = True
    friendly_fire: bool = False
    """The Friendly Fire optional rule (Storybook 6: OFF at EASY and NORMAL, ON at HARD); when ON it holds for NPC
    attacks too (10.2.2). Its effect, which this book does not print, is ruling ``friendly_fire_reach``."""
    mission: RoundMissionModel | None = None
    signals: list[RoundSignal] = Field(default_factory=list, max_length=20)
    npc_deck: list[RoundNpcCard] = Field(default_factory=list, max_length=12)
    npc_discard: list[RoundNpcCard] = Field(default_factory=list, max_length=12)
    """The NPC discard pile when the round starts (cards of NPCs that died earlier, 10.4), as ``[[npc_deck]]``;
    reshuffled into the deck when the deck runs out (10.1.1, :func:`.round_signals.reshuffle_npc_discard`)."""
    npc_reshuffles: list[Annotated[list[Name], Field(min_length=1, max_length=MAX_NPC_PILE)]] = Field(
        default_factory=list, max_length=MAX_NPC_RESHUFFLES)
    """The new NPC deck's order, top first, each time the deck runs out and the discard pile is reshuffled (10.1.1),
    in the order the reshuffles come: entry ``k`` for the round's ``k + 1``-th; each must hold the pile's cards at
    that point, each once (refused otherwise, and an entry for a reshuffle that never comes); a reshuffle without an
    entry takes its order from the seed. As Mass Effect's ``reshuffles`` for its Hazard deck."""
    npc_specialist: Name | None = None
    critical_discard: list[Annotated[str, Field(min_length=1, max_length=40)]] = Field(default_factory=list,
                                                                                       max_length=60)
    """On a map: Critical token ids in the discard piles when the round starts (8.2: out of the piles until a pile
    is recreated, ruling ``critical_pile_reform``). Every other token is in its pile. Default: none."""
    drones: list[RoundDrone] = Field(default_factory=list, max_length=12)
    drone_tiles: dict[DroneKind, DroneTile] = Field(default_factory=dict, max_length=3)
    _source: str = PrivateAttr("scenario")


def check_twins(sc: RoundScenario, source: str) -> None:
    """10.1.1.1 Twins in Arms [Optional rule=OFF]: while OFF (the default) the NPC version of every agent in play is
    removed from the NPC deck at setup, drones excepted, so no NPC card of the round (``[[npc_deck]]``,
    ``[[npc_discard]]``, ``[[npcs]]``) may be the twin of an agent in play.

    Raises:
        ScenarioError: naming ``<list>[i].twin_of``: a twin of an agent in play while the rule is OFF, or a
            ``twin_of`` naming an NPC card (it names a playable agent).
    """
    agents = {a.name for a in sc.agents}
    npcs = {c.name for c in sc.npc_deck + sc.npc_discard} | {n.name for n in sc.npcs}
    for key, cards in (("npc_deck", sc.npc_deck), ("npc_discard", sc.npc_discard), ("npcs", sc.npcs)):
        for i, c in enumerate(cards):
            if c.twin_of is None:
                continue
            if c.twin_of in npcs:
                raise ScenarioError(f"{key}[{i}].twin_of", f"{c.twin_of!r} is an NPC card: twin_of names the "
                                    "playable agent this NPC is the ally version of (10.1.1.1)",
                                    "a playable agent's name", source)
            if c.twin_of in agents and not c.drone and not sc.twins_in_arms:
                raise ScenarioError(f"{key}[{i}].twin_of", f"{c.name} is the NPC version of {c.twin_of}, who is in "
                                    "play: with Twins in Arms OFF it is removed from the NPC deck (10.1.1.1 Twins in "
                                    "Arms [Optional rule=OFF])", "twins_in_arms = true, drone = true, or no such "
                                    "card", source)


def parse_round(data: dict, source: str) -> RoundScenario:
    """Validate a ``round`` scenario (the file's shape; the rules' refusals come while it is played).

    Raises:
        ScenarioError: a field out of bounds or unknown; duplicate names; an NPC controlled by no listed agent; a
            turn of an unknown agent; ``npc`` missing on ``activate_npc`` or given on another activity; an unknown
            ruling.
    """
    sc = validate(RoundScenario, data, source)
    sc._source = source
    with with_source(source):
        make_rulings(sc.rulings)
    names = [a.name for a in sc.agents] + [n.name for n in sc.npcs]
    for i, n in enumerate(names):
        if names.index(n) != i:
            raise ScenarioError("agents" if i < len(sc.agents) else f"npcs[{i - len(sc.agents)}].name",
                                f"{n!r} is used twice", "unique names", source)
    agents = [a.name for a in sc.agents]
    for i, n in enumerate(sc.npcs):
        if n.controller not in agents:
            raise ScenarioError(f"npcs[{i}].controller", f"no agent named {n.controller!r}", agents, source)
    check_twins(sc, source)
    table = card_table(sc.cards, source)
    for i, a in enumerate(sc.agents):
        for key in ("cards", "face_down", "rotated"):
            for j, cid in enumerate(getattr(a, key)):
                if cid not in table:
                    raise ScenarioError(f"agents[{i}].{key}[{j}]", f"no card {cid!r} in the card list",
                                        "an id of the stand-in list or of [[cards]]", source)
                if key != "cards" and cid not in a.cards:
                    raise ScenarioError(f"agents[{i}].{key}[{j}]", f"{a.name} does not hold {cid!r}",
                                        "an id from the agent's cards", source)
        if len(set(a.cards)) != len(a.cards):
            raise ScenarioError(f"agents[{i}].cards", "a card is listed twice", "each card once", source)
        for j, cid in enumerate(a.rotated):
            if not table[cid].once_per_mission:
                raise ScenarioError(f"agents[{i}].rotated[{j}]", f"{cid!r} is not a once-per-mission Psionic Power "
                                    "(9.7.2)", "face_down for other used cards", source)
    for i, t in enumerate(sc.turns):
        if t.agent not in agents:
            raise ScenarioError(f"turns[{i}].agent", f"no agent named {t.agent!r}", agents, source)
        for j, a in enumerate(t.activities):
            f = f"turns[{i}].activities[{j}]"
            if (a.kind in ("activate_npc", "npc_tactic")) != (a.npc is not None):
                raise ScenarioError(f"{f}.npc", "an NPC is named by activate_npc and npc_tactic only",
                                    "npc with kind = 'activate_npc' or 'npc_tactic', and only there", source)
            if a.tactic and a.kind != "activate_npc":
                raise ScenarioError(f"{f}.tactic", "tactic = true marks an NPC activation that uses its NPC Tactic",
                                    "kind = 'activate_npc' (or kind = 'npc_tactic' outside the activation)", source)
            if a.kind == "npc_tactic" and (a.use or a.drone or a.suit):
                raise ScenarioError(f"{f}.kind", "an NPC Tactic is the NPC's power, used with no agent card",
                                    "omit use, drone and suit", source)
            if a.use is not None and a.kind == "activate_npc":
                raise ScenarioError(f"{f}.use", "an NPC activation uses no agent card", "omit use", source)
            if a.use is not None and a.use not in table:
                raise ScenarioError(f"{f}.use", f"no card {a.use!r} in the card list",
                                    "an id of the stand-in list or of [[cards]]", source)
            if a.drone is not None and (a.kind != "action" or a.use is not None):
                raise ScenarioError(f"{f}.drone", "a drone is activated by the Action activity alone (9.7.4.2, 9.7.4.3)",
                                    "kind = 'action' without use", source)
            if a.evade and (a.kind not in ("move", "action") or a.to is None or (a.kind == "action" and not a.drone)):
                raise ScenarioError(f"{f}.evade", "an Evade is the engaged agent's (or drone's) test to walk away "
                                    "(7.3, 10.2.1, 11.11; 9.7.4.2)", "kind = 'move' with to, or kind = 'action' "
                                    "with drone and to", source)
            if a.pose is not None and a.kind != "move":
                raise ScenarioError(f"{f}.pose", "a Fighting Pose is assumed by spending movement (9.2.2)",
                                    "kind = 'move'", source)
            if a.pose is not None and not sc.fighting_poses:
                raise ScenarioError(f"{f}.pose", "the Fighting Poses optional rule is off (9.2.2, default OFF)",
                                    "fighting_poses = true, or omit pose", source)
            if a.seize is not None and (a.kind != "free_action" or a.use):
                raise ScenarioError(f"{f}.seize", "Seize is used as a Free Action during the agent's movement (7.3)",
                                    "kind = 'free_action' without use", source)
            if a.seize is not None and a.seize not in agents:
                raise ScenarioError(f"{f}.seize", f"no agent named {a.seize!r}", agents, source)
            if a.menace is not None and (a.kind != "action" or a.use or a.drone or a.suit):
                raise ScenarioError(f"{f}.menace", "the Menace token is changed with the Action activity alone "
                                    "(11.3.1)", "kind = 'action' without use, drone or suit", source)
            if a.menace is not None and sc.master_alien is None:
                raise ScenarioError(f"{f}.menace", "no Master Alien is in play", "a [master_alien] table", source)
            if a.suit is not None and sc.power_suit is None:
                raise ScenarioError(f"{f}.suit", "the round has no Power Suit", "a [power_suit] table", source)
            if a.suit == "recall" and not sc.power_suit.recall:
                raise ScenarioError(f"{f}.suit", "the Recall Power Suit special Action comes in the later missions "
                                    "(9.5.1): the mission's special rules give it", "power_suit.recall = true, or "
                                    "'equip' in the suit's Hex", source)
            if a.place is not None and a.suit == "unequip":
                pass
            elif a.place is not None and a.suit is not None:
                raise ScenarioError(f"{f}.place", "place names a Device's figure's Hex, or the Hex an agent leaving "
                                    "its Power Suit steps to (9.5.1)", "suit = 'unequip', or a Device", source)
            if a.suit in ("equip", "unequip", "recall") and (a.kind != "action" or a.use or a.drone):
                raise ScenarioError(f"{f}.suit", f"to {a.suit} a Power Suit the agent spends its Action activity "
                                    "(9.5.1)", "kind = 'action' without use or drone", source)
            if a.suit == "weapon" and a.kind not in ("combat", "action"):
                raise ScenarioError(f"{f}.suit", "the Power Suit's weapon is fired with the Combat activity "
                                    "(9.5.2.2)", "kind = 'combat'", source)
    if sc.fighting_pose_tokens and not sc.fighting_poses:
        raise ScenarioError("fighting_pose_tokens", "the Fighting Poses optional rule is off (9.2.2, default OFF)",
                            "fighting_poses = true, or omit fighting_pose_tokens", source)
    for i, a in enumerate(sc.agents):
        if a.pose != "standing" and not sc.fighting_poses:
            raise ScenarioError(f"agents[{i}].pose", "the Fighting Poses optional rule is off (9.2.2, default OFF)",
                                "fighting_poses = true, or 'standing'", source)
    ma = sc.master_alien
    if sc.npc_specialist is not None and sc.npc_specialist not in agents:
        raise ScenarioError("npc_specialist", f"no agent named {sc.npc_specialist!r}", agents, source)
    if ma is not None and ma.holder is not None and ma.holder not in agents:
        raise ScenarioError("master_alien.holder", f"no agent named {ma.holder!r}", agents, source)
    ps = sc.power_suit
    if ps is not None:
        if ps.equipped_by is not None and ps.equipped_by not in agents:
            raise ScenarioError("power_suit.equipped_by", f"no agent named {ps.equipped_by!r}", agents, source)
        if ps.shields_left is not None and (ps.energy_shields is None or ps.shields_left > ps.energy_shields):
            raise ScenarioError("power_suit.shields_left", "more shields left than the suit has (or no "
                                "energy_shields)", "0..energy_shields", source)
    from .round_map import check_round_map

    check_round_map(sc, source)
    if sc.mission is not None:
        check_round_mission(sc.mission, len(sc.agents), source)
    return sc


# ------------------------------------------------------------------------------------------------ state

@dataclass(frozen=True)
class NpcState:
    """An NPC between steps: its figure (a :class:`TargetState`), its controller and its 10.4.1 tokens."""

    figure: TargetState
    controller: str
    paralyzed: bool = False
    immobilized: bool = False
    tactic: str | None = None
    tactic_used: bool = False
    revealed: bool = False
    """It entered play this round from a revealed NPC signal (11.10.1)."""


@dataclass(frozen=True)
class TurnRecord:
    """One agent turn as played: the agent, its activities in order (``kind`` or ``kind: what``) and the NPCs it
    activated."""

    agent: str
    activities: tuple[str, ...]
    npcs: tuple[str, ...]


@dataclass(frozen=True)
class RoundItem:
    """One entry of the Battle phase as the round plays it: an agent turn (``kind = "turn"``), the Close Encounter
    card drawn after it (``"card"``) or one alien that card activates (``"alien"``, named)."""

    kind: str
    turn: int
    alien: str = ""

    def __str__(self) -> str:
        return {"turn": f"Agent turn {self.turn}", "card": f"Close Encounter {self.turn}"}.get(
            self.kind, f"Aliens turn {self.turn}: " + (f"selected alien {self.alien[1:]}" if self.alien.startswith("#")
                                                        else self.alien))


@dataclass(frozen=True)
class RoundState:
    """The round between steps (immutable): the agents and NPCs, the Power Suit, the turns played, the signals the
    Event card teleported (``None`` before the Event phase) and the turn ``numbers`` (1 to n) to play. On a map:
    ``figures`` (every figure's hex; a dead alien or NPC is off it), ``aliens`` (their wounds and tokens),
    ``paralyzed_aliens``, ``notes`` (what each frame shows on the map, :data:`.round_map.MapNote`) and ``items``
    (the Battle phase entries: agent turns, Close Encounter cards, alien activations)."""

    agents: tuple[TargetState, ...]
    npcs: tuple[NpcState, ...] = ()
    suit: PowerSuit | None = None
    turns: tuple[TurnRecord, ...] = ()
    teleported: int | None = None
    numbers: tuple[int, ...] = ()
    cards: tuple[AgentCards, ...] = ()
    suit_shields: int | None = None
    menace: Menace | None = None
    poses: tuple[tuple[str, str], ...] = ()
    figures: tuple[Placed, ...] = ()
    aliens: tuple[TargetState, ...] = ()
    paralyzed_aliens: tuple[str, ...] = ()
    notes: tuple[MapNote, ...] = ()
    items: tuple[RoundItem, ...] = ()
    selected: tuple[str, ...] = ()
    mission: MissionState | None = None
    signals: tuple = ()
    """The signal tokens on the map (:class:`.round_signals.SignalOnMap`)."""
    revealed: tuple[str, ...] = ()
    """The aliens that entered play this round from a revealed Alien signal (11.10)."""
    npc_deck: tuple[str, ...] = ()
    """The NPC deck's cards left, top first."""
    npc_discard: tuple[str, ...] = ()
    """The NPC discard pile's cards from the file (a card of an NPC that dies in the round joins the pile too:
    :func:`.round_signals.npc_discard_pile`)."""
    reshuffles: int = 0
    """How many times the NPC discard pile was reshuffled into the deck this round (10.1.1)."""
    drones: tuple[TargetState, ...] = ()
    """The drones deployed (wounds; a destroyed one has ``down``)."""
    alpha: str | None = None
    """The Alpha Agent after a succession this round (:func:`alpha_succession`); ``None``: the file's first agent."""
    alpha_kept: bool = False
    """The eliminated Alpha Agent keeps the role (ruling ``alpha_agent_succession`` = keeps_role), already said."""

    def pose_of(self, agent: str) -> str:
        return dict(self.poses).get(agent, "standing")

    def cards_of(self, agent: str) -> AgentCards | None:
        return next((c for c in self.cards if c.agent == agent), None)

    def with_cards(self, new: AgentCards) -> "RoundState":
        if self.cards_of(new.agent) is None:
            return replace(self, cards=self.cards + (new,))
        return replace(self, cards=tuple(new if c.agent == new.agent else c for c in self.cards))


@dataclass(frozen=True)
class RoundContext(Context):
    """What the round's steps read: the scenario and its file name (``source``, named in refusals)."""

    scenario: RoundScenario | None = None
    source: str = "scenario"
    table: Mapping[str, CardModel] | None = None
    stand_ins: frozenset[str] = frozenset()
    amap: object | None = None
    piles: object | None = None
    """On a map: the round's Critical piles (:class:`.combat.CriticalPiles`, 8.2), shared by every attack."""


# ------------------------------------------------------------------------------------------------ steps

def refresh_phase(state: RoundState, ctx: RoundContext) -> tuple[RoundState, tuple[Step, ...]]:
    """6.1 Refresh Phase, its effects simultaneous: every agent's and NPC's Poison, Mark and temporary Criticals
    (:func:`.conditions.refresh`; a dead NPC is off the map), the NPCs' Paralyzed and Immobilized tokens (10.4.1),
    the Power Suit's Battery (9.5)."""
    sec = "Refresh phase"
    steps: list[Step] = []
    agents = []
    for a in state.agents:
        t, st = refresh(a, sec)
        agents.append(t)
        steps += st
    npcs = []
    for n in state.npcs:
        t, st = refresh(n.figure, sec)
        gone = [w for w, on in (("Paralyzed", n.paralyzed), ("Immobilized", n.immobilized)) if on]
        if gone and not t.down and len(st) == 1 and st[0].title.startswith("Nothing on"):
            st = []
        steps += st
        if gone and not t.down:
            steps.append(Step(f"{t.name}'s {' and '.join(gone)} token{'s' if len(gone) > 1 else ''} removed",
                              S.NPC_BODY_CONDITION, ("They last" if len(gone) > 1 else "It lasts") +
                              " until the next Refresh phase.", {"removed": gone},
                              (t.name,), sec))
        npcs.append(replace(n, figure=t, paralyzed=False, immobilized=False))
    aliens = []
    for a in state.aliens:
        t, st = refresh(a, sec)
        aliens.append(t)
        steps += [x for x in st if not x.title.startswith("Nothing on")]
    state = replace(state, aliens=tuple(aliens))
    suit, st = power_suit_energy(state.suit, sec)
    steps += st
    if suit is None and state.suit is not None:     # 9.5: its figure goes to the Warehouse (an empty one's hex)
        state = replace(state, figures=tuple(p for p in state.figures if p.side != "power_suit"))
    full = ctx.scenario.power_suit.energy_shields if ctx.scenario.power_suit else None
    shields = state.suit_shields
    if suit is not None and full is not None:
        if shields != full:
            steps.append(Step(f"{suit.name}'s energy shields refresh: {shields} -> {full}", S.POWER_SUIT_SHIELDS,
                              "A Power Suit's energy shields are refreshed automatically in each Refresh phase.",
                              {"shields": full}, (suit.name,), sec))
        shields = full
    elif suit is None:
        shields = None
    state = replace(state, suit_shields=shields)
    cards = []
    for c in state.cards:
        c, st = refresh_cards(c, ctx.table, sec)
        cards.append(c)
        steps += st
    state, more = alpha_succession(replace(state, agents=tuple(agents), npcs=tuple(npcs), suit=suit,
                                           cards=tuple(cards)), ctx)
    return state, tuple(steps) + more


def turn_numbers(state: RoundState) -> tuple[int, ...]:
    """The items of :data:`ROUND_SEQUENCE`'s agent-turn entry: the turn numbers, from 1."""
    return state.numbers


def _refuse(ctx: RoundContext, reason: str, rule, field: str, step: str):
    raise RuleViolation(reason, rule, field=field, step=step, source=ctx.source)


def agent_turn(state: RoundState, ctx: RoundContext, number: int) -> tuple[RoundState, tuple[Step, ...]]:
    """One agent turn (6.2.1): one per agent per round; the activities in the players' order, Free Actions any
    number of times and the Action once (6.2.1.1); NPC activations (10.2, 6.2.1.2) before the first activity or
    after the last, each assigned NPC once and every one of them each turn (a Paralyzed NPC skips, an Immobilized
    one only follows behavior without movement, 10.4.1; a dead one is off the map, 10.4).

    Raises:
        RuleViolation: a second turn of one agent, a second Action, an NPC activated between two activities, an
            NPC not assigned to the agent or activated twice, an assigned NPC left unactivated, a second Movement
            activity (ruling ``movement_activity = once``), a walk past the movement points left this turn, or a
            ``move`` after a failed Evade (ruling ``failed_evade = movement_ends``, a STAND-IN).
    """
    turn = ctx.scenario.turns[number - 1]
    field = f"turns[{number - 1}]"
    sec = f"Agent turn {number}: {turn.agent}"
    if any(t.agent == turn.agent for t in state.turns):
        _refuse(ctx, f"{turn.agent} already had its turn this round", S.AGENT_TURN, f"{field}.agent", sec)
    agent = next(a for a in state.agents if a.name == turn.agent)
    steps: list[Step] = []
    if agent.down:
        steps.append(Step(f"{agent.name} is bleeding", S.HEALTH_POINTS, "Its turn is played as the Core Set allows a "
                          "bleeding agent; this increment does not check its activities.", section=sec,
                          marks=(agent.name,)))
    own = {n.figure.name: n for n in state.npcs if n.controller == turn.agent}
    held = state.cards_of(turn.agent)
    if held is not None:
        state = state.with_cards(replace(held, this_turn=()))
    model = next(a for a in ctx.scenario.agents if a.name == turn.agent)
    kinds = [a.kind for a in turn.activities]
    agent_acts = [i for i, k in enumerate(kinds) if k not in ("activate_npc", "npc_tactic")]
    done_actions = done_combat = seized = 0
    bonus_hits, bonus_dice = 0, {}
    activated: list[str] = []
    last_move: int | None = None
    moved = None            # a round_map.TurnMovement once the agent has moved this turn
    labels: list[str] = []
    for j, act in enumerate(turn.activities):
        f = f"{field}.activities[{j}]"
        if act.kind == "activate_npc":
            if agent_acts and agent_acts[0] < j < agent_acts[-1]:
                _refuse(ctx, f"{act.npc} is activated between two of {turn.agent}'s activities; NPCs are activated "
                        "before the agent's first activity or after its last", S.NPC_ACTIVATION, f, sec)
            n = own.get(act.npc)
            if n is None and any(x.revealed and x.controller == turn.agent and x.figure.name == act.npc
                                 for x in state.npcs) and \
                    ctx.rulings.reading("revealed_npc_activation") == "same_turn":
                n = next((x for x in state.npcs if x.figure.name == act.npc and x.controller == turn.agent
                          and x.figure.name not in own and x.revealed), None)
                if n is not None and agent_acts and j < agent_acts[-1]:
                    _refuse(ctx, f"{act.npc} entered play during {turn.agent}'s turn: it is activated after the "
                            "agent's last activity (ruling revealed_npc_activation = same_turn)", S.NPC_ACTIVATION,
                            f, sec)
            if n is None:
                holder = next((x.controller for x in state.npcs if x.figure.name == act.npc), None)
                _refuse(ctx, f"{act.npc} is not assigned to {turn.agent}" + (f" (its controller is {holder})"
                                                                              if holder else " (no such NPC)"),
                        S.NPC_ACTIVATION, f"{f}.npc", sec)
            if act.npc in activated:
                _refuse(ctx, f"{act.npc} was already activated this turn", S.NPC_ACTIVATION, f"{f}.npc", sec)
            activated.append(act.npc)
            t = n.figure
            if t.down:
                steps.append(Step(f"{t.name} is dead: it is no longer on the map", S.NPC_HEALTH, "", section=sec,
                                  marks=(t.name,)))
            elif n.paralyzed:
                steps.append(Step(f"{t.name} is Paralyzed: it skips its activation", S.NPC_BODY_CONDITION,
                                  "Until the next Refresh phase.", section=sec, marks=(t.name,)))
            else:
                from .round_signals import npc_model

                on_map = ctx.amap is not None and bool(npc_model(ctx, t.name).rules)
                steps.append(Step(f"{turn.agent} activates {t.name}" + (
                    " (Immobilized: only its behavior without movement)" if n.immobilized else ""),
                    S.NPC_BODY_CONDITION if n.immobilized else S.NPC_ACTIVATION,
                    "The controlling player applies the first relevant behavior rule of its A.I. section" + (
                        ", on the map:" if on_map else " (the activation kind resolves it)."), section=sec,
                    marks=(t.name,), facts={"npc": t.name}))
                if on_map:
                    from .round_map import npc_on_map

                    nm = npc_model(ctx, t.name)
                    state, st = npc_on_map(state, ctx, n, nm, act, f, sec)
                    steps += st
            if act.tactic:
                if t.down or n.paralyzed:
                    _refuse(ctx, f"{t.name} " + ("is dead" if t.down else "is Paralyzed and skips its activation")
                            + ": no activation to use its NPC Tactic in", S.NPC_TACTIC, f"{f}.tactic", sec)
                state, st = use_npc_tactic(state, ctx, act.npc, True, f"{f}.tactic", sec)
                steps += st
            labels.append(f"activate {act.npc}" + (" [NPC Tactic]" if act.tactic else ""))
            continue
        if act.kind == "npc_tactic":
            state, st = use_npc_tactic(state, ctx, act.npc, False, f"{f}.npc", sec)
            steps += st
            labels.append(f"NPC Tactic of {act.npc}")
            continue
        combat_is_action = act.kind == "combat" and ctx.rulings.reading("combat_activity") == "is_the_action"
        if act.kind == "action" or combat_is_action:
            done_actions += 1
            if done_actions > 1:
                _refuse(ctx, f"{turn.agent} already used its Action activity this turn; only Free Actions repeat"
                        + (" (the Combat activity is the Action: ruling combat_activity)" if combat_is_action
                           else ""), S.FREE_ACTION, f, sec)
        elif act.kind == "combat":
            done_combat += 1
            if done_combat > 1:
                _refuse(ctx, f"{turn.agent} already used its Combat activity this turn (once per agent turn: ruling "
                        "combat_activity)", S.POWERS_ITEMS, f, sec)
        if act.kind == "move":
            if last_move is not None:
                between = turn.activities[last_move + 1:j]
                if not all(_keeps_movement(a) for a in between) and \
                        ctx.rulings.reading("movement_activity") == "once":
                    _refuse(ctx, f"{turn.agent} already used its Movement activity this turn (activities[{last_move}]"
                            "); only a Seize (7.3) or equipping the Power Suit (9.5.1) leaves it going on (ruling "
                            "movement_activity = once; split lets several moves share one allowance)", S.AGENT_TURN,
                            f, sec)
            last_move = j
        word = {"move": "Move", "action": "Action", "free_action": "Free Action", "combat": "Combat"}[act.kind]
        rule = S.FREE_ACTION if act.kind == "free_action" else \
            S.POWERS_ITEMS if act.kind == "combat" else S.ACTION_ACTIVITY if act.kind == "action" else S.AGENT_TURN
        why = {"free_action": "Any number of Free Actions per turn; each works like an Action activity.",
               "action": "The Action activity: once per agent turn.",
               "combat": "The Combat activity: " + ("the turn's Action activity (ruling combat_activity)."
                                                     if combat_is_action else "once per agent turn, beside the "
                                                     "Action (ruling combat_activity)."),
               "move": "On the map: the walk below." if act.to else
                       "Resolved by the Core Set movement rules (not checked in this increment)."}[act.kind]
        steps.append(Step(f"{turn.agent}: {word}" + (f" ({act.what})" if act.what else ""), rule, why, section=sec,
                          marks=(turn.agent,), facts={"activity": act.kind}))
        label = act.kind + (f": {act.what}" if act.what else "")
        if act.kind == "move":
            from .round_map import walk

            if moved is not None and moved.evade_failed and ctx.rulings.reading("failed_evade") == "movement_ends":
                _refuse(ctx, f"{turn.agent}'s Evade failed at {moved.evade_failed.rsplit('.', 1)[-1]}: its Movement "
                        "activity is over this turn (ruling failed_evade = movement_ends, a STAND-IN for the Core "
                        "Set's test; walk_only loses that walk alone)", S.BATTLE_PHASE, f, sec)
            state, st, moved = walk(state, ctx, model, act, f, sec, moved)
            steps += st
            if act.to is not None:
                label += f" to {act.to}" + (" [Evade failed]" if act.evade == "failed" else "")
        if act.reveal:
            from .round_signals import reveal_signals

            state, st = reveal_signals(state, ctx, act.reveal, f, sec)
            steps += st
            label += f" [reveals {', '.join(act.reveal)}]"
        if act.kind == "move" and ctx.scenario.fighting_poses:
            state, st = move_with_pose(state, ctx, turn.agent, act.pose, f"{f}.pose", sec)
            steps += st
            if act.pose:
                label += f" [pose {act.pose}]"
        if act.suit in ("equip", "weapon") and ctx.scenario.fighting_poses and state.pose_of(turn.agent) != "standing":
            _refuse(ctx, f"{turn.agent} is {state.pose_of(turn.agent)}; only the Standing pose is possible with a "
                    "Power Suit, so the agent must first return to Standing", S.FIGHTING_POSES, f"{f}.suit", sec)
        if act.seize is not None:
            seized += 1
            st = seize_agent(state, ctx, model, act.seize, turn.activities, j, seized, f"{f}.seize", sec)
            steps += st
            label += f" [seizes {act.seize}]"
        if act.menace is not None:
            state, st = menace_activity(state, ctx, turn.agent, act.menace, f"{f}.menace", sec)
            steps += st
            label += f" [menace {act.menace}]"
        if act.suit is not None:
            state, st = suit_activity(state, ctx, turn.agent, act.suit, act.kind, f"{f}.suit", sec, act.place)
            steps += st
            label += f" [suit {act.suit}]"
        if act.use is not None or act.drone is not None:
            cards = state.cards_of(turn.agent) or AgentCards(turn.agent)
            try:
                if act.use is not None:
                    cards, st = use_card(cards, ctx.table[act.use], act.kind, model.rank, model.agent_class,
                                         ctx.scenario.round, ctx.rulings, sec, act.use in ctx.stand_ins)
                    label += f" [uses {act.use}]"
                    now = state.pose_of(turn.agent)
                    if ctx.table[act.use].moves and ctx.scenario.fighting_poses and now != "standing":
                        state = replace(state, poses=tuple((a, "standing" if a == turn.agent else p)
                                                           for a, p in state.poses))
                        st = st + (Step(f"{turn.agent} returns to Standing from {now.title()}", S.FIGHTING_POSES,
                                        f"{ctx.table[act.use].name} moves the agent outside its Movement activity.",
                                        section=sec, marks=(turn.agent,), facts={"pose": "standing"}),)
                else:
                    cards, st = activate_drone(cards, act.drone, ctx.scenario.round, sec)
                    label += f" [activates {act.drone}]"
            except CardRefusal as e:
                _refuse(ctx, e.reason, e.rule, f"{f}.{e.field}", sec)
            state = state.with_cards(cards)
            steps += st
            if ctx.amap is not None and act.use is not None and ctx.table[act.use].deploys != "none":
                from .round_signals import place_drone

                state, st = place_drone(state, ctx, turn.agent, ctx.table[act.use].deploys, act.place, f, sec)
                steps += st
            if ctx.amap is not None and act.drone is not None:
                from .round_signals import drone_on_map

                state, st = drone_on_map(state, ctx, turn.agent, act.drone, act, f, sec)
                steps += st
            card = ctx.table[act.use] if act.use is not None else None
            if card is not None and (card.bonus_hits or card.bonus_dice) and ctx.amap is not None and (
                    act.target is not None or ctx.rulings.reading("card_bonus_timing") == "next_attack"):
                bonus_hits += card.bonus_hits   # its own attack, or the next one (ruling card_bonus_timing)
                for c, k in card.bonus_dice.items():
                    bonus_dice[c] = bonus_dice.get(c, 0) + k
        if act.target is not None and act.drone is None:
            from .round_map import agent_attack

            label += f" on {act.target}"
            state, st = agent_attack(state, ctx, model, act, f, sec, bonus_hits, bonus_dice)
            steps += st
            bonus_hits, bonus_dice = 0, {}
        labels.append(label)
    fresh = [x for x in state.npcs if x.controller == turn.agent and x.revealed and x.figure.name not in own]
    if fresh and ctx.rulings.reading("revealed_npc_activation") == "same_turn":
        own |= {x.figure.name: x for x in state.npcs if x.controller == turn.agent and x.revealed
                and x.figure.name not in own}
    missing = [n for n in own if n not in activated and not own[n].figure.down]
    if missing:
        _refuse(ctx, f"{turn.agent} did not activate {', '.join(missing)}; NPCs must be activated each agent turn",
                S.NPC_ACTIVATION, f"{field}.activities", sec)
    if not steps:
        steps.append(Step(f"{turn.agent} passes its turn", S.AGENT_TURN, "", section=sec, marks=(turn.agent,)))
    rec = TurnRecord(turn.agent, tuple(labels), tuple(activated))
    return replace(state, turns=state.turns + (rec,)), tuple(steps)


def _keeps_movement(act: ActivityModel) -> bool:
    """Whether ``act``, between two ``move`` entries, leaves the agent's one Movement activity going on (ruling
    ``movement_activity = once``): a Seize, a Free Action used 'anytime during his movement' (7.3), or equipping the
    Power Suit, an Action that 'does not interrupt movement' (9.5.1; the Recall special Action equips it too)."""
    return (act.kind == "free_action" and act.seize is not None) or \
        (act.kind == "action" and act.suit in ("equip", "recall"))


def pose_cost(ctx: RoundContext, pose: str) -> int:
    """Movement points to assume ``pose`` (9.2.2: printed on the agent's pose token; the STAND-IN of
    ``card_data/fighting-poses.toml`` unless the file's ``[fighting_pose_tokens.<pose>]`` gives it)."""
    return pose_tokens(ctx.scenario.fighting_pose_tokens)[pose].cost


def move_with_pose(state: RoundState, ctx: RoundContext, agent: str, pose: str | None, field: str, sec: str
                   ) -> tuple[RoundState, tuple[Step, ...]]:
    """9.2.2 Fighting Poses (optional, with ``fighting_poses = true``) in a Movement activity: the agent may spend
    movement points to assume another pose; a Prone agent cannot move except to change its pose; a Crouching agent
    spends 2 movement points per Hex; an agent in a Power Suit can only be Standing.

    Raises:
        RuleViolation: a Prone agent moving without changing its pose, a pose it already has, or a pose other than
            Standing while wearing a Power Suit.
    """
    now = state.pose_of(agent)
    if pose is None:
        if now == "prone":
            _refuse(ctx, f"{agent} is Prone: no movement is allowed except changing its Fighting Pose",
                    S.FIGHTING_POSES, field, sec)
        if now == "crouching":
            return state, (Step(f"{agent} moves Crouching: 2 movement points per Hex", S.FIGHTING_POSES, "",
                                section=sec, marks=(agent,)),)
        return state, ()
    if pose == now:
        _refuse(ctx, f"{agent} is already {pose}", S.FIGHTING_POSES, field, sec)
    suit = state.suit
    if pose != "standing" and suit is not None and suit.equipped_by == agent:
        _refuse(ctx, f"{agent} wears {suit.name}: the only Fighting Pose possible with it is Standing",
                S.FIGHTING_POSES, field, sec)
    poses = tuple((a, pose if a == agent else p) for a, p in state.poses)
    if pose == "standing" and ctx.amap is not None:
        from .round_map import adjacent_foes

        foes, _ = adjacent_foes(state, ctx, agent)
        if foes:
            return replace(state, poses=poses), (Step(
                f"{agent} spends its entire movement activity to go from {now.title()} to Standing", S.FIGHTING_POSES,
                f"Engaged in combat ({', '.join(foes)}): standing up from Crouching or Prone takes the entire "
                "movement activity, whatever the token's cost.", {"pose": pose, "engaged": foes}, (agent,), sec),)
    return replace(state, poses=poses), (Step(
        f"{agent} spends {plural(pose_cost(ctx, pose), 'movement point')} to go from {now.title()} to "
        f"{pose.title()}", S.FIGHTING_POSES, ("STAND-IN cost (the real cost is printed on the pose token)."
                                              if is_stand_in(ctx.scenario.fighting_pose_tokens, pose, "cost") else
                                              "The cost on the pose token (the file's fighting_pose_tokens).") + (
            " Prone: no movement until it changes pose." if pose == "prone" else
            " Crouching: 2 movement points per Hex." if pose == "crouching" else ""), section=sec, marks=(agent,),
        facts={"pose": pose}),)


def seize_agent(state: RoundState, ctx: RoundContext, agent: RoundAgent, target: str, acts, j: int, count: int,
                field: str, sec: str) -> tuple[Step, ...]:
    """7.3 Seize, by an agent: a Free Action during its movement (next to one of its Movement activities), at most
    one agent seized per turn, by an agent with the Seize power (``seize_power``, or wearing a Power Suit whose sheet
    gives the Seize ability, 9.5); the seized agent must be Immobilized, Paralyzed or Bleeding. It moves with the
    seizing agent, ignoring engagement, and is placed adjacent when the movement ends.

    Raises:
        RuleViolation: no Seize power, not during the movement, a second seize this turn, seizing itself, or a
            target in none of the three conditions.
    """
    suit = state.suit
    wearing = suit is not None and suit.equipped_by == agent.name and ctx.scenario.power_suit.seize
    if not (agent.seize_power or wearing):
        _refuse(ctx, f"{agent.name} has no Seize power", S.SEIZE, field, sec)
    if target == agent.name:
        _refuse(ctx, f"{agent.name} cannot seize itself", S.SEIZE, field, sec)
    own = [i for i, a in enumerate(acts) if a.kind not in ("activate_npc", "npc_tactic")]
    k = own.index(j)
    near = [acts[own[x]].kind for x in (k - 1, k + 1) if 0 <= x < len(own)]
    if "move" not in near:
        _refuse(ctx, f"{agent.name} seizes outside its movement; Seize is a Free Action used during the movement",
                S.SEIZE, field, sec)
    if count > 1:
        _refuse(ctx, f"{agent.name} already seized an agent this turn (one per turn)", S.SEIZE, field, sec)
    t = next(a for a in state.agents if a.name == target)
    m = next(a for a in ctx.scenario.agents if a.name == target)
    why = [w for w, on in (("Bleeding", t.down), ("Immobilized", m.immobilized), ("Paralyzed", m.paralyzed)) if on]
    if not why:
        _refuse(ctx, f"{target} is not Immobilized, Paralyzed or Bleeding: it cannot be seized", S.SEIZE, field, sec)
    return (Step(f"{agent.name} seizes {target} ({', '.join(why)})", S.SEIZE, "The seized agent moves with it, "
                 "ignoring engagement and inheriting its special movement, and is placed in an adjacent Hex when the "
                 "movement ends." + (" The Seize ability is the Power Suit's." if wearing and not agent.seize_power
                                     else ""), section=sec, marks=(agent.name, target),
                 facts={"seized": target}),)


def menace_activity(state: RoundState, ctx: RoundContext, agent: str, what: str, field: str, sec: str
                    ) -> tuple[RoundState, tuple[Step, ...]]:
    """11.3.1 Menacing Agent System, an Action spent on the Menace token: the Menacing Agent raises it 1 -> 2 or
    lowers it 2 -> 1; another agent lowers it 2 -> 1, or at Level 1 takes it (the token changes agents only at
    Level 1). Steps from :func:`.phases.menace_action`.

    Raises:
        RuleViolation: a change the rule does not give this agent (raising another's token, taking it at Level 2,
            taking one's own token, raising a Level 2 or lowering a Level 1).
    """
    from .phases import menace_action

    m = state.menace
    mine = agent == m.holder
    bad = None
    if what == "raise":
        bad = None if mine and m.level == 1 else (
            "the token is already at Level 2" if mine else
            f"only the Menacing Agent ({m.holder}) may raise the token")
    elif what == "lower":
        bad = None if m.level == 2 else "the token is already at Level 1"
    else:
        bad = (f"{agent} already holds the token" if mine else None if m.level == 1 else
               f"the token is at Level 2 on {m.holder}: it must be lowered to Level 1 before it can change agents")
    if bad:
        _refuse(ctx, f"{agent} cannot {what} the Menace token: {bad}", S.MENACE, field, sec)
    to = (2 if what == "raise" else 1) if mine else None
    new, st = menace_action(m, agent, to)
    return replace(state, menace=new), tuple(x.in_section(sec) for x in st)


def use_npc_tactic(state: RoundState, ctx: RoundContext, npc: str, during: bool, field: str, sec: str
                   ) -> tuple[RoundState, tuple[Step, ...]]:
    """10.3 NPC Tactic: its controller chooses when to use it, by its colour: Purple (Passive) any time it is
    needed, Red (Attack) only during the NPC's activation, Blue (Reaction) only outside it (``during``: inside the
    activation). Once used it is discarded and not regained this mission (an "Act of Valor" Event does not bring
    it back). A dead NPC is off the map (10.4).

    Raises:
        RuleViolation: no such NPC, no NPC Tactic, already used, dead, or the colour's timing not met.
    """
    n = next((x for x in state.npcs if x.figure.name == npc), None)
    if n is None:
        _refuse(ctx, f"no NPC named {npc}", S.NPC_TACTIC, field, sec)
    if n.tactic is None:
        _refuse(ctx, f"{npc} has no NPC Tactic token (the file gives none)", S.NPC_TACTIC, field, sec)
    if n.tactic_used:
        _refuse(ctx, f"{npc}'s NPC Tactic was used and discarded; it is not regained this mission", S.NPC_TACTIC,
                field, sec)
    if n.figure.down:
        _refuse(ctx, f"{npc} is dead: it is no longer on the map", S.NPC_HEALTH, field, sec)
    colour = {"passive": "Purple (Passive)", "attack": "Red (Attack)", "reaction": "Blue (Reaction)"}[n.tactic]
    if n.tactic == "attack" and not during:
        _refuse(ctx, f"{npc}'s {colour} NPC Tactic can only be used during its activation", S.NPC_TACTIC, field, sec)
    if n.tactic == "reaction" and during:
        _refuse(ctx, f"{npc}'s {colour} NPC Tactic can only be used outside its activation", S.NPC_TACTIC, field,
                sec)
    new = replace(n, tactic_used=True)
    npcs = tuple(new if x is n else x for x in state.npcs)
    return replace(state, npcs=npcs), (Step(
        f"{n.controller} uses {npc}'s {colour} NPC Tactic " + ("during its activation" if during else
                                                                "outside its activation"),
        S.NPC_TACTIC, "The token is discarded and not regained this mission ('Act of Valor' does not refresh it).",
        section=sec, marks=(npc,), facts={"npc": npc, "tactic": n.tactic}),)


def suit_activity(state: RoundState, ctx: RoundContext, agent: str, what: str, kind: str, field: str, sec: str,
                  place: str | None = None) -> tuple[RoundState, tuple[Step, ...]]:
    """The Power Suit in an agent's turn. ``equip`` (9.5.1, with the Action): the suit must be in play and not worn
    by another agent; on a map the agent stands in the suit's Hex; the agent pilots it at once and its movement bonus
    joins this turn's movement (9.5.2.1). ``recall`` (9.5.1, the Recall Power Suit special Action of the later
    missions, ``power_suit.recall``): the suit is teleported over the agent, wherever it is, and equipped.
    ``unequip`` (9.5.1, with the Action): only its wearer; the empty suit stays in its Hex and, on a map, the agent's
    figure goes to ``place``, a Hex next to it joined by a legal walking path. ``weapon`` (9.5.2.2, the Combat
    activity): only its wearer.

    Raises:
        RuleViolation: no suit in play (it left play in the Refresh phase), worn by another agent, not worn by this
            agent, equipped from another Hex, an unequip without a legal ``place``, or the weapon fired with the
            Action while the Combat activity is separate (``combat_activity``).
    """
    suit = state.suit
    if suit is None:
        _refuse(ctx, "the Power Suit is no longer in play (it had no Battery to pay in the Refresh phase)",
                S.POWER_SUIT, field, sec)
    from .round_map import Moved, _moved, _noted, where

    if what in ("equip", "recall"):
        if suit.equipped_by == agent:
            _refuse(ctx, f"{agent} already wears {suit.name}", S.POWER_SUIT_EQUIP, field, sec)
        if suit.equipped_by is not None:
            _refuse(ctx, f"{suit.equipped_by} wears {suit.name}; it must unequip it first (its Action)",
                    S.POWER_SUIT_EQUIP, field, sec)
        on_map = ctx.amap is not None
        there, mine = (where(state, suit.name), where(state, agent)) if on_map else (None, None)
        if what == "equip" and on_map and there != mine:
            _refuse(ctx, f"{agent} is on {mine}, not in the suit's Hex {there}: it moves there, then equips it with "
                    "its Action (or uses the Recall Power Suit special Action, where the mission gives it)",
                    S.POWER_SUIT_EQUIP, field, sec)
        model = ctx.scenario.power_suit.suit_model
        steps = [Step(f"{agent} recalls {suit.name}: it is teleported over the agent and equipped" if what == "recall"
                      else f"{agent} equips {suit.name}", S.POWER_SUIT_EQUIP,
                      ("The Recall Power Suit special Action of the later missions (the mission's special rules "
                       "give it): no need to reach the suit's Hex. " if what == "recall" else "") +
                      "The agent's figure leaves play in favour of the suit's figure; it pilots the suit until it "
                      "leaves it or the Batteries run out." + (f" The empty suit left {there}." if what == "recall"
                                                               and on_map and there != mine else ""),
                      {"equipped_by": agent} | ({"recalled_from": str(there)} if what == "recall" and on_map else {}),
                      (agent, suit.name), sec)]
        if model is not None:
            steps.append(Step(f"+{SUIT_BONUS[model]} movement from the {'Mark I' if model == 'mark_i' else 'Mark II'}"
                              " suit", S.POWER_SUIT_MOVEMENT, "The bonus joins the agent's standard movement, this "
                              "turn too: equipping does not interrupt movement.", {"bonus": SUIT_BONUS[model]},
                              (agent,), sec))
        state = replace(state, suit=replace(suit, equipped_by=agent))
        if on_map:
            state = replace(state, figures=tuple(p for p in state.figures if p.side != "power_suit"))
        return state, tuple(steps)
    if suit.equipped_by != agent:
        _refuse(ctx, f"{agent} does not wear {suit.name}" + (f" ({suit.equipped_by} does)" if suit.equipped_by
                                                            else " (it is unequipped)"),
                S.POWER_SUIT_EQUIP if what == "unequip" else S.POWER_SUIT_COMBAT, field, sec)
    if what == "unequip":
        state = replace(state, suit=replace(suit, equipped_by=None))
        if ctx.amap is None:
            return state, (Step(
                f"{agent} unequips {suit.name}", S.POWER_SUIT_EQUIP, "The agent's figure is placed on a Hex adjacent "
                "to the suit, joined by a legal walking path; the empty suit stays in its Hex.", {"equipped_by": None},
                (agent, suit.name), sec),)
        from .round_map import Placed

        here = where(state, agent)
        pf = field.rsplit(".", 1)[0] + ".place"
        if place is None:
            _refuse(ctx, f"{agent} leaves {suit.name} on {here}: name the adjacent Hex its figure goes to (place)",
                    S.POWER_SUIT_EQUIP, pf, sec)
        to = Hex.parse(place)
        model = next(a for a in ctx.scenario.agents if a.name == agent)
        busy = {h: p.name for p in state.figures if p.name != agent for h in p.hexes}
        why = ""
        if to not in ctx.amap.area_of or to in ctx.amap.blocking or distance(to, here) != 1:
            why = f"is not an open Hex next to the suit's Hex {here}"
        elif to in busy:
            why = f"is occupied by {busy[to]}"
        elif not ctx.amap.graph(model.flying).has_edge(here, to):
            why = f"is next to {here} but no legal walking path joins them (a Barrier, a wall or a locked door)"
        if why:
            _refuse(ctx, f"{agent} cannot step out of {suit.name} to {to}: it {why}", S.POWER_SUIT_EQUIP, pf, sec)
        step = Step(f"{agent} unequips {suit.name} and steps out to {to}", S.POWER_SUIT_EQUIP,
                    f"The agent's figure is placed on a Hex next to the suit, joined by a legal walking path; the empty "
                    f"suit stays in {here}, occupying it: agents, aliens and NPCs may cross it, aliens and NPCs never "
                    "end their movement there, and aliens ignore it (9.5).", {"equipped_by": None, "at": str(to)},
                    (agent, suit.name, str(to)), sec)
        state = _moved(state, {agent: to})
        state = replace(state, figures=state.figures + (Placed(suit.name, "power_suit", here),))
        return _noted(state, Moved(agent, (here, to)), step=step.title), (step,)
    if kind == "action" and ctx.rulings.reading("combat_activity") == "separate":
        _refuse(ctx, f"{suit.name}'s weapon is fired with the Combat activity, not the Action (ruling "
                "combat_activity)", S.POWER_SUIT_COMBAT, field, sec)
    return state, (Step(f"{agent} fires {suit.name}'s weapon", S.POWER_SUIT_COMBAT, "Red and Blue dice; it cannot "
                        "jam and uses no ammo" + (": the attack below." if ctx.amap is not None else
                                                  " (the combat kind's power_suit_weapon resolves the roll)."),
                        {"weapon": suit.name}, (agent, suit.name), sec),)


def event_phase(state: RoundState, ctx: RoundContext) -> tuple[RoundState, tuple[Step, ...]]:
    """6.3 Event Phase: the Alpha Agent draws the Event card; the balancer gives the signals teleported (real
    agents only: NPCs do not count). Nothing when the file has no ``[event]``. With a ``[mission]`` whose special
    rule (Storybook 2.3) still replaces the Event phase (Mission 3) no card is drawn: the first step says so and the
    balancer counts the rule's Teleport Signals; one that skips it (Mission 2) refuses the ``[event]`` table.

    Raises:
        RuleViolation: ``[event]`` while the mission's special rule skips the Event phase (field ``event``)."""
    from .phases import EventFigure, signals_to_teleport

    ev = ctx.scenario.event
    if ev is None:
        return state, ()
    rm = ctx.scenario.mission
    rule = None if rm is None else rule_in_force(rm, len(ctx.scenario.agents))
    if rule is not None and rule.kind == "skip_event_phase":
        raise RuleViolation(f"mission {rm.mission}'s special rule skips this Event phase ({rule.text}; not yet: "
                            f"{condition_text(rule.until)}): no Event card is drawn and no signal teleported",
                            S.SPECIAL_MISSION_RULES, field="event", step="Event phase", source=ctx.source,
                            allowed="no [event] table until the rule's condition holds")
    figures = [EventFigure(name=a.name, side="agent", bleeding=a.down) for a in state.agents]
    figures += [EventFigure(name=n.figure.name, side="npc") for n in state.npcs if not n.figure.down]
    figures += [EventFigure(name=f"alien {i + 1}", side="alien") for i in range(ev.aliens)]
    alpha = alpha_of(state, ctx)
    n, st = signals_to_teleport(figures, ev.signals, ev.balancer, ctx.rulings)
    first = (Step(f"{alpha} (Alpha Agent) draws the Event card", S.EVENT_PHASE, "", section="Event phase",
                  marks=(alpha,)) if rule is None else
             Step(f"No Event card is drawn: mission {rm.mission}'s special rule replaces the Event phase; its "
                  "Teleport Signals effect teleports as an Event card would", S.SPECIAL_MISSION_RULES,
                  f"{rule.text} (not yet: {condition_text(rule.until)}). The number of signals is the 6.3 "
                  "balancer's, below.", section="Event phase", facts={"replaced": True}))
    return replace(state, teleported=n), (first, *st)


def battle_items(state: RoundState) -> tuple[RoundItem, ...]:
    """The items of :data:`ROUND_SEQUENCE`'s Battle phase entry: each agent turn, and after a turn with a Close
    Encounter card, the card and each alien it activates (:class:`RoundItem`)."""
    return state.items


def battle_item(state: RoundState, ctx: RoundContext, item: RoundItem) -> tuple[RoundState, tuple[Step, ...]]:
    """One Battle phase entry: an agent turn (:func:`agent_turn`), the Close Encounter card drawn after it
    (:func:`.round_map.close_encounter_step`) or one alien activation (:func:`.round_map.alien_activation`)."""
    from .round_map import alien_activation, close_encounter_step

    if item.kind == "turn":
        state, steps = agent_turn(state, ctx, item.turn)
    elif item.kind == "card":
        state, steps = close_encounter_step(state, ctx, item.turn)
    else:
        state, steps = alien_activation(state, ctx, item.turn, item.alien)
    state, more = alpha_succession(state, ctx)
    return state, steps + more


def alpha_of(state: RoundState, ctx: RoundContext) -> str:
    """The Alpha Agent now: the file's first agent (``[[agents]]`` are in turn order, the first the Alpha Agent),
    or the one :func:`alpha_succession` passed the role to this round."""
    return state.alpha or ctx.scenario.agents[0].name


def clockwise_from_alpha(state: RoundState, ctx: RoundContext) -> list[str]:
    """The players in turn (clockwise) order starting with the Alpha Agent now (:func:`alpha_of`): 10.1.2 assigns a
    new NPC card along it, 11.5 selects the aliens of "Activate X aliens" along it."""
    names = [a.name for a in ctx.scenario.agents]
    i = names.index(alpha_of(state, ctx))
    return names[i:] + names[:i]


def alpha_succession(state: RoundState, ctx: RoundContext) -> tuple[RoundState, tuple[Step, ...]]:
    """The Alpha Agent eliminated (its wounds reached its Health points: bleeding, the round's only way out of
    play for an agent) passes the role as ruling ``alpha_agent_succession`` says; this book leaves it to the Core
    Set (11.5 and 6.3 use the Alpha Agent, 10.1.2 counts clockwise from it). ``next_clockwise`` (default): the next
    agent clockwise still in play is the Alpha Agent for the rest of the round (an eliminated one is passed over);
    ``keeps_role``: the role stays until the next promotion. Nothing while the Alpha Agent is in play; the ruling
    is consulted only when it decides something. Returns ``(state, steps)``, at most one step."""
    if state.alpha_kept:
        return state, ()
    alpha = alpha_of(state, ctx)
    if not next(a for a in state.agents if a.name == alpha).down:
        return state, ()
    sec = "Alpha Agent"
    why = ("This book leaves the Alpha Agent to the Core Set and is silent on its elimination (ruling "
           "alpha_agent_succession). ")
    if ctx.rulings.reading("alpha_agent_succession") == "keeps_role":
        return replace(state, alpha_kept=True), (Step(
            f"{alpha} (Alpha Agent) is eliminated (bleeding): the role stays with {alpha} until the next promotion",
            S.ALIEN_ACTIVATION, why + f"{alpha}'s aliens are still selected first (11.5), {alpha} draws the Event "
            "card (6.3) and new NPC cards are assigned clockwise from it (10.1.2).", {"alpha_agent": alpha},
            (alpha,), sec),)
    down = {a.name for a in state.agents if a.down}
    order = clockwise_from_alpha(state, ctx)
    nxt = next((n for n in order[1:] if n not in down), None)
    if nxt is None:
        return replace(state, alpha_kept=True), (Step(
            f"{alpha} (Alpha Agent) is eliminated and no agent is left in play to take the role", S.ALIEN_ACTIVATION,
            why + f"Every agent is bleeding; {alpha} keeps the role.", {"alpha_agent": alpha}, (alpha,), sec),)
    passed = [n for n in order[1:order.index(nxt)]]
    return replace(state, alpha=nxt), (Step(
        f"{alpha} (Alpha Agent) is eliminated (bleeding): {nxt}, next clockwise, is the Alpha Agent for the rest of "
        "the round", S.ALIEN_ACTIVATION, why + (f"Passed over (eliminated too): {', '.join(passed)}. " if passed
                                                else "") +
        f"{nxt}'s aliens are selected first (11.5), {nxt} draws the Event card (6.3) and new NPC cards are assigned "
        f"clockwise from {nxt} (10.1.2); {alpha} comes last in that order.", {"alpha_agent": nxt}, (nxt,), sec),)


ROUND_SEQUENCE = (
    ("Refresh phase", refresh_phase),
    Each("{item}", battle_items, battle_item),
    ("Event phase", event_phase),
    ("Mission", round_mission),
)
"""A ``round`` scenario: the Refresh phase; the Battle phase, each agent turn in the order played followed, when
the file draws one, by its Close Encounter card and each alien it activates; the Event phase's signals."""


# ------------------------------------------------------------------------------------------------ outcome

@dataclass(frozen=True)
class RoundOutcome(Outcome):
    """The typed outcome of a ``round`` scenario: the round number, every agent and NPC at the end (wounds,
    Poison, Mark, status), the turns played and the signals teleported (``None`` without an Event phase)."""

    round: int
    agents: tuple[TargetState, ...]
    npcs: tuple[TargetState, ...]
    turns: tuple[TurnRecord, ...]
    teleported: int | None
    cards: tuple[AgentCards, ...] = ()
    suit: PowerSuit | None = None
    suit_shields: int | None = None
    suit_shown: bool = False
    npc_tactics: tuple[tuple[str, str, bool], ...] = ()
    menace: Menace | None = None
    poses: tuple[tuple[str, str], ...] = ()
    aliens: tuple[TargetState, ...] = ()
    positions: tuple[tuple[str, Hex], ...] | None = None
    mission: MissionState | None = None
    bases: tuple[tuple[str, Hex], ...] = ()
    """Each multi-hex alien's second base hex at the end (11.8)."""
    drones: tuple[TargetState, ...] = ()
    signals: tuple[str, ...] | None = None
    """The signals still on the map at the end (``None``: the round has none)."""
    alpha: str | None = None
    """The Alpha Agent at the end when the first agent was eliminated this round (:func:`alpha_succession`);
    ``None``: the role did not come into question."""

    @property
    def summary(self) -> str:
        who = "; ".join(f"{t.name} {wound_tally(t.wounds, t.max_health, 'wounds')}, Poison {t.poison}, {t.status()}"
                        for t in self.agents + self.npcs + self.aliens + self.drones)
        sig = "" if self.teleported is None else f"; the Event card teleports {plural(self.teleported, 'signal')}"
        used = [c.summary() for c in self.cards if c.summary()]
        if self.suit_shown:
            used.append("the Power Suit " + ("has left play" if self.suit is None else
                                             f"is worn by {self.suit.equipped_by}" if self.suit.equipped_by else
                                             "is unequipped"))
        if self.menace is not None:
            used.append(f"Menacing Agent {self.menace.holder} (Level {self.menace.level})")
        spent = [n for n, _, u in self.npc_tactics if u]
        if spent:
            used.append(f"NPC Tactic{'s' if len(spent) > 1 else ''} used: {', '.join(spent)}")
        if self.alpha is not None:
            used.append(f"Alpha Agent {self.alpha}")
        if self.mission is not None:
            used.append(f"the mission: {self.mission.status or 'goes on'}")
        more = "; " + "; ".join(used) if used else ""
        return f"Round {self.round}: {plural(len(self.turns), 'agent turn')} played; {who}{sig}{more}"

    def to_json(self) -> dict:
        def one(t: TargetState) -> dict:
            return {"wounds": t.wounds, "poison": t.poison, "mark": t.mark, "status": t.status()}

        return {"round": self.round, "agents": {t.name: one(t) for t in self.agents},
                "npcs": {t.name: one(t) for t in self.npcs},
                "turns": [{"agent": r.agent, "activities": list(r.activities), "npcs": list(r.npcs)}
                          for r in self.turns],
                "teleported": self.teleported, "summary": self.summary} | (
                    {"cards": {c.agent: c.to_json() for c in self.cards}} if self.cards else {}) | (
                    {"power_suit": None if self.suit is None else {
                        "batteries": self.suit.batteries, "equipped_by": self.suit.equipped_by,
                        "shields_left": self.suit_shields}} if self.suit_shown else {}) | (
                    {"npc_tactics": {n: {"tactic": k, "used": u} for n, k, u in self.npc_tactics}}
                    if self.npc_tactics else {}) | (
                    {"menace": {"holder": self.menace.holder, "level": self.menace.level}} if self.menace else {}) | (
                    {"poses": dict(self.poses)} if self.poses else {}) | (
                    {"aliens": {t.name: one(t) for t in self.aliens},
                     "positions": {n: str(h) for n, h in self.positions}} if self.positions is not None else {}) | (
                    {"bases": {n: str(h) for n, h in self.bases}} if self.bases else {}) | (
                    {"drones": {t.name: one(t) for t in self.drones}} if self.drones else {}) | (
                    {"signals": list(self.signals)} if self.signals is not None else {}) | (
                    {"alpha_agent": self.alpha} if self.alpha is not None else {}) | (
                    {"mission": {"status": self.mission.status, "row": self.mission.row, "next": self.mission.next}}
                    if self.mission is not None else {})


def round_initial(scenario: RoundScenario) -> RoundState:
    """The round before its first step: the agents, NPCs and Power Suit as the file sets them."""
    agents = tuple(TargetState(a.name, "agent", a.health, a.wounds, mark=a.mark, poison=a.poison)
                   for a in scenario.agents)
    npcs = tuple(NpcState(TargetState(n.name, "npc", n.health, n.wounds, mark=n.mark, poison=n.poison),
                          n.controller, n.paralyzed, n.immobilized, n.tactic, n.tactic_used) for n in scenario.npcs)
    ps = scenario.power_suit
    suit = None if ps is None else PowerSuit(ps.name, ps.batteries, ps.equipped_by)
    shields = None if ps is None or ps.energy_shields is None else (
        ps.energy_shields if ps.shields_left is None else ps.shields_left)
    cards = tuple(AgentCards(a.name, tuple(a.cards), tuple(dict.fromkeys(a.face_down + a.rotated)), tuple(a.rotated),
                             deployed=tuple((k, scenario.round - 1) for k in a.deployed))
                  for a in scenario.agents if a.cards or a.deployed)
    ma = scenario.master_alien
    menace = None if ma is None else Menace(ma.holder or scenario.agents[0].name, ma.level)
    poses = tuple((a.name, a.pose) for a in scenario.agents) if scenario.fighting_poses else ()
    from .round_map import placed_initial

    items = []
    for i, t in enumerate(scenario.turns, 1):
        items.append(RoundItem("turn", i))
        ce = t.close_encounter
        if ce is not None:
            names = ce.activates or [f"#{k}" for k in range(1, len(scenario.aliens) + 1)]
            items += [RoundItem("card", i)] + [RoundItem("alien", i, n) for n in names]
    from .round_map import alien_targets

    aliens = tuple(t for x in scenario.aliens if x.signal is None for t in alien_targets(x))
    from .round_signals import SignalOnMap, drone_name, tile

    drones = tuple(TargetState(drone_name(d.kind, d.owner), "drone", tile(scenario, d.kind).health, d.wounds)
                   for d in scenario.drones)
    return RoundState(agents, npcs, suit, numbers=tuple(range(1, len(scenario.turns) + 1)), cards=cards,
                      suit_shields=shields, menace=menace, poses=poses, figures=placed_initial(scenario),
                      aliens=aliens, paralyzed_aliens=tuple(x.name for x in scenario.aliens if x.paralyzed),
                      items=tuple(items), signals=tuple(SignalOnMap(x.name, Hex.parse(x.at), x.kind)
                                                        for x in scenario.signals),
                      npc_deck=tuple(c.name for c in scenario.npc_deck), drones=drones,
                      npc_discard=tuple(c.name for c in scenario.npc_discard))


def resolve_round(scenario: RoundScenario, rulings: Mapping[str, str] | None = None,
                  seed: int | None = None) -> Trace:
    """Play the round (:data:`ROUND_SEQUENCE`).

    Returns:
        A :class:`Trace` whose ``result`` is a :class:`RoundOutcome` (``outcome``: ``{"round", "agents": {name:
        {"wounds", "poison", "mark", "status"}}, "npcs": {...}, "turns": [{"agent", "activities", "npcs"}],
        "teleported", "summary"}``; on a map also ``"aliens"`` and ``"positions": {name: "q,r"}``).

    Raises:
        RuleViolation: a choice the rules refuse (see :func:`agent_turn`), naming the field, the step and the rule.
    """
    r = make_rulings({**scenario.rulings, **dict(rulings or {})})
    frames = round_frames(scenario, r, seed)
    last = frames[-1].state
    return trace_of(scenario.title, frames, r.consulted).with_result(RoundOutcome(
        scenario.round, last.agents, tuple(n.figure for n in last.npcs), last.turns, last.teleported, last.cards,
        last.suit, last.suit_shields, suit_shown(scenario),
        tuple((n.figure.name, n.tactic, n.tactic_used) for n in last.npcs if n.tactic is not None), last.menace,
        last.poses, last.aliens, None if scenario.map is None else tuple((p.name, p.at) for p in last.figures),
        last.mission, tuple((p.name, p.base) for p in last.figures if p.base is not None), last.drones,
        tuple(x.name for x in last.signals) if scenario.signals else None,
        last.alpha or (scenario.agents[0].name if last.alpha_kept else None)))


def round_context(scenario: RoundScenario, rulings, seed: int | None = None, roller=None) -> RoundContext:
    """The context the round's steps read: the rulings (a :class:`~explorer.options.Rulings`), the scenario, its
    card table, its map and, on a map, the one :class:`~explorer.dice.Dice` (``seed``, else the file's; ``roller``:
    every die from it instead, for brute force and Monte Carlo)."""
    from explorer.dice import Dice

    from .round_map import map_of

    table = card_table(scenario.cards, scenario._source)
    own = {c.id for c in scenario.cards}
    amap = map_of(scenario)
    dice = None if amap is None else Dice(roller=roller, seed=seed if seed is not None else scenario.seed)
    piles = None
    if amap is not None:
        from .calibration import default_calibration
        from .combat import CriticalPiles, with_source

        with with_source(scenario._source):
            piles = CriticalPiles(default_calibration(), discard=scenario.critical_discard, rulings=rulings)
    return RoundContext(rulings=rulings, dice=dice, scenario=scenario, source=scenario._source, table=table,
                        stand_ins=frozenset(c.id for c in stand_in_cards() if c.id not in own), amap=amap,
                        piles=piles)


def round_frames(scenario: RoundScenario, rulings, seed: int | None = None, roller=None) -> tuple:
    """The kernel frames of a ``round`` (:data:`ROUND_SEQUENCE`): the Refresh phase, one frame per Battle phase
    entry, the Event phase. ``rulings``: a :class:`~explorer.options.Rulings`.

    Raises:
        RuleViolation: a choice the rules refuse.
        ScenarioError: an ``npc_reshuffles`` order that is not the discard pile, or more entries than reshuffles.
    """
    frames = play(round_initial(scenario), ROUND_SEQUENCE, round_context(scenario, rulings, seed, roller))
    done = frames[-1].state.reshuffles
    if len(scenario.npc_reshuffles) > done:
        raise ScenarioError(f"npc_reshuffles[{done}]", f"the NPC deck was reshuffled {plural(done, 'time')} in this "
                            "round (10.1.1: when an NPC signal is revealed with the deck empty), so this order is "
                            "never used", f"at most {plural(done, 'entry', 'entries')}", scenario._source)
    return frames


def suit_shown(scenario: RoundScenario) -> bool:
    """Whether the outcome reports the Power Suit: an activity uses it, or it has a model or energy shields (a
    round whose suit only pays its Battery reports it in the trace alone)."""
    ps = scenario.power_suit
    return ps is not None and (ps.suit_model is not None or ps.energy_shields is not None or
                               any(a.suit for t in scenario.turns for a in t.activities))
