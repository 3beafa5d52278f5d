"""The search language, element by element: what each piece of Scryfall syntax parses to, where
each error points, and that no text makes the parser fail with anything but a typed error."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carddb.errors import CarddbError
from carddb.search.ast import (
    KEYWORDS,
    And,
    Choices,
    Field,
    Name,
    Not,
    Number,
    Or,
    Query,
    Regex,
    Span,
    Term,
    Text,
)
from carddb.search.errors import QuerySyntaxError, UnknownKeywordError
from carddb.search.parse import parse_query


def term(
    keyword: str, operator: str, value: Text | Regex | Number | Field | Choices
) -> tuple[str, str, object]:
    return (keyword, operator, value)


def shape(query: Query) -> object:
    """The query without spans, for comparing structure."""
    if isinstance(query, Name):
        return ("!" if query.exact else "") + query.text
    if isinstance(query, Term):
        return term(query.keyword, query.operator, query.value)
    if isinstance(query, Not):
        return ("not", shape(query.item))
    if isinstance(query, And):
        return ("and", *(shape(item) for item in query.items))
    return ("or", *(shape(item) for item in query.items))


def error_of(text: str) -> QuerySyntaxError:
    with pytest.raises(QuerySyntaxError) as caught:
        parse_query(text)
    return caught.value


# -- names ----------------------------------------------------------------------------------------
def test_a_bare_word_is_part_of_a_name() -> None:
    assert parse_query("bolt") == Name("bolt", Span(0, 4))


def test_a_quoted_phrase_is_part_of_a_name_with_its_spaces() -> None:
    assert parse_query('"lightning bolt"') == Name("lightning bolt", Span(0, 16))


def test_a_backslash_escapes_a_quote_inside_a_phrase() -> None:
    assert parse_query(r'"the \"big\" one"') == Name('the "big" one', Span(0, 17))


def test_bang_and_a_quoted_phrase_is_an_exact_name() -> None:
    assert parse_query('!"Lightning Bolt"') == Name("Lightning Bolt", Span(0, 17), exact=True)


def test_bang_and_a_word_is_an_exact_name() -> None:
    assert parse_query("!Shock") == Name("Shock", Span(0, 6), exact=True)


@pytest.mark.parametrize(
    "word",
    ["稲妻", "번개", "Æther", "Séance", "Yawgmoth's", "Jace-", "Lim-Dûl's", "Молния", "~", "1/1", "ajani,"],
)
def test_words_are_any_letters_with_apostrophes_hyphens_and_accents(word: str) -> None:
    assert parse_query(word) == Name(word, Span(0, len(word)))


def test_or_alone_is_a_word() -> None:
    assert parse_query("or") == Name("or", Span(0, 2))


def test_words_that_start_with_or_are_words() -> None:
    assert shape(parse_query("orc ordeal")) == ("and", "orc", "ordeal")


# -- combining ------------------------------------------------------------------------------------
def test_juxtaposition_means_and() -> None:
    assert parse_query("goblin guide") == And(
        (Name("goblin", Span(0, 6)), Name("guide", Span(7, 12))), Span(0, 12)
    )


def test_or_and_upper_case_or_join_alternatives() -> None:
    assert shape(parse_query("bolt or shock OR chop")) == ("or", "bolt", "shock", "chop")


def test_and_binds_tighter_than_or() -> None:
    assert shape(parse_query("a b or c d")) == ("or", ("and", "a", "b"), ("and", "c", "d"))


def test_parentheses_group() -> None:
    assert shape(parse_query("a (b or c)")) == ("and", "a", ("or", "b", "c"))


def test_a_group_of_one_is_its_item() -> None:
    assert parse_query("((bolt))") == Name("bolt", Span(2, 6))


def test_minus_negates_a_word() -> None:
    assert parse_query("-bolt") == Not(Name("bolt", Span(1, 5)), Span(0, 5))


def test_minus_negates_a_term() -> None:
    query = parse_query("-t:land")
    assert query == Not(Term("type", ":", Text("land"), Span(1, 7)), Span(0, 7))


def test_minus_negates_a_group_and_its_span_covers_the_parentheses() -> None:
    query = parse_query("-(a or b)")
    assert isinstance(query, Not)
    assert query.span == Span(0, 9)
    assert shape(query) == ("not", ("or", "a", "b"))


def test_minus_negates_an_exact_name() -> None:
    assert shape(parse_query('-!"Lightning Bolt"')) == ("not", "!Lightning Bolt")


# -- keyword terms ----------------------------------------------------------------------------------
def test_the_issue_example() -> None:
    query = parse_query("t:creature c:r mv<=3 o:haste")
    assert query == And(
        (
            Term("type", ":", Text("creature"), Span(0, 10)),
            Term("color", ":", Text("r"), Span(11, 14)),
            Term("mv", "<=", Number(3), Span(15, 20)),
            Term("oracle", ":", Text("haste"), Span(21, 28)),
        ),
        Span(0, 28),
    )


@pytest.mark.parametrize("operator", [":", "=", "!=", ">=", "<=", ">", "<"])
def test_every_operator(operator: str) -> None:
    assert parse_query(f"c{operator}wu") == Term("color", operator, Text("wu"), Span(0, len(operator) + 3))


@pytest.mark.parametrize(("typed", "canonical"), sorted(KEYWORDS.items()))
def test_every_keyword_spelling_maps_to_its_canonical_keyword(typed: str, canonical: str) -> None:
    query = parse_query(f"{typed}:x")
    if canonical == "not":
        assert isinstance(query, Not) and isinstance(query.item, Term) and query.item.keyword == "is"
    else:
        assert isinstance(query, Term) and query.keyword == canonical


def test_keywords_ignore_case_and_width() -> None:
    assert shape(parse_query("T:creature ｔ:elf")) == (
        "and",
        term("type", ":", Text("creature")),
        term("type", ":", Text("elf")),
    )


def test_a_quoted_value_keeps_its_spaces_and_is_marked_quoted() -> None:
    query = parse_query('o:"draw a card"')
    assert query == Term("oracle", ":", Text("draw a card", quoted=True), Span(0, 15))


def test_tilde_is_a_word_in_oracle_text() -> None:
    assert shape(parse_query('o:~ o:"~ deals"')) == (
        "and",
        term("oracle", ":", Text("~")),
        term("oracle", ":", Text("~ deals", quoted=True)),
    )


def test_a_regular_expression_between_slashes() -> None:
    assert parse_query("o:/draws? (a|two) cards?/") == Term(
        "oracle", ":", Regex("draws? (a|two) cards?"), Span(0, 25)
    )


def test_a_slash_inside_a_regular_expression_is_escaped() -> None:
    assert shape(parse_query(r"o:/\+1\/\+1/")) == term("oracle", ":", Regex(r"\+1/\+1"))


def test_numbers_for_numeric_keywords() -> None:
    assert shape(parse_query("mv>=2 pow<1.5 tou=0 loy>3 year<=2003 cmc>-1")) == (
        "and",
        term("mv", ">=", Number(2)),
        term("power", "<", Number(1.5)),
        term("toughness", "=", Number(0)),
        term("loyalty", ">", Number(3)),
        term("year", "<=", Number(2003)),
        term("mv", ">", Number(-1)),
    )


def test_non_numbers_for_numeric_keywords_stay_text() -> None:
    assert shape(parse_query("mv:even pow=* cn:12a")) == (
        "and",
        term("mv", ":", Text("even")),
        term("power", "=", Text("*")),
        term("cn", ":", Text("12a")),
    )


def test_a_numeric_keyword_compared_with_another_is_a_field() -> None:
    assert shape(parse_query("pow>tou toughness<power mv=loy")) == (
        "and",
        term("power", ">", Field("toughness")),
        term("toughness", "<", Field("power")),
        term("mv", "=", Field("loyalty")),
    )


def test_a_comma_list_is_choices() -> None:
    query = parse_query("r:rare,mythic")
    assert query == Term("rarity", ":", Choices((Text("rare"), Text("mythic"))), Span(0, 13))


def test_a_comma_list_may_hold_quoted_phrases() -> None:
    assert shape(parse_query('t:elf,"time lord"')) == term(
        "type", ":", Choices((Text("elf"), Text("time lord", quoted=True)))
    )


def test_not_is_a_negated_is() -> None:
    assert parse_query("not:split") == Not(Term("is", ":", Text("split"), Span(0, 9)), Span(0, 9))


def test_values_may_hold_symbols_colons_and_slashes() -> None:
    assert shape(parse_query("o:{T}: m:{2}{U} o:+1/+1 o:-1/-1 date>=2020-01-01")) == (
        "and",
        term("oracle", ":", Text("{T}:")),
        term("mana", ":", Text("{2}{U}")),
        term("oracle", ":", Text("+1/+1")),
        term("oracle", ":", Text("-1/-1")),
        term("date", ">=", Text("2020-01-01")),
    )


def test_localized_values() -> None:
    assert shape(parse_query("lang:ja t:クリーチャー o:稲妻 c:rot")) == (
        "and",
        term("lang", ":", Text("ja")),
        term("type", ":", Text("クリーチャー")),
        term("oracle", ":", Text("稲妻")),
        term("color", ":", Text("rot")),
    )


def test_a_value_may_follow_the_operator_after_a_space() -> None:
    assert shape(parse_query("t: creature")) == term("type", ":", Text("creature"))


def test_or_is_a_plain_value_after_a_keyword() -> None:
    assert shape(parse_query("o:or")) == term("oracle", ":", Text("or"))


def test_spans_point_at_their_text() -> None:
    text = 'bolt -t:land (c:r or !"Shock") o:/x/'
    stack: list[Query] = [parse_query(text)]
    seen = []
    while stack:
        node = stack.pop()
        seen.append(text[node.span.start : node.span.end])
        if isinstance(node, Not):
            stack.append(node.item)
        elif isinstance(node, And | Or):
            stack.extend(node.items)
    assert sorted(seen) == sorted(
        [text, "bolt", "-t:land", "t:land", 'c:r or !"Shock"', "c:r", '!"Shock"', "o:/x/"]
    )


# -- errors ---------------------------------------------------------------------------------------
def test_an_unexpected_parenthesis_is_pointed_at() -> None:
    error = error_of("t:creature c:r)")
    assert str(error) == "unexpected ')' at 14"
    assert error.position == 14
    assert error.query == "t:creature c:r)"
    assert error.caret == "t:creature c:r)\n              ^"


def test_the_caret_allows_for_wide_characters() -> None:
    error = error_of("稲妻 )")
    assert error.position == 3
    assert error.caret == "稲妻 )\n     ^"


@pytest.mark.parametrize("text", ["", "   ", "\n\t"])
def test_an_empty_query_is_an_error(text: str) -> None:
    assert str(error_of(text)) == "empty query at 0"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("(a b", "unexpected end of query at 4; expected ')'"),
        ("t:", "unexpected end of query at 2; expected a value"),
        ("t:)", "unexpected ')' at 2; expected a value"),
        ("a or", "unexpected end of query at 4; expected a search term"),
        ("bolt -", "unexpected end of query at 6; expected a search term"),
        ("r:rare,", "unexpected end of query at 7; expected a value"),
        ("()", "unexpected ')' at 1"),
        ("mv=<3", "unexpected '<' at 3"),
        (", bolt", "unexpected ',' at 0"),
        ('a "lightning', "unterminated quoted phrase at 2"),
        ("o:/draw", "unterminated regular expression at 2"),
        ("o://", "empty regular expression at 2"),
        ('""', "empty quoted phrase at 0"),
        ("o:/a(b/", "invalid regular expression (missing ), unterminated subpattern) at 4"),
        ("mv>99999999999999999999", "number out of range at 3"),
    ],
)
def test_errors_say_what_and_where(text: str, message: str) -> None:
    assert str(error_of(text)) == message


def test_an_unknown_keyword_suggests_known_ones() -> None:
    error = error_of("t:elf colr:red")
    assert isinstance(error, UnknownKeywordError)
    assert (error.keyword, error.position, error.suggestions) == ("colr", 6, ("color",))
    assert str(error) == "unknown keyword 'colr' at 6; did you mean: color?"


def test_an_unknown_keyword_far_from_any_has_no_suggestions() -> None:
    error = error_of("稲妻:x")
    assert isinstance(error, UnknownKeywordError)
    assert error.suggestions == ()
    assert str(error) == "unknown keyword '稲妻' at 0"


def test_nesting_is_bounded() -> None:
    assert shape(parse_query("(" * 500 + "a" + ")" * 500)) == "a"
    assert str(error_of("-" * 150 + "a")) == "query nested deeper than 100 at 100"


def test_errors_are_carddb_errors_and_survive_pickling() -> None:
    for text in ("a)", "colr:red"):
        error = error_of(text)
        assert isinstance(error, CarddbError)
        copy = pickle.loads(pickle.dumps(error))
        assert (type(copy), str(copy), copy.position) == (type(error), str(error), error.position)


# -- any text -------------------------------------------------------------------------------------
SYNTAX = st.sampled_from([*'()"!-/\\,:=<>~ ', "or", "OR", "t:", "mv>=", "not:", "r:", "o:/", "稲妻"])


def _check(text: str) -> None:
    try:
        query = parse_query(text)
    except QuerySyntaxError as error:
        assert 0 <= error.position <= len(text)
        assert error.caret.count("\n") == 1
        return
    assert isinstance(query, Name | Term | Not | And | Or)
    assert 0 <= query.span.start < query.span.end <= len(text)


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_gives_a_query_or_a_syntax_error(text: str) -> None:
    _check(text)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.one_of(SYNTAX, st.text(max_size=4)), max_size=30).map("".join))
def test_text_dense_with_syntax_gives_a_query_or_a_syntax_error(text: str) -> None:
    _check(text)
