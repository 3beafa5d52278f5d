"""The one source of decisions: every choice and every die roll of a game goes through a
:class:`Decider`. A seeded :class:`RandomDecider` plays anything; a :class:`ScriptedDecider` answers
from a script and, when strict, fails the run on any question its script does not answer."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable, Sequence
from typing import Protocol, TypeVar

from carddb.engine.core.errors import EngineError, UnscriptedDecisionError

T = TypeVar("T")


class Decider(Protocol):
    def roll(self, sides: int, why: str) -> int:
        """A natural die result, 1..sides."""
        ...

    def choose(self, question: str, options: Sequence[str]) -> str:
        """One of ``options`` (object names, "yes"/"no", modes, numbers as text)."""
        ...

    def shuffle(self, items: list[T]) -> list[T]:
        """A random order of ``items`` (a shuffled library)."""
        ...


class RandomDecider:
    """Uniform die rolls and choices from a seeded generator: the same seed, the same game."""

    def __init__(self, seed: int = 0) -> None:
        self.random = random.Random(seed)

    def roll(self, sides: int, why: str) -> int:
        return self.random.randint(1, sides)

    def choose(self, question: str, options: Sequence[str]) -> str:
        if not options:
            raise EngineError(f"nothing to choose from: {question}")
        return self.random.choice(list(options))

    def shuffle(self, items: list[T]) -> list[T]:
        shuffled = list(items)
        self.random.shuffle(shuffled)
        return shuffled


class ScriptedDecider:
    """Answers from a script: die results in order, other answers in order. ``fallback`` (when not
    strict) answers what the script does not."""

    def __init__(
        self, rolls: Iterable[int] = (), choices: Iterable[str] = (), fallback: Decider | None = None
    ) -> None:
        self.rolls: deque[int] = deque(rolls)
        self.choices: deque[str] = deque(choices)
        self.fallback = fallback
        self._shuffler = RandomDecider(0)

    def script(self, rolls: Iterable[int] = (), choices: Iterable[str] = ()) -> None:
        self.rolls.extend(rolls)
        self.choices.extend(choices)

    def roll(self, sides: int, why: str) -> int:
        if self.rolls:
            result = self.rolls.popleft()
            if not 1 <= result <= sides:
                raise EngineError(f"scripted roll {result} is not a result of a d{sides} ({why})")
            return result
        if self.fallback is None:
            raise UnscriptedDecisionError(f"roll a d{sides} ({why})")
        return self.fallback.roll(sides, why)

    def choose(self, question: str, options: Sequence[str]) -> str:
        if self.choices:
            answer = self.choices.popleft()
            for option in options:
                if option.casefold() == answer.casefold():
                    return option
            raise EngineError(f"scripted answer {answer!r} is not one of {list(options)} ({question})")
        if self.fallback is None:
            raise UnscriptedDecisionError(f"{question} {list(options)}")
        return self.fallback.choose(question, options)

    def shuffle(self, items: list[T]) -> list[T]:
        """Shuffles are not scripted: a seeded order (the fallback's, if there is one)."""
        return (self.fallback or self._shuffler).shuffle(items)

    @property
    def unused(self) -> tuple[list[int], list[str]]:
        return list(self.rolls), list(self.choices)
