"""Docstring coverage of the public functions and classes: the core (everything but ``qt/``) and ``qt/``.

Counted: every function, method and class whose name has no leading underscore, in any module (private
modules' too: their helpers are still read by the next person), methods of private classes included (they are
often a port's implementation). Not counted: functions and classes defined inside a function (closures are the
function's own business), dunder methods (``__init__`` is documented on its class), ``@overload`` stubs and
property setters. Prints one line per part and, with ``--missing``, what lacks a docstring; ``--min-core
PERCENT`` exits 1 when the core's figure is below it (CI prints the figure and holds the floor).

    python3 scripts/docstrings.py [--missing] [--min-core 70]
"""

from __future__ import annotations

import argparse
import ast
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "openhuman_desktop"


@dataclass
class Tally:
    """Documented and undocumented definitions of one part of the package."""

    documented: int = 0
    missing: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.documented + len(self.missing)

    @property
    def percent(self) -> float:
        return 100.0 * self.documented / self.total if self.total else 100.0


def _skipped(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    for decorator in node.decorator_list:
        name = decorator.attr if isinstance(decorator, ast.Attribute) else getattr(decorator, "id", "")
        if name in ("overload", "setter", "deleter"):
            return True
    return False


def _count(node: ast.AST, where: str, tally: Tally) -> None:
    name = f"{where}:{node.lineno}:{node.name}"  # type: ignore[attr-defined]
    if ast.get_docstring(node) is not None:  # type: ignore[arg-type]
        tally.documented += 1
    else:
        tally.missing.append(name)


def _walk(body: list[ast.stmt], where: str, tally: Tally) -> None:
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            if not node.name.startswith("_") and not _skipped(node):
                _count(node, where, tally)
        elif isinstance(node, ast.ClassDef):
            if not node.name.startswith("_"):
                _count(node, where, tally)
            _walk(node.body, where, tally)  # its methods and nested classes
        elif isinstance(node, ast.If | ast.Try):  # definitions under ``if TYPE_CHECKING:`` or a fallback import
            _walk(node.body + node.orelse, where, tally)


def measure(path: Path, tally: Tally) -> None:
    """Add the public functions, classes and methods of one module to ``tally``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    _walk(tree.body, str(path.relative_to(ROOT)), tally)


def main(argv: list[str] | None = None) -> int:
    """Print the figures; returns 1 when the core is below ``--min-core``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--missing", action="store_true", help="list what has no docstring")
    parser.add_argument("--min-core", type=float, default=0.0, help="fail below this core percentage")
    args = parser.parse_args(argv)
    core, qt = Tally(), Tally()
    for path in sorted(PACKAGE.rglob("*.py")):
        measure(path, qt if path.relative_to(PACKAGE).parts[0] == "qt" else core)
    for label, tally in (("core (all but qt/)", core), ("qt/", qt)):
        print(f"docstrings, {label}: {tally.documented} of {tally.total} public functions and classes, "
              f"{tally.percent:.1f} %")
    if args.missing:
        for line in core.missing + qt.missing:
            print(f"  missing: {line}")
    if core.percent < args.min_core:
        print(f"the core's docstring figure is below {args.min_core:.0f} %", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
