"""The shared scanner (carddb.scanner) finds the very tokens Lark's contextual lexer finds: the first
terminal, in Lark's order, that matches, for every parser state, with one trie for the literals and
each pattern compiled once."""

from __future__ import annotations

import re
from typing import Any

import pytest
from lark import Lark, Token
from lark.exceptions import UnexpectedInput

from carddb import lalr, scanner
from carddb.oracle.grammar import ToModel, oracle_grammar


def test_the_trie_finds_the_longest_word_at_a_place() -> None:
    trie = re.compile(scanner.trie_pattern(["a", "an", "and", "another", "{T}", ", then"]))

    assert [trie.match(text).group() for text in ("another card", "ant", "and", "a", "{T}:", ", then")] == [  # type: ignore[union-attr]
        "another",
        "an",
        "and",
        "a",
        "{T}",
        ", then",
    ]
    assert trie.match("bear") is None


@pytest.mark.parametrize(
    "pattern, starts, never",
    [
        (r"\d+", "07", "a -"),
        (r"[+-]?(?:\d+|X|\*)\/[+-]?(?:\d+|X|\*)", "+-3X*", "a/"),
        (r"(?<![\w\/+-])(?:[+-]\d+\/[+-]\d+|[a-z]+) counters?", "+-az", "A1 "),
        (r"(?:white|blue)(?![\w-])", "wb", "rW"),
        (r"(?:(?:\ |\t))+", " \t", "a\n"),
        (r"[^a-c\s]x", "dZ", "ab \t"),
    ],
)
def test_a_pattern_is_tried_only_where_a_match_can_start(pattern: str, starts: str, never: str) -> None:
    test = scanner.first_characters(pattern)

    assert test is not None
    assert all(test(c) for c in starts)
    assert not any(test(c) for c in never)


@pytest.mark.parametrize("pattern", [r"(?i)draw", r"(?i:draw)", r"\1", r".x"])
def test_a_pattern_that_may_start_anywhere_is_always_tried(pattern: str) -> None:
    assert scanner.first_characters(pattern) is None


TINY = r"""
start: item+
item: WORD | "if" | "if you" | NUMBER | "{T}" | MANA | ", then"
WORD: /[a-z]+/
NUMBER: /\d+/
MANA: /\{[^{}\s]+\}/
%ignore " "
"""


def _tokens(parser: Lark, text: str) -> list[tuple[str, str]] | str:
    try:
        tree: Any = parser.parse(text)
    except UnexpectedInput as error:
        return type(error).__name__
    return [(token.type, str(token)) for token in tree.scan_values(lambda v: isinstance(v, Token))]


@pytest.mark.parametrize(
    "text", ["if you draw", "iffy if", "if you're", "{T}, then 12", "{T}{G} if", "draw ,then", "x {"]
)
def test_literals_inside_patterns_come_out_as_lark_decides(text: str) -> None:
    """ "if" is also a WORD and "{T}" a MANA: Lark takes them from the pattern's token."""
    plain = Lark(TINY, parser="lalr", lexer="contextual")
    fast = scanner.install(Lark(TINY, parser="lalr", lexer="contextual"))

    assert _tokens(fast, text) == _tokens(plain, text)


SENTENCES = [
    ("effects", "draw a card."),
    ("effects", "~ deals 3 damage to any target."),
    ("effects", "target creature you don't control gets -2/-2 until end of turn."),
    ("effects", "put two +1/+1 counters on each creature you control with flying."),
    ("effects", "search your library for a basic land card, put it onto the battlefield, then shuffle."),
    ("effects", "creatures your opponents control enter the battlefield tapped."),
    ("effects", "each opponent loses X life, where X is the number of Elves you control."),
    ("effects", 'enchanted creature has "{T}: add {G}."'),
    ("effects", "frobnicate the whizzbang."),
    ("effects", "draw a card,, then"),
    ("costs", "{2}{U}, {T}, Sacrifice ~"),
    ("costs", "Remove three storage counters from ~"),
    ("condition", "~ enters the battlefield"),
    ("condition", "another creature you control dies"),
    ("condition", "a land enters the battlefield under your control"),
]


@pytest.fixture(scope="module")
def parsers() -> tuple[Lark, Lark]:
    plain = lalr.parser(oracle_grammar(), ToModel())
    return plain, scanner.install(lalr.parser(oracle_grammar(), ToModel()))


def _parse(parser: Lark, text: str, start: str) -> object:
    try:
        return parser.parse(text, start=start)
    except UnexpectedInput as error:
        return type(error).__name__


@pytest.mark.parametrize("start, text", SENTENCES, ids=[text[:30] for _, text in SENTENCES])
def test_the_oracle_grammar_parses_as_with_larks_own_lexer(
    parsers: tuple[Lark, Lark], start: str, text: str
) -> None:
    plain, fast = parsers

    assert _parse(fast, text, start) == _parse(plain, text, start)


def _run(text: str, start: str) -> object:
    try:
        return scanner.parse(_installed(), text, start)
    except UnexpectedInput as error:
        return type(error).__name__


_cache: list[Lark] = []


def _installed() -> Lark:
    if not _cache:
        _cache.append(scanner.install(lalr.parser(oracle_grammar(), ToModel())))
    return _cache[0]


@pytest.mark.parametrize(
    "start, text",
    [*SENTENCES, ("effects", ""), ("effects", "   "), ("costs", "{T} #"), ("condition", "~ dies,")],
    ids=[text[:30] or "empty" for _, text in [*SENTENCES, ("", ""), ("", "blank"), ("", "#"), ("", "dies,")]],
)
def test_the_one_loop_parses_and_fails_as_lark(parsers: tuple[Lark, Lark], start: str, text: str) -> None:
    """carddb.scanner.parse runs the lexer and the LALR loop as one: the same values, the same errors."""
    plain, _fast = parsers

    assert _run(text, start) == _parse(plain, text, start)


@pytest.mark.parametrize(
    "text, condition",
    [
        ("~ enters the battlefield, draw a card.", "~ enters the battlefield"),
        ("a creature or battle you control dies, draw a card.", "a creature or battle you control dies"),
        ("a creature, planeswalker, or land dies, draw a card.", "a creature, planeswalker, or land dies"),
        ("you cast a spell, copy it.", "you cast a spell"),
        ("frobnicate, draw a card.", None),
        ("~ dies", None),
    ],
)
def test_a_prefix_ends_at_the_first_comma_where_the_condition_can(text: str, condition: str | None) -> None:
    """Trigger conditions: the shortest start of the line, up to a comma, that is a whole condition,
    as Lark's interactive parser finds it asked at each comma on a copy of itself."""
    at_comma = lambda token: token.startswith(",")  # noqa: E731
    try:
        found = scanner.parse_prefix(_installed(), text, "condition", at_comma)
    except UnexpectedInput:
        found = None
    expected = None
    if condition is not None:
        expected = (_parse(_installed(), condition, "condition"), len(condition))

    assert found == expected
