"""The rule index: for every rulebook section of a game, the code that implements it, the built-in scenarios whose
traces cite it, the tests that cite it and the ruling options it leaves open, so a newcomer finds any rule's code from
its section title (``explorer rules --game G``; the generated docs page ``rule-index/<game>``).

Sections are a game's ``sections.py`` constants (:class:`~explorer.trace.RuleRef`), in the order of that file, which
is rulebook order. Every section is listed, also those nobody implements: they are the coverage gaps. Nothing here is
written by hand; the index is read off the sources every time:

* **code**: every function, method or class of ``<game package>/**/*.py`` whose body names a section constant
  (``S.FACE_TO_FACE`` after ``from . import sections as S``, ``sections.FACE_TO_FACE``, or a name imported from the
  sections module), or whose docstring cites the section's full title (``"Rolls › Face to Face Rolls"``). A
  reference outside any function is credited to the module-level name it is assigned to (or to the module). A
  docstring is matched only on titles that cannot be ordinary words: a title with a ``›`` path or a numbered one
  (``"8.1 Lethal"``); a one-word title such as ``"Death"`` is found through its constant only. Where titles nest
  (``Rolls › Face to Face Rolls › Breaking Ties``), a citation counts for the longest title it spells.
* **scenarios**: the built-in scenarios of the game, each resolved with its own readings and seed; a scenario cites
  a section when one of its trace's steps has that :class:`~explorer.trace.RuleRef` as its ``rule``. A trace that
  cites a section missing from ``sections.py`` adds an entry for it (``constants == ()``).
* **tests**: every test function (or module-level name) of ``tests/**/*.py`` that names a section constant of the
  game (through an import of the game's sections module) or holds a string citing the section's title (the full
  title, or a string equal to it).
* **rulings**: the game's ruling options whose ``section`` names the section.

Game-neutral: games are reached through the registry (:mod:`explorer.games`), each game's section constants through
the convention that its package has a ``sections`` module; no UI library is imported. Source files are read with
:mod:`ast`, never imported (only the sections module and, for the scenarios, the game's resolvers are).

>>> index = build_index("tagraid")
>>> entry = index.section("Rolls › Face to Face Rolls")
>>> "explorer.games.tagraid.rolls:compare" in [c.target for c in entry.code]
True
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import Any

from explorer.errors import ScenarioError, short_repr
from explorer.trace import RuleRef

ROOT = Path(__file__).resolve().parents[1]
"""The checkout the package runs from (``tests/`` is looked for here)."""

DEFAULT_TESTS_DIR = ROOT / "tests"
"""Where :func:`build_index` looks for tests by default (absent in an installed copy: then no test is listed)."""

_WS = re.compile(r"\s+")


# ----------------------------------------------------------------------------------------------------- results


@dataclass(frozen=True)
class CodeRef:
    """A definition that implements (or cites) a section.

    Attributes:
        module: dotted module name (``"explorer.games.tagraid.rolls"``).
        qualname: the definition's qualified name in the module (``"compare"``, ``"Resolution.miner"``,
            ``"outer.<locals>.inner"``), a module-level name a reference is assigned to (``"_RULES"``), or ``""``
            for the module itself (its docstring, or a module-level statement).
        kind: ``"function"``, ``"method"``, ``"class"``, ``"name"`` (a module-level assignment) or ``"module"``.
        path: the file, relative to the checkout (``"explorer/games/tagraid/rolls.py"``), ``/``-separated.
        line: the line of the definition (1 for the module).
        how: why it is listed, sorted: ``"constant"`` (its body names the section constant), ``"docstring"``
            (its docstring cites the title), or both.
        summary: the first line of its docstring (``""`` when it has none).
    """

    module: str
    qualname: str
    kind: str
    path: str
    line: int
    how: tuple[str, ...]
    summary: str = ""

    @property
    def target(self) -> str:
        """``"module:qualname"`` (``"module"`` alone for the module itself)."""
        return f"{self.module}:{self.qualname}" if self.qualname else self.module

    @property
    def dotted(self) -> str:
        """``"module.qualname"``: the name autodoc and Sphinx cross-references use."""
        return f"{self.module}.{self.qualname}" if self.qualname else self.module

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{"target", "module", "qualname", "kind", "path", "line", "how", "summary"}``."""
        return {"target": self.target, "module": self.module, "qualname": self.qualname, "kind": self.kind,
                "path": self.path, "line": self.line, "how": list(self.how), "summary": self.summary}


@dataclass(frozen=True)
class TestRef:
    """A test (or a module-level name in a test file) that cites a section.

    Attributes:
        path: the test file relative to the checkout (``"tests/tagraid/test_rolls.py"``), ``/``-separated.
        name: ``"test_x"``, ``"TestClass::test_x"``, a module-level name (``"CASES"``), or ``""`` (the module).
        line: the line of the definition (1 for the module).
        how: sorted: ``"constant"`` (names the section constant), ``"title"`` (a string cites the title), or both.
    """

    __test__ = False  # not a pytest class

    path: str
    name: str
    line: int
    how: tuple[str, ...]

    @property
    def nodeid(self) -> str:
        """pytest's id: ``"tests/x/test_y.py::test_z"`` (the path alone for the module)."""
        return f"{self.path}::{self.name}" if self.name else self.path

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{"nodeid", "path", "name", "line", "how"}``."""
        return {"nodeid": self.nodeid, "path": self.path, "name": self.name, "line": self.line, "how": list(self.how)}


@dataclass(frozen=True)
class SectionEntry:
    """One rulebook section and everything that cites it.

    Attributes:
        title: the section's title (``"Rolls › Face to Face Rolls"``).
        constants: its constants in ``sections.py`` (``("FACE_TO_FACE",)``; ``()``: cited by a trace, not listed
            there).
        code: the definitions that implement it, by path then line.
        scenarios: built-in scenario ids whose trace cites it, in the game's display order.
        tests: the tests that cite it, by path then line.
        rulings: keys of the ruling options left open in it.
    """

    title: str
    constants: tuple[str, ...]
    code: tuple[CodeRef, ...] = ()
    scenarios: tuple[str, ...] = ()
    tests: tuple[TestRef, ...] = ()
    rulings: tuple[str, ...] = ()

    @property
    def implemented(self) -> bool:
        """Whether any code cites the section (``False``: a coverage gap)."""
        return bool(self.code)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{"title", "constants", "implemented", "code", "scenarios", "tests", "rulings"}``."""
        return {"title": self.title, "constants": list(self.constants), "implemented": self.implemented,
                "code": [c.to_dict() for c in self.code], "scenarios": list(self.scenarios),
                "tests": [t.to_dict() for t in self.tests], "rulings": list(self.rulings)}


@dataclass(frozen=True)
class RuleIndex:
    """The rule index of one game.

    Attributes:
        game: the game id (``"tagraid"``).
        title: the game's title.
        book: the rulebook's short name as the traces cite it (``"TAG Raid"``).
        sections: one entry per section, in rulebook order (``sections.py`` order), then the sections traces cite
            that ``sections.py`` does not list.
    """

    game: str
    title: str
    book: str
    sections: tuple[SectionEntry, ...] = field(default=())

    def section(self, title: str) -> SectionEntry:
        """The entry whose title is ``title`` exactly.

        Raises:
            KeyError: no such section.
        """
        for s in self.sections:
            if s.title == title:
                return s
        raise KeyError(f"{self.game} has no section {title!r}")

    def matching(self, text: str) -> tuple[SectionEntry, ...]:
        """The entries whose title or constant name contains ``text`` (case and spacing ignored)."""
        needle = _WS.sub(" ", text.strip()).casefold()
        return tuple(s for s in self.sections
                     if needle in s.title.casefold() or any(needle in c.casefold() for c in s.constants))

    @property
    def gaps(self) -> tuple[SectionEntry, ...]:
        """The sections no code cites."""
        return tuple(s for s in self.sections if not s.implemented)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{"game", "title", "book", "sections": [SectionEntry.to_dict(), ...]}``."""
        return {"game": self.game, "title": self.title, "book": self.book,
                "sections": [s.to_dict() for s in self.sections]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleIndex:
        """The inverse of :meth:`to_dict`.

        Raises:
            KeyError, TypeError, ValueError: not a :meth:`to_dict` document.
        """
        sections = tuple(
            SectionEntry(s["title"], tuple(s["constants"]),
                         tuple(CodeRef(c["module"], c["qualname"], c["kind"], c["path"], int(c["line"]),
                                       tuple(c["how"]), c["summary"]) for c in s["code"]),
                         tuple(s["scenarios"]),
                         tuple(TestRef(t["path"], t["name"], int(t["line"]), tuple(t["how"])) for t in s["tests"]),
                         tuple(s["rulings"]))
            for s in data["sections"])
        return cls(data["game"], data["title"], data["book"], sections)


# ----------------------------------------------------------------------------------------------------- sections


def section_constants(game) -> list[tuple[str, RuleRef]]:
    """``[(constant name, RuleRef), ...]`` of a :class:`~explorer.games.Game`'s ``<package>.sections`` module, in
    definition order (rulebook order).

    Raises:
        RuntimeError: the game's package has no ``sections`` module, or it defines no :class:`RuleRef`.
    """
    try:
        module = import_module(f"{game.package}.sections")
    except ModuleNotFoundError as e:
        raise RuntimeError(f"{game.package} has no sections module ({e})") from None
    out = [(k, v) for k, v in vars(module).items() if isinstance(v, RuleRef) and not k.startswith("_")]
    if not out:
        raise RuntimeError(f"{game.package}.sections defines no RuleRef")
    return out


def _is_distinctive(title: str) -> bool:
    """A title that cannot be an ordinary phrase of a docstring: a ``›`` path, or a numbered heading."""
    return "›" in title or title[:1].isdigit() or title.startswith("Storybook ")


def titles_in(text: str, titles: Iterable[str], *, exact: bool = False) -> set[str]:
    """The titles cited by ``text`` (whitespace runs count as one space): each distinctive title (a ``›`` path or a
    numbered heading) found between word boundaries, the longest where titles nest; with ``exact``, also any title
    equal to the whole (stripped) text."""
    flat = _WS.sub(" ", text).strip()
    titles = list(titles)
    found: set[str] = set()
    if exact and flat in titles:
        found.add(flat)
    taken: list[tuple[int, int]] = []
    for t in sorted((t for t in titles if _is_distinctive(t)), key=len, reverse=True):
        start = 0
        while (i := flat.find(t, start)) >= 0:
            j = i + len(t)
            start = i + 1
            if (i > 0 and (flat[i - 1].isalnum() or flat[i - 1] == ".")) or (j < len(flat) and flat[j].isalnum()):
                continue
            if any(i < b and a < j for a, b in taken):
                continue
            taken.append((i, j))
            found.add(t)
    return found


# ----------------------------------------------------------------------------------------------------- source scan


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve_from(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module an ``ImportFrom`` reads from."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
    return ".".join(base + ([node.module] if node.module else []))


def _dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return f"{head}.{node.attr}" if head else None
    return None


_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_MAYBE_TITLE = re.compile(r"›|\d|Storybook")


class _Scan:
    """One pass over a module's tree: binds the names that stand for a sections module or constant as their imports
    are met (function-level imports included) and credits each citation to its innermost definition (``top_level``:
    to its outermost function, ``Class::method`` for a method: what pytest runs). ``strings``: string constants
    citing a title count too (tests).

    Attributes:
        hits: ``{(sections module, title): {(name, kind, line): {how, ...}}}``.
        docs: ``{(name, kind, line): docstring}`` of the definitions scanned.
    """

    def __init__(self, module: str, is_package: bool, sections: Mapping[str, Mapping[str, str]],
                 titles: Mapping[str, Iterable[str]], *, top_level: bool, strings: bool):
        self.module, self.is_package, self.sections = module, is_package, sections
        self.titles = {m: list(ts) for m, ts in titles.items()}
        self.exact = {t: m for m, ts in self.titles.items() for t in ts}
        self.top_level, self.strings = top_level, strings
        self.mods: dict[str, str] = {m: m for m in sections}
        self.consts: dict[str, tuple[str, str]] = {}
        self.hits: dict[tuple[str, str], dict[tuple[str, str, int], set[str]]] = {}
        self.docs: dict[tuple[str, str, int], str] = {}

    def _scope(self, stack: tuple[tuple[str, str, int], ...],
               at_module: tuple[str, int] | None) -> tuple[str, str, int]:
        if not stack:
            return (at_module[0], "name", at_module[1]) if at_module else ("", "module", 1)
        if self.top_level:
            if stack[0][1] == "class" and len(stack) > 1:
                return f"{stack[0][0]}::{stack[1][0]}", "method", stack[1][2]
            return stack[0]
        qual = []
        for i, (n, k, _l) in enumerate(stack):
            qual.append(n)
            if k in ("function", "method") and i < len(stack) - 1:
                qual.append("<locals>")
        return ".".join(qual), stack[-1][1], stack[-1][2]

    def _add(self, key: tuple[str, str], scope: tuple[str, str, int], how: str) -> None:
        self.hits.setdefault(key, {}).setdefault(scope, set()).add(how)

    def _text(self, text: str, scope, how: str) -> None:
        if how == "title" and text.strip() in self.exact:
            t = text.strip()
            self._add((self.exact[t], t), scope, how)
        if _MAYBE_TITLE.search(text):
            for mod, ts in self.titles.items():
                for t in titles_in(text, ts):
                    self._add((mod, t), scope, how)

    def _import(self, node: ast.AST) -> None:
        if isinstance(node, ast.ImportFrom):
            src = _resolve_from(self.module, self.is_package, node)
            for a in node.names:
                full = f"{src}.{a.name}"
                if full in self.sections:
                    self.mods[a.asname or a.name] = full
                elif src in self.sections and a.name in self.sections[src]:
                    self.consts[a.asname or a.name] = (src, a.name)
        else:
            for a in node.names:
                if a.name in self.sections and a.asname:
                    self.mods[a.asname] = a.name

    def run(self, tree: ast.Module) -> None:
        """Scan ``tree``: its docstring, then each statement (a module-level assignment credits its target name)."""
        doc = ast.get_docstring(tree)
        if doc:
            self.docs[("", "module", 1)] = doc
            self._text(doc, ("", "module", 1), "docstring")
        for stmt in tree.body:
            at = None
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                at = (stmt.targets[0].id, stmt.lineno)
            elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                at = (stmt.target.id, stmt.lineno)
            self._walk(stmt, (), at)

    def _walk(self, node: ast.AST, stack: tuple, at: tuple[str, int] | None) -> None:
        if isinstance(node, _DEFS):
            kind = "class" if isinstance(node, ast.ClassDef) else \
                "method" if stack and stack[-1][1] == "class" else "function"
            stack = (*stack, (node.name, kind, node.lineno))
            doc = ast.get_docstring(node)
            if doc:
                scope = self._scope(stack, at)
                self.docs[scope] = doc
                self._text(doc, scope, "docstring")
        elif isinstance(node, ast.Attribute):
            head = _dotted(node.value)
            mod = self.mods.get(head) if head else None
            if mod is not None and node.attr in self.sections[mod]:
                self._add((mod, self.sections[mod][node.attr]), self._scope(stack, at), "constant")
                return
        elif isinstance(node, ast.Name):
            hit = self.consts.get(node.id)
            if hit is not None and isinstance(node.ctx, ast.Load):
                self._add((hit[0], self.sections[hit[0]][hit[1]]), self._scope(stack, at), "constant")
            return
        elif isinstance(node, ast.Constant):
            if self.strings and isinstance(node.value, str) and len(node.value) < 2000:
                self._text(node.value, self._scope(stack, at), "title")
            return
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            self._import(node)
            return
        for child in ast.iter_child_nodes(node):
            self._walk(child, stack, at)


def _scan_file(path: Path, module: str, is_package: bool, sections: Mapping[str, Mapping[str, str]],
               titles: Mapping[str, Iterable[str]], *, top_level: bool, strings: bool) -> _Scan | None:
    """Scan one file (``None``: it mentions no sections module and no title, so it is not parsed)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    flat = _WS.sub(" ", text)
    if "sections" not in text and not any(t in flat if _is_distinctive(t) else f'"{t}"' in text or f"'{t}'" in text
                                          for ts in titles.values() for t in ts):
        return None
    try:
        tree = ast.parse(text, str(path))
    except SyntaxError:
        return None
    scan = _Scan(module, is_package, sections, titles, top_level=top_level, strings=strings)
    scan.run(tree)
    return scan


_ROLE = re.compile(r":[a-z]+(?::[a-z]+)?:`~?([^`]*)`")


def summary(doc: str, limit: int = 160) -> str:
    """The first sentence of a docstring's first paragraph as plain text (reST roles and literals unwrapped, one
    line, at most ``limit`` characters with "…"); ``""`` for none."""
    para = _WS.sub(" ", (doc or "").strip().split("\n\n")[0]).strip()
    para = _ROLE.sub(lambda m: m.group(1).rsplit(".", 1)[-1] if m.group(0).count("~") else m.group(1), para)
    para = para.replace("``", "").replace("`", "")
    m = re.search(r"\.(\s|$)", para)
    first = para[: m.start() + 1] if m else para
    return first if len(first) <= limit else first[: limit - 1].rstrip() + "…"


def _rel(path: Path) -> str:
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return path.as_posix()


def scan_code(game, constants: list[tuple[str, RuleRef]]) -> dict[str, list[CodeRef]]:
    """``{title: [CodeRef, ...]}``: the definitions of the game's package that cite each section (see the module
    docstring for what counts), each list by path then line. The sections module itself is not scanned."""
    package = import_module(game.package)
    pkg_dir = Path(package.__file__).resolve().parent
    root = pkg_dir.parents[len(game.package.split(".")) - 1]
    smod = f"{game.package}.sections"
    sections = {smod: {name: ref.section for name, ref in constants}}
    titles = {smod: sorted({ref.section for _n, ref in constants if _is_distinctive(ref.section)})}
    out: dict[str, list[CodeRef]] = {}
    for path in sorted(pkg_dir.rglob("*.py")):
        module = _module_name(path, root)
        if module == smod:
            continue
        scan = _scan_file(path, module, path.name == "__init__.py", sections, titles, top_level=False,
                          strings=False)
        if scan is None:
            continue
        for (_m, title), where in scan.hits.items():
            for (qual, kind, line), how in where.items():
                doc = scan.docs.get((qual, kind, line), "")
                out.setdefault(title, []).append(CodeRef(module, qual, kind, _rel(path), line, tuple(sorted(how)),
                                                         summary(doc)))
    for refs in out.values():
        refs.sort(key=lambda c: (c.path, c.line, c.qualname))
    return out


def scan_tests(games_constants: Mapping[str, list[tuple[str, RuleRef]]],
               tests_dir: str | Path | None = None) -> dict[tuple[str, str], list[TestRef]]:
    """``{(sections module, title): [TestRef, ...]}`` for the tests under ``tests_dir`` (default
    :data:`DEFAULT_TESTS_DIR`; missing: ``{}``) citing a section of any of ``games_constants`` (``{sections module:
    constants}``): by constant through an import of that sections module, or by a string citing the title."""
    d = Path(tests_dir) if tests_dir is not None else DEFAULT_TESTS_DIR
    if not d.is_dir():
        return {}
    sections = {m: {name: ref.section for name, ref in consts} for m, consts in games_constants.items()}
    titles = {m: sorted({ref.section for _n, ref in consts}) for m, consts in games_constants.items()}
    out: dict[tuple[str, str], list[TestRef]] = {}
    for path in sorted(d.rglob("*.py")):
        scan = _scan_file(path, path.stem, False, sections, titles, top_level=True, strings=True)
        if scan is None:
            continue
        for key, where in scan.hits.items():
            for (name, kind, line), how in where.items():
                if kind == "module":
                    name = ""
                out.setdefault(key, []).append(TestRef(_rel(path), name, line, tuple(sorted(how))))
    for refs in out.values():
        refs.sort(key=lambda t: (t.path, t.line, t.name))
    return out


# ----------------------------------------------------------------------------------------------------- scenarios

_citations: dict[str, dict[RuleRef, list[str]]] = {}


def scenario_citations(game) -> dict[RuleRef, list[str]]:
    """``{RuleRef: [built-in scenario id, ...]}``: the sections each built-in scenario's trace cites (resolved with
    its own readings and seed, as ``explorer resolve NAME`` does), ids in the game's display order; cached per game
    for the life of the process.

    Raises:
        ScenarioError: a packaged scenario is invalid.
    """
    if game.id not in _citations:
        cited: dict[RuleRef, list[str]] = {}
        for name in game.builtin_names():
            trace = game.resolve(game.load_builtin(name), rulings={}, seed=None, reroll=False)
            for step in trace.steps:
                names = cited.setdefault(step.rule, [])
                if not names or names[-1] != name:
                    names.append(name)
        _citations[game.id] = cited
    return _citations[game.id]


# ----------------------------------------------------------------------------------------------------- the index


def build_index(game_id: str, *, tests_dir: str | Path | None = None, scenarios: bool = True,
                cache: bool = True) -> RuleIndex:
    """The rule index of one game.

    Args:
        game_id: a registered game id (:func:`explorer.games.game_ids`).
        tests_dir: where the tests are (default :data:`DEFAULT_TESTS_DIR`; a missing directory lists no test).
        scenarios: ``False`` leaves out the scenarios (no built-in is resolved).
        cache: read and write the on-disk cache (:func:`cache_path`; the index of a game is reused while no file of
            the ``explorer`` package nor of ``tests_dir`` has changed size or modification time). Best effort: a
            cache that cannot be read or written is rebuilt or skipped silently.

    Returns:
        A :class:`RuleIndex`: every section of the game's ``sections.py`` in its order (rulebook order), then any
        section the traces cite that ``sections.py`` does not list.

    Raises:
        ScenarioError: unknown game id (field ``--game``; the message lists the ids).
    """
    from explorer.games import game_ids, get_game

    if game_id not in game_ids():
        raise ScenarioError("--game", f"unknown game {short_repr(game_id)}", game_ids())
    tests = Path(tests_dir) if tests_dir is not None else DEFAULT_TESTS_DIR
    if not (cache and scenarios):
        return _build(get_game(game_id), tests, scenarios)
    import json

    key = _fingerprint(game_id, tests)
    path = cache_path(game_id)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("key") == key:
            return RuleIndex.from_dict(data["index"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    index = _build(get_game(game_id), tests, scenarios)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"key": key, "index": index.to_dict()}, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass
    return index


def cache_dir() -> Path:
    """Where :func:`build_index` keeps its cache: ``$EXPLORER_CACHE_DIR``, else ``$XDG_CACHE_HOME/explorer``, else
    ``~/.cache/explorer``."""
    if os.environ.get("EXPLORER_CACHE_DIR"):
        return Path(os.environ["EXPLORER_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "explorer"


def cache_path(game_id: str) -> Path:
    """The cache file of a game's index: ``<cache_dir()>/rule-index-<game id>-<checkout>.json``, where ``<checkout>``
    is a short digest of the package's location (two checkouts do not overwrite each other's index)."""
    import hashlib

    where = hashlib.sha256(str(Path(__file__).resolve().parent).encode()).hexdigest()[:10]
    return cache_dir() / f"rule-index-{game_id}-{where}.json"


def _fingerprint(game_id: str, tests: Path) -> str:
    """A digest of the names, sizes and modification times of every file of the ``explorer`` package (code,
    scenarios, maps) and every ``.py`` under ``tests``: what the index is read from."""
    import hashlib
    import sys

    h = hashlib.sha256(f"{RULE_INDEX_FORMAT}\0{game_id}\0{tests}\0{sys.version}\n".encode())
    package = Path(__file__).resolve().parent
    files = [p for p in package.rglob("*") if "__pycache__" not in p.parts]
    files += list(tests.rglob("*.py")) if tests.is_dir() else []
    for p in sorted(files):
        try:
            st = p.stat()
        except OSError:
            continue
        h.update(f"{p}\0{st.st_mtime_ns}\0{st.st_size}\n".encode())
    return h.hexdigest()


RULE_INDEX_FORMAT = 1
"""Bumped when the cached JSON's shape changes (part of the cache key)."""


def _build(game, tests: Path, scenarios: bool) -> RuleIndex:
    constants = section_constants(game)
    book = constants[0][1].game
    smod = f"{game.package}.sections"
    code = scan_code(game, constants)
    cited_tests = scan_tests({smod: constants}, tests)
    cited = scenario_citations(game) if scenarios else {}
    rulings: dict[str, list[str]] = {}
    titles = [ref.section for _n, ref in constants]
    for o in game.ruling_options():
        for part in str(o.section).split(";"):
            for t in titles_in(part, titles, exact=True):
                rulings.setdefault(t, []).append(o.key)

    by_title: dict[str, list[str]] = {}
    for name, ref in constants:
        by_title.setdefault(ref.section, []).append(name)
    order = list(by_title)
    order += [r.section for r in cited if r.game == book and r.section not in by_title]

    def entry(title: str) -> SectionEntry:
        return SectionEntry(title, tuple(by_title.get(title, ())), tuple(code.get(title, ())),
                            tuple(cited.get(RuleRef(book, title), ())), tuple(cited_tests.get((smod, title), ())),
                            tuple(dict.fromkeys(rulings.get(title, ()))))

    return RuleIndex(game.id, game.title, book, tuple(entry(t) for t in dict.fromkeys(order)))


def build_indexes(game_ids: Iterable[str] | None = None, *, tests_dir: str | Path | None = None,
                  cache: bool = True) -> list[RuleIndex]:
    """:func:`build_index` of each game (all registered games when ``None``), in registry order.

    Raises:
        ScenarioError: an unknown game id.
    """
    from explorer.games import game_ids as registered

    return [build_index(g, tests_dir=tests_dir, cache=cache) for g in (registered() if game_ids is None else game_ids)]


# ----------------------------------------------------------------------------------------------------- text


def index_text(index: RuleIndex, entries: Iterable[SectionEntry] | None = None) -> str:
    """The index (or just ``entries`` of it) as plain text for ``explorer rules``: a heading with the counts, then
    one block per section: its title and constants, then ``code:``, ``scenarios:``, ``tests:`` and ``rulings:``
    lines (a section no code cites says so)."""
    from explorer.text import plural

    entries = index.sections if entries is None else tuple(entries)
    gaps = sum(1 for s in index.sections if not s.implemented)
    out = [f"# {index.title} ({index.game}): {plural(len(index.sections), 'section')}, "
           f"{len(index.sections) - gaps} with code, {gaps} without", ""]
    for s in entries:
        names = f"  [{', '.join(s.constants)}]" if s.constants else "  [not in sections.py: cited by a trace]"
        out.append(s.title + names)
        if s.code:
            width = max(len(c.target) for c in s.code)
            for i, c in enumerate(s.code):
                out.append(f"  {'code:' if i == 0 else '':<11}{c.target:<{width}}  {c.path}:{c.line}")
        else:
            out.append(f"  {'code:':<11}none (no code cites this section)")
        if s.scenarios:
            out.append(f"  {'scenarios:':<11}" + ", ".join(s.scenarios))
        for i, t in enumerate(s.tests):
            out.append(f"  {'tests:' if i == 0 else '':<11}{t.nodeid}")
        if s.rulings:
            out.append(f"  {'rulings:':<11}" + ", ".join(s.rulings))
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


__all__ = ["CodeRef", "TestRef", "SectionEntry", "RuleIndex", "build_index", "build_indexes", "section_constants",
           "scan_code", "scan_tests", "scenario_citations", "titles_in", "index_text", "cache_dir", "cache_path", "DEFAULT_TESTS_DIR",
           "ROOT", "RULE_INDEX_FORMAT"]
