"""Scenario kind ``"map"``: questions about a Mission Map — adjacency, distances, "within N hexes", Line of Fire.

Rulebook sections: Interacting with the Mission Map › Adjacency, Counting Distances, Line of Fire, Shrouded Areas;
Additional Rules › Turrets; Map Features › Elevation Change Icons; The Mission Book › Hexes (one character per hex).

Public API (the game-wide scenario convention):

* ``parse_map_query(data: dict, source: str) -> MapQuery`` — validate a scenario (raises ScenarioError, one line
  naming the file, field and allowed values). ``MapQuery.mission_map`` is the :class:`~.map.MissionMap`,
  ``MapQuery.placements`` the characters' hexes. :class:`MapQuery` is frozen plain values; the file's pydantic
  models are in :mod:`.query_file`, imported by the parser only, so this module imports no pydantic (issue 18).
* ``resolve_map_query(scenario, rulings=None, seed=None) -> Trace`` — one Trace step per question, each citing its
  section; ``Trace.outcome = {"map": name, "answers": [...]}`` (JSON-serialisable), ``Trace.rulings`` the readings
  consulted (the scenario's ``[rulings]`` first, then ``rulings`` overrides).
* ``load_map_query(name_or_path) -> MapQuery`` for built-in scenarios (``scenarios/<id>.toml``) or files.

File format::

    game = "masseffect"
    kind = "map"
    title = "ME-04: a wall on the straight line"
    description = "..."
    map = "diagram-2"                 # a built-in map, or an inline [map] table (see map.py / docs)

    [[characters]]                    # at most 64; one character per hex, on the map
    name = "Garrus"
    side = "squadmate"                # or "enemy"
    hex = "0,0"
    tags = []                         # optional (e.g. ["Ranged"]), informational here

    [[questions]]                     # 1..100
    ask = "distance"                  # adjacent | distance | within | at_least | lof | lof_all | turret_lof | step
    a = "Garrus"                      # a character name or a hex "q,r" (the attacker for lof / lof_all)
    b = "Husk"                        # the other one (the target); not for lof_all
    n = 3                             # within / at_least: hexes
    ignore_walls = false              # distance / within / at_least: ignore walls and locked doors
    turret = "3,-1"                   # turret_lof: the Turret's hex; b is the target
    label = "variant"                 # optional note shown in the step
    edit = { remove = ["0,0|1,0"], add = [{ edge = "1,0|2,0", kind = "obstacle" }] }   # this question only

``ask`` meanings: ``adjacent`` (Adjacency), ``distance`` (Counting Distances), ``within`` (distance <= n),
``at_least`` (distance >= n, "N or more hexes away", e.g. the Enhanced Concussive Shot), ``lof`` (Line of Fire of a
character on ``a``), ``lof_all`` (everything on ``a``'s six lines), ``turret_lof`` (a Turret's Line of Fire),
``step`` (may a character move from ``a`` into ``b`` with one Movement Point: adjacency and Elevation Change).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any

from explorer.errors import ScenarioError
from explorer.hexgrid import Hex
from explorer.kernel import Context, Each, play, trace_of
from explorer.scenario import read_toml
from explorer.trace import Step, Trace

from . import geometry as G
from . import options as opts
from . import sections as S
from .map import (EdgeFeature, FeatureKind, MissionMap, check_placements, load_map, map_from_dict, parse_edge,
                  parse_hex)
from .map_results import MapAnswer, MapOutcome


ASKS = ("adjacent", "distance", "within", "at_least", "lof", "lof_all", "turret_lof", "step")


@dataclass(frozen=True)
class Character:
    """A placed character as the file gives it (``[[characters]]``): ``name``, ``side`` (``"squadmate"`` or
    ``"enemy"``), ``hex`` (the key ``"q,r"``), ``tags``."""

    name: str
    side: str
    hex: str
    tags: tuple[str, ...] = ()


@dataclass(frozen=True)
class Question:
    """One validated ``[[questions]]`` entry: ``ask`` (one of :data:`ASKS`), ``a``, ``b`` (a character name or a hex
    ``"q,r"``), ``n`` (hexes, for ``within`` / ``at_least``), ``ignore_walls``, ``turret`` (a hex), ``label``, and
    ``edit``: the question's map edit as the file gives it (``{"remove": [...], "add": [{...}]}``, ``None``
    omitted), or ``None``."""

    ask: str
    a: str | None = None
    b: str | None = None
    n: int | None = None
    ignore_walls: bool = False
    turret: str | None = None
    label: str = ""
    edit: dict[str, Any] | None = None


@dataclass(frozen=True)
class MapQuery:
    """A validated ``kind = "map"`` scenario (see the module docstring): frozen plain values, no pydantic (its file
    model is :class:`.query_file.MapQueryFile`), so a built-in's value is kept by the parse cache and answered
    without pydantic (:mod:`explorer.plain`; issue 18).

    Attributes:
        title, description, seed, rulings, map (a built-in map's name or the inline ``[map]`` table): the file's.
        characters: the file's characters, in file order. questions: the file's questions, in file order.
        mission_map: the :class:`~.map.MissionMap`. placements: ``{name: (hex, side, tags)}`` in file order.
        maps: the map of each question (the Mission Map with that question's ``edit``), one per question.
        source: the file's name in messages.
    """

    title: str
    description: str
    seed: int | None
    rulings: Mapping[str, str]
    map: str | Mapping[str, Any]
    characters: tuple[Character, ...]
    questions: tuple[Question, ...]
    mission_map: MissionMap
    placements: Mapping[str, tuple[Hex, str, tuple[str, ...]]]
    maps: tuple[MissionMap, ...]
    source: str = ""


def _map_of(value: str | dict[str, Any], source: str) -> MissionMap:
    if isinstance(value, str):
        try:
            return load_map(value)
        except ScenarioError as e:
            raise ScenarioError("map", e.problem, e.allowed, source) from None
    return map_from_dict(value, source)


def parse_map_query(data: dict, source: str) -> MapQuery:
    """Validate a ``kind = "map"`` scenario (its file model: :class:`.query_file.MapQueryFile`, the only place this
    kind meets pydantic).

    Raises:
        ScenarioError: a malformed field (path, problem, allowed values), an unknown ruling, a map error, a character
            off the map or sharing a hex, a question naming an unknown character or missing a parameter.
    """
    from explorer.scenario import validate

    from .query_file import MapQueryFile

    q = validate(MapQueryFile, data, source)
    opts.rulings(q.rulings)  # unknown keys / readings -> ScenarioError
    m = _map_of(q.map, source)
    chars = [(c.name, parse_hex(c.hex, f"characters[{i}].hex", source)) for i, c in enumerate(q.characters)]
    check_placements(m, chars, "characters", source)
    placements = {c.name: (h, c.side, tuple(c.tags)) for c, (_, h) in zip(q.characters, chars)}
    maps = []
    for i, qu in enumerate(q.questions):
        fld = f"questions[{i}]"
        mi = _edited(m, qu.edit, f"{fld}.edit", source) if qu.edit else m
        maps.append(mi)
        need = {"adjacent": "ab", "distance": "ab", "within": "abn", "at_least": "abn", "lof": "ab", "lof_all": "a",
                "turret_lof": "tb", "step": "ab"}[qu.ask]
        for p in need:
            name = {"a": "a", "b": "b", "n": "n", "t": "turret"}[p]
            if getattr(qu, name) is None:
                raise ScenarioError(f"{fld}.{name}", f"is required for ask = {qu.ask!r}",
                                    "a whole number 0..99" if p == "n" else
                                    "a hex 'q,r'" if p == "t" else "a character name or a hex 'q,r'", source)
        for p in "ab":
            if getattr(qu, p) is not None:
                h = _ref(placements, getattr(qu, p), f"{fld}.{p}", source)
                if h not in mi:
                    raise ScenarioError(f"{fld}.{p}", f"hex {h} is not on the map (Out of Bounds)", "a hex of the map",
                                        source)
        if qu.turret is not None:
            th = parse_hex(qu.turret, f"{fld}.turret", source)
            if mi.turret_at(th) is None:
                raise ScenarioError(f"{fld}.turret", f"there is no Turret on hex {th}",
                                    ", ".join(repr(str(t.hex)) for t in mi.turrets) or "no Turrets on this map", source)
    return MapQuery(
        q.title, q.description, q.seed, dict(q.rulings), q.map,
        tuple(Character(c.name, c.side, c.hex, tuple(c.tags)) for c in q.characters),
        tuple(Question(qu.ask, qu.a, qu.b, qu.n, qu.ignore_walls, qu.turret, qu.label,
                       qu.edit.model_dump(exclude_none=True) if qu.edit else None) for qu in q.questions),
        m, placements, tuple(maps), source)


def _edited(m: MissionMap, e, fld: str, source: str) -> MissionMap:
    """``m`` with a question's ``edit`` (a :class:`.query_file.EditModel`) applied."""
    remove = [parse_edge(x, f"{fld}.remove[{i}]", source) for i, x in enumerate(e.remove)]
    add = []
    for i, em in enumerate(e.add):
        f = f"{fld}.add[{i}]"
        edge = parse_edge(em.edge, f"{f}.edge", source)
        if em.kind == "door" and em.locked is None:
            raise ScenarioError(f"{f}.locked", "a door needs its state", "locked = true or locked = false", source)
        hi = parse_hex(em.high, f"{f}.high", source) if em.high else None
        try:
            add.append(EdgeFeature(edge, FeatureKind(em.kind), bool(em.locked), hi))
        except ValueError as err:
            raise ScenarioError(f, str(err), None, source) from None
    try:
        return m.with_features(add, remove)
    except ScenarioError as err:
        raise ScenarioError(fld, err.problem, err.allowed, source) from None


def _ref(placements: Mapping[str, tuple[Hex, str, tuple[str, ...]]], text: str, fld: str, source: str) -> Hex:
    """The hex of a question's ``a`` / ``b``: a placed character's (``placements``), else the hex key itself."""
    if text in placements:
        return placements[text][0]
    try:
        Hex.parse(text)
    except ValueError:
        names = list(placements)
        raise ScenarioError(fld, f"no character named {text!r}", ("a hex 'q,r' or one of " + ", ".join(
            repr(n) for n in names)) if names else "a hex 'q,r' (no characters are placed)", source) from None
    return parse_hex(text, fld, source)


def _facts(d: dict[str, Any]) -> dict[str, Any]:
    """A geometry result's dict as Step facts (its ``rule`` is the step's own)."""
    return {k: v for k, v in d.items() if k != "rule"}


def _who(q: MapQuery, text: str) -> str:
    return text if text in q.placements else f"hex {text.strip()}"


def _occupant(q: MapQuery, h: Hex) -> str | None:
    return next((n for n, (x, _, _) in q.placements.items() if x == h), None)


@dataclass(frozen=True)
class Answers:
    """The questions of a ``map`` scenario answered so far (the frozen state of :data:`MAP_SEQUENCE`): ``asked``, how
    many the file asks; ``answers``, one :class:`.map_results.MapAnswer` each, in order."""

    asked: int
    answers: tuple[MapAnswer, ...] = ()


@dataclass(frozen=True)
class MapQueryContext(Context):
    """What answering reads and never changes: the ruling readings (``rulings``) and the validated ``query`` (its
    maps, one per question with its edits, and the characters' placements). No dice."""

    query: Any = None


def question_numbers(state: Answers) -> range:
    """Questions 1 .. the number the file asks."""
    return range(1, state.asked + 1)


def answer_question(state: Answers, ctx: MapQueryContext, number: int) -> tuple[Answers, tuple[Step, ...]]:
    """Question ``number`` (from 1), by the section its ``ask`` names (Adjacency, Counting Distances, Line of Fire,
    Turrets, Elevation Change): one cited step and its :class:`.map_results.MapAnswer`."""
    q, r, i = ctx.query, ctx.rulings, number - 1
    qu = q.questions[i]
    m = q.maps[i]
    src = q.source
    a = _ref(q.placements, qu.a, f"questions[{i}].a", src) if qu.a is not None else None
    b = _ref(q.placements, qu.b, f"questions[{i}].b", src) if qu.b is not None else None
    an, bn = (_who(q, qu.a) if qu.a else None), (_who(q, qu.b) if qu.b else None)
    label = f" ({qu.label})" if qu.label else ""
    head = f"Q{i + 1}{label}: "
    marks = tuple(str(h) for h in (a, b) if h is not None) + tuple(x for x in (qu.a, qu.b) if x in q.placements)
    ans: dict[str, Any] = {}                     # the typed answer's verdict fields (map_results.MapAnswer)
    if qu.ask == "adjacent":
        res = G.adjacent(m, a, b)
        ans["verdict"] = res.adjacent
        step = Step(head + f"{an} and {bn} are {'' if res else 'not '}adjacent", res.rule, res.reason,
                    facts=_facts(res.to_dict()), marks=marks, section="Adjacency")
    elif qu.ask == "step":
        res = G.can_step(m, a, b)
        ans["verdict"] = res.allowed
        step = Step(head + f"{an} {'may' if res else 'may not'} move from {a} into {b}", res.rule, res.reason,
                    facts=_facts(res.to_dict()), marks=marks, section="Movement")
    elif qu.ask == "distance":
        res = G.distance(m, a, b, ignore_walls=qu.ignore_walls, rulings=r)
        ans["distance"] = res.value
        v = "no route" if res.value is None else f"{res.value} hex{'es' if res.value != 1 else ''}"
        step = Step(head + f"{bn} is {v} from {an}" + (" (ignoring walls and locked doors)" if qu.ignore_walls
                                                    else ""), res.rule, res.reason, facts=_facts(res.to_dict()),
                    marks=marks + tuple(str(h) for h in res.route), section="Distances")
    elif qu.ask in ("within", "at_least"):
        res = G.distance(m, a, b, ignore_walls=qu.ignore_walls, rulings=r)
        d = res.value
        if qu.ask == "within":
            ok = d is not None and d <= qu.n
            phrase = f"within {qu.n} hexes of"
        else:
            ok = d is not None and d >= qu.n
            phrase = f"{qu.n} or more hexes away from"
        ans["verdict"] = ok
        ans["distance"] = d
        step = Step(head + f"{bn} is {'' if ok else 'not '}{phrase} {an}: distance "
                  f"{'none' if d is None else d}" + (" (ignoring walls and locked doors)" if qu.ignore_walls
                                                      else ""), S.COUNTING_DISTANCES, res.reason, facts={"n": qu.n,
                    "verdict": ok, **_facts(res.to_dict())}, marks=marks + tuple(str(h) for h in res.route),
                    section="Distances")
    elif qu.ask in ("lof", "turret_lof"):
        if qu.ask == "lof":
            res = G.line_of_fire(m, a, b, rulings=r)
            who = an
        else:
            th = parse_hex(qu.turret, f"questions[{i}].turret", src)
            res = G.turret_line_of_fire(m, th, b, rulings=r)
            who, a = f"the Turret on {th}", th
        between = [(n, str(x)) for x in res.hexes[1:-1] if (n := _occupant(q, x))]
        ans["verdict"] = res.in_lof
        detail = res.reason
        if between:
            detail += "; intervening characters are ignored: " + ", ".join(f"{n} ({x})" for n, x in between)
        if res.in_lof and m.is_shrouded(b):
            detail += (f"; but {b} is in the Shrouded area {m.area_of(b).name!r}: an Enemy there cannot be "
                       "targeted by Attacks or Abilities")
            ans["target_shrouded"] = True
        step = Step(head + f"{bn} is {'' if res else 'not '}in the Line of Fire of {who}", res.rule, detail,
                    facts={"intervening": [n for n, _ in between], **_facts(res.to_dict())},
                    marks=marks + tuple(str(h) for h in res.hexes), section="Line of Fire")
    elif qu.ask == "lof_all":
        fan = G.lof_all(m, a, rulings=r)
        tg = sorted(fan.targets)
        chars = [n for h in tg if (n := _occupant(q, h))]
        ans["targets"] = tuple(str(h) for h in tg)
        ans["characters"] = tuple(chars)
        step = Step(head + f"{len(tg)} hexes in the Line of Fire of {an}"
                  + (f" (characters: {', '.join(chars)})" if chars else ""), S.LINE_OF_FIRE,
                    "; ".join(fan.explain()), facts=_facts(fan.to_dict()),
                    marks=marks + tuple(str(h) for h in tg), section="Line of Fire")
    answer = MapAnswer(number, qu.ask, qu.a, qu.b, qu.label, qu.edit,
                       title=step.title, **ans)
    return replace(state, answers=state.answers + (answer,)), (step,)


MAP_SEQUENCE = (Each("Q{item}", question_numbers, answer_question),)
"""The ``map`` kind as the kernel plays it: the questions one after another, one frame each."""


def map_query_start(scenario: MapQuery, rulings: Mapping[str, str] | None = None) -> tuple[Answers, MapQueryContext]:
    """The initial state and the context of a ``map`` scenario (rulings: the file's, then ``rulings``)."""
    return Answers(len(scenario.questions)), MapQueryContext(opts.rulings({**scenario.rulings, **(rulings or {})}),
                                                             None, scenario)


def resolve_map_query(scenario: MapQuery, rulings: Mapping[str, str] | None = None,
                      seed: int | None = None) -> Trace:
    """Answer every question of the scenario (:data:`MAP_SEQUENCE`), one cited Trace step each (``seed`` is unused:
    no dice).

    Returns:
        Trace whose typed ``result`` is a :class:`.map_results.MapOutcome`. Its JSON ``outcome`` has the map's name
        (``map``) and one answer per question (``answers``): ``question``, ``ask``, ``a``, ``b`` (``label`` and
        ``edit`` when given) and its verdict key (``adjacent``, ``allowed``, ``distance``, ``within``,
        ``at_least``, ``in_lof`` or ``targets``).
    """
    start, ctx = map_query_start(scenario, rulings)
    frames = play(start, MAP_SEQUENCE, ctx)
    trace = trace_of(scenario.title, frames, ctx.rulings.consulted)
    final = frames[-1].state if frames else Answers(0)
    return trace.with_result(MapOutcome(scenario.mission_map.name or "inline", final.answers))


# ------------------------------------------------------------------------------------------ built-in scenarios


def _dir():
    return resources.files(__package__) / "scenarios"


def map_query_names() -> list[str]:
    """Built-in ``kind = "map"`` scenario ids (``scenarios/*.toml`` whose kind is ``"map"``)."""
    out = []
    for p in sorted(_dir().iterdir(), key=lambda p: p.name):
        if p.name.endswith(".toml") and 'kind = "map"' in p.read_text(encoding="utf-8"):
            out.append(p.name[:-5])
    return out


def load_map_query(name_or_path: str | Path) -> MapQuery:
    """A built-in map scenario by id (``"me-04"``) or a TOML file by path.

    Raises:
        ScenarioError: unknown id / missing file, invalid TOML, or any invalid field.
    """
    s = str(name_or_path)
    f = _dir() / f"{s}.toml"
    if f.is_file():
        src = f"{s} (built-in)"
        return parse_map_query(read_toml(src, text=f.read_text(encoding="utf-8")), src)
    p = Path(s)
    if not p.exists():
        raise ScenarioError("", f"file not found, and no built-in map scenario is named {s!r}",
                            "a built-in id (" + ", ".join(map_query_names()) + ") or the path of a .toml file", s)
    return parse_map_query(read_toml(p), s)
