"""What the Mass Effect Round step-through shows at each cited step of a ``round`` scenario, drawn from the kernel
frames' typed state (:class:`.round.RoundState`): each Squadmate's sheet (Shield Points, Hit Points, Downed, XP, the
Action Spaces holding a die, the Hazard card dealt, the Abilities unlocked in play), every Enemy (Damage, Stunned,
Biotic Effect, Shrouded, Resilience levels marked), the Strategy Pool's dice, the Hazard deck and discard pile, the
Loot tokens still on the map, the squad's Inventory, the Objectives completed and how the Mission ended. No widget
here: the data ``explorer masseffect step`` and the Round page (:mod:`.round_views`) draw.

What a position shows follows the rule every step-through does (:func:`explorer.kernel.steps_shown`): the kernel
plays a Round frame by frame (:data:`.round.ROUND_SEQUENCE`), and a frame has one state, the one after it; a frame's
last step shows that state, a step before it the board as the frame found it, and says so. Going back is reading
an earlier position (the frames are replayed from the file, never undone).

Rulebook sections shown: Playing a Mission › Preparation Phase, Squadmate Phase (Step A: Strategy Roll, Step B:
Actions, Step C: Hazard Card), End Phase; Squadmate Sheets; Loot Tokens and Inventory; Mission Objectives.
"""

from __future__ import annotations

import re

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from explorer.kernel import Frame, steps_shown
from explorer.text import plural
from explorer.trace import Step

from .round import RoundScenario, RoundState, play_round, round_start
from .strategy import FACE_SHORT


@dataclass(frozen=True)
class SquadmatePanel:
    """One Squadmate's sheet at a position: ``hex`` (``""`` off the map), ``shield_points`` / ``shield_max``,
    ``hit_points`` / ``hit_max``, ``downed``, ``xp`` (boxes marked, 0..3), ``used`` (the Action Spaces holding a die
    this Round, ``"<box> #<space>"``), ``hazard_card`` (the card dealt face-down and not yet flipped, ``""`` none),
    ``unlocked`` (Abilities unlocked during play), ``on_point`` and ``to_play`` (this Squadmate's turn),
    ``renegade_tokens`` (held; ``None``: the file does not track them)."""

    name: str
    hex: str
    shield_points: int
    shield_max: int
    hit_points: int
    hit_max: int
    downed: bool
    xp: int
    used: tuple[str, ...]
    hazard_card: str
    unlocked: tuple[str, ...]
    on_point: bool
    to_play: bool
    renegade_tokens: int | None = None
    """Renegade tokens held (Renegade Tokens), ``None`` when the file does not track them."""
    analysis: str = ""
    """Liara's Analysis token on its track, ``"2/4"`` (``""``: the sheet has no track)."""
    core: str = ""
    """The element of this Squadmate's Core Ability, in words: ``"Command tokens Ready 2/3"``, ``"Aim Value 1/5"``,
    ``"Chatika on 1,1"``, ``"Rage tokens Enraged 1/3"`` (``""``: none the sheet gives; Liara's is :attr:`analysis`)."""


@dataclass(frozen=True)
class EnemyPanel:
    """One Enemy token on the map at a position: ``hex``, ``kind`` (``"minion"`` / ``"elite"``), ``damage`` (Damage
    tokens), ``stunned``, ``biotic_effect``, ``shrouded``, ``resilience`` (an Elite's levels, top first) and
    ``exhausted`` (levels marked)."""

    name: str
    hex: str
    kind: str
    damage: int
    stunned: bool
    biotic_effect: bool
    shrouded: bool
    resilience: tuple[int, ...]
    exhausted: int


@dataclass(frozen=True)
class RoundPosition:
    """One cited ``step`` of a ``round`` trace and the game shown at it (:func:`positions_from`).

    Attributes:
        step: the cited step; ``frame`` (the kernel frame's index) and ``frame_name`` ("Turn 2", "Round 2 · End
            Phase", ...); ``round`` (1...).
        squadmates: :class:`SquadmatePanel` in seating order; ``enemies``: :class:`EnemyPanel`, the map's tokens.
        pool: Strategy dice left in the Strategy Pool; ``dice``: the Pool's dice as ``"S4 Std"`` (``"S4 ?"``: face
            not known).
        deck: Hazard cards left in the deck; ``discard``: the discard pile, oldest first; ``reshuffled``: times the
            discard pile became the deck.
        loot: ``((hex, n tokens), ...)`` face-down Loot tokens on the map; ``inventory``: the squad's Inventory.
        returned_to_bag: Minions Defeated and in the Enemy Bag now (one drawn again by a Spawn is on the map, not
            here); ``completed``: Mission Objectives completed;
        ending: how the Mission ended (``None`` while it goes on); ``rejected``: the refused declaration or ``None``.
        moved: ``((name, from hex, to hex), ...)``: the characters the step's frame moved (where they stood when the
            phase or turn began, where it leaves them; ``""`` off the map: Spawned, or Defeated and gone).
    """

    step: Step
    frame: int
    frame_name: str
    round: int
    squadmates: tuple[SquadmatePanel, ...]
    enemies: tuple[EnemyPanel, ...]
    pool: int
    dice: tuple[str, ...]
    deck: int
    discard: tuple[str, ...]
    reshuffled: int
    loot: tuple[tuple[str, int], ...]
    inventory: tuple[str, ...]
    returned_to_bag: tuple[str, ...]
    completed: tuple[str, ...]
    ending: str | None
    rejected: str | None
    moved: tuple[tuple[str, str, str], ...] = ()
    chatika: str = ""
    """The hex of Tali's drone token Chatika (``""``: not in play)."""
    settled: bool = True
    """``False`` for a step before its frame's last: the board is the one the frame found (:attr:`note`)."""
    progress: tuple[tuple[str, int], ...] = ()
    """``(Mission Action rule, Progress Boxes marked)`` (The Mission Book › Mission Rules Page)."""
    note: str = ""
    """Which state is shown, in words, when it is not the state after the step
    (:meth:`explorer.kernel.StepShown.note`)."""


def _hex(h) -> str:
    return "" if h is None else str(h)


def core_element(state: RoundState, sheet) -> str:
    """The Core Ability element of ``sheet``'s Squadmate in ``state``, in words (:attr:`SquadmatePanel.core`; Core
    Abilities: the sheet file's Command tokens, Aim Tracker, drone and Rage tokens), and Garrus' Proximity Mine tokens
    once the Ability is unlocked (Squadmate Commentary › Garrus Vakarian › Proximity Mines)."""
    if sheet is None:
        return ""
    parts = []
    if sheet.command_tokens:
        parts.append(f"Command tokens Ready {state.command_ready}/{sheet.command_tokens}")
    if sheet.aim_track:
        parts.append(f"Aim Value {state.aim}/{sheet.aim_track}")
    if sheet.drone_move and state.chatika is not None:
        parts.append(f"Chatika on {state.chatika}")
    if sheet.rage_tokens:
        parts.append(f"Rage tokens Enraged {state.enraged}/{sheet.rage_tokens}")
    mine = next((b for b in sheet.boxes if b.mines and (b.unlocked or (sheet.name, b.name) in state.unlocked)), None)
    if mine is not None:
        parts.append(f"Proximity Mine tokens {state.mines}/{mine.mines}")
    return ", ".join(parts)


def squadmate_panels(state: RoundState, due: str | None = None, sheets=None) -> tuple[SquadmatePanel, ...]:
    """Each Squadmate's :class:`SquadmatePanel` in ``state`` (Squadmate Sheets; Step B: Actions: one die per Action
    Space); ``due``: the Squadmate whose turn it is (``None`` outside the Squadmate Phase); ``sheets``: the
    Squadmate Sheets (for the Analysis track and the Core Ability elements; ``None``: the ones the state was played
    with, :attr:`.round.RoundState.sheets` — the file's own sheet file — else the built-in stand-in)."""
    if sheets is None:
        sheets = state.sheets
    if sheets is None:
        from .sheets import load_sheets
        sheets = load_sheets()
    b = state.board
    renegade = dict(state.renegade)
    out = []
    for s in b.squadmates:
        used = tuple(f"{box} #{i + 1}" for who, box, i in state.used if who == s.name)
        out.append(SquadmatePanel(s.name, _hex(s.position), s.shield_points, s.shield_points_max, s.hit_points,
                                  s.hit_points_max, s.downed, s.xp, used, state.hand(s.name) or "",
                                  tuple(box for who, box in state.unlocked if who == s.name),
                                  s.name == state.on_point, s.name == due, renegade.get(s.name),
                                  f"{state.analysis_token}/{sheets[s.name].analysis_track}"
                                  if sheets and s.name in sheets and sheets[s.name].analysis_track else "",
                                  core_element(state, sheets.get(s.name) if sheets else None)))
    return tuple(out)


def enemy_panels(state: RoundState) -> tuple[EnemyPanel, ...]:
    """Every Enemy token on the map in ``state`` (Enemy Tokens; Elites' Resilience Tracker)."""
    return tuple(EnemyPanel(e.name, _hex(e.position), e.kind, e.damage, e.stunned, e.biotic_effect, e.shrouded,
                            tuple(e.resilience), e.exhausted)
                 for e in state.board.enemies if e.position is not None)


def _where(state: RoundState | None) -> dict[str, str]:
    if state is None:
        return {}
    return {c.name: _hex(c.position) for c in (*state.board.squadmates, *state.board.enemies)
            if c.position is not None}


def moves(before: RoundState | None, after: RoundState) -> tuple[tuple[str, str, str], ...]:
    """``((name, from hex, to hex), ...)`` of every character whose hex differs between ``before`` (``None``: the
    start, nothing moved) and ``after`` (``""``: not on the map), Squadmates first, in board order."""
    if before is None:
        return ()
    a, b = _where(before), _where(after)
    names = list(dict.fromkeys([*a, *b]))
    return tuple((n, a.get(n, ""), b.get(n, "")) for n in names if a.get(n, "") != b.get(n, ""))


def position_of(step: Step, i: int, f: Frame, before: RoundState | None = None, *, shown: RoundState | None = None,
                note: str = "") -> RoundPosition:
    """The :class:`RoundPosition` of ``step``, a step of frame ``i`` (``f``).

    Args:
        before: the state the frame began from (the previous frame's), for :attr:`RoundPosition.moved`.
        shown: the state to show when it is not the frame's own (a step before the frame's last shows the state the
            frame found: :func:`explorer.kernel.steps_shown`); then nothing is ``moved`` yet. note: what ``shown``
            is, in words.
    """
    settled = shown is None
    st: RoundState = f.state if settled else shown
    turn = re.search(r"Turn (\d+)$", f.name)
    due = st.order[int(turn.group(1)) - 1] if turn and int(turn.group(1)) <= len(st.order) else None
    dice = tuple(f"{d.id} {FACE_SHORT[d.face] if d.face else '?'}" for d in st.dice)
    # A die placed on a sheet leaves the rolled Pool at once; ``st.pool`` drops only when the turn's three are taken.
    pool = len(st.dice) if st.rolled else st.pool
    return RoundPosition(step, i, f.name, st.round, squadmate_panels(st, due), enemy_panels(st), pool, dice,
                         len(st.deck), st.discard, st.reshuffled, tuple((str(h), len(t)) for h, t in st.loot),
                         st.inventory, tuple(t.name for t in st.board.in_bag), st.completed,
                         st.ending or ("Failure: Shepard is Downed" if st.board.failed else None), st.rejected,
                         moves(before, st) if settled else (), _hex(st.chatika), settled, note=note,
                         progress=st.progress)


def positions_from(frames: Sequence[Frame], start: RoundState) -> list[RoundPosition]:
    """One :class:`RoundPosition` per cited step of frames already played from ``start`` (:func:`.round.play_round`,
    :func:`.round.round_start`), in order. What each step shows follows the one rule of
    :func:`explorer.kernel.steps_shown`: a frame's last step shows the board as the frame leaves it (after the step,
    with what the frame moved); a step before it the board as the frame found it (the previous frame's, ``start``
    before the first), and says so."""
    out = []
    for at in steps_shown(frames):
        f = frames[at.frame]
        before = frames[at.frame - 1].state if at.frame else start
        if at.settled:
            out.append(position_of(at.step, at.frame, f, before))
        else:
            out.append(position_of(at.step, at.frame, f, shown=frames[at.shown].state if at.shown >= 0 else start,
                                   note=at.note(f.name)))
    return out


def round_positions(sc: RoundScenario, rulings: Mapping[str, str] | None = None, seed: int | None = None
                    ) -> list[RoundPosition]:
    """One :class:`RoundPosition` per cited step of the scenario's play (:func:`.round.play_round`), in trace order:
    the trace's steps, each shown with the state :func:`positions_from` gives it. A refused declaration is the last
    step (its "Not allowed" step ends the Round's play)."""
    return positions_from(play_round(sc, rulings, seed)[0], round_start(sc, rulings, seed)[0])


def position_text(pos: RoundPosition, number: int, total: int) -> str:
    """A position in words (``explorer masseffect step``): the step and its rule, then each Squadmate's sheet, the
    Enemies, the Strategy Pool, the Hazard deck, Loot and Inventory, the Objectives."""
    s = pos.step
    lines = [f"Step {number}/{total} · {s.section}", f"  {s.title}  [{s.rule.game}: {s.rule.section}]"]
    if s.detail:
        lines.append(f"  {s.detail}")
    moved = ", ".join(f"{n} {a or 'off the map'} -> {b or 'off the map'}" for n, a, b in pos.moved)
    lines.append(f"  ({pos.note})" if pos.note else f"  (the board after this step, as {pos.frame_name} leaves it"
                 + (f"; moved in it: {moved}" if moved else "") + ")")
    for q in pos.squadmates:
        extra = [x for x in ("On Point" if q.on_point else "", "Downed" if q.downed else "",
                             q.hazard_card and f"Hazard card {q.hazard_card} face-down",
                             "" if q.renegade_tokens is None else plural(q.renegade_tokens, "Renegade token"),
                             q.analysis and f"Analysis token {q.analysis}", q.core,
                             q.used and "dice on " + ", ".join(q.used),
                             q.unlocked and "unlocked " + ", ".join(q.unlocked)) if x]
        lines.append(f"  {'▶ ' if q.to_play else '  '}{q.name} on {q.hex or 'no hex'}: Shield Points "
                     f"{q.shield_points}/{q.shield_max}, Hit Points {q.hit_points}/{q.hit_max}, XP {q.xp}"
                     + (f"; {'; '.join(extra)}" if extra else ""))
    for e in pos.enemies:
        extra = [x for x in (f"{e.damage} Damage" if e.damage else "", "Stunned" if e.stunned else "",
                             "Biotic Effect" if e.biotic_effect else "", "Shrouded" if e.shrouded else "",
                             f"Resilience {e.exhausted}/{len(e.resilience)} marked" if e.resilience else "") if x]
        lines.append(f"    {e.name} ({e.kind}) on {e.hex}" + (f": {', '.join(extra)}" if extra else ""))
    lines.append(f"  Strategy Pool: {plural(pos.pool, 'die', 'dice')}"
                 + (f" ({', '.join(pos.dice)})" if pos.dice and any(not d.endswith("?") for d in pos.dice) else ""))
    lines.append(f"  Hazard deck: {plural(pos.deck, 'card')}; discard: {', '.join(pos.discard) or 'empty'}"
                 + (f"; reshuffled {pos.reshuffled}x" if pos.reshuffled else ""))
    if pos.loot or pos.inventory:
        lines.append("  Loot on the map: " + (", ".join(f"{h} ({n})" for h, n in pos.loot) or "none")
                     + f"; Inventory: {', '.join(pos.inventory) or 'empty'}")
    if pos.returned_to_bag:
        lines.append(f"  Back in the Enemy Bag: {', '.join(pos.returned_to_bag)}")
    if pos.progress:
        lines.append("  Progress Boxes marked: " + ", ".join(f"{n}: {k}" for n, k in pos.progress))
    if pos.completed or pos.ending:
        lines.append(f"  Objectives completed: {', '.join(pos.completed) or 'none'}"
                     + (f"; Mission over: {pos.ending}" if pos.ending else ""))
    if pos.rejected:
        lines.append(f"  Not allowed: {pos.rejected}")
    return "\n".join(lines)


__all__ = ["SquadmatePanel", "EnemyPanel", "RoundPosition", "squadmate_panels", "enemy_panels", "position_of",
           "positions_from", "round_positions", "position_text"]
