"""Errors of the rules engine: each one leaves the game as it was before the refused action."""

from __future__ import annotations

from collections.abc import Sequence

from carddb.errors import CarddbError


class EngineError(CarddbError):
    """An action the rules do not allow, or a game that cannot be set up."""


class IllegalActionError(EngineError):
    """The action is not allowed now (timing, an empty stack required, a permanent already tapped…)."""


class CostError(IllegalActionError):
    """A cost cannot be paid (not enough mana, nothing to sacrifice…)."""


class TargetError(IllegalActionError):
    """A target is missing, not legal, or named twice."""


class NotExecutableError(EngineError):
    """The ability holds text the grammar did not understand, or a phrase with no engine handler.
    Raised before anything happens: an ability is never half-executed."""

    def __init__(self, card: str, missing: Sequence[str]) -> None:
        self.card = card
        self.missing = tuple(missing)
        super().__init__(f"{card}: cannot execute {', '.join(self.missing)}")

    @property
    def line(self) -> str:
        """``not executable: <card>: <what>``, the line a scenario run prints."""
        return f"not executable: {self.card}: {', '.join(self.missing)}"


class UnscriptedDecisionError(EngineError):
    """A strict scripted decider was asked something its script does not answer."""

    def __init__(self, question: str) -> None:
        self.question = question
        super().__init__(f"unscripted decision: {question}")


class UnknownCardError(EngineError):
    """A card name that neither the scenario nor the database knows (with the closest names)."""

    def __init__(self, name: str, suggestions: Sequence[str] = ()) -> None:
        self.name = name
        self.suggestions = tuple(suggestions)
        hint = f" (did you mean {', '.join(repr(s) for s in self.suggestions)}?)" if self.suggestions else ""
        super().__init__(f"unknown card {name!r}{hint}")
