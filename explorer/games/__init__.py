"""The game registry: one package per rulebook, each behind the same small surface.

Every game package has a ``game`` module whose ``GAME`` is a :class:`Game`: its id and title, its built-in scenarios
(packaged TOML files under ``<package>/scenarios/``, each naming its game and, where a game has several, its
``kind``), how to parse and resolve a scenario into a :class:`~explorer.trace.Trace`, its ruling options, its pages
for the Panel app and the docs, and its own command-line verbs (``explorer <game id> ...``).

The top-level verbs ``explorer scenarios | resolve | rulings | serve`` and the app go through this registry; this
module names the game packages as strings and imports one only when it is asked for, so game-neutral code (hex grid,
board, trace, options, widgets, the CLI shell, the app shell) imports no game.

>>> [g.id for g in all_games()]
['tagraid', 'masseffect', 'galaxydefenders', 'dagger']
>>> find_builtin("tr-02")[0].id
'tagraid'

A scenario file names its game with a top-level ``game = "<id>"``; a file without one is a TAG Raid roll scenario
(the format that existed before the registry), so old files keep working.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
import re
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

from explorer.errors import ScenarioError, short_repr
from explorer.options import RulingOption

if TYPE_CHECKING:   # annotations only: `explorer --help` and the odds verbs make no trace
    from explorer.trace import Trace


def read_toml(*args, **kwargs):
    """:func:`explorer.scenario.read_toml`, imported when first needed (it brings pydantic, which ``explorer odds``
    and ``explorer --help`` never need)."""
    from explorer.scenario import read_toml as _read_toml

    return _read_toml(*args, **kwargs)


GAME_MODULES: dict[str, str] = {
    "tagraid": "explorer.games.tagraid.game",
    "masseffect": "explorer.games.masseffect.game",
    "galaxydefenders": "explorer.games.galaxydefenders.game",
    "dagger": "explorer.games.dagger.game",
}
"""``{game id: module path}`` in display order; each module defines ``GAME``."""

LEGACY_GAME = "tagraid"
"""The game of a scenario file with no top-level ``game`` key (files written before the registry)."""


@dataclass(frozen=True)
class Page:
    """One tool page of a game in the Panel app (served at ``/<game id>-<slug>``) and in the docs.

    Attributes:
        slug: URL part, lower-case words joined by ``-`` (``"face-to-face"``).
        title: the page's title ("Face to Face Rolls").
        summary: one sentence for the landing page.
        build: ``(game) -> (widget, redraw)``: a fresh ipywidget tree for one browser session, and a callable to run
            once the browser has connected (or ``None``). ``game`` is the :class:`Game` the page belongs to, passed
            in by the caller (:meth:`Game.open_page`, the app), so a page's widget modules never import their own
            ``game`` module back (docs/design.md, "Layers"). Imports its widget modules when called, never before.
        kinds: the scenario kinds this page shows (``""``: a game's scenarios without a ``kind``); documentation
            links a scenario to the page that lists its kind, and to no page when none does.
        open: ``(game, built-in scenario id) -> (widget, redraw)``: like ``build``, opened on that scenario (one of
            ``kinds``); the app calls it for ``?scenario=<id>`` (:func:`explorer.app.scenario_page_widget`), and
            documentation links carry the id only to a page that has it. ``None``: the page opens its defaults.
        default: the built-in scenario (one of ``kinds``) the page opens on when no ``?scenario=`` is given. One rule
            for every game: the page that shows the kind of :attr:`Game.default_scenario` opens on it (the starred
            default of ``explorer scenarios``), every other page with ``open`` names its own here, and the views
            read their default from here (:meth:`Game.page_default`), never from a constant of their own. ``None``
            only for a page that opens something that is not a scenario (Line of Fire: its packaged table).
    """

    slug: str
    title: str
    summary: str
    build: Callable[[Game], tuple[Any, Callable[[], None] | None]]
    kinds: tuple[str, ...] = ()
    open: Callable[[Game, str], tuple[Any, Callable[[], None] | None]] | None = None
    default: str | None = None


@dataclass(frozen=True)
class ScenarioInfo:
    """A built-in scenario as listed by ``explorer scenarios``: ``name`` (its id), ``title``, ``description``,
    ``kind`` (``""`` for a game with one kind), ``game`` (the game id)."""

    name: str
    title: str
    description: str
    kind: str
    game: str


MODELS = "explorer.plain:models"
"""What the parse cache keeps for a built-in loaded with ``plain`` whose value is not a snapshot (the game's
:attr:`Game.plain` refuses it, or :func:`explorer.plain.snapshot` cannot mirror it): load it as models."""


@dataclass(frozen=True)
class NamedFile:
    """A packaged file that :func:`load_any` (so ``explorer resolve`` and ``explorer render``) opens by name besides
    the built-in scenarios, listed by ``explorer scenarios`` under :attr:`heading`: TAG Raid's table files
    (``lof-quarry``, the Line of Fire page's table), which are not scenarios of their own.

    Attributes:
        name: the name to give (``"lof-quarry"``); a built-in scenario of the same name wins.
        title: its title.
        heading: the heading of its group in ``explorer scenarios`` (e.g. how else to open it).
        document: the scenario document it stands for (``{"kind": "table", "table": "lof-quarry"}``), read by the
            game's :attr:`Game.parse` with the name as its source.
        package: the package holding the file as ``<name>.toml`` (``explorer scenarios --export`` writes it out), or
            ``None``: not exported.
    """

    name: str
    title: str
    heading: str
    document: Mapping[str, Any]
    package: str | None = None


@dataclass(frozen=True)
class Game:
    """The uniform surface of one game.

    Attributes:
        id: short identifier used in URLs, files and the CLI (``"tagraid"``).
        title: full title of the rulebook's game.
        rulebook: the rulebook file name in ``shared/rules``.
        package: the game's package (``"explorer.games.tagraid"``); built-in scenarios are its ``scenarios/*.toml``.
        default_scenario: the built-in scenario the game's pages open with.
        parse: ``(data: dict, source: str) -> scenario``; ``data`` is the TOML document without its ``game`` key.
            Raises :class:`~explorer.errors.ScenarioError`.
        resolve: ``(scenario, rulings: Mapping[str, str], seed: int | None, reroll: bool) -> Trace``.
        ruling_options: returns the game's :class:`~explorer.options.RulingOption` tuple (imported lazily).
        pages: the game's tool pages, in display order.
        cli: returns the game's :class:`click.Group` of extra verbs (``explorer <id> ...``; its name is set to the
            game id), or ``None``. Called only when one of those verbs (or ``explorer --help``) is asked for, so the
            game's command-line module is imported then and never by ``explorer resolve``.
        outcome_text: ``(trace) -> str``, the plain-text answer printed after a trace by ``explorer resolve``.
        scenario_order: built-in names listed first, in this order (the rest follow sorted).
        picture: ``(scenario, trace) -> str | None``: an SVG document of the scenario (its board, table or map, as
            the trace leaves it where the game draws that), or ``None`` when this scenario has no picture; used by
            :func:`explorer.render.embed.render_scenario` (``explorer render``, the docs). ``None``: no pictures.
        named: returns the game's :class:`NamedFile` tuple (packaged files opened by name that are not built-in
            scenarios), or ``None``: none.
        sequences: returns ``{name: sequence}``, every rule sequence of the game as the kernel plays it
            (:data:`explorer.kernel.Sequence`: ``(step name, step function)`` pairs and ``Each`` entries), or
            ``None``: none yet. A test checks that each step is a plain module-level function.
        cached: keep the game's built-in scenarios, once validated, in the parse cache (:mod:`explorer.parsecache`).
            Worth it only for a game whose parsed values are plain frozen values that its resolvers play without
            pydantic (D.A.G.G.E.R.'s); a value holding pydantic models still imports pydantic to be unpickled, and
            unpickling a large table measured slower than validating it (TAG Raid's ``tr-22``).
        plain: ``(parsed scenario) -> bool``: whether the game's resolver, outcome text and picture read this parsed
            built-in as plain fields only (no ``isinstance`` of its model classes, no model API beyond
            ``model_copy``, ``model_dump()`` and ``model_fields_set``), so that ``explorer resolve`` may take it as a
            pydantic-free snapshot (:mod:`explorer.plain`) from the parse cache, or ``None``: never. See
            :meth:`load_builtin`.
    """

    id: str
    title: str
    rulebook: str
    package: str
    default_scenario: str
    parse: Callable[[dict, str], Any]
    resolve: Callable[..., Trace]
    ruling_options: Callable[[], tuple[RulingOption, ...]]
    pages: tuple[Page, ...] = ()
    cli: Callable[[], Any] | None = None
    outcome_text: Callable[[Trace], str] | None = None
    scenario_order: tuple[str, ...] = field(default=())
    picture: Callable[[Any, Trace], str | None] | None = None
    named: Callable[[], tuple[NamedFile, ...]] | None = None
    sequences: Callable[[], Mapping[str, Any]] | None = None
    cached: bool = False
    plain: Callable[[Any], bool] | None = None

    # ---------------------------------------------------------------------------------------------- scenarios

    def _dir(self):
        """The package's ``scenarios`` directory: a plain path when the package is a directory on disk (as
        installed), else :func:`importlib.resources.files` (about 10 ms of CPU to import, so only then)."""
        import sys

        pkg = sys.modules.get(self.package)
        paths = list(getattr(pkg, "__path__", ()) or ())
        if len(paths) == 1 and Path(paths[0]).is_dir():
            return Path(paths[0]) / "scenarios"
        from importlib import resources

        return resources.files(self.package) / "scenarios"

    def builtin_names(self) -> list[str]:
        """Built-in scenario ids, :attr:`scenario_order` first, then the others sorted."""
        d = self._dir()
        if not d.is_dir():
            return []
        found = sorted(p.name[:-5] for p in d.iterdir() if p.name.endswith(".toml"))
        return [n for n in self.scenario_order if n in found] + [n for n in found if n not in self.scenario_order]

    def scenario_text(self, name: str) -> str:
        """The TOML text of a built-in scenario.

        Raises:
            ScenarioError: unknown name (lists the game's built-in names).
        """
        if name not in self.builtin_names():
            raise ScenarioError("", f"unknown built-in scenario {short_repr(name)} ({self.title})",
                                self.builtin_names())
        return (self._dir() / f"{name}.toml").read_text(encoding="utf-8")

    def scenarios(self) -> list[ScenarioInfo]:
        """Every built-in scenario of this game, in display order."""
        out = []
        for n in self.builtin_names():
            data = read_toml(n, text=self.scenario_text(n))
            out.append(ScenarioInfo(n, str(data.get("title", n)), str(data.get("description", "")),
                                    str(data.get("kind", "")), self.id))
        return out

    def named_files(self) -> tuple[NamedFile, ...]:
        """The packaged files this game opens by name besides its built-in scenarios (:attr:`named`)."""
        return tuple(self.named()) if self.named is not None else ()

    def load_named(self, name: str) -> Any:
        """A :class:`NamedFile` of this game, parsed and validated (its name is the source in messages).

        Raises:
            ScenarioError: unknown name (lists the names), or the packaged file is invalid.
        """
        files = {f.name: f for f in self.named_files()}
        if name not in files:
            raise ScenarioError("", f"no packaged file {short_repr(name)} ({self.title})", list(files))
        return self.parse_data(dict(files[name].document), name)

    def load_builtin(self, name: str, plain: bool = False) -> Any:
        """A built-in scenario, parsed and validated.

        Args:
            name: a built-in scenario id of this game.
            plain: the caller reads the value only as the game's resolver, outcome text and picture do
                (``explorer resolve``): a scenario that :attr:`plain` accepts comes as its :mod:`explorer.plain`
                snapshot, kept in the parse cache (:mod:`explorer.parsecache`), so that a cached one is read
                without pydantic or the TOML parser. ``False`` (the pages, the notebooks): the validated models.

        Raises:
            ScenarioError: unknown name, or the packaged file is invalid.
        """
        source = f"{name} (built-in)"
        text = self.scenario_text(name)
        if plain and self.plain is not None and not self.cached:
            return self._load_plain(source, text)
        if not self.cached:
            return self.parse_data(read_toml(source, text=text), source)
        from explorer.parsecache import cached

        # pre-validated, keyed by the file's bytes and the code version (an edit to either parses it afresh)
        return cached(("builtin", self.id, source), text.encode("utf-8"),
                      lambda: self.parse_data(read_toml(source, text=text), source))

    def _load_plain(self, source: str, text: str) -> Any:
        """:meth:`load_builtin` with ``plain``: the built-in's :mod:`explorer.plain` snapshot when :attr:`plain`
        accepts it and :func:`explorer.plain.snapshot` can mirror it, else the validated models; the cache keeps
        the snapshot, or a marker saying that this file's value is the models (so that a hit of either never
        validates the file twice, and a model value is never pickled)."""
        from explorer.parsecache import cached

        parsed: list[Any] = []

        def build() -> Any:
            value = self.parse_data(read_toml(source, text=text), source)
            parsed.append(value)
            if not self.plain(value):
                return MODELS
            from explorer.plain import NotPlain, snapshot

            try:
                return snapshot(value)
            except NotPlain:
                return MODELS

        got = cached(("plain", self.id, source), text.encode("utf-8"), build)
        if isinstance(got, str) and got == MODELS:
            return parsed[0] if parsed else self.parse_data(read_toml(source, text=text), source)
        return got

    def parse_data(self, data: Mapping[str, Any], source: str) -> Any:
        """Parse a TOML document of this game (its ``game`` key, if any, must name this game).

        Raises:
            ScenarioError: an empty document, another game's file, or an invalid field.
        """
        if not data:  # as load_any says it (an empty upload on a page read as "field 'kind': is required")
            raise ScenarioError("game", "the file is empty", f"a {self.title} scenario: game = {self.id!r}, then "
                                "its kind and fields", source)
        data = dict(data)
        named = data.pop("game", self.id)
        if named != self.id:
            raise ScenarioError("game", f"this is a {short_repr(named)} scenario, not {self.id!r}", [self.id], source)
        return self.parse(data, source)

    def page(self, slug: str) -> Page:
        """The page with this slug.

        Raises:
            KeyError: no such page.
        """
        for p in self.pages:
            if p.slug == slug:
                return p
        raise KeyError(f"{self.id} has no page {slug!r}; pages: {', '.join(p.slug for p in self.pages)}")

    def page_default(self, slug: str) -> str | None:
        """The built-in scenario the page ``slug`` opens on (:attr:`Page.default`; ``None``: not a scenario).

        Raises:
            KeyError: no such page.
        """
        return self.page(slug).default

    def open_page(self, slug: str, name: str | None = None) -> tuple[Any, Callable[[], None] | None]:
        """``(widget, redraw)`` of page ``slug`` opened on built-in ``name``, or on its :attr:`Page.default` when
        ``name`` is ``None``, or built bare (``Page.build``) when the page opens no scenario."""
        page = self.page(slug)
        name = name or page.default
        if name and page.open is not None:
            return page.open(self, name)
        return page.build(self)

    def builtin_verdict(self, name: str) -> tuple[str, str]:
        """``(title, verdict)`` of built-in scenario ``name`` resolved with its own readings and seed, as
        ``explorer resolve NAME`` prints it (:attr:`outcome_text`); cached per scenario.

        Raises:
            ScenarioError: unknown name, or the packaged file is invalid.
        """
        key = (self.id, name)
        if key not in _verdicts:
            data = read_toml(name, text=self.scenario_text(name))
            _verdicts[key] = (str(data.get("title", name)), self.verdict(self.load_builtin(name)))
        return _verdicts[key]

    def verdict(self, scenario: Any) -> str:
        """The outcome text of a parsed scenario (as :meth:`parse_data` returns it: a built-in's or a user's file)
        resolved with its own readings and seed, as ``explorer resolve FILE`` prints it after the trace
        (:attr:`outcome_text`). A page shows it for a file it opened, as it shows :meth:`builtin_verdict` for a
        built-in.

        Raises:
            ExplorerError: the scenario is refused while it is resolved (as ``explorer resolve`` refuses it).
        """
        return (self.outcome_text or outcome_text)(self.resolve(scenario))


_verdicts: dict[tuple[str, str], tuple[str, str]] = {}


@dataclass(frozen=True)
class Kinds:
    """A game whose scenario files come in several kinds (``kind = "..."``), each resolved by one rules module.

    Attributes:
        game_id: the game's id (put back into each document as ``game``).
        game_title: the game's name in error messages.
        table: ``{kind: (module path, name)}``; the module defines ``parse_<name>(data, source)`` (the whole
            document, ``game`` and ``kind`` included) and ``resolve_<name>(scenario, rulings, seed) -> Trace``.
        default_kind: ``(document) -> kind`` for a document without ``kind`` (a format older than the kinds, e.g. a
            TAG Raid roll scenario or table file), or ``None``: the ``kind`` is required.
        tagged: ``False``: a parsed scenario is ``(kind, value)``. ``True``: it is the kind's value itself, which
            names its kind in a ``kind`` attribute (TAG Raid's scenarios, which the pages, the CLI and the notebooks
            took as they are before the game had kinds).
        reroll: the kinds' resolvers take ``reroll`` (ignore the scenario's fixed dice); otherwise it is ignored.

    :meth:`parse` and :meth:`resolve` are the :class:`Game` callables.
    """

    game_id: str
    game_title: str
    table: Mapping[str, tuple[str, str]]
    default_kind: Callable[[Mapping[str, Any]], str] | None = None
    tagged: bool = False
    reroll: bool = False

    def functions(self, kind: Any, source: str | None = None) -> tuple[Callable, Callable]:
        """``(parse_<name>, resolve_<name>)`` of a kind.

        Raises:
            ScenarioError: a missing or unknown kind (lists the kinds).
        """
        if not isinstance(kind, str) or kind not in self.table:
            raise ScenarioError("kind", f"unknown {self.game_title} scenario kind {kind!r}" if kind is not None
                                else "is required but missing", list(self.table), source)
        module, name = self.table[kind]
        m = import_module(module)
        return getattr(m, f"parse_{name}"), getattr(m, f"resolve_{name}")

    def kind_of(self, data: Mapping[str, Any]) -> Any:
        """The kind of a document: its ``kind``, else :attr:`default_kind`'s answer (``None``: none)."""
        if "kind" in data or self.default_kind is None:
            return data.get("kind")
        return self.default_kind(data)

    def parse(self, data: dict, source: str) -> Any:
        """``(kind, scenario)`` for a document of this game (the scenario alone when :attr:`tagged`).

        Raises:
            ScenarioError: an unknown kind, or the kind's parser's errors.
        """
        kind = self.kind_of(data)
        sc = self.functions(kind, source)[0]({"game": self.game_id, **data}, source)
        return sc if self.tagged else (kind, sc)

    def resolve(self, scenario: Any, rulings: Mapping[str, str] | None = None, seed: int | None = None,
                reroll: bool = False) -> Trace:
        """Resolve a parsed scenario with its kind's resolver (``reroll`` passed on when :attr:`reroll`)."""
        kind, sc = (scenario.kind, scenario) if self.tagged else scenario
        more = {"reroll": reroll} if self.reroll else {}
        return self.functions(kind, "scenario")[1](sc, rulings=dict(rulings or {}), seed=seed, **more)


def outcome_text(trace: Trace) -> str:
    """A trace's outcome as ``key: value`` lines (nested values as compact JSON; long ones folded to a pointer to
    ``--json``): the default ``Game.outcome_text``."""
    import json

    lines = ["Outcome:"]
    for k, v in trace.outcome.items():
        text = v if isinstance(v, str | int | float) else json.dumps(v, ensure_ascii=False)
        if isinstance(text, str) and len(text) > 160:
            text = f"({len(v)} entries: see --json)" if isinstance(v, dict | list) else text[:157] + "..."
        lines.append(f"  {k}: {text}")
    return "\n".join(lines)


# ----------------------------------------------------------------------------------------------------- registry

_cache: dict[str, Game] = {}


def game_ids() -> list[str]:
    """Registered game ids, in display order (no game is imported)."""
    return list(GAME_MODULES)


def get_game(game_id: str) -> Game:
    """The :class:`Game` registered as ``game_id`` (imports its ``game`` module on first use).

    Raises:
        ScenarioError: unknown id (the message lists the registered ids).
    """
    if game_id not in GAME_MODULES:
        raise ScenarioError("game", f"unknown game {short_repr(game_id)}", game_ids())
    if game_id not in _cache:
        g = import_module(GAME_MODULES[game_id]).GAME
        if g.id != game_id:
            raise RuntimeError(f"{GAME_MODULES[game_id]}.GAME has id {g.id!r}, registered as {short_repr(game_id)}")
        _cache[game_id] = g
    return _cache[game_id]


def all_games() -> list[Game]:
    """Every registered game, in display order (imports each game's ``game`` module)."""
    return [get_game(i) for i in GAME_MODULES]


def find_builtin(name: str) -> tuple[Game, str] | None:
    """``(game, name)`` for a built-in scenario id of any game, or ``None``. The games are asked in display order,
    one at a time: a built-in of an early game imports no later game's module."""
    for gid in GAME_MODULES:
        g = get_game(gid)
        if name in g.builtin_names():
            return g, name
    return None


def all_builtin_names() -> list[str]:
    """Every built-in scenario id of every game."""
    return [n for g in all_games() for n in g.builtin_names()]


def find_named(name: str) -> Game | None:
    """The game with a :class:`NamedFile` called ``name`` (a packaged file that is not a built-in scenario), or
    ``None``."""
    for g in all_games():
        if any(f.name == name for f in g.named_files()):
            return g
    return None


def export_text(name: str) -> tuple[Game, str]:
    """``(game, TOML text)`` of a built-in scenario (or of a packaged :class:`NamedFile` with a ``package``), byte for
    byte as packaged: ``explorer scenarios --export``. The text names its game where the packaged file does (a TAG
    Raid file without ``game`` is read as TAG Raid), so ``explorer resolve <written file>`` gives what
    ``explorer resolve <name>`` gives (``tests/test_cli_export.py`` checks every built-in).

    Raises:
        ScenarioError: ``name`` is neither (the field ``--export``; unknown names list near ones, as
            :func:`load_any` does).
    """
    hit = find_builtin(name)
    if hit is not None:
        return hit[0], hit[0].scenario_text(name)
    g = find_named(name)
    if g is not None:
        f = next(f for f in g.named_files() if f.name == name)
        if f.package is not None:
            from importlib import resources

            return g, (resources.files(f.package) / f"{name}.toml").read_text(encoding="utf-8")
    else:
        try:  # the message of an unknown name, with near names
            load_any(name) if not Path(name).exists() else None
        except ScenarioError as e:
            problem = e.problem.replace("file not found, and no built-in scenario is named",
                                        "no built-in scenario or packaged file is named")
            raise ScenarioError("--export", problem, "a name `explorer scenarios` lists") from None
    raise ScenarioError("--export", f"{short_repr(name)} is not a built-in scenario or packaged file",
                        "a name `explorer scenarios` lists")


def load_any(name_or_path: str | Path, text: str | None = None, plain: bool = False) -> tuple[Game, Any]:
    """Load a scenario of any game: a built-in id, a TOML file path, a packaged file's name (:class:`NamedFile`, e.g.
    the TAG Raid table ``lof-quarry``; a file of that name wins), or TOML ``text`` (then ``name_or_path`` is only its
    name in messages). The file's ``game`` key picks the game (none: :data:`LEGACY_GAME`). ``plain``: a built-in
    may come as its pydantic-free snapshot (:meth:`Game.load_builtin`; ``explorer resolve``, which only resolves it).

    Returns:
        ``(game, scenario)`` where ``scenario`` is the game's parsed, validated scenario value.

    Raises:
        ScenarioError: unknown name and no such file (points to ``explorer scenarios``, with near names),
            unreadable or invalid TOML, an unknown ``game``, or an invalid field.
    """
    s = str(name_or_path)
    if text is None:
        hit = find_builtin(s)
        if hit is not None:
            return hit[0], hit[0].load_builtin(s, plain=plain)
        try:
            data = read_toml(s)
        except ScenarioError as e:
            if e.problem.startswith("file not found"):
                named = find_named(s)
                if named is not None:
                    return named, named.load_named(s)
                import difflib

                names = all_builtin_names()
                files = [f.name for g in all_games() for f in g.named_files() if f.name not in names]
                near = difflib.get_close_matches(s, names + files, n=3, cutoff=0.6)
                # a number written without its leading zeros ("tr-5" for tr-05) is the likeliest meaning: first
                unpadded = {re.sub(r"(?<!\d)0+(?=\d)", "", n): n for n in names + files}
                same = unpadded.get(re.sub(r"(?<!\d)0+(?=\d)", "", s.lower()))
                if same is not None:
                    near = [same] + [n for n in near if n != same][:2]
                hint = f"; did you mean {', '.join(near)}?" if near else ""
                raise ScenarioError("", f"file not found, and no built-in scenario is named {short_repr(s)}{hint}",
                                    f"a built-in name ({len(names)} of them, e.g. "
                                    + ", ".join(g.builtin_names()[0] for g in all_games() if g.builtin_names())
                                    + ": `explorer scenarios` lists them)"
                                    + (f", a packaged file ({', '.join(files)})" if files else "")
                                    + " or the path of a .toml file", s) from None
            raise
    else:
        data = read_toml(s, text=text)
    if not data:
        raise ScenarioError("game", "the file is empty", "a scenario naming its game: game = one of "
                            + ", ".join(repr(g) for g in game_ids())
                            + f" (may be left out for {LEGACY_GAME!r}), then that game's fields", s)
    game_id = data.get("game", LEGACY_GAME)
    if not isinstance(game_id, str) or game_id not in GAME_MODULES:
        raise ScenarioError("game", f"unknown game {short_repr(game_id)}", game_ids(), s)
    g = get_game(game_id)
    try:
        return g, g.parse_data(data, s)
    except ScenarioError as e:
        if "game" in data or not e.problem.startswith("is required but missing"):
            raise
        # a file without ``game`` is read as a TAG Raid roll scenario: say so, since another game's file that
        # forgot its ``game`` line would otherwise get a puzzling demand for TAG Raid's fields
        raise ScenarioError(e.field, e.problem + f" (a file without a 'game' line is read as a scenario of {g.title}"
                            "; other games: game = " + " | ".join(repr(i) for i in game_ids() if i != g.id)
                            + ")", e.allowed, e.source) from None


def parse_rulings(items: list[str] | None, games: list[Game] | None = None) -> dict[str, str]:
    """``["key=reading", ...]`` (the CLI's ``--ruling``) as a dict.

    Each key and reading is checked against the ruling options of ``games`` (all games when ``None``), so a wrong
    ``--ruling`` is named as the option the user typed, whichever command reads it.

    Raises:
        ScenarioError: an item that is not ``key=reading`` (lists the option keys of ``games``), an unknown option
            key (lists the keys), an unknown reading (lists the option's readings) or an option given twice; the
            field is ``--ruling``.
    """
    options = {o.key: o for g in (games or all_games()) for o in g.ruling_options()}
    out: dict[str, str] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key or not value:
            raise ScenarioError("--ruling", f"{short_repr(item)} is not key=reading", "key=reading with key one of "
                                + ", ".join(options))
        if key not in options:
            raise ScenarioError("--ruling", f"unknown ruling option {short_repr(key)}", sorted(options))
        if value not in options[key].readings:
            raise ScenarioError("--ruling", f"unknown reading {short_repr(value)} of {key}",
                                list(options[key].readings))
        if key in out:  # the last one silently won: two readings of one question is a typo, not a choice
            raise ScenarioError("--ruling", f"{key} is given twice ({out[key]} and {value})",
                                f"each ruling option once: one of {', '.join(repr(r) for r in options[key].readings)}")
        out[key] = value
    return out
