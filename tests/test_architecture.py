"""Imports run one way (STYLE.md §8): no import cycle among the modules of `rooms`,
`rooms.notify` depends on nothing else in `rooms`, `rooms` does not import `api`, and
`scoring` imports neither (rooms → scoring; the shared error is `baohuang.errors`). Read from the source (imports inside functions count too), so a cycle hidden
in a function body is caught as well."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def sources(package: str) -> dict[str, Path]:
    """The package's modules (tests and migrations left out), by dotted name."""
    return {module_name(path): path for path in (ROOT / package).rglob("*.py")
            if "tests" not in path.parts and "migrations" not in path.parts}


def imported(path: Path, name: str) -> set[str]:
    """Every module `path` (module `name`) imports, anywhere in it, by dotted name; for
    `from package import module` the module (the package's `__init__` runs first anyway)."""
    found = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            submodules = {f"{base}.{alias.name}" for alias in node.names if is_module(f"{base}.{alias.name}")}
            found.update(submodules or {base})
    return found


def is_module(dotted: str) -> bool:
    path = ROOT.joinpath(*dotted.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def graph(package: str) -> dict[str, set[str]]:
    """Module → the modules of the same package it imports."""
    modules = sources(package)
    return {name: {other for other in imported(path, name) if other in modules and other != name}
            for name, path in modules.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in edges[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycle_inside_rooms():
    assert cycles(graph("rooms")) == []


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_notify_depends_on_nothing_in_rooms():
    assert {other for other in imported(ROOT / "rooms" / "notify.py", "rooms.notify")
            if other.startswith("rooms")} == set()


def imports_of(package: str, *others: str) -> dict[str, set[str]]:
    """For each module of ``package`` that imports a module of one of ``others``: which."""
    found = {name: {other for other in imported(path, name) if other.split(".")[0] in others}
             for name, path in sources(package).items()}
    return {name: others for name, others in found.items() if others}


def test_rooms_does_not_import_api():
    assert imports_of("rooms", "api") == {}


def test_scoring_imports_nothing_of_rooms_or_api():
    assert imports_of("scoring", "rooms", "api") == {}


def test_the_import_finder_sees_an_app_importing_another():
    assert imports_of("api", "rooms")  # the API reads rooms' models
