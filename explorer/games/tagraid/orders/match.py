"""A whole TAG Raid match as one sequence over immutable state: Initial Deployment, then Game Rounds until an End of
Match condition is met.

Sections: Setting Up the Match (06 Initial Deployment: :mod:`.deployment`); Game Sequence › Game Round (each Round is
:data:`.round.ROUND_STEPS`, played by :func:`.round.play_round` from the state the previous Round left: Events Phase,
MegaBeast Event, Players Phase with its Orders, End of the Round); Victory Conditions (the match ends at the End of
the Round in which an End of Match condition is met; no Round is played after it).

:data:`MATCH_STEPS` is a :data:`explorer.kernel.Sequence` of two :class:`explorer.kernel.Each` entries: one frame
per player's deployment, then one frame per Round. Time travel is replay: ``play_match(..., upto=1)`` stops after
Initial Deployment, and a Round's Orders are replayed from the :class:`.round.RoundState` its frame starts from
(:attr:`MatchState.round_starts`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from explorer import kernel
from explorer.errors import RuleViolation, ScenarioError
from explorer.kernel import Context, Each, Frame
from explorer.trace import Trace

from .. import sections as S
from ..outcomes import MatchOutcome, MinerAfter
from .declarations import refused
from .deployment import DeploymentContext, DeploymentDeclarations, DeploymentState, deploy_player, off_table
from .round import EventCard, RoundDeclarations, RoundState, play_round, start_round_state
from .state import MegaBeastState, OrderState


@dataclass(frozen=True)
class MatchDeclarations:
    """Everything the players declare in a match: the Initial Deployment and each Round's declarations, in play
    order."""

    deployment: DeploymentDeclarations = DeploymentDeclarations()
    rounds: tuple[RoundDeclarations, ...] = ()


@dataclass(frozen=True)
class MatchContext(Context):
    """What the match steps read (:class:`explorer.kernel.Context`): the declarations, the seed of the deployment
    dice, the Event deck (top first), the MegaBeast waiting for its deployment symbol and the T-Bezoar held before
    the match; ``rerolled``: every fixed die dropped on purpose (``--reroll``), so a draw is no fault of the file."""

    declarations: MatchDeclarations = MatchDeclarations()
    seed: int = 0
    deck: tuple[EventCard, ...] = ()
    waiting_megabeast: MegaBeastState | None = None
    t_bezoar: tuple[tuple[str, int], ...] = ()
    rerolled: bool = False


@dataclass(frozen=True)
class MatchState:
    """The match between its steps.

    Attributes:
        deployment: the Initial Deployment so far (its table once every player has deployed).
        rounds_declared: how many Rounds the record declares (the items of the Round entry).
        round_starts: the :class:`.round.RoundState` each played Round started from (replay its Orders from it).
        current: the state the last Round left (``None`` before Round 1).
    """

    deployment: DeploymentState
    rounds_declared: int = 0
    round_starts: tuple[RoundState, ...] = ()
    current: RoundState | None = None

    @property
    def table(self) -> OrderState:
        """The table now: the last Round's, or the deployment's."""
        return self.current.table if self.current is not None else self.deployment.table

    @property
    def over(self) -> bool:
        return self.current is not None and self.current.over


def initial_deployment(ms: MatchState, ctx: MatchContext, side: str):
    """06 Initial Deployment of one player, in Timeline order (:func:`.deployment.deploy_player`)."""
    ds, steps = deploy_player(ms.deployment, DeploymentContext(declarations=ctx.declarations.deployment,
                                                               seed=ctx.seed), side)
    return replace(ms, deployment=ds), steps


def game_round(ms: MatchState, ctx: MatchContext, number: int):
    """Round ``number`` of the record (1 for the first): one Game Round (:data:`.round.ROUND_STEPS`) from the state the previous one left (Round 1: the deployed
    table, the Event deck, the MegaBeast waiting). Its steps are sectioned ``Round N › ...``.

    Raises:
        RuleViolation: a Round declared after the match ended (field ``rounds[i]``), or any refusal of the Round,
            its field prefixed with ``rounds[i].``.
    """
    index = number - 1
    if ms.over:
        r = ms.current
        raise refused(f"Round {r.round + (0 if r.over else 1)}", f"rounds[{index}]",
                      f"the match ended at the End of Round {r.round} ({r.result[1]}): no Round follows it",
                      S.VICTORY_CONDITIONS)
    start = next_round_start(ms, ctx)
    try:
        frames = play_round(start, ctx.declarations.rounds[index])
    except RuleViolation as e:
        r = e.rejection
        raise RuleViolation(r.reason, r.rule, field=f"rounds[{index}].{r.field}",
                            step=f"Round {start.round} › {r.step}", source=e.source) from None
    except ScenarioError as e:
        if e.source is not None:
            raise
        raise ScenarioError(f"rounds[{index}].{e.field}", e.problem, e.allowed) from None
    steps = tuple(s.in_section(f"Round {start.round} › {s.section}") for f in frames for s in f.steps)
    return replace(ms, round_starts=ms.round_starts + (start,), current=frames[-1].state), steps


def next_round_start(ms: MatchState, ctx: MatchContext) -> RoundState:
    """The state the next Round starts from: Round 1 from the deployed table, the Event deck, the MegaBeast waiting
    and the T-Bezoar held; a later Round from the state the last one left (its Orders already flipped)."""
    if ms.current is None:
        start = start_round_state(ms.deployment.table, ctx.deck, ctx.waiting_megabeast, ctx.t_bezoar)
        # issue #25 item 4: an Access Point d20 from the seed decides where the Miners start, so every Order after
        # it would hold for some draws only (a placement was already refused: deployment.check_placements_...)
        fixed = dict(ctx.declarations.deployment.rolls)
        drawn = [s for s in ms.deployment.table.timeline if not fixed.get(s)]
        if drawn and not ctx.rerolled:
            start = replace(start, drawn_before=("Initial Deployment", f"{', '.join(drawn)} Access Point d20s",
                                                 "'initial_deployment.rolls'"))
        return start
    return replace(ms.current, orders_played=0)


def _sides(ms: MatchState) -> tuple[str, ...]:
    return ms.deployment.table.timeline


def _rounds(ms: MatchState) -> range:
    return range(1, ms.rounds_declared + 1)


MATCH_STEPS: kernel.Sequence = (
    Each("06 Initial Deployment › {item}", _sides, initial_deployment),
    Each("Round {item}", _rounds, game_round),
)
"""A match: one frame per player's Initial Deployment, then one per Round (a :data:`explorer.kernel.Sequence`)."""


def start_match(table: OrderState, decl: MatchDeclarations) -> MatchState:
    """The state before Initial Deployment: every Miner off the table."""
    return MatchState(off_table(table), len(decl.rounds))


def play_match(table: OrderState, ctx: MatchContext, upto: int | None = None) -> tuple[Frame[MatchState], ...]:
    """Replay the match from ``table`` (:data:`MATCH_STEPS`; ``upto=1``: Initial Deployment only).

    Raises:
        RuleViolation: the first declaration the rules refuse.
    """
    return kernel.play(start_match(table, ctx.declarations), MATCH_STEPS, ctx, upto=upto)


def play_match_until_refused(table: OrderState, ctx: MatchContext):
    """:func:`play_match` stopping at the first refusal: ``(frames, RuleViolation or None)``."""
    return kernel.play_until_refused(start_match(table, ctx.declarations), MATCH_STEPS, ctx)


def match_result(last: MatchState, orders_played: int) -> MatchOutcome:
    """The typed outcome of a played match record."""
    table = last.table
    cur = last.current
    sides = table.timeline
    tb = dict(cur.t_bezoar) if cur is not None else {}
    units = tuple((s, cur.units(s) if cur is not None else sum(m.scoring_zone + m.warehouse for m in table.miners
                                                               if m.side == s)) for s in sides)
    return MatchOutcome(
        access_points=last.deployment.access, rounds_played=len(last.round_starts), over=last.over,
        winner=cur.result[0] if cur is not None and cur.result else None,
        result=cur.result[1] if cur is not None and cur.result else None,
        units=units, t_bezoar=tuple((s, tb.get(s, 0)) for s in sides),
        miners=tuple(MinerAfter(m.id, m.wounds, tuple(m.states), m.orders, m.on_table,
                                (round(m.x, 6), round(m.y, 6)), m.scoring_zone) for m in table.miners),
        events_drawn=tuple(c.name for c in cur.drawn) if cur is not None else (), orders_played=orders_played)


def match_trace(title: str, frames: tuple[Frame[MatchState], ...], decl: MatchDeclarations) -> Trace:
    """The match's :class:`~explorer.trace.Trace` (every step in order) with its :class:`MatchOutcome`."""
    last = frames[-1].state
    n = sum(len(decl.rounds[i].orders) for i in range(len(last.round_starts)))
    return kernel.trace_of(title, frames).with_result(match_result(last, n))
