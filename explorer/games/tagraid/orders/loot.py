"""Tool Containers and Loot Tokens during a Move, and the Loot a TAG leaves when it dies.

Sections: Common Skills › Move, Effects (a TAG may interact with a Tool Container or Loot Token it reaches in
Silhouette Contact during its Move; its movement then ends there; a Move may not end on top of a Token); Tool
Containers and Loot (the conditions: a TAG, not in Silhouette Contact with an enemy Miner, a Move that ends in
Silhouette Contact with the Container or Token; one Tool Card from each Tool Container per Game Round; in contact
with a Tool Container: draw one card, equip a Tool in a free Tool Slot or discard an equipped one to make room,
other cards are followed as their text says; in contact with a Loot Token: its Loot Zone's Neomaterial Units to the
Scoring Zone, its Tool Cards as if drawn, the Token returned); Tool Containers and Loot › Loot and Death (a dead
TAG's Tool Slot cards and the Units it does not keep go to its Loot Zone, a Loot Token is placed in contact with its
base; a Token of the same TAG already on the table is emptied first; with the MegaBeast involved the loot is lost).

Ruling options: ``tool_container_draws`` (the Round limit per Miner or per Container) and ``loot_token_megabeast``
(a Loot Token or none when the MegaBeast was involved). Documented defaults (the rulebook gives no number):
:data:`.state.DEFAULT_TOKEN_RADIUS` (a token's size), :data:`.state.DEFAULT_TOOL_SLOTS`; a card of ``kind = "other"``
grants its Units and goes to the discard pile once drawn (its text is repeated in the trace, not executed); a drawn
Tool the TAG does not equip goes to the discard pile; an empty Tool Deck gives no card (the rulebook says nothing of
reshuffling). A Loot Token is placed in contact with the dead TAG's base in front of it (its facing), or in the
middle of the space the TAG occupied when there is no room there (Death). Every step is a pure function of
immutable values.
"""

from __future__ import annotations

import math
from dataclasses import replace

from explorer.text import agree, plural
from explorer.trace import Step

from .. import sections as S
from ..lof import CONTACT_TOLERANCE
from ..printed import against
from .declarations import Interaction, MoveDecl, Point, refused
from .move import first_contact
from .state import LootToken, OrderState, ToolCard

TOUCH = 1e-6
"""Board units two discs may overlap and still count as touching (a measurement cannot be finer)."""



def token_at(state: OrderState, token_id: str) -> tuple[str, float, float] | None:
    """The Tool Container or Loot Token ``token_id`` as ``(id, x, y)``, or ``None``."""
    return next((t for t in state.tokens() if t[0] == token_id), None)


def check_end_not_on_token(state: OrderState, miner_id: str, end: Point, step: str, field: str) -> None:
    """Move › Requirements: the Miner cannot finish its Movement on top of a Token (Tool Container or Loot Token).

    Raises:
        RuleViolation: the base at ``end`` overlaps a token.
    """
    m = state.miner(miner_id)
    r = state.geometry.calibration.radius(m.silhouette)
    rt = state.geometry.token_radius
    for tid, x, y in state.tokens():
        if math.dist(end, (x, y)) < r + rt - TOUCH:
            raise refused(step, field, f"{miner_id} cannot end its Move on top of {tid} (a Miner cannot finish its "
                          "Movement on top of another Model or Token)", S.MOVE)


def stop_at_contact(state: OrderState, miner_id: str, move: MoveDecl, it: Interaction, step: str,
                    field: str) -> tuple[MoveDecl, tuple[Step, ...]]:
    """The declared Move of a TAG that interacts with a token, ended where it reaches Silhouette Contact with it
    (Move › Effects: "its movement automatically ends"; Tool Containers and Loot: the Move finishes in contact).

    The route is cut at the first point where the base touches the token (a TAG already in contact at the start does
    not move). Refused: an unknown token, a Miner that is not a TAG, a route that never reaches the token.

    Returns:
        ``(the Move as cut, steps)``. Raises RuleViolation (field ``<field>.interact``).
    """
    f = f"{field}.interact"
    tok = token_at(state, it.target)
    if tok is None:
        raise refused(step, f"{f}.target", f"there is no Tool Container or Loot Token {it.target!r} on the table "
                      f"({', '.join(t[0] for t in state.tokens()) or 'none'})", S.TOOL_CONTAINERS_AND_LOOT)
    m = state.miner(miner_id)
    if m.miner_type != "TAG":
        raise refused(step, f, f"{miner_id} is a {m.miner_type}: only a TAG type Miner draws Tool Cards or picks up "
                      "Loot Tokens", S.TOOL_CONTAINERS_AND_LOOT)
    reach = state.geometry.calibration.radius(m.silhouette) + state.geometry.token_radius
    c = (tok[1], tok[2])
    pts = ((m.x, m.y),) + tuple(move.route)
    cut: tuple[Point, ...] | None = None
    for i, (p, q) in enumerate(zip(pts, pts[1:])):
        t = first_contact(p, q, c, reach)
        if t is not None:
            end = (p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]))
            cut = pts[1:i + 1] + ((end,) if t > 0 else ())
            break
    if math.dist(pts[0], c) <= reach + CONTACT_TOLERANCE:
        cut = ()
    if cut is None:
        raise refused(step, f, f"{miner_id}'s Move never reaches Silhouette Contact with {it.target}: a TAG interacts "
                      "with a Tool Container or Loot Token its Move reaches", S.TOOL_CONTAINERS_AND_LOOT)
    dropped = len(move.route) - len(cut)
    if not cut:
        words = "it is already in contact: it does not move"
    elif cut[-1] == move.route[-1]:
        words = "where its route ends"
    else:
        words = (f"{against(math.dist(cut[-1], move.route[-1]), 0.0, True)[0]} board units short of the declared end"
                 + (f"; {plural(dropped, 'later point')} of the route dropped" if dropped > 0 else ""))
    return replace(move, route=cut), (
        Step(f"{miner_id} reaches Silhouette Contact with {it.target} and interacts with it: its movement ends there, "
             f"{words}", S.MOVE, "A TAG may interact with a Tool Container or Loot Token it reaches during its Move; "
             "its movement then ends automatically on reaching Silhouette Contact.",
             {"miner": miner_id, "token": it.target, "route": [list(p) for p in cut]}, (miner_id,), "Move"),)


def _gain(state: OrderState, miner_id: str, teseum: int, t_bezoar: int) -> OrderState:
    m = state.miner(miner_id)
    state = state.with_miner(replace(m, scoring_zone=m.scoring_zone + teseum + t_bezoar))
    gt, gb = dict(state.teseum), dict(state.t_bezoar)
    if teseum:
        gt[m.side] = gt.get(m.side, 0) + teseum
    if t_bezoar:
        gb[m.side] = gb.get(m.side, 0) + t_bezoar
    return replace(state, teseum=tuple(gt.items()), t_bezoar=tuple(gb.items()))


def take_card(state: OrderState, miner_id: str, card: ToolCard, it: Interaction, sec: str,
              field: str = "order.move.interact"):
    """A card drawn from a Tool Container (or taken from a Loot Zone): a Tool is equipped in a free Tool Slot (or in
    the Slot of the equipped Tool the declaration discards; ``it.slot``: the Slot declared, e.g. a Secured one);
    otherwise, or when the TAG does not equip it, it goes to the discard pile. Neomaterial Units the card grants go
    to the Scoring Zone. Returns ``(state, steps)``.

    Raises:
        RuleViolation: a declared Slot the card does not have, or one holding a card not named in ``discard``
            (field ``<field>.slot``; ``field`` is where the interaction is declared).
    """
    rule = S.TOOL_CONTAINER
    steps = []
    m = state.miner(miner_id)
    if card.teseum or card.t_bezoar:
        state = _gain(state, miner_id, card.teseum, card.t_bezoar)
        m = state.miner(miner_id)
        steps.append(Step(f"{miner_id} adds {card.teseum} Teseum and {plural(card.t_bezoar, 'T-Bezoar Unit')} of {card.name} "
                          "to its Scoring Zone", rule, "The player adds any Teseum and T-Bezoar Units to their Scoring "
                          "Zone.", {"card": card.name, "teseum": card.teseum, "t_bezoar": card.t_bezoar},
                          (miner_id,), sec))
    if card.kind != "tool":
        return replace(state, tool_discard=state.tool_discard + (card,)), tuple(steps) + (
            Step(f"{card.name} is not a Tool: its instructions are followed" + (f" ({card.text})" if card.text else ""),
                 rule, "A card that is not a Tool is played as its text says (not executed here); it then goes to the "
                 "discard pile (a documented default).", {"card": card.name, "kind": card.kind}, (miner_id,), sec),)
    if not it.equip:
        return replace(state, tool_discard=state.tool_discard + (card,)), tuple(steps) + (
            Step(f"{miner_id} does not equip {card.name}: it is discarded", rule, "", {"card": card.name},
                 (miner_id,), sec),)
    discard = list(it.discard)
    slotted = list(zip(m.slots_used, m.tools))
    out_cards: list[ToolCard] = []
    free = m.free_slots()
    if it.slot is not None:
        if it.slot > m.tool_slots:
            raise refused(sec, f"{field}.slot", f"{miner_id}'s card has {plural(m.tool_slots, 'Tool Slot')}: no "
                          f"Slot {it.slot}", S.TOOL_CONTAINER)
        holder = next((i for i, (n, _) in enumerate(slotted) if n == it.slot), None)
        if holder is not None:
            held = slotted[holder][1].name
            if held not in discard:
                raise refused(sec, f"{field}.slot", f"Slot {it.slot} holds {held}: name it in discard to equip "
                              f"{card.name} there", S.TOOL_CONTAINER)
            out_cards.append(slotted.pop(holder)[1])
            steps.append(Step(f"{miner_id} discards {held} to free Slot {it.slot}", rule, "Discarded cards go face "
                              "up to the discard pile of the Tool Deck.", {"discarded": held}, (miner_id,), sec))
        free = (it.slot,)
    elif not free:
        gone = next((d for d in discard if d in [t.name for t in m.tools]), None)
        if gone is None:
            return replace(state, tool_discard=state.tool_discard + (card,)), tuple(steps) + (
                Step(f"{miner_id} has no free Tool Slot ({m.tool_slots}) and discards none of its Tools: {card.name} "
                     "is discarded", rule, "Without a free Tool Slot a TAG may discard one equipped Tool Card to take "
                     "the new one.", {"card": card.name, "equipped": False}, (miner_id,), sec),)
        i = [t.name for _, t in slotted].index(gone)
        n, out = slotted.pop(i)
        out_cards.append(out)
        free = (n,)
        steps.append(Step(f"{miner_id} discards {gone} to free a Tool Slot", rule, "Discarded cards go face up to the "
                          "discard pile of the Tool Deck.", {"discarded": gone}, (miner_id,), sec))
    slotted.append((free[0], card))  # the freed Slot, or the lowest free one (a documented default)
    state = state.with_miner(m.with_tools(tuple(slotted)))
    steps.append(Step(f"{miner_id} equips {card.name}" + (" (a Weapon: usable from this point of the Order)"
                                                          if card.weapon is not None else ""), rule,
                      "A Tool with a free Tool Slot may be equipped at once; in this Order it can be used only from "
                      "the point where it was equipped.", {"card": card.name, "equipped": True}, (miner_id,), sec))
    return replace(state, tool_discard=state.tool_discard + tuple(out_cards)), tuple(steps)


def interact(state: OrderState, miner_id: str, it: Interaction, sec: str, field: str = "order.move.interact"):
    """The interaction at the point where the Move ends (Tool Containers and Loot): nothing while an enemy Miner is
    in Silhouette Contact; from a Tool Container, one card (once per Container per Game Round, ruling
    ``tool_container_draws``); from a Loot Token, its Loot Zone (Units to the Scoring Zone, cards as if drawn) and
    the Token is returned. Returns ``(state, steps)``."""
    m = state.miner(miner_id)
    table = state.table()
    enemies = [e.id for e in state.enemies_of(m) if table.in_contact(m.id, e.id)]
    if enemies:
        state = replace(state, interactions=state.interactions + ((miner_id, f"{it.target}: nothing (enemy contact)"),))
        return state, (
            Step(f"{miner_id} cannot draw from {it.target}: it is in Silhouette Contact with {', '.join(enemies)}",
                 S.TOOL_CONTAINERS_AND_LOOT, "A Miner in Silhouette Contact with an enemy Miner cannot draw Tool Cards "
                 "or Loot from the game table.", {"miner": miner_id, "token": it.target, "enemies": enemies},
                 (miner_id,), sec),)
    container = next((c for c in state.containers if c.id == it.target), None)
    if container is not None:
        return _draw_from_container(state, miner_id, container.id, it, sec, field)
    token = next(t for t in state.loot_tokens if t.id == it.target)
    return _pick_loot(state, miner_id, token, it, sec, field)


def _draw_from_container(state: OrderState, miner_id: str, cid: str, it: Interaction, sec: str,
                         field: str = "order.move.interact"):
    reading = state.ruling_set().reading("tool_container_draws")
    done = [(mi, c) for mi, c in state.container_draws if c == cid and (reading == "per_container" or mi == miner_id)]
    rule_fact = {"rulings": {"tool_container_draws": reading}}
    state = state.consulting({"tool_container_draws": reading})
    if done:
        who = ", ".join(mi for mi, _ in done)
        return replace(state, interactions=state.interactions + ((miner_id, f"{cid}: nothing (drawn this Round)"),)), (
            Step(f"{miner_id} draws nothing from {cid}: " + (f"{who} already drew from it this Game Round"
                                                             if reading == "per_container" else
                                                             "it already drew from it this Game Round"),
                 S.TOOL_CONTAINERS_AND_LOOT, "One Tool Card from each Tool Container per Game Round. Ruling "
                 f"'tool_container_draws = {reading}'.", {"miner": miner_id, "container": cid, **rule_fact},
                 (miner_id,), sec),)
    if not state.tool_deck:
        return replace(state, interactions=state.interactions + ((miner_id, f"{cid}: nothing (Tool Deck empty)"),)), (
            Step(f"{miner_id} draws nothing from {cid}: the Tool Deck is empty", S.TOOL_CONTAINER,
                 "The rulebook says nothing of reshuffling the discard pile.", {"miner": miner_id, "container": cid,
                                                                                **rule_fact}, (miner_id,), sec),)
    card, rest = state.tool_deck[0], state.tool_deck[1:]
    state = replace(state, tool_deck=rest, container_draws=state.container_draws + ((miner_id, cid),),
                    interactions=state.interactions + ((miner_id, f"{cid}: drew {card.name}"),))
    first = Step(f"{miner_id} draws a Tool Card from {cid}: {card.name}", S.TOOL_CONTAINER,
                 "Draw one Tool Card and place it face up. Ruling "
                 f"'tool_container_draws = {reading}'.", {"miner": miner_id, "container": cid, "card": card.name,
                                                          "left": len(rest), **rule_fact}, (miner_id,), sec)
    state, more = take_card(state, miner_id, card, it, sec, field)
    return state, (first,) + more


def _pick_loot(state: OrderState, miner_id: str, token: LootToken, it: Interaction, sec: str,
               field: str = "order.move.interact"):
    zone = state.loot_zone(token.owner)
    state = replace(state, loot_tokens=tuple(t for t in state.loot_tokens if t.id != token.id),
                    interactions=state.interactions + ((miner_id, f"{token.id}: picked up"),))
    m = state.miner(miner_id)
    state = state.with_miner(replace(m, scoring_zone=m.scoring_zone + zone.units))
    steps = [Step(f"{miner_id} picks up {token.id}: {plural(zone.units, 'Neomaterial Unit')} to its Scoring Zone, "
                  f"{plural(len(zone.cards), 'Tool Card')}", S.LOOT_TOKEN, "The Units in the Token's Loot Zone go to the "
                  "Scoring Zone, its Tool Cards are taken as if drawn from a Tool Container, and the Loot Token "
                  "returns to its Loot Zone.", {"miner": miner_id, "token": token.id, "owner": token.owner,
                                        "units": zone.units, "cards": [c.name for c in zone.cards]}, (miner_id,), sec)]
    state = state.with_loot_zone(replace(zone, units=0, cards=()))
    for card in zone.cards:
        state, more = take_card(state, miner_id, card, it, sec, field)
        steps += more
    return state, tuple(steps)


# ------------------------------------------------------------------------------------------------ Loot at Death


def _token_spot(state: OrderState, mid: str) -> tuple[float, float]:
    """Where a dead TAG's Loot Token goes: in contact with its base, in front of it; in the middle of the space it
    occupied when that spot is off the tiles or touches another base or token (Death)."""
    m = state.miner(mid)
    geo = state.geometry
    r, rt = geo.calibration.radius(m.silhouette), geo.token_radius
    a = math.radians(m.facing)
    spot = (m.x + (r + rt) * math.cos(a), m.y + (r + rt) * math.sin(a))
    board = geo.board
    h = geo.hex_of(*spot)
    ok = h in board and board[h].tile
    for x in state.miners:
        if ok and x.id != mid and x.on_table and math.dist((x.x, x.y), spot) < (
                geo.calibration.radius(x.silhouette) + rt):
            ok = False
    if ok and state.megabeast is not None:
        mb = state.megabeast
        ok = math.dist((mb.x, mb.y), spot) >= geo.calibration.radius(mb.silhouette) + rt
    if ok:
        ok = all(math.dist((x, y), spot) >= 2 * rt for tid, x, y in state.tokens())
    return spot if ok else (m.x, m.y)


def leave_loot(state: OrderState, mid: str, loot, sec: str):
    """Loot of a dying TAG (Tool Containers and Loot › Loot; Death), before it is removed: a Loot Token of it
    already on the table is emptied (Units to the reserve, cards discarded) and taken away; its Tool Slot cards go
    to its Loot Zone with the Units it does not keep (the roll resolver's :class:`~..resolve.Loot`), or are lost when
    the MegaBeast was involved (cards discarded); a Loot Token is placed (ruling ``loot_token_megabeast``).
    Returns ``(state, steps)``."""
    m = state.miner(mid)
    steps = []
    old = next((t for t in state.loot_tokens if t.owner == mid), None)
    zone = state.loot_zone(mid)
    if old is not None:
        steps.append(Step(f"{mid}'s Loot Token is already on the table: its {plural(zone.units, 'Unit')} "
                          f"{agree(zone.units, 'returns', 'return')} to the reserve and its "
                          f"{plural(len(zone.cards), 'Tool Card')} {agree(len(zone.cards), 'is', 'are')} discarded",
                          S.LOOT, "Before the usual Death and "
                          "Loot steps.", {"miner": mid, "units": zone.units, "cards": [c.name for c in zone.cards]},
                          (mid,), sec))
        state = replace(state, loot_tokens=tuple(t for t in state.loot_tokens if t.id != old.id),
                        tool_discard=state.tool_discard + zone.cards)
        zone = replace(zone, units=0, cards=())
    mb_involved = bool(loot.megabeast_involved)
    kept = m.secured_tools()
    cards = tuple(t for n, t in zip(m.slots_used, m.tools) if n not in m.secured_slots)
    if kept:
        steps.append(Step(f"{mid} keeps {', '.join(f'{t.name} (Slot {n})' for n, t in kept)}: "
                          + ("a Secured Slot" if len(kept) == 1 else "Secured Slots"), S.SECURED,
                          "When the Miner dies, the cards in Slots with the Secured symbol are neither lost nor "
                          "placed in the Loot Zone.", {"miner": mid, "kept": [t.name for _, t in kept],
                                                       "slots": [n for n, _ in kept]}, (mid,), sec))
    if mb_involved:
        state = replace(state, tool_discard=state.tool_discard + cards)
        reading = state.ruling_set().reading("loot_token_megabeast")
        state = state.consulting({"loot_token_megabeast": reading})
        steps.append(Step(f"The MegaBeast was involved in {mid}'s death: the loot is lost ({plural(len(cards), 'Tool Card')} "
                          "discarded)", S.LOOT, f"Ruling 'loot_token_megabeast = {reading}'.",
                          {"miner": mid, "cards": [c.name for c in cards],
                           "rulings": {"loot_token_megabeast": reading}}, (mid,), sec))
        place = reading == "empty_token"
    else:
        zone = replace(zone, units=zone.units + loot.to_loot_zone, cards=zone.cards + cards)
        place = True
        if cards:
            steps.append(Step(f"{mid}'s Tool Slot cards go to its Loot Zone: {', '.join(c.name for c in cards)}",
                              S.DEATH_OF_A_TAG, ("All cards in the TAG's Tool Slots are placed in its Loot Zone." if not kept else
                               "The cards in its other Tool Slots are placed in its Loot Zone."),
                              {"miner": mid, "cards": [c.name for c in cards]}, (mid,), sec))
    state = state.with_loot_zone(zone).with_miner(state.miner(mid).with_tools(kept))
    if place:
        x, y = _token_spot(state, mid)
        tok = LootToken(f"Loot {mid}", mid, x, y)
        state = replace(state, loot_tokens=state.loot_tokens + (tok,))
        where = "in contact with its base" if (x, y) != (m.x, m.y) else "in the middle of the space it occupied"
        steps.append(Step(f"{tok.id} is placed {where}: its Loot Zone holds {plural(zone.units, 'Unit')} and "
                          f"{plural(len(zone.cards), 'Tool Card')}", S.DEATH, "If applicable, a Loot Token is placed in "
                          "contact with the dead Miner's base (in the middle of its space when there is no room).",
                          {"token": tok.id, "position": [round(x, 6), round(y, 6)], "units": zone.units,
                           "cards": [c.name for c in zone.cards]}, (mid,), sec))
    return state, tuple(steps)
