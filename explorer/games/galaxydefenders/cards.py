"""Powers, Items and Devices in an agent's turn: which activity uses a card, and what using it does to the card.

Sections: 9.7 Powers & Items (five categories: Standard with the Action activity, Movement with the Movement
activity, Combat with the Combat activity, each once per agent turn; Passive always active, no activity; Reaction
outside the agent's turn, no activity; Abilities, Devices, Tactics, Psionic Powers and Skills are Standard unless the
tile says otherwise), 9.7.2 Psionic Powers (flipped face down when used unless Passive, rotated when "Once per
Mission"; face-down ones with standard orientation flip up in the Refresh phase), 9.7.3 Tactics (a Free Action from
the Earth rank on; face down until the end of the mission), 6.2.1.1 Free Action Activity, 9.8 GD-Wings (the rank
table), 9.7.4 Devices (used with the Action; discarded to the Warehouse after use unless it says "do not discard
after use"), 9.7.4.1 Hologram, 9.7.4.2 Vigil and 9.7.4.3 GD-5 (deployed by a Device whose token stays with the
figure until it is destroyed, then both are discarded, as each of the three says; a drone is activated with the
Action from the agent's next turn; GD-5 is the Biotech's).

The cards themselves are a STAND-IN list (``card_data/stand-in.toml``): the rulebook prints no tiles. A round scenario's
``[[cards]]`` table adds cards or replaces stand-ins by id.

Whether the Combat activity is the Action activity used to attack or an activity of its own is ruling
``combat_activity`` (the Core Set's agent turn is not in this rulebook).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from typing import Annotated, Literal

from pydantic import BeforeValidator, Field

from explorer.errors import ScenarioError
from explorer.scenario import read_toml, validate
from explorer.schema import Strict
from explorer.trace import Step

from . import sections as S

CardId = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[a-z0-9][a-z0-9-]*$")]
RANKS = ("gold", "earth", "moon", "galaxy")
"""GD-Wings ranks in order (9.8); Tactics are Free Actions from ``earth`` on."""
MAX_CARDS = 60
"""Cards in one list (the stand-ins plus a scenario's own)."""


def _drone_spelling(v: object) -> object:
    """Files written before the drone ids were made one spelling say ``gd5``: read as ``gd-5``."""
    return "gd-5" if v == "gd5" else v


DroneKind = Annotated[Literal["hologram", "vigil", "gd-5"], BeforeValidator(_drone_spelling)]
"""A drone (a Device's figure, 9.7.4): ``hologram``, ``vigil`` or ``gd-5``, the ids of the Device cards that deploy
them, used alike in files, the outcome and the text; the old spelling ``gd5`` still loads (as ``gd-5``)."""


class CardModel(Strict):
    """One Power, Item or Device tile (see ``card_data/stand-in.toml`` for the fields)."""

    id: CardId
    name: str = Field(min_length=1, max_length=60)
    kind: Literal["skill", "psionic", "tactic", "device", "item", "ability"]
    category: Literal["standard", "movement", "combat", "passive", "reaction"] = "standard"
    once_per_mission: bool = False
    keep: bool = False
    deploys: Annotated[Literal["none", "hologram", "vigil", "gd-5"], BeforeValidator(_drone_spelling)] = "none"
    agent_class: str | None = Field(None, min_length=1, max_length=40)
    moves: bool = False
    effect: str = Field("", max_length=200)
    bonus_hits: int = Field(0, ge=0, le=5)
    bonus_dice: dict[Annotated[str, Field(min_length=1, max_length=40)], Annotated[int, Field(ge=0, le=4)]] = Field(
        default_factory=dict, max_length=4)
    movement: int = Field(0, ge=0, le=6)


class CardList(Strict):
    cards: list[CardModel] = Field(min_length=1, max_length=MAX_CARDS)


def check_cards(cards: Sequence[CardModel], source: str, prefix: str = "cards") -> None:
    """The rules a tile must fit.

    Raises:
        ScenarioError: an id used twice; ``keep`` or ``deploys`` on a card that is not a Device (9.7.4);
            ``once_per_mission`` on a card that is not a Psionic Power (9.7.2); a Passive Psionic Power marked once
            per mission (a Passive power is never flipped).
    """
    seen: set[str] = set()
    for i, c in enumerate(cards):
        f = f"{prefix}[{i}]"
        if c.id in seen:
            raise ScenarioError(f"{f}.id", f"{c.id!r} is used twice", "unique card ids", source)
        seen.add(c.id)
        if c.kind != "device" and (c.keep or c.deploys != "none"):
            raise ScenarioError(f"{f}.kind", "only a Device is kept after use or deploys a figure (9.7.4)",
                                "kind = 'device', or omit keep / deploys", source)
        if c.once_per_mission and c.kind != "psionic":
            raise ScenarioError(f"{f}.once_per_mission", "'Once per Mission' is a Psionic Power's usage (9.7.2; "
                                "Tactics and Devices have their own)", "kind = 'psionic', or omit it", source)
        if c.once_per_mission and c.category == "passive":
            raise ScenarioError(f"{f}.once_per_mission", "a Passive power is always active and never flipped (9.7.2)",
                                "omit it, or another category", source)


@lru_cache(maxsize=1)
def stand_in_cards() -> tuple[CardModel, ...]:
    """The packaged STAND-IN card list (``card_data/stand-in.toml``: not printed cards, see the file)."""
    name = "card_data/stand-in.toml (packaged stand-in)"
    text = (resources.files(__package__) / "card_data" / "stand-in.toml").read_text(encoding="utf-8")
    lst = validate(CardList, read_toml(name, text=text), name)
    check_cards(lst.cards, name)
    return tuple(lst.cards)


def card_table(own: Sequence[CardModel], source: str) -> dict[str, CardModel]:
    """``{id: card}``: the stand-ins, with a scenario's own ``[[cards]]`` added or replacing a stand-in by id."""
    check_cards(own, source)
    out = {c.id: c for c in stand_in_cards()}
    out.update({c.id: c for c in own})
    return out


# ------------------------------------------------------------------------------------------------ state

@dataclass(frozen=True)
class AgentCards:
    """One agent's cards between steps (immutable): the ids it holds, those face down (a Psionic Power used since
    the last Refresh phase, a Tactic used this mission), those rotated (a once-per-mission Psionic Power used),
    those discarded to the Warehouse (a used Device, or the Device of a destroyed drone: ``held`` keeps it for the
    checks, :meth:`to_json` lists it under ``discarded`` only), the figures its Devices deployed (``(kind, round)``: the
    round it was deployed) and the cards used this turn."""

    agent: str
    held: tuple[str, ...] = ()
    face_down: tuple[str, ...] = ()
    rotated: tuple[str, ...] = ()
    discarded: tuple[str, ...] = ()
    deployed: tuple[tuple[str, int], ...] = ()
    this_turn: tuple[str, ...] = ()

    def usable(self, cid: str) -> bool:
        return cid in self.held and cid not in self.face_down and cid not in self.discarded

    def to_json(self) -> dict:
        # a discarded card went to the Warehouse (9.7.4): the agent no longer holds it, so ``held`` leaves it out
        return {"held": [c for c in self.held if c not in self.discarded], "face_down": list(self.face_down),
                "rotated": list(self.rotated),
                "discarded": list(self.discarded), "deployed": [k for k, _ in self.deployed]}

    def summary(self) -> str:
        """``"Marine: basic-tactic face down; Vigil deployed"`` or ``""``."""
        parts = [f"{', '.join(x)} {w}" for x, w in ((self.face_down, "face down"), (self.discarded, "discarded"),
                                                    (tuple(FIGURE[k] for k, _ in self.deployed), "deployed")) if x]
        return f"{self.agent}: {'; '.join(parts)}" if parts else ""


FIGURE = {"hologram": "Hologram", "vigil": "Vigil", "gd-5": "GD-5"}
DEVICE_RULE = {"hologram": S.HOLOGRAM, "vigil": S.VIGIL, "gd-5": S.GD5}


class CardRefusal(Exception):
    """A card use the rules refuse: ``reason``, ``rule`` (a section constant) and the ``field`` suffix."""

    def __init__(self, reason: str, rule, field: str = "use"):
        super().__init__(reason)
        self.reason, self.rule, self.field = reason, rule, field


def activity_for(card: CardModel, rulings) -> tuple[str, ...]:
    """The activity kinds that may use this card (9.7; 9.7.3 Tactics also as a Free Action from the Earth rank,
    checked by :func:`use_card`); ``()`` for Passive and Reaction cards. Under ``combat_activity = is_the_action`` a
    Combat card is used with the Action activity too."""
    if card.category == "standard":
        return ("action", "free_action") if card.kind == "tactic" else ("action",)
    if card.category == "movement":
        return ("move",)
    if card.category == "combat":
        return ("combat",)
    return ()


def use_card(cards: AgentCards, card: CardModel, activity: str, rank: str, agent_class: str | None, round_no: int,
             rulings, section: str, stand_in: bool = True) -> tuple[AgentCards, tuple[Step, ...]]:
    """An agent uses one card with one activity.

    Checks: the agent holds it (9.7); it is not face down, rotated or discarded (9.7.2, 9.7.3, 9.7.4); not used
    already this turn (9.7: once per agent turn); the activity fits its category (9.7; a Tactic as a Free Action
    only from the Earth rank, 9.7.3, 9.8); its class restriction (9.7.2, 9.7.4.3). Then: a Psionic Power is
    flipped face down (rotated too when once per mission), a Tactic is flipped face down for the mission, a Device
    is discarded unless kept and its figure deployed.

    Raises:
        CardRefusal: any check failing, naming the section that refuses it.
    """
    name = f"{card.name} ({card.id})"
    if card.id not in cards.held:
        raise CardRefusal(f"{cards.agent} holds no {name}", S.POWERS_ITEMS)
    if card.id in cards.discarded:
        raise CardRefusal(f"{name} was discarded to the Warehouse after its use", S.DEVICES)
    if card.id in cards.rotated:
        raise CardRefusal(f"{name} is once per mission and was used (rotated)", S.PSIONIC_POWERS)
    if card.id in cards.face_down:
        rule = S.TACTICS if card.kind == "tactic" else S.PSIONIC_POWERS
        why = "until the end of the mission" if card.kind == "tactic" else "until the next Refresh phase"
        raise CardRefusal(f"{name} is face down {why}", rule)
    if card.deploys != "none" and any(k == card.deploys for k, _ in cards.deployed):
        raise CardRefusal(f"{name} is deployed: its {FIGURE[card.deploys]} is on the battlefield until destroyed",
                          DEVICE_RULE[card.deploys])
    if card.id in cards.this_turn:
        raise CardRefusal(f"{name} was already used this turn; a power or item is used once per agent turn",
                          S.POWERS_ITEMS)
    if card.category in ("passive", "reaction"):
        what = ("is always active and needs no activity" if card.category == "passive" else
                "is used outside the agent's turn and needs no activity")
        raise CardRefusal(f"{name} is a {card.category.title()} card: it {what}", S.POWERS_ITEMS)
    allowed = activity_for(card, rulings)
    combat_as_action = card.category == "combat" and activity == "action"
    if combat_as_action and rulings.reading("combat_activity") == "is_the_action":
        allowed = allowed + ("action",)
    word = {"action": "Action", "free_action": "Free Action", "move": "Movement", "combat": "Combat"}
    if activity not in allowed:
        need = " or ".join(word[a] for a in allowed)
        raise CardRefusal(f"{name} is a {card.category.title()} card: it is used with the {need} activity, not a "
                          f"{word.get(activity, activity)}", S.POWERS_ITEMS, "kind")
    if activity == "free_action" and RANKS.index(rank) < RANKS.index("earth"):
        raise CardRefusal(f"{name} is a Free Action only from the Earth GD-Wings rank ({cards.agent} is "
                          f"{rank.title()})", S.TACTICS, "kind")
    if card.agent_class and agent_class != card.agent_class:
        rule = S.GD5 if card.deploys == "gd-5" else S.PSIONIC_POWERS if card.kind == "psionic" else S.POWERS_ITEMS
        raise CardRefusal(f"{name} is restricted to the {card.agent_class} class"
                          f" ({cards.agent} is {agent_class or 'of no class given'})", rule)
    c = replace(cards, this_turn=cards.this_turn + (card.id,))
    rule = {"psionic": S.PSIONIC_POWERS, "tactic": S.TACTICS, "device": S.DEVICES}.get(card.kind, S.POWERS_ITEMS)
    if card.kind == "psionic":
        c = replace(c, face_down=c.face_down + (card.id,),
                    rotated=c.rotated + ((card.id,) if card.once_per_mission else ()))
        after = ("flipped face down and rotated: it cannot be used again this mission" if card.once_per_mission else
                 "flipped face down until the next Refresh phase")
    elif card.kind == "tactic":
        c = replace(c, face_down=c.face_down + (card.id,))
        after = "flipped face down until the end of the mission (or an 'Act of Valor' Event card)"
    elif card.kind == "device" and card.deploys != "none":
        after = ("its token stays with the deployed figure until it is destroyed, then both go to the Warehouse "
                 f"(as {DEVICE_RULE[card.deploys].section.split()[0]} says)")
    elif card.kind == "device":
        c = replace(c, discarded=c.discarded + (() if card.keep else (card.id,)))
        after = "kept for another use (it says so)" if card.keep else "discarded to the Warehouse after use"
    else:
        after = "used for this turn"
    steps = [Step(f"{cards.agent} uses {card.name}, a {card.category.title()} card, with the {word[activity]} "
                  f"activity: {after}",
                  rule, " ".join(x for x in (card.effect, "(Card data: the packaged STAND-IN list.)" if stand_in
                                             else "") if x), section=section, marks=(cards.agent,),
                  facts={"card": card.id, "activity": activity})]
    if combat_as_action:
        steps.append(Step("The Combat activity is the Action activity (ruling combat_activity)", S.POWERS_ITEMS,
                          "", section=section, marks=(cards.agent,)))
    if card.deploys != "none":
        fig = FIGURE[card.deploys]
        c = replace(c, deployed=c.deployed + ((card.deploys, round_no),))
        where = ("an empty Hex within 1 Area" if card.deploys == "hologram" else
                 f"an empty Hex adjacent to {cards.agent}")
        more = ("It cannot move or attack; aliens treat it as an agent; it is destroyed if attacked." if
                card.deploys == "hologram" else f"From {cards.agent}'s next turn its Action may activate {fig}.")
        steps.append(Step(f"{fig} deployed on {where}", DEVICE_RULE[card.deploys], more, section=section,
                          marks=(fig,), facts={"deployed": card.deploys}))
    return c, tuple(steps)


def activate_drone(cards: AgentCards, drone: str, round_no: int, section: str) -> tuple[AgentCards, tuple[Step, ...]]:
    """The agent's Action activates its Vigil or GD-5 (9.7.4.2, 9.7.4.3): deployed in an earlier round (from the
    agent's next turn), it moves and fights at once; a Hologram cannot move or attack (9.7.4.1).

    Raises:
        CardRefusal: no such figure deployed by the agent, deployed this round, or a Hologram.
    """
    rule = DEVICE_RULE[drone]
    fig = FIGURE[drone]
    if drone == "hologram":
        raise CardRefusal("the Hologram cannot move or perform attacks", rule, "drone")
    when = [r for k, r in cards.deployed if k == drone]
    if not when:
        raise CardRefusal(f"{cards.agent} has no {fig} deployed", rule, "drone")
    if min(when) >= round_no:
        raise CardRefusal(f"{fig} was deployed this round; {cards.agent} may activate it from its next turn", rule,
                          "drone")
    return cards, (Step(f"{cards.agent}'s Action activates {fig}: it moves and fights now", rule,
                        "It has no Agent turn of its own; its weapon never jams.", section=section, marks=(fig,),
                        facts={"drone": drone}),)




def refresh_cards(cards: AgentCards, table: dict[str, CardModel], section: str
                  ) -> tuple[AgentCards, tuple[Step, ...]]:
    """9.7.2 Psionic Powers in the Refresh phase: every face-down Psionic Power with standard orientation flips face
    up; rotated ones (once per mission) and face-down Tactics (9.7.3) stay down. Also clears the cards used last
    turn. No step when nothing flips."""
    up = tuple(cid for cid in cards.face_down if table[cid].kind == "psionic" and cid not in cards.rotated)
    c = replace(cards, face_down=tuple(x for x in cards.face_down if x not in up), this_turn=())
    if not up:
        return c, ()
    return c, (Step(f"{cards.agent}'s {', '.join(table[x].name for x in up)} flip{'s' if len(up) == 1 else ''} "
                    "face up", S.PSIONIC_POWERS, "Face-down Psionic Powers with standard orientation flip face up "
                    "in the Refresh phase; rotated ones stay used for the mission.", section=section,
                    marks=(cards.agent,), facts={"flipped_up": list(up)}),)
