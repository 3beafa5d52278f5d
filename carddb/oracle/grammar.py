"""Building the oracle grammar (frame + word lists + phrase tables) and turning its trees into the
ability model."""

from __future__ import annotations

import io
import logging
import re
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from lark import Lark, Token, Transformer, Tree, logger, v_args
from lark.tree import Meta

from carddb import lalr, scanner
from carddb.lalr import Grammar
from carddb.oracle.keywords import KEYWORDS, Qualifier, Shape
from carddb.oracle.model import (
    NUMBER_WORDS,
    Action,
    Clause,
    Conditional,
    Count,
    Energy,
    ManaCost,
    Noun,
    Nouns,
    Number,
    Pronoun,
    RollDie,
    SameSubject,
    SelfRef,
    Sequence,
    TapCost,
    UntapCost,
    X,
)
from carddb.oracle.phrases import Slot, Template, by_rule, find, grammar_rules, templates
from carddb.resources import grammars_dir


def _alternation(words: list[str]) -> str:
    return "|".join(re.escape(word) for word in sorted(set(words), key=lambda w: (-len(w), w)))


@cache
def grammar_text() -> str:
    """The whole grammar: the frame with its word placeholders filled, then the phrase rules."""
    directory = grammars_dir() / "oracle"
    words = tomllib.loads((directory / "words.toml").read_text(encoding="utf-8"))
    adjective = "|".join([_alternation(words["adjectives"]), *words["adjective_patterns"]])
    noun = _alternation(words["nouns"])
    subtype = words["subtype_pattern"]
    word = rf"(?:{adjective}|{noun}|{subtype})(?![\w'-])"
    head = rf"(?:{noun}|{subtype})(?![\w'-])"
    negated = "|".join(words["adjective_patterns"])
    # "attacking or blocking creature", "noncreature, nonland card", "green and/or blue creatures"
    item = rf"(?:(?:{negated})(?![\w'-]), )*(?:{word} (?:(?:or|and|and/or) )?)*{head}"
    desc = rf"{item}(?:(?:, {item})*,? (?:or|and|and/or) {item})?"
    desc_poss = rf"(?:{word} )*(?:{noun}|{subtype})(?:'s|s')"
    names = [spec.name.lower() for spec in KEYWORDS if spec.shape is Shape.NONE and not spec.pattern]
    patterns = "|".join([*words["keyword_patterns"], *_with_parameters()])
    keyword = f"(?:{_alternation(names)}|{patterns})(?![\\w-])"
    keywords = rf"{keyword}(?:(?:, {keyword})*,? (?:and|or) {keyword})?"
    frame = (directory / "oracle.lark").read_text(encoding="utf-8")
    for placeholder, pattern in (("DESC", desc), ("DESC_POSS", desc_poss), ("KEYWORDS", keywords)):
        frame = frame.replace(f"/@{placeholder}@/", "/" + pattern.replace("/", "\\/") + "/")
    phrases = frozenset(_MULTIWORD.findall(frame))
    return frame + "\n" + grammar_rules(templates(), phrases)


def _with_parameters() -> list[str]:
    """The keywords of the table with a number or a mana cost, as running text grants them ("has
    poisonous 1", "have ripple 4", "have outlast {1}{W}"); landwalk with a supertype ("artifact
    landwalk", "nonbasic landwalk")."""
    found = [r"(?:nonbasic|legendary|snow|artifact|basic) [a-z]+walk"]
    for spec in KEYWORDS:
        if spec.pattern or spec.qualifier is Qualifier.REQUIRED:
            continue
        name = re.escape(spec.name.lower())
        if spec.shape is Shape.NUMBER:
            found.append(rf"{name} (?:\d+|X)")
        elif spec.shape is Shape.COST:
            found.append(rf"{name} (?:\{{[0-9WUBRGCSXP/]+\}})+")
    return found


_PROTECTION_CHOICE = re.compile(
    r"protection from ((?:(?! and |,).)+? or from (?:(?! and |,).)+|the color of your choice)"
)
"""A protection keyword with alternatives joined by "or from" (and nothing joined by "and"), or
from a colour chosen as the effect begins."""

_MULTIWORD = re.compile(r'"([^"\s]+(?: [^"\s]+)+|, [^"\s]+)"')
"""The frame's literal tokens of several words: "this turn", "as long as", ", then"."""

_ZONE_NAMES = re.compile(r"graveyard|hand|library")
"""The zones of a frame ZONE_LIST ("graveyard, hand, and/or library"), in their order."""


START = ("costs", "effects", "condition")
"""The grammar's start rules: an activated ability's cost, sentences, a trigger condition."""


@cache
def oracle_grammar() -> Grammar:
    """The assembled grammar and its parser options (``strict=False``: see :class:`BuiltFromText`)."""
    return Grammar("oracle", grammar_text(), start=START, strict=False, announce=True)


@cache
def parser() -> Lark:
    """The LALR parser for costs, effects and trigger conditions, from prebuilt or cached tables
    (:func:`carddb.lalr.parser`). It builds model values while it parses (:class:`ToModel` as
    Lark's ``transformer``): no parse tree is made. Its lexers share their patterns
    (:func:`carddb.scanner.install`)."""
    return scanner.install(lalr.parser(oracle_grammar(), ToModel()))


@cache
def vocabulary() -> frozenset[str]:
    """The lowercase words the grammar knows: its literal words and the word lists' nouns,
    adjectives, determiners and numbers."""
    words = tomllib.loads((grammars_dir() / "oracle" / "words.toml").read_text(encoding="utf-8"))
    known = {*words["nouns"], *words["adjectives"], *NUMBER_WORDS}
    known.update(("another", "all", "those", "that", "these", "any", "each", "other", "nonland"))
    for terminal in parser().terminals:
        if terminal.pattern.type == "str":
            known.update(str(terminal.pattern.value).split())
    return frozenset(word.lower() for word in known)


QuotedParser = Callable[[str, int], Any]
_quoted_parser: list[QuotedParser] = []
_offsets: list[int] = [0]
"""Where the text being parsed starts in the face's normalized text (innermost last), so that a
quoted ability's spans point into the face's text too."""


def set_quoted_parser(parse: QuotedParser) -> None:
    """How quoted ability text (``It has "{T}: Add {C}."``) is parsed, given the text and where it
    starts in the face's text: set by carddb.oracle.parse."""
    _quoted_parser[:] = [parse]


@contextmanager
def parsing_at(offset: int) -> Iterator[None]:
    """While the text being parsed starts at ``offset`` of the face's text."""
    _offsets.append(offset)
    try:
        yield
    finally:
        _offsets.pop()


REFLEXIVE = "reflexive"
"""A triggered ability the effect creates, triggered by that effect's own action (603.12)."""
DELAYED = "delayed"
"""A triggered ability the effect creates for a later event (603.7)."""
_REFLEXIVE_EVENTS = frozenset({"did", "player_did", "done_this_way"})
"""The conditions naming what the effect before did: "you do", "a player does", "you sacrifice a
creature this way"."""

_INSTEAD_AFTER = 0
"""The form of ``instead`` written after what happens instead: "{action:pred} instead"."""
_INSTEAD_BEFORE = 3
"""The form of ``instead`` written before it: "instead {action:pred}"."""


@v_args(inline=True)
class ToModel(Transformer[Token, Any]):
    """Tree → model values. Phrase-table rules (``pred__draw__0``) become :class:`Action`; the
    frame's rules have a method each."""

    def __default__(self, data: Any, children: list[Any], meta: Meta) -> Any:
        if str(data).startswith("_"):
            return Tree(data, children)  # Lark's own repetition rules, spliced into their parent
        found = _phrase_rule(str(data))
        if found is None:
            raise ValueError(f"no transformer for grammar rule {data!r}")
        verb, roles, form = found
        made = Action(verb, tuple(zip(roles, children, strict=True)), form)
        if verb in PLAY_OR_CAST:
            made = _zone_of_both(made)
        listed = _listed_zones(str(data))
        return _owned_zones(made, listed) if listed else made

    # -- costs
    def costs(self, *items: Any) -> tuple[Any, ...]:
        return items

    def mana_cost(self, *symbols: Token) -> ManaCost:
        return ManaCost(tuple(str(s) for s in symbols))

    def tap_cost(self) -> TapCost:
        return TapCost()

    def untap_cost(self) -> UntapCost:
        return UntapCost()

    # -- sentences
    def effects(self, *sentences: Any) -> list[Any]:
        return list(sentences)

    def restriction_sentence(self, restriction: Action) -> Action:
        return restriction

    def if_first(self, condition: Any, body: Any) -> Conditional:
        return Conditional("if", condition, body)

    def if_after(self, body: Any, condition: Any) -> Conditional:
        return Conditional("if", condition, body, after=True)

    def unless_after(self, body: Any, condition: Any) -> Conditional:
        return Conditional("unless", _payment(condition), body, after=True)

    def unless_first(self, condition: Any, body: Any) -> Conditional:
        return Conditional("unless", _payment(condition), body)

    def unless_where_x(self, body: Any, condition: Any, value: Any) -> Conditional:
        """ "Counter that spell unless that player pays {X}, where X is …": X bound for the sentence."""
        unless = Conditional("unless", _payment(condition), body, after=True)
        return Conditional("where X is", value, unless, after=True)

    def except_after(self, body: Any, exception: Any) -> Conditional:
        """ "Create a token that's a copy of target creature, except it has haste" (707.9): the copy with
        the exception; ``condition`` holds what the exception says."""
        return Conditional("except", exception, body, after=True)

    def as_long_as_first(self, condition: Any, body: Any) -> Conditional:
        return Conditional("as long as", condition, _paired_subject(condition, body))

    def as_long_as_after(self, body: Any, condition: Any) -> Conditional:
        return Conditional("as long as", condition, body, after=True)

    def as_first(self, condition: Any, body: Any) -> Conditional:
        return Conditional("as", condition, body)

    def at_after(self, body: Any, condition: Any) -> Any:
        """A delayed trigger: "Draw a card at the beginning of the next turn's upkeep". It binds to
        the clause it ends, not to every one before it: "you gain 2 life, and you return ~ from your
        graveyard to your hand at the beginning of the next end step" gains the life now."""
        if isinstance(body, Sequence):  # "exile it, then return it … at …"
            last = Conditional("at", condition, body.steps[-1], after=True, trigger=DELAYED)
            return Sequence((*body.steps[:-1], last), body.joins)
        if (
            isinstance(body, Clause)
            and len(body.predicates) > 1
            and body.duration is None
            and body.for_each is None
            and (body.subject is None or isinstance(body.predicates[-1], Clause))
        ):
            final = body.predicates[-1]
            alone = final if isinstance(final, Clause) else Clause(None, (final,))
            first = Clause(body.subject, body.predicates[:-1], body.joins[:-1])
            delayed = Conditional("at", condition, alone, after=True, trigger=DELAYED)
            return Sequence((first, delayed), body.joins[-1:])
        return Conditional("at", condition, body, after=True, trigger=DELAYED)

    def at_first(self, condition: Any, body: Any) -> Conditional:
        """ "At the beginning of the next end step, return that card to the battlefield": a delayed
        triggered ability (603.7) written before what it does, a sentence of its own."""
        return Conditional("at", condition, body, trigger=DELAYED)

    def where_x(self, body: Any, value: Any) -> Conditional:
        """ "…, where X is the number of Elves you control": X bound for the sentence."""
        return Conditional("where X is", value, body, after=True)

    def number_of(self, what: Any) -> Action:
        return Action("number_of", (("what", what),))

    def stat_of(self, owner: str, stat: str) -> Action:
        return Action("stat_of", (("owner", owner), ("stat", stat)))

    def stat(self, token: Token) -> str:
        return str(token)

    def for_each_counter(self, kind: Token, what: Any) -> Action:
        """ "for each +1/+1 counter on ~"."""
        return Action("counters_on", (("kind", str(kind)), ("what", what)))

    def times(self, condition: Any) -> Action:
        """ "for each time it was kicked": once per time the condition held."""
        return Action("times", (("condition", condition),))

    def damage_noun(self, amount: Token, *qualifiers: Action) -> Noun:
        """ "1 damage prevented this way": damage counted by what happened to it."""
        return Noun((str(amount),), "damage", qualifiers)

    def counter_noun(self, kind: Token, *qualifiers: Action) -> Noun:
        """ "storage counter removed this way": counters named by what happened to them."""
        return Noun((), str(kind), qualifiers)

    def for_each_first(self, each: Any, body: Any) -> Conditional:
        """ "For each opponent, you create …": the body once per object or player."""
        return Conditional("for each", each, body)

    def for_each_damage_first(self, amount: Token, *rest: Any) -> Conditional:
        """ "For each 1 damage prevented this way, put a +1/+1 counter on that creature": the body
        once per point of damage the qualifiers count."""
        *qualifiers, body = rest
        return Conditional("for each", self.damage_noun(amount, *qualifiers), body)

    def life_noun(self, amount: Token, *qualifiers: Action) -> Noun:
        """ "1 life you gained this turn": life counted by what happened to it."""
        return Noun((str(amount),), "life", qualifiers)

    def the_result(self) -> Action:
        return Action("the_result")

    def owner_of(self, *parts: Any) -> Noun:
        """ "that creature's controller": the player, named by the object's role."""
        determiners = tuple(p for p in parts[:-2])
        return Noun(determiners, f"{parts[-2]} {parts[-1]}")

    def during_your_turn_first(self, body: Any) -> Conditional:
        """ "During your turn, …": the sentence applies only during its controller's turn."""
        return Conditional("during your turn", None, body)

    def during_each_of_your_turns_first(self, body: Any) -> Conditional:
        return Conditional("during each of your turns", None, body)

    def otherwise(self, body: Any) -> Conditional:
        return Conditional("otherwise", None, body)

    def then_first(self, body: Any) -> Conditional:
        return Conditional("then", None, body)

    def duration_first(self, duration: str | Action, body: Any) -> Conditional:
        if isinstance(duration, Action):
            return Conditional("for as long as", duration.arg("condition"), body)
        return Conditional(duration, None, body)

    def sequence(self, *steps: Any) -> Sequence | Conditional:
        """ "scry 2, then draw two cards". "You may" covers the instructions it introduces through
        ", then …": "You may search your library for …, put it onto the battlefield, then shuffle"
        is one optional sequence (a Conditional "may" whose condition is the player). A step with a
        subject of its own is no instruction to that player and is not optional: "Each player may put a
        land card … onto the battlefield, then each opponent who didn't draws a card"."""
        joins = tuple(", then " for _ in steps[1:])
        first = steps[0]
        own = next(
            (i for i, s in enumerate(steps[1:], 1) if isinstance(s, Clause) and s.subject is not None),
            len(steps),
        )
        if (
            own > 1
            and isinstance(first, Clause)
            and first.subject is not None
            and len(first.predicates) == 1
            and first.duration is None
            and first.for_each is None
            and isinstance(may := first.predicates[0], Action)
            and may.verb == "may"
            and isinstance(optional := may.arg("action"), Action)
        ):
            body = Sequence((Clause(None, (optional,)), *steps[1:own]), joins[: own - 1])
            optional_part = Conditional("may", first.subject, body)
            if own == len(steps):
                return optional_part
            return _same_subjects(Sequence((optional_part, *steps[own:]), joins[own - 1 :]))
        if (
            own > 1
            and isinstance(first, Conditional)
            and first.word == "may"
            and isinstance(first.body, Clause)
        ):
            # "you may sacrifice a creature and discard a card, then draw a card": all of it
            body = Sequence((first.body, *steps[1:own]), joins[: own - 1])
            optional_part = Conditional("may", first.condition, body)
            if own == len(steps):
                return optional_part
            return _same_subjects(Sequence((optional_part, *steps[own:]), joins[own - 1 :]))
        return _same_subjects(Sequence(steps, joins))

    def imperative(
        self, preds: tuple[tuple[Action, ...], tuple[str, ...]], duration: Any, for_each: Any
    ) -> Clause:
        return _clause(None, preds, duration, for_each)

    def subject_clause(
        self, subject: Any, preds: tuple[tuple[Action, ...], tuple[str, ...]], duration: Any, for_each: Any
    ) -> Clause | Conditional:
        return _optional_all(_clause(subject, preds, duration, for_each))

    def timed_subject_clause(
        self,
        subject: Any,
        preds: tuple[tuple[Action, ...], tuple[str, ...]],
        duration: Any,
        join: str,
        rest: Clause | Sequence,
    ) -> Sequence | Clause:
        """ "~ gets +1/+1 until end of turn and can't be blocked this turn", "it gains haste until end
        of turn and you draw two cards": two clauses, each with its own duration; the second without a
        subject of its own has the first one's (:class:`SameSubject`)."""
        if isinstance(rest, Clause) and _casts_with_mana_of_any_kind(preds, rest):
            first = _clause(subject, preds, None, None)
            predicates = (*first.predicates, rest)
            joins = (*first.joins, join)
            return Clause(subject, predicates, joins, duration, duration_after=len(first.predicates))
        first = _clause(subject, preds, duration, None)
        steps = rest.steps if isinstance(rest, Sequence) else (rest,)
        joins = rest.joins if isinstance(rest, Sequence) else ()
        head = steps[0]
        if isinstance(head, Clause) and head.subject is None:
            head = replace(head, subject=SameSubject())
        return Sequence((first, head, *steps[1:]), (join, *joins))

    def each_subject_clause(
        self, subject: Any, _each: Token, preds: tuple[tuple[Action, ...], tuple[str, ...]], duration: Any
    ) -> Clause:
        """ "You and target opponent each draw a card": every one of the players named does what
        follows, each for themselves (an ``each`` action around the predicates)."""
        return Clause(subject, (Action("each", (("action", _clause(None, preds, duration, None)),)),))

    def you_and(self, _you_and: Token, other: Any) -> Nouns:
        """ "you and that player" (each …): both players, you first."""
        return Nouns((Pronoun("you"), *(other.items if isinstance(other, Nouns) else (other,))), (" and ",))

    def preds(self, *items: Any) -> tuple[tuple[Action, ...], tuple[str, ...]]:
        predicates, joins = tuple(items[0::2]), tuple(items[1::2])
        final = predicates[-1]
        if (
            len(predicates) > 1
            and isinstance(final, Action)
            and final.verb == "rather_than_mana_cost"
            and isinstance(predicates[0], Action)
            and predicates[0].verb == "may"
            and all(isinstance(p, Action) for p in predicates)
        ):
            # "You may pay {W} and tap four untapped creatures … rather than pay ~'s mana cost": one
            # alternative cost of everything "may" introduces
            paid_actions = (predicates[0].arg("action"), *predicates[1:-1], final.arg("action"))
            paid = Clause(None, tuple(a for a in paid_actions if isinstance(a, Action | Clause)), joins)
            rather = replace(final, args=tuple((r, paid if r == "action" else v) for r, v in final.args))
            return (replace(predicates[0], args=(("action", rather),)),), ()
        return _nearest_subject(predicates, joins)

    def and_join(self, *_written: Token) -> str:
        return " and "

    def comma_and_join(self) -> str:
        return ", and "

    def comma_join(self) -> str:
        return ", "

    def and_then_join(self) -> str:
        return " and then "

    def until_end_of_turn(self) -> str:
        return "until end of turn"

    def this_turn(self) -> str:
        return "this turn"

    def until_end_of_combat(self) -> str:
        return "until end of combat"

    def this_combat(self) -> str:
        return "this combat"

    def until_your_next_turn(self) -> str:
        return "until your next turn"

    def until_the_end_of_your_next_turn(self) -> str:
        return "until the end of your next turn"

    def for_as_long_as(self, condition: Any) -> Action:
        return Action("for_as_long_as", (("condition", condition),))

    # -- dice
    def roll(self, count: Number, die: Token) -> RollDie:
        return RollDie(sides=int(str(die)[1:]), count=count.value)

    def roll_plus(self, count: Number, die: Token, what: str) -> RollDie:
        return RollDie(sides=int(str(die)[1:]), count=count.value, modifier=Count(what))

    def roll_ignore_lower(self, count: Number, die: Token) -> RollDie:
        return RollDie(sides=int(str(die)[1:]), count=count.value, ignore_lower=True)

    def die_kind(self, die: Token) -> int:
        """A ``{die:die}`` slot ("would roll a d20"): the die's number of faces."""
        return int(str(die)[1:])

    def cards_in_hand(self) -> str:
        return "cards in your hand"

    # -- conditions
    def condition(self, cond: Any) -> Any:
        return cond

    def either_condition(self, first: Any, second: Any) -> Action:
        return Action("either", (("first", first), ("second", second)))

    # -- noun phrases
    def self_ref(self, _self: Token, *qualifiers: Action) -> SelfRef:
        return SelfRef(qualifiers)

    def other_subject(self, subject: Any, predicate: Action) -> Clause:
        return Clause(subject, (predicate,))

    def nouns(self, first: Any, join: Token, second: Any) -> Nouns:
        """ "target creature and target land", "A, B, and C": one list, in text order."""
        word = str(join).strip()
        spaced = ", " if word == "," else f"{word} " if word.startswith(",") else f" {word} "
        head = first.items if isinstance(first, Nouns) else (first,)
        heads = first.joins if isinstance(first, Nouns) else ()
        if isinstance(second, Nouns) and second.qualifiers:  # shared again below, by the whole list
            *rest, last = second.items
            assert isinstance(last, Noun)
            rejoined = replace(last, qualifiers=(*last.qualifiers, *second.qualifiers))
            second = Nouns((*rest, rejoined), second.joins)
        tail = second.items if isinstance(second, Nouns) else (second,)
        tails = second.joins if isinstance(second, Nouns) else ()
        return _shared_zone(Nouns((*head, *tail), (*heads, spaced, *tails)))

    def counted(self, number: Token) -> Pronoun:
        """ "one", "two" standing alone for that many of a group named before ("Put one into your hand
        and the other into your graveyard", "Target opponent chooses one")."""
        return Pronoun(str(number))

    def rest_of(self, whole: Any) -> Action:
        """ "the rest of the cards revealed this way": those of a group not chosen before."""
        return Action("part_of", (("amount", None), ("of", whole), ("determiner", "the rest of")))

    def and_quoted(self, _and: Token, token: Token) -> Any:
        """ "… and \"{T}: Add {C}.\"": a quoted ability after a list of keywords."""
        return self.quoted(token)

    def delayed_whenever(self, condition: Any, body: Any) -> Conditional:
        """ "Until end of turn, whenever a player taps a Swamp for mana, …": a delayed triggered
        ability (603.7), ``condition`` its trigger event."""
        return Conditional("whenever", condition, body, trigger=DELAYED)

    def delayed_whenever_this_turn(self, condition: Any, body: Any) -> Conditional:
        return Conditional(
            "whenever", Action("during_this_turn", (("condition", condition),)), body, trigger=DELAYED
        )

    def delayed_when_this_turn(self, condition: Any, body: Any) -> Conditional:
        """ "When you cast your next instant or sorcery spell this turn, copy that spell.": once."""
        return Conditional(
            "when", Action("during_this_turn", (("condition", condition),)), body, trigger=DELAYED
        )

    def when_trigger(self, condition: Any, body: Any) -> Conditional:
        """ "When you do, it gets +2/+0 until end of turn": a triggered ability the effect creates,
        reflexive (603.12) when its event is the effect's own action ("you do", "you discard a card
        this way"), else delayed (603.7: "when that creature dies this turn", "when you lose control
        of the artifact"); its body a sentence of its own, durations and all."""
        own = isinstance(condition, Action) and condition.verb in _REFLEXIVE_EVENTS
        return Conditional("when", condition, body, trigger=REFLEXIVE if own else DELAYED)

    def each_of(self, whole: Any) -> Action:
        """ "(for each) of those creatures": each one of a group named before."""
        return Action("part_of", (("amount", None), ("of", whole), ("determiner", "of")))

    def clause_instead(self, clause: Clause) -> Clause:
        """ "If ~ was kicked, that creature gets +5/+5 until end of turn instead.": a replacement
        (608.2c, 614.1a) of the instruction before it, the whole clause — its duration too — what
        happens instead."""
        return Clause(None, (Action("instead", (("action", clause),), _INSTEAD_AFTER),))

    def subject_chain(self, *steps: Any) -> Any:
        return steps[0] if len(steps) == 1 else self.sequence(*steps)

    def instead_first(self, body: Any) -> Clause:
        """ "If a creature died this turn, instead that player reveals their hand, you choose two
        cards from it, then that player discards those cards.": everything after "instead" is what
        happens instead."""
        return Clause(None, (Action("instead", (("action", body),), _INSTEAD_BEFORE),))

    def x_means(self, value: Any) -> Action:
        """ "X is the mana value of that card.": what X is, said in a sentence of its own."""
        return Action("x_means", (("value", value),))

    def you(self) -> Pronoun:
        return Pronoun("you")

    def pronoun(self, token: Token) -> Pronoun:
        return Pronoun(str(token))

    def noun(self, *parts: Any) -> Noun:
        determiners = tuple(p for p in parts if isinstance(p, str) and not isinstance(p, Token))
        description = next(str(p) for p in parts if isinstance(p, Token))
        qualifiers = _attach_control(tuple(p for p in parts if isinstance(p, Action)))
        return Noun(determiners, description, qualifiers, narrowed=_narrowed(description, qualifiers))

    def lone_noun(self, *parts: Any) -> Noun:
        """A ``{what:lone_np}`` slot: determiners and a description, no qualifiers ("a basic land card")."""
        return self.noun(*parts)

    def and_life(self, _and: Token, amount: Any) -> Any:
        """An ``{amount:and_life}`` slot ("pay {1} and 1 life"): the life paid beside the mana."""
        return amount

    def lone_self(self, _self: Token) -> SelfRef:
        return SelfRef(())

    def this_noun(self, description: Token) -> Noun:
        return Noun(("this",), str(description))

    def top_cards(self, count: Any, zone: Any) -> Action:
        return Action("top_cards", (("amount", count), ("zone", zone)))

    def bottom_cards(self, count: Any, zone: Any) -> Action:
        return Action("bottom_cards", (("amount", count), ("zone", zone)))

    def determiner(self, *tokens: Token) -> str:
        return " ".join(str(token) for token in tokens)

    def poss(self, *parts: Any) -> str:
        """``your``, ``its owner's``, ``target player's``, ``~'s``: kept as written."""
        text = " ".join(str(part) for part in parts)
        return text.replace("~ 's", "~'s")

    def zone(self, owner: str, zone: Token) -> Action:
        return Action("zone", (("owner", owner), ("zone", str(zone))))

    def zone_list(self, owner: str, zones: Token) -> Action:
        """ "your graveyard, hand, and/or library": several zones of one player, searched together;
        ``each`` names every one of them (all that ``owner``'s), ``zones`` is the list as written."""
        each = tuple(_ZONE_NAMES.findall(str(zones)))
        return Action("zones", (("owner", owner), ("zones", str(zones)), ("each", each)))

    def zone_of_all(self, determiner: Token, zone: Token) -> Action:
        """ "all graveyards": every player's zone of that kind."""
        return Action("zone", (("owner", str(determiner)), ("zone", str(zone))))

    # -- values
    def number(self, token: Token) -> Number:
        return Number(int(token))

    def number_word(self, token: Token) -> Number:
        return Number(NUMBER_WORDS.index(str(token).lower()))

    def x(self) -> X:
        return X()

    def nw(self, token: Token) -> Number | X:
        """A number in words, kept as written: "a", "an", "two", "X"."""
        word = str(token)
        if word == "X":
            return X()
        if word.isdigit():
            return Number(int(word), word)
        value = 1 if word in ("a", "an") else NUMBER_WORDS.index(word.lower())
        return Number(value, word)

    def one(self) -> Number:
        return Number(1)

    def counters(self, amount: Any, kind: Token) -> Action:
        return Action("counters", (("amount", amount), ("kind", str(kind))))

    def token_name(self, token: Token) -> str:
        """A legendary token's name, kept as written: "Voja, Friend to Elves", "~'s Notebook"."""
        return str(token)

    def that_many(self, token: Token) -> str:
        return str(token)

    def cost_and(self, first: Any, _and: Token, second: Any) -> Action:
        """ "Remove three quest counters from ~ and sacrifice it": two costs joined by "and"."""
        return Action("cost_and", (("first", first), ("second", second)))

    def token_item(self, amount: Any, pt: str, what: Any) -> Action:
        """One kind of token of a list: "a 1/1 green Squirrel creature token"."""
        return Action("token_item", (("amount", amount), ("pt", pt), ("what", what)))

    def token_list(self, *parts: Any) -> Action:
        """ "a 1/1 … token and a 0/3 … token": the items and the joins between them."""
        return _listed("token_list", parts)

    def placement(self, counters: Action, what: Any) -> Action:
        """ "a +1/+1 counter on each creature you control": what is put on what."""
        return Action("placement", (("counters", counters), ("what", what)))

    def placements(self, *parts: Any) -> Action:
        return _listed("placements", parts)

    def counters_list(self, *parts: Any) -> Action:
        """ "a +1/+1 counter and a lifelink counter", "a +0/+1 counter or a +1/+0 counter"."""
        return _listed("counters_list", parts)

    def counters_determined(self, determiner: Token, kind: Token) -> Action:
        """ "all -1/-1 counters", "any number of storage counters", "that many +1/+1 counters"."""
        return Action("counters", (("amount", None), ("kind", str(kind)), ("determiner", str(determiner))))

    def at_random(self) -> Action:
        return Action("at_random")

    def both(self, first: Any, _and_each: Token, description: Token, *qualifiers: Action) -> tuple[Any, Noun]:
        """ "each creature and each player": the two noun phrases, the second with its "each"."""
        return (first, Noun(("each",), str(description), qualifiers))

    def partitive(self, amount: Any, whole: Any) -> Action:
        """ "two of them": how many of a group named before."""
        return Action("part_of", (("amount", amount), ("of", whole)))

    def counters_or_more(self, token: Token) -> Action:
        """ "one or more +1/+1 counters", "one or more counters"."""
        number, kind = str(token).split(" or more ")
        return Action("counters", (("amount", None), ("kind", kind), ("determiner", f"{number} or more")))

    def determined_part(self, determiner: Token, whole: Any) -> Action:
        """ "any number of them": as many of a group named before as the determiner says."""
        return Action("part_of", (("amount", None), ("of", whole), ("determiner", str(determiner))))

    def counters_variable(self, kind: Token) -> Action:
        return Action("counters", (("amount", None), ("kind", str(kind))))

    def counter(self, token: Token) -> str:
        return str(token)

    def pt(self, token: Token) -> str:
        return str(token)

    def mana(self, *symbols: Token) -> ManaCost:
        return ManaCost(tuple(str(s) for s in symbols))

    def energy(self, *symbols: Token) -> Energy:
        """An ``{energy}`` slot: "{E}{E}" (107.14), energy counters, not mana."""
        return Energy(len(symbols))

    def planar_symbol(self, token: Token) -> str:
        """A ``{symbol:planar_symbol}`` slot: "{CHAOS}" (901.9b), no mana cost."""
        return str(token)

    def keywords(self, token: Token) -> str | Action:
        """Keywords granted in running text ("flying and trample"), or a choice of protection
        qualities: "protection from artifacts or from the color of your choice" is one protection
        the player chooses (``protection_choice``), not a keyword that names both; "protection from
        the color of your choice" a choice of one colour (``qualities`` the one quality)."""
        text = str(token)
        choice = _PROTECTION_CHOICE.fullmatch(text)
        if choice is None:
            return text
        qualities = tuple(choice.group(1).split(" or from "))
        return Action("protection_choice", (("qualities", qualities),))

    def color(self, token: Token) -> str:
        return str(token)

    def set_name(self, token: Token) -> str:
        """A ``{set:set_name}`` slot: an expansion's name as printed ("Antiquities")."""
        return str(token)

    def card_name(self, token: Token) -> str:
        """A ``{name:card_name}`` slot: another card's name as printed ("Nicol Bolas, the Deceiver")."""
        return str(token)

    def card_names_and(self, first: Token, _and: Token, second: Token) -> Action:
        return Action("card_names", (("names", (str(first), str(second))), ("join", "and")))

    def card_names_or(self, first: Token, _or: Token, second: Token) -> Action:
        return Action("card_names", (("names", (str(first), str(second))), ("join", "or")))

    def quoted(self, token: Token) -> Any:
        inner = str(token)[1:-1]
        return (
            _quoted_parser[0](inner, _offsets[-1] + (token.start_pos or 0) + 1) if _quoted_parser else inner
        )


@cache
def _listed(verb: str, parts: tuple[Any, ...]) -> Action:
    """A list of a frame rule ``item (AND_ITEM item)+``: its items and the joins as printed between
    them (" and ", ", and ", ", ", " or ")."""
    items = parts[0::2]
    written = (str(join).strip() for join in parts[1::2])
    joins = tuple((join if join.startswith(",") else " " + join) + " " for join in written)
    return Action(verb, (("items", items), ("joins", joins)))


def _phrase_rule(rule: str) -> tuple[str, tuple[str, ...], int] | None:
    """The verb, slot roles and form of the phrase-table rule named ``rule`` (None: no phrase's)."""
    found: Template | None = by_rule().get(rule)
    return None if found is None else (found.verb, tuple(slot.role for slot in found.slots), found.form)


ZONE_WORDS = frozenset({"hand", "graveyard", "library"})
_LIST_WORDS = frozenset({",", "and", "or", "and/or"})


@cache
def _listed_zones(rule: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The zones a phrase's form lists right after a zone slot, as words of the form ("search
    {zone}, hand, and library for …", "from {zone} [or hand]", "shuffle {from:zone} and graveyard
    into …"): each slot's role and the zone words after it."""
    found: Template | None = by_rule().get(rule)
    if found is None:
        return ()
    listed: list[tuple[str, tuple[str, ...]]] = []
    parts = found.parts
    for index, part in enumerate(parts):
        if not (isinstance(part, Slot) and part.type == "zone"):
            continue
        words: list[str] = []
        for after in parts[index + 1 :]:
            if not isinstance(after, str) or not set(after.split()) <= ZONE_WORDS | _LIST_WORDS:
                break
            words.extend(word for word in after.split() if word in ZONE_WORDS)
        if words:
            listed.append((part.role, tuple(words)))
    return tuple(listed)


def _owned_zones(action: Action, listed: tuple[tuple[str, tuple[str, ...]], ...]) -> Action:
    """ "Search that player's graveyard, hand, and library for …", "from your graveyard or hand":
    the zones a form lists after a zone share that zone's owner. ``zones`` (``from_zones`` for the
    slot ``from``…) holds them all, each with that owner; the words stay the form's."""
    args = list(action.args)
    for role, words in listed:
        first = action.arg(role)
        if not (isinstance(first, Action) and first.verb == "zone"):
            continue
        owner = first.arg("owner")
        rest = tuple(Action("zone", (("owner", owner), ("zone", zone))) for zone in words)
        args.append(("zones" if role == "zone" else f"{role}_zones", (first, *rest)))
    return Action(action.verb, tuple(args), action.form)


PAIRED_WITH = "the creature it's paired with"
"""The other creature of a soulbond pair (702.95), named by its role."""


def _paired_subject(condition: Any, body: Any) -> Any:
    """ "As long as ~ is paired with another creature, both creatures have flying" / "each of those
    creatures gets +1/+1": the subject names the pair, ~ and the creature it is paired with."""
    paired = isinstance(condition, Action) and condition.verb == "is_state"
    if not paired or condition.form_name != "paired" or not isinstance(body, Clause):
        return body
    pair = (condition.arg("what"), Pronoun(PAIRED_WITH))
    subject = body.subject
    if isinstance(subject, Pronoun) and subject.word == "both creatures":
        return replace(body, subject=replace(subject, antecedents=pair))
    if isinstance(subject, Noun) and "those" in subject.determiners and subject.description == "creatures":
        return replace(body, subject=replace(subject, antecedents=pair))
    return body


def _same_subjects(sequence: Sequence) -> Sequence:
    """ "Target player draws two cards, then discards a card", "Each player shuffles their hand into
    their library, then draws that many cards": a step after ", then" without a subject of its own
    whose verb agrees with the subject of the clause before (a third-person "discards"; "draw" after
    "you" or a plural) goes on with that subject (:class:`SameSubject`, as after "and"). A plain verb
    after a singular subject is an instruction to the controller: "~ gets +1/+0 until end of turn,
    then scry 1"."""
    steps: list[Any] = []
    subject: Any = None
    for step in sequence.steps:
        if isinstance(step, Clause) and step.subject is None and subject is not None:
            agrees = _person(step.predicates[0] if step.predicates else None)
            if agrees == "singular" or (agrees == "plain" and _plural_subject(subject)):
                step = replace(step, subject=SameSubject())
        if isinstance(step, Clause) and step.subject is not None:
            subject = subject if isinstance(step.subject, SameSubject) else step.subject
        steps.append(step)
    return Sequence(tuple(steps), sequence.joins)


def _plural_subject(subject: Any) -> bool:
    """A subject a plain verb agrees with: "you", "they", a list, "any number of target opponents"."""
    if isinstance(subject, Pronoun):
        return subject.word.lower() in ("you", "they", "we")
    return isinstance(subject, Nouns) or (isinstance(subject, Noun) and subject.plural)


def _person(predicate: Any) -> str | None:
    """Whether a predicate is written with its verb's third-person singular ("singular": "discards"),
    its plain form ("plain": "discard"), or neither can be told (None): its table entry has both."""
    form = find(predicate.verb, predicate.form) if isinstance(predicate, Action) else None
    if form is None or not form.parts or not isinstance(form.parts[0], str):
        return None
    first = form.parts[0]
    others = _first_words().get(form.verb, frozenset())
    if any(_third_person(plain) == first for plain in others):
        return "singular"
    if _third_person(first) in others:
        return "plain"
    return None


def _third_person(plain: str) -> str:
    """ "draw" → "draws", "search" → "searches", "have" → "has" (the first word of a form)."""
    if plain in _IRREGULAR:
        return _IRREGULAR[plain]
    if plain.endswith(("s", "sh", "ch", "x", "z")):
        return plain + "es"
    if plain.endswith("y") and plain[-2:-1] not in ("a", "e", "o", "u"):
        return plain[:-1] + "ies"
    return plain + "s"


_IRREGULAR = {"have": "has", "are": "is", "do": "does"}


@cache
def _first_words() -> dict[str, frozenset[str]]:
    """The first literal word of each form of each entry of the phrase tables."""
    found: dict[str, set[str]] = {}
    for template in templates():
        if template.parts and isinstance(template.parts[0], str):
            found.setdefault(template.verb, set()).add(template.parts[0])
    return {verb: frozenset(words) for verb, words in found.items()}


def _casts_with_mana_of_any_kind(preds: tuple[tuple[Any, ...], tuple[str, ...]], rest: Clause) -> bool:
    """ "You may cast that card for as long as it remains exiled, and you may spend mana as though
    it were mana of any color to cast that spell": a permission to cast, and how the spell it casts
    may be paid for, are one permission with one duration (the second names the spell the first
    casts)."""
    final = preds[0][-1]
    if not (isinstance(final, Action) and final.verb == "may"):
        return False
    cast = final.arg("action")
    if not (isinstance(cast, Action) and cast.verb in ("cast_card", "play_card")):
        return False
    if rest.subject is None or len(rest.predicates) != 1:
        return False
    spend = rest.predicates[0]
    spending = spend.arg("action") if isinstance(spend, Action) and spend.verb == "may" else None
    if not (isinstance(spending, Action) and spending.verb == "spend_mana_as_though"):
        return False
    return spending.arg("what") is not None  # "… to cast that spell": the spell the first one casts


def _clause(
    subject: Any, preds: tuple[tuple[Any, ...], tuple[str, ...]], duration: Any, for_each: Any
) -> Clause:
    """A clause; a duration after a clause joined with a subject of its own ("untap target creature
    and it gains haste until end of turn") lasts for that clause only, unless the clauses are
    parallel — the same phrase for each subject ("attacking red creatures get +2/+0 and attacking
    white creatures get +0/+2 until end of turn"), or each a change that lasts ("~ gets +2/+2 and
    creatures you control gain trample until end of turn"): then it ends them all."""
    predicates, joins = preds
    final = predicates[-1]
    if (
        duration is not None
        and len(predicates) > 1
        and isinstance(final, Clause)
        and final.duration is None
        and not _parallel(predicates[:-1], final)
    ):
        predicates = (*predicates[:-1], replace(final, duration=duration))
        duration = None
    within = _duration_within(predicates[-1]) if duration is None else None
    if within is not None and (len(predicates) == 1 or within[1].endswith(" if able")):
        # "… deals 3 damage to you and attacks this turn if able": as if written after the clause
        return Clause(subject, predicates, joins, within[0], for_each, duration_in_phrase=True)
    predicates, joins = _permissions_together(predicates, joins)
    return Clause(subject, _zone_of_permissions(predicates, joins), joins, duration, for_each)


PERMISSIONS = frozenset({"play_card", "cast_card"})
"""The verbs of "you may play lands and cast spells from …", whose zone covers each of them."""
ZONE_QUALIFIERS = frozenset({"in_zone", "from_top", "from_exile", "from_among"})
"""Qualifiers that say where a card is played or cast from ("from your graveyard", "from the top of
your library", "from among cards exiled with ~")."""


def _permission(predicate: object) -> Action | None:
    """The play or cast phrase of a predicate ("may play lands" too)."""
    if isinstance(predicate, Action) and predicate.verb == "may":
        predicate = predicate.arg("action")
    return predicate if isinstance(predicate, Action) and predicate.verb in PERMISSIONS else None


def _permissions_together(
    predicates: tuple[Any, ...], joins: tuple[str, ...]
) -> tuple[tuple[Any, ...], tuple[str, ...]]:
    """ "You may look at …, and you may play lands and cast spells from among those cards": the
    last play/cast phrase belongs to the clause with its own subject before it, whose "may" and
    zone it shares (the grammar joins it to the outer clause)."""
    if len(predicates) < 3 or joins[-1] != " and " or _permission(predicates[-1]) is None:
        return predicates, joins
    inner = predicates[-2]
    if not isinstance(inner, Clause) or inner.duration is not None or inner.for_each is not None:
        return predicates, joins
    if not all(_permission(predicate) is not None for predicate in inner.predicates):
        return predicates, joins
    together = (*inner.predicates, predicates[-1])
    inner_joins = (*inner.joins, joins[-1])
    inner = replace(inner, predicates=_zone_of_permissions(together, inner_joins), joins=inner_joins)
    return (*predicates[:-2], inner), joins[:-1]


def _zone_of_permissions(predicates: tuple[Any, ...], joins: tuple[str, ...]) -> tuple[Any, ...]:
    """ "You may play lands and cast spells from your graveyard", "you may play a land and cast a
    permanent spell of each permanent type from your graveyard": the zone written after the last of
    and-joined play/cast phrases is where the cards of each come from (the lands too), when the
    earlier ones name no zone of their own (:attr:`Noun.zone_shared`); what else the last noun says
    ("of each permanent type") is its own."""
    if len(predicates) < 2 or any(join.strip(" ,") != "and" for join in joins):
        return predicates
    permissions = [_permission(predicate) for predicate in predicates]
    nouns = [permission.arg("what") if permission is not None else None for permission in permissions]
    last = nouns[-1]
    zone = _zone_qualifier(last)
    if zone is None:
        return predicates
    if not all(isinstance(noun, Noun) and not noun.qualifiers for noun in nouns[:-1]):
        return predicates
    shared = []
    for predicate, permission, noun in zip(predicates[:-1], permissions[:-1], nouns[:-1], strict=True):
        assert permission is not None and isinstance(noun, Noun)
        inner = _with_arg(permission, "what", replace(noun, qualifiers=(zone,), zone_shared=True))
        shared.append(_with_arg(predicate, "action", inner) if predicate is not permission else inner)
    return (*shared, predicates[-1])


def _zone_qualifier(noun: object) -> Action | None:
    """The qualifier of a noun that says where its cards are played or cast from."""
    if not isinstance(noun, Noun):
        return None
    return next((q for q in noun.qualifiers if q.verb in ZONE_QUALIFIERS), None)


PLAY_OR_CAST = frozenset({"cant_play_or_cast"})
"""Phrases of two nouns, lands to play and spells to cast, that one zone written last covers."""


def _zone_of_both(action: Action) -> Action:
    """ "can't play lands or cast spells from your hand": the lands are those of the hand too."""
    lands, spells = action.arg("what"), action.arg("spells")
    zone = _zone_qualifier(spells)
    if not (isinstance(lands, Noun) and not lands.qualifiers and zone is not None):
        return action
    return _with_arg(action, "what", replace(lands, qualifiers=(zone,), zone_shared=True))


def _with_arg(action: Action, name: str, value: object) -> Action:
    return replace(action, args=tuple((key, value if key == name else old) for key, old in action.args))


_PAYMENTS = frozenset({"sacrifices_trigger", "discards_trigger", "returns_to", "pays_life"})
"""The events that, after "unless", are what a player may do instead (118.12): "unless you sacrifice
a Mountain", "unless that player discards a card", "unless they pay 2 life"."""


def _payment(condition: Any) -> Any:
    """ "Sacrifice ~ unless you sacrifice a Mountain": the condition is a payment — the player who
    may pay (the clause's subject) and what they do, the very instruction of the phrase tables
    ("sacrifice {what:np}"), not the trigger event "a player sacrifices …". "Unless … pays {3}" is
    the ``pays`` condition itself (its payer ``who``, its cost ``mana``)."""
    if not isinstance(condition, Action) or condition.verb not in _PAYMENTS:
        return condition
    form = find(condition.verb, condition.form)
    if form is None or not form.text.startswith(_PAYER):
        return condition
    instruction = _instructions().get(form.text.removeprefix(_PAYER))
    if instruction is None:
        return condition
    payer = condition.arg("who")
    if not isinstance(payer, SelfRef | Pronoun | Noun | Nouns):
        return condition
    args = tuple((role, value) for role, value in condition.args if role != "who")
    return Clause(payer, (Action(instruction.verb, args, instruction.form),))


_PAYER = "{who:np} "


@cache
def _instructions() -> dict[str, Template]:
    """Every predicate form by its text."""
    return {t.text: t for t in templates() if t.family == "pred"}


_OPTIONAL = frozenset({"may", "may_have"})


def _nearest_subject(
    predicates: tuple[Any, ...], joins: tuple[str, ...]
) -> tuple[tuple[Any, ...], tuple[str, ...]]:
    """ "~ gets +2/+2 and other creatures you control get +2/+2 and have trample", "you may look at …,
    and you may play lands and cast spells from among those cards": a predicate after a clause with
    a subject of its own is that subject's (the nearest one), not the first subject's."""
    if not any(isinstance(p, Clause) for p in predicates[:-1]):
        return predicates, joins
    kept: list[Any] = [predicates[0]]
    kept_joins: list[str] = []
    for join, predicate in zip(joins, predicates[1:], strict=True):
        last = kept[-1]
        if isinstance(last, Clause) and isinstance(predicate, Action):
            kept[-1] = replace(last, predicates=(*last.predicates, predicate), joins=(*last.joins, join))
        else:
            kept.append(predicate)
            kept_joins.append(join)
    return tuple(_optional_all(p, nested=True) if isinstance(p, Clause) else p for p in kept), tuple(
        kept_joins
    )


def _optional_all(clause: Clause, *, nested: bool = False) -> Clause | Conditional:
    """ "You may reveal a land card from among them and put that card into your hand": "may"
    covers every predicate joined after it, as it does through ", then …" (a Conditional "may"
    whose condition is the player); "you may have target creature get +2/+0 and gain haste until
    end of turn": what the player may have it do is both predicates (a clause in ``may_have``'s
    ``action``). A predicate with a "may" or a subject of its own ("… may copy this spell and may
    choose new targets for the copy", "you may draw a card, and each opponent …") is its own. A
    clause joined to another (``nested``) stays a clause: "…, and you may play lands and cast
    spells …" has a clause of both in ``may``'s ``action``."""
    first, *rest = clause.predicates
    if (
        not rest
        or not isinstance(first, Action)
        or first.verb not in _OPTIONAL
        or not all((isinstance(p, Action) and p.verb not in _OPTIONAL) or _elided(p) for p in rest)
        or clause.subject is None
    ):
        return clause
    inner = first.arg("action")
    if not isinstance(inner, Action | Clause):
        return clause
    body = replace(clause, subject=None, predicates=(inner, *rest), for_each=None)
    if first.verb == "may" and not nested:
        if clause.for_each is not None:  # "… may choose any number of creatures and pay {2} for each
            if clause.duration is not None:  # creature chosen this way": the count is the payment's
                return clause
            head = Clause(None, (inner, *rest[:-1]), clause.joins[:-1])
            counted = Clause(None, (rest[-1],), for_each=clause.for_each)
            return Conditional("may", clause.subject, Sequence((head, counted), clause.joins[-1:]))
        return Conditional("may", clause.subject, body)
    had = replace(first, args=tuple((r, body if r == "action" else v) for r, v in first.args))
    return Clause(clause.subject, (had,), (), None, clause.for_each)


def _elided(predicate: object) -> bool:
    """ "… onto the battlefield tapped and an Elf card from among them into your hand": the same
    instruction again, its verb left out (a clause whose subject is what is put)."""
    return (
        isinstance(predicate, Clause)
        and len(predicate.predicates) == 1
        and isinstance(predicate.predicates[0], Action)
        and predicate.predicates[0].verb == _ELIDED
    )


_ELIDED = "put_elided"


def _parallel(own: tuple[Any, ...], other: Clause) -> bool:
    """The predicates of a clause's own subject say what the clauses joined with other subjects say
    of theirs: the same phrase ("get {pt}") each time, or each a change that lasts a while."""
    phrases = [q for p in (*own, other) for q in (p.predicates if isinstance(p, Clause) else (p,))]
    verbs = {p.verb for p in phrases if isinstance(p, Action)}
    if not all(isinstance(p, Action) for p in phrases):
        return False
    return len(verbs) == 1 or verbs <= _CONTINUOUS


_CONTINUOUS = frozenset(
    {"gets", "gets_each", "gains", "has", "loses", "has_base_pt", "becomes", "is_type", "has_ability"}
    | {"cant_block", "cant_attack", "cant_be_blocked"}
)
"""Phrases that change an object for a while ("gets +2/+0", "gains trample", "can't block"): joined
with each other, one duration after them ends them all ("~ gets +2/+2 and creatures you control
gain trample until end of turn")."""


def _duration_within(predicate: object) -> tuple[str, str] | None:
    """A phrase that says "this turn" (or "this combat") before its last words ("prevent all damage
    that would be dealt [this turn by] {by:np}", "blocks [this turn if able]"): the clause's
    duration, written inside the phrase, and the words that say it."""
    form = find(predicate.verb, predicate.form) if isinstance(predicate, Action) else None
    for part in form.parts if form is not None else ():
        for duration in ("this turn", "this combat"):
            if isinstance(part, str) and part.startswith(duration + " "):
                return duration, part
    return None


def _shared_zone(nouns: Nouns) -> Nouns:
    """ "up to one target artifact card and up to one target enchantment card from your graveyard":
    a zone written after the last of several nouns none of which names its own zone describes them
    all (the grammar attaches a qualifier to the nearest noun)."""
    last = nouns.items[-1]
    if not isinstance(last, Noun) or not last.qualifiers or last.qualifiers[-1].verb != "in_zone":
        return nouns
    if not all(isinstance(item, Noun) and not item.qualifiers for item in nouns.items[:-1]):
        return nouns
    shared = last.qualifiers[-1]
    if "target" in str(shared.args):  # "from target player's graveyard": its own target, once
        return nouns
    items = (*nouns.items[:-1], replace(last, qualifiers=last.qualifiers[:-1]))
    return Nouns(items, nouns.joins, (shared,))


_QUALITIES = frozenset({"type", "types", "color", "colors", "name", "choice"})
_CONTROL = frozenset({"you_control", "player_controls"})


def _attach_control(qualifiers: tuple[Action, ...]) -> tuple[Action, ...]:
    """ "creatures of the chosen type your opponents control": who controls them describes the
    creatures, not the type (the grammar attaches a qualifier to the nearest noun)."""
    attached: list[Action] = []
    for qualifier in qualifiers:
        inner = qualifier.arg("what") if qualifier.verb == "ability_of" else None
        if (
            isinstance(inner, Noun)
            and inner.description.rsplit(" ", 1)[-1] in _QUALITIES
            and any(q.verb in _CONTROL for q in inner.qualifiers)
        ):
            kept = replace(inner, qualifiers=tuple(q for q in inner.qualifiers if q.verb not in _CONTROL))
            attached.append(
                replace(qualifier, args=tuple((r, kept if r == "what" else v) for r, v in qualifier.args))
            )
            attached.extend(q for q in inner.qualifiers if q.verb in _CONTROL)
        else:
            attached.append(qualifier)
    return tuple(attached)


_CREATURE = re.compile(r"(?:\w+ )*creatures?(?: cards?)?")


_COLOR_WORDS = frozenset({"white", "blue", "black", "red", "green"})
"""The colours (105.1): "green and blue" before a noun is one object's two colours, not a list."""


def _narrowed(description: str, qualifiers: tuple[Action, ...]) -> str | None:
    """ "artifact, enchantment, or creature with flying": only creatures have flying, so the keyword
    describes the last alternative only (the other qualifiers describe them all). Not "green and
    blue Crab artifact creature with hexproof": colours joined by "and" are one object's, as in the
    token a create phrase makes."""
    if not any(q.verb in ("with_keywords", "without_keywords") for q in qualifiers):
        return None
    alternatives = Noun((), description).alternatives
    if len(alternatives) < 2 or not _CREATURE.fullmatch(alternatives[-1]):
        return None
    if all(alternative in _COLOR_WORDS for alternative in alternatives[:-1]):
        return None
    if all("creature" in alternative for alternative in alternatives[:-1]):
        return None
    return alternatives[-1]


@dataclass(frozen=True, slots=True)
class Conflict:
    """A shift/reduce conflict of the LALR tables, resolved by shifting: ``word`` is the text of
    the terminal shifted, ``rule`` the item that could have been reduced instead."""

    word: str
    rule: str


@dataclass(frozen=True, slots=True)
class BuiltFromText:
    """The parser built from the grammar text (not loaded from tables), and the shift/reduce
    conflicts Lark resolved by shifting (as yacc does) while it built the tables.

    The grammar is built with ``strict=False`` because a noun's qualifiers ("target creature *you
    control*", "a card *from your graveyard*") and lists ("gets +1/+1 *and* gains flying") attach
    to the nearest phrase, which is the shift; ``tests/test_oracle_grammar.py`` checks that every
    conflict is one of those. Reduce/reduce conflicts are always errors.
    """

    parser: Lark
    conflicts: tuple[Conflict, ...]


def build_from_text(transformer: ToModel | None = None) -> BuiltFromText:
    """Build the parser from the grammar text, as when no tables can be loaded (half a minute),
    keeping the conflicts Lark logs (at debug level) while building."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    logger.addHandler(handler)
    previous = logger.level
    logger.setLevel(logging.DEBUG)
    try:
        built = lalr.build(oracle_grammar(), transformer)
    finally:
        logger.removeHandler(handler)
        logger.setLevel(previous)
    words = {t.name: str(t.pattern.value) for t in built.terminals}
    found = set()
    for match in _CONFLICT.finditer(stream.getvalue()):
        found.add(Conflict(words.get(match.group(1), match.group(1)), match.group(2).strip()))
    return BuiltFromText(built, tuple(sorted(found, key=lambda c: (c.word, c.rule))))


_CONFLICT = re.compile(r"Shift/Reduce conflict for terminal (\w+): \(resolving as shift\)\n \* <([^>]*)>")
