"""The variables of a rule's parts, read from clingo's AST, for the lab's rewrites of a
user's encoding (assertions, coverage probes, diagnosis).

A rule body's *global* variables are those a head may use: not those local to an
aggregate's elements or to a conditional literal (``#count { X : x(X) }``).

>>> from clingo import ast
>>> rules = []
>>> ast.parse_string("h :- p(X,Y), #count { Z : q(Z,X) } > W, r(W).", rules.append)
>>> body = rules[-1].body
>>> variables(body)  # an aggregate's guard comes before its elements in the AST
['X', 'Y', 'W', 'Z']
>>> variables(body, global_only=True)
['X', 'Y', 'W']
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def variables(nodes: Any | Iterable[Any], global_only: bool = False) -> list[str]:
    """The variables of an AST node (or of each of several: a rule's body), each once in
    the AST's order (an aggregate's guards before its elements), ``_`` left out; ``global_only``: not those local to an
    aggregate's elements or a condition (its guards' variables are global)."""
    from clingo import ast

    found: list[str] = []

    class Collect(ast.Transformer):
        def visit_Variable(self, var: Any) -> Any:
            if var.name != "_" and var.name not in found:
                found.append(var.name)
            return var

    class Globals(Collect):
        def visit_BodyAggregate(self, agg: Any) -> Any:
            for guard in (agg.left_guard, agg.right_guard):
                if guard is not None:
                    self(guard.term)
            return agg

        visit_Aggregate = visit_BodyAggregate

        def visit_ConditionalLiteral(self, lit: Any) -> Any:
            return lit

    visitor = Globals() if global_only else Collect()
    for node in [nodes] if isinstance(nodes, ast.AST) else nodes:
        visitor(node)
    return found
