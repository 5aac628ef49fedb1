"""Layers only import downward, and no modules import each other at load time.

Layers, bottom to top (issue 8; ``../shared/STYLE.md`` section 3)::

    npu_sim  <-  acl_runtime  <-  opsnn  <-  frontend        traces: a leaf library
                      |                          |
                      +-------> traces <---------+

Every ``import`` / ``from ... import`` in every module of the five packages is read
with :mod:`ast` -- at module level, in class bodies, inside functions, under ``if
TYPE_CHECKING`` -- and checked against :data:`ALLOWED`. Separately, the imports
that run when a module is loaded (module level and class bodies, not functions,
not ``if TYPE_CHECKING``) must not form a cycle between modules.

``python -m tests.test_layers`` (or ``python tests/test_layers.py``) prints the
import graph between packages: each edge with how many import statements make it.
"""
from __future__ import annotations

import ast
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("npu_sim", "traces", "acl_runtime", "opsnn", "frontend")

#: package -> packages it may import (besides itself)
ALLOWED: dict[str, frozenset[str]] = {
    "npu_sim": frozenset(),
    "traces": frozenset(),
    "acl_runtime": frozenset({"npu_sim", "traces"}),
    "opsnn": frozenset({"npu_sim", "acl_runtime"}),
    "frontend": frozenset({"npu_sim", "acl_runtime", "opsnn", "traces"}),
}

#: Tolerated violations: none are left (every module imports only downward). Format,
#: should one ever have to be tolerated for a while: ("importer", "imported") module
#: pairs for upward imports; ("cycle", "a", "b", ...) for a load-time cycle (sorted).
KNOWN_VIOLATIONS: set[tuple[str, ...]] = set()


@dataclass(frozen=True)
class Import:
    importer: str      #: dotted module name of the file
    imported: str      #: dotted name of the module it imports
    line: int
    at_load: bool      #: runs when the importer is loaded (not in a function, not TYPE_CHECKING)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_module(dotted: str) -> bool:
    p = ROOT.joinpath(*dotted.split("."))
    return p.with_suffix(".py").is_file() or (p / "__init__.py").is_file()


def _resolve(importer: str, is_package: bool, module: str | None, level: int) -> str:
    """Absolute dotted name of a (possibly relative) ``from`` target."""
    if not level:
        return module or ""
    base = importer.split(".")
    if not is_package:
        base = base[:-1]
    if level > 1:
        base = base[:len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(path: Path, name: str | None = None) -> list[Import]:
    """Every import statement of one file (see the module docstring); ``name``: its
    dotted module name (default: from its path under the repository)."""
    importer = name or module_name(path)
    is_package = path.name == "__init__.py"
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found: list[Import] = []

    def visit(node: ast.AST, at_load: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                for alias in child.names:
                    found.append(Import(importer, alias.name, child.lineno, at_load))
            elif isinstance(child, ast.ImportFrom):
                target = _resolve(importer, is_package, child.module, child.level)
                for alias in child.names:
                    sub = f"{target}.{alias.name}" if target else alias.name
                    name = sub if alias.name != "*" and _is_module(sub) else target
                    found.append(Import(importer, name, child.lineno, at_load))
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                visit(child, False)
            elif isinstance(child, ast.If) and _is_type_checking(child.test):
                visit(child, False)
            else:
                visit(child, at_load)

    visit(tree, True)
    return list(dict.fromkeys(found))   # one entry per (module imported, statement)


def all_imports() -> list[Import]:
    out: list[Import] = []
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            out.extend(imports_of(path))
    return out


def package(dotted: str) -> str:
    return dotted.split(".")[0]


def upward_imports(imports: list[Import]) -> list[Import]:
    """Imports from one of the five packages into another that :data:`ALLOWED` forbids."""
    return [i for i in imports if package(i.imported) in PACKAGES and package(i.imported) != package(i.importer)
            and package(i.imported) not in ALLOWED[package(i.importer)]]


def load_cycles(imports: list[Import]) -> list[tuple[str, ...]]:
    """Strongly connected components (more than one module, or a self-import) of the
    load-time import graph between modules of the five packages, each sorted."""
    graph: dict[str, set[str]] = {}
    for i in imports:
        if i.at_load and package(i.imported) in PACKAGES:
            graph.setdefault(i.importer, set()).add(i.imported)
            graph.setdefault(i.imported, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[tuple[str, ...]] = []
    counter = [0]

    def strongconnect(v: str) -> None:   # Tarjan's algorithm, iterative over successors
        work = [(v, iter(sorted(graph[v])))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        while work:
            node, succ = work[-1]
            advanced = False
            for w in succ:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    advanced = True
                    break
                if w in on_stack:
                    low[node] = min(low[node], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                if len(comp) > 1 or node in graph[node]:
                    out.append(tuple(sorted(comp)))

    for v in sorted(graph):
        if v not in index:
            strongconnect(v)
    return sorted(out)


def package_graph(imports: list[Import]) -> Counter:
    """(importer package, imported package) -> import statements, between the five packages."""
    return Counter((package(i.importer), package(i.imported)) for i in imports
                   if package(i.imported) in PACKAGES and package(i.imported) != package(i.importer))


# ---------------------------------------------------------------------------- tests


def test_no_upward_imports():
    bad = [i for i in upward_imports(all_imports()) if (i.importer, i.imported) not in KNOWN_VIOLATIONS]
    assert not bad, "upward imports (see ALLOWED):\n" + "\n".join(
        f"  {i.importer} (line {i.line}) imports {i.imported}" for i in bad)


def test_no_import_cycles_at_load_time():
    bad = [c for c in load_cycles(all_imports()) if ("cycle", *c) not in KNOWN_VIOLATIONS]
    assert not bad, "modules that import each other when loaded:\n" + "\n".join(f"  {' <-> '.join(c)}" for c in bad)


def test_known_violations_are_still_real():
    """An entry of KNOWN_VIOLATIONS that no longer occurs must be removed from it."""
    imports = all_imports()
    real = {(i.importer, i.imported) for i in upward_imports(imports)}
    real |= {("cycle", *c) for c in load_cycles(imports)}
    assert not KNOWN_VIOLATIONS - real, f"fixed, remove from KNOWN_VIOLATIONS: {sorted(KNOWN_VIOLATIONS - real)}"


def test_the_checker_sees_imports_inside_functions_and_relative_ones(tmp_path):
    """The parser catches the forms an upward import hides in."""
    src = tmp_path / "probe.py"
    src.write_text("def f():\n    from opsnn.base import status\n    import frontend.cli\n"
                   "from . import constants\nfrom .acl import rt\nif TYPE_CHECKING:\n    from .session import Session\n",
                   encoding="utf-8")
    found = imports_of(src, "acl_runtime.probe")
    assert [(i.imported, i.at_load) for i in found] == [
        ("opsnn.base.status", False), ("frontend.cli", False), ("acl_runtime.constants", True),
        ("acl_runtime.acl.rt", True), ("acl_runtime.session", False)]
    assert {i.imported for i in upward_imports(found)} == {"opsnn.base.status", "frontend.cli"}


def test_cycle_finder():
    imp = [Import("frontend.a", "frontend.b", 1, True), Import("frontend.b", "frontend.a", 1, True),
           Import("frontend.c", "frontend.a", 1, True), Import("frontend.a", "frontend.c", 1, False)]
    assert load_cycles(imp) == [("frontend.a", "frontend.b")]


def main() -> None:
    imports = all_imports()
    graph = package_graph(imports)
    print("import graph between packages (import statements; * = not allowed):")
    for (a, b), n in sorted(graph.items(), key=lambda kv: (PACKAGES.index(kv[0][0]), PACKAGES.index(kv[0][1]))):
        flag = "" if b in ALLOWED[a] else "  *"
        print(f"  {a:12s} -> {b:12s} {n:4d}{flag}")
    up = upward_imports(imports)
    cycles = load_cycles(imports)
    for i in up:
        known = " (known)" if (i.importer, i.imported) in KNOWN_VIOLATIONS else ""
        print(f"upward: {i.importer}:{i.line} imports {i.imported}{known}")
    for c in cycles:
        known = " (known)" if ("cycle", *c) in KNOWN_VIOLATIONS else ""
        print(f"cycle at load time: {' <-> '.join(c)}{known}")
    if not up and not cycles:
        print("no upward imports, no load-time cycles")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
