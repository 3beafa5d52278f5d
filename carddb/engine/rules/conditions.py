"""Evaluating a condition phrase ("if you control an artifact", "as long as …") with the catalog's
condition for its verb."""

from __future__ import annotations

from carddb.engine.core.context import Context
from carddb.engine.core.errors import EngineError
from carddb.oracle.model import Action


def evaluate(ctx: Context, condition: object) -> bool:
    conditions = ctx.game.catalog.conditions
    if not isinstance(condition, Action) or condition.verb not in conditions:
        raise EngineError(f"cannot evaluate the condition {condition!r}")
    return conditions[condition.verb](ctx, condition)
