"""Golden search queries: each query with the English names of the cards it must find, written from
Scryfall's documented semantics, on SQLite and (with ``CARDDB_TEST_PG_URL``) PostgreSQL.

The data is ``tests/fixtures/search/``: 38 real cards of AKH, M21, KHM and MID cut from the shared
corpus by ``make_fixture.py`` there (every layout the corpus has, reprints across the four sets,
vanilla creatures, planeswalkers, gold cards, ``*`` power, translations in ten languages).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import BACKENDS, fresh_database_url
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

import carddb
from carddb.cli import cli, main
from carddb.db.models import Face
from carddb.db.translations import shown_translation, translations_to_show
from carddb.errors import CarddbError
from carddb.search.ast import And, Choices, Name, Not, Or, Span, Term, Text
from carddb.search.compile import _lookups, compile_query, text_languages
from carddb.search.conditions import Context
from carddb.search.errors import QuerySyntaxError
from carddb.search.fulltext import required_prefix, trigrams
from carddb.search.parse import parse_query
from carddb.search.results import SearchValueError
from carddb.search.run import _SHAPES

FIXTURE = Path(__file__).parent / "fixtures" / "search"

ARLINN = "Arlinn, the Pack's Hope // Arlinn, the Moon's Fury"
CATHAR = "Brutal Cathar // Moonrage Brute"
COSIMA = "Cosima, God of the Voyage // The Omenkeel"
DELVER = "Delver of Secrets // Insectile Aberration"
TOVOLAR = "Tovolar's Huntmaster // Tovolar's Packleader"
VALKI = "Valki, God of Lies // Tibalt, Cosmic Impostor"
CUT = "Cut // Ribbons"
NEVER = "Never // Return"
UGIN = "Ugin, the Spirit Dragon"
RIN = "Rin and Seri, Inseparable"
HAPATRA = "Hapatra, Vizier of Poisons"
TEMMET = "Temmet, Vizier of Naktamun"
TOSKI = "Toski, Bearer of Secrets"

ALL_CARDS = {
    *("Anointed Procession", "Cancel", CUT, "Dune Beetle", "Evolving Wilds", "Gideon of the Trials"),
    *("Glorybringer", HAPATRA, NEVER, "Oketra the True", TEMMET),
    *("Baneslayer Angel", "Chromatic Orrery", "Duress", "Heartfire Immolator", "Kinetic Augur"),
    *("Return to Nature", "Revitalize", RIN, "Scavenging Ooze", UGIN, "Village Rites", "Walking Corpse"),
    *("Binding the Old Gods", COSIMA, "Demon Bolt", "Goldspan Dragon", "Grizzled Outrider"),
    *("Kaya the Inexorable", TOSKI, VALKI),
    *(ARLINN, "Bladestitched Skaab", CATHAR, "Consider", DELVER, "Play with Fire", TOVOLAR),
}

# (query, English names of the cards it finds)
GOLDEN: list[tuple[str, set[str]]] = [
    # names: any language, accent/case/width folded, substrings; !"…" exact (a face name counts)
    ("dragon", {"Goldspan Dragon", UGIN}),
    ("dragon or angel", {"Goldspan Dragon", UGIN, "Baneslayer Angel"}),
    ('"spirit dragon"', {UGIN}),
    ("name:dragon", {"Goldspan Dragon", UGIN}),
    ('!"Delver of Secrets"', {DELVER}),
    ('!"Insectile Aberration"', {DELVER}),
    ("!Delver", set()),
    ("!Abbrechen", {"Cancel"}),  # the German name of Cancel
    ("Blitz", {"Demon Bolt"}),  # Dämonischer Blitz
    ("damonischer", {"Demon Bolt"}),  # accent folded
    ("DÄMONISCHER", {"Demon Bolt"}),
    ("稲妻", {"Demon Bolt"}),  # two Japanese characters: 悪魔の稲妻
    ("火遊", {"Play with Fire"}),  # 火遊び
    ("-dragon t:dragon", {"Glorybringer"}),
    # regular expressions: English names, oracle text, type lines
    ("name:/^d/", {DELVER, "Demon Bolt", "Dune Beetle", "Duress"}),
    (
        "name:/ the /",
        {ARLINN, "Binding the Old Gods", COSIMA, "Gideon of the Trials"}
        | {"Kaya the Inexorable", "Oketra the True", UGIN},
    ),
    (r"o:/deals \d damage/", {CUT, "Demon Bolt", "Glorybringer", "Play with Fire", UGIN}),
    ("t:/^legendary planeswalker/", {ARLINN, "Gideon of the Trials", "Kaya the Inexorable", UGIN, VALKI}),
    # oracle text, ~ for the card's own name
    ('o:"draw a card"', {"Chromatic Orrery", "Consider", "Revitalize", TOSKI}),
    ('o:"~ deals"', {CUT, "Demon Bolt", HAPATRA, "Play with Fire", RIN, UGIN}),
    ("oracle:Treasure", {"Goldspan Dragon"}),
    ("o:Neutralisiere", set()),  # German text is searched only with lang:
    ("t:creature c:r mv<=3 o:haste", set()),
    # type lines
    ("t:dragon", {"Glorybringer", "Goldspan Dragon"}),
    ("t:legendary t:creature", {COSIMA, HAPATRA, "Oketra the True", RIN, TEMMET, TOSKI, VALKI}),
    ("type:planeswalker", {ARLINN, "Gideon of the Trials", "Kaya the Inexorable", UGIN, VALKI}),
    ("(t:instant or t:sorcery) c:b", {CUT, "Duress", NEVER, "Village Rites"}),
    ("t:instant -c:u -c:r", {"Return to Nature", "Revitalize", "Village Rites"}),
    # colours (c: is "at least"), identity (id: is "within"), colour counts, names of colour groups
    ("t:creature c:r mv<=3", {CATHAR, "Heartfire Immolator", VALKI}),
    ("c:rg", {ARLINN, RIN}),
    ("c=rg", {ARLINN}),
    ("c:naya", {RIN}),
    ("c>=wb", {"Kaya the Inexorable"}),
    ("c:c", {"Chromatic Orrery", "Evolving Wilds", UGIN}),
    ("c<w", {"Chromatic Orrery", "Evolving Wilds", UGIN}),
    # a card's colours are all its faces' (Scryfall): Brutal Cathar (W // R) and Cut // Ribbons
    # (R // B) are multicoloured
    (
        "c:m",
        {ARLINN, "Binding the Old Gods", "Bladestitched Skaab", HAPATRA, "Kaya the Inexorable"}
        | {RIN, TEMMET, VALKI, CATHAR, CUT},
    ),
    (
        "c=2",
        {ARLINN, "Binding the Old Gods", "Bladestitched Skaab", HAPATRA, "Kaya the Inexorable"}
        | {TEMMET, VALKI, CATHAR, CUT},
    ),
    ("c:rw", {CATHAR, RIN}),
    ("c:rb t:sorcery", {CUT}),
    ("id=golgari", {"Binding the Old Gods", HAPATRA}),
    (
        "id:boros",
        {"Anointed Procession", "Baneslayer Angel", CATHAR, "Chromatic Orrery", "Demon Bolt"}
        | {"Evolving Wilds", "Gideon of the Trials", "Glorybringer", "Goldspan Dragon", "Heartfire Immolator"}
        | {"Kinetic Augur", "Oketra the True", "Play with Fire", "Revitalize", UGIN},
    ),
    (
        "identity<=esper t:creature",
        {"Baneslayer Angel", "Bladestitched Skaab", COSIMA, DELVER}
        | {"Dune Beetle", "Oketra the True", TEMMET, "Walking Corpse"},
    ),
    ("color:white t:enchantment", {"Anointed Procession"}),
    # mana costs
    ("m:rr", {"Glorybringer", "Goldspan Dragon"}),
    ("m:{R}{R}", {"Glorybringer", "Goldspan Dragon"}),
    ("m={W}{U}", {TEMMET}),
    ("mana:{x}", {CUT}),
    # mana value (split cards add their halves; a transform card is its front face)
    (
        "mv=5",
        {"Baneslayer Angel", "Glorybringer", "Goldspan Dragon", "Grizzled Outrider", "Kaya the Inexorable"},
    ),
    ("mv>=7", {"Chromatic Orrery", NEVER, UGIN}),
    ("cmc=4 is:split", {CUT}),
    ("mv=0", {"Evolving Wilds"}),
    ("mv:odd t:instant", {"Cancel", "Consider", "Demon Bolt", "Play with Fire", "Village Rites"}),
    ("mv:even t:instant", {"Return to Nature", "Revitalize"}),
    # power, toughness, loyalty: numbers or each other
    ("pow>tou", {DELVER, VALKI}),
    ("pow>=5", {"Baneslayer Angel", "Grizzled Outrider", TOVOLAR}),
    ("tou>=6", {"Oketra the True", TOVOLAR}),
    ("pow<2", {DELVER, "Dune Beetle", TOSKI}),
    ("tou>pow t:creature mv<=2", {"Dune Beetle", "Bladestitched Skaab"}),
    ("loy>=5", {"Kaya the Inexorable", UGIN, VALKI}),
    ("loyalty=4", {ARLINN}),
    # rarity, with its order
    (
        "r:mythic",
        {ARLINN, "Baneslayer Angel", "Chromatic Orrery", "Gideon of the Trials", "Goldspan Dragon"}
        | {"Kaya the Inexorable", "Oketra the True", RIN, UGIN, VALKI},
    ),
    (
        "r:u",
        {"Binding the Old Gods", "Bladestitched Skaab", DELVER, "Heartfire Immolator", "Kinetic Augur"}
        | {"Play with Fire"},
    ),
    ("r>=rare t:sorcery", {CUT, NEVER}),
    ("r<uncommon t:creature", {"Dune Beetle", "Grizzled Outrider", "Walking Corpse"}),
    (
        "r:rare,mythic t:creature",
        {"Baneslayer Angel", CATHAR, COSIMA, "Glorybringer", "Goldspan Dragon"}
        | {HAPATRA, "Oketra the True", RIN, "Scavenging Ooze", TEMMET, TOSKI, TOVOLAR, VALKI},
    ),
    # sets and collector numbers
    ("s:akh t:creature", {"Dune Beetle", "Glorybringer", HAPATRA, "Oketra the True", TEMMET}),
    ("e:khm is:mdfc", {COSIMA, VALKI}),
    (
        "set:mid -t:creature",
        {ARLINN, "Consider", "Duress", "Evolving Wilds", "Play with Fire", "Return to Nature"},
    ),
    # printing terms are matched on one printing: no printing is in two sets
    ("s:m21 s:khm", set()),
    (
        "s:m21 or s:khm",
        {"Baneslayer Angel", "Cancel", "Chromatic Orrery", "Duress", "Heartfire Immolator"}
        | {"Kinetic Augur", "Return to Nature", "Revitalize", RIN, "Scavenging Ooze", UGIN, "Village Rites"}
        | {"Walking Corpse", "Binding the Old Gods", COSIMA, "Demon Bolt", "Goldspan Dragon"}
        | {"Grizzled Outrider", "Kaya the Inexorable", TOSKI, VALKI},
    ),
    ("s:akh,khm t:instant", {"Cancel", "Demon Bolt", "Revitalize", "Village Rites"}),
    ("cn:47", {DELVER}),
    ("cn>=250", {"Evolving Wilds", RIN}),
    # keywords
    ("kw:flying", {"Baneslayer Angel", DELVER, "Glorybringer", "Goldspan Dragon"}),
    ("keyword:daybound", {ARLINN, CATHAR, TOVOLAR}),
    ("kw:foretell", {"Demon Bolt"}),
    # is: / not:
    ("is:split", {CUT, NEVER}),
    ("is:transform", {ARLINN, CATHAR, DELVER, TOVOLAR}),
    ("is:mdfc", {COSIMA, VALKI}),
    ("is:dfc", {ARLINN, CATHAR, COSIMA, DELVER, TOVOLAR, VALKI}),
    ("is:flip or is:meld or is:adventure", set()),
    ("is:vanilla", {"Dune Beetle", "Grizzled Outrider", "Walking Corpse"}),
    (
        "is:spell t:legendary",
        {ARLINN, "Chromatic Orrery", COSIMA, "Gideon of the Trials", HAPATRA}
        | {"Kaya the Inexorable", "Oketra the True", RIN, TEMMET, TOSKI, UGIN, VALKI},
    ),
    ("-is:spell", {"Evolving Wilds"}),
    (
        "-is:permanent",
        {"Cancel", "Consider", CUT, "Demon Bolt", "Duress", NEVER, "Play with Fire"}
        | {"Return to Nature", "Revitalize", "Village Rites"},
    ),
    ("is:permanent t:enchantment", {"Anointed Procession", "Binding the Old Gods"}),
    # is:reprint: a printing printed before (MTGJSON's isReprint), matched with the other
    # printing terms on one printing
    (
        "is:reprint",
        {"Baneslayer Angel", "Cancel", DELVER, "Duress", "Evolving Wilds", "Return to Nature"}
        | {"Revitalize", "Scavenging Ooze", UGIN, "Village Rites", "Walking Corpse"},
    ),
    # Village Rites was new in M21 (and reprinted in KHM)
    ("not:reprint t:instant", {"Consider", "Demon Bolt", "Play with Fire", "Village Rites"}),
    ("s:m21 -is:reprint t:instant", {"Village Rites"}),
    ("s:khm is:reprint", {"Revitalize", "Village Rites"}),
    # release year and date (of any printing's set)
    ("year=2017 t:legendary", {"Gideon of the Trials", HAPATRA, "Oketra the True", TEMMET}),
    (
        "year>=2021 is:reprint",
        {DELVER, "Duress", "Evolving Wilds", "Return to Nature", "Revitalize", "Village Rites"},
    ),
    ("year<2020 t:land", {"Evolving Wilds"}),
    ("date>=2021-06-01 t:instant", {"Consider", "Play with Fire", "Return to Nature"}),
    ("date<m21 t:instant", {"Cancel"}),
    # languages: lang: searches the translated name, type line and text; in: is "printed in"
    ("lang:de o:fliegend", {"Baneslayer Angel", "Glorybringer", "Goldspan Dragon"}),
    ('lang:de o:"ziehe eine karte"', {"Consider", "Revitalize", TOSKI}),
    ("lang:de t:Kreatur t:Drache", {"Glorybringer", "Goldspan Dragon"}),
    ("lang:ja t:ドラゴン", {"Glorybringer", "Goldspan Dragon"}),
    ("lang:ja o:占術", {"Play with Fire"}),  # scry, two characters
    ("lang:any o:Neutralisiere", {"Cancel"}),
    ("lang:fr o:vol t:dragon", {"Glorybringer", "Goldspan Dragon"}),
    # localized type and colour words, derived from the translations, need no lang:
    ("t:Kreatur t:Drache", {"Glorybringer", "Goldspan Dragon"}),
    ("t:クリーチャー t:ドラゴン", {"Glorybringer", "Goldspan Dragon"}),
    ("t:Spontanzauber c:blau", {"Cancel", "Consider"}),
    ("t:legendare t:planeswalker", {ARLINN, "Gideon of the Trials", "Kaya the Inexorable", UGIN, VALKI}),
    ("c:rot t:dragon", {"Glorybringer", "Goldspan Dragon"}),
    (
        "t:生物 c:绿",
        {"Grizzled Outrider", HAPATRA, RIN, "Scavenging Ooze", TOSKI, TOVOLAR},
    ),
    ("in:ja t:artifact", {"Chromatic Orrery"}),
    ("-in:ja", {ARLINN, CATHAR, COSIMA, DELVER, RIN, TOVOLAR, VALKI}),
    (
        "lang:ja s:mid",
        {"Bladestitched Skaab", "Consider", "Duress", "Evolving Wilds", "Play with Fire"}
        | {"Return to Nature"},
    ),
    # every text field folds case, width, accents and typographic punctuation, in every language
    ("lang:fr o:CREATURE t:dragon", {"Glorybringer"}),  # "créature", accent folded in rules text
    ('lang:ja o:"4点のダメージ"', {CUT, "Demon Bolt", "Glorybringer"}),  # printed with full-width ４
    ('lang:ja o:"-1/-1"', {HAPATRA}),  # printed －１/－１
    ("lang:ko o:비행", {"Baneslayer Angel", "Glorybringer", "Goldspan Dragon", "Kaya the Inexorable"}),
    ("lang:ru o:полёт", {"Baneslayer Angel", "Glorybringer", "Goldspan Dragon", "Kaya the Inexorable"}),
    (
        'o:"[-3]"',
        {ARLINN, "Kaya the Inexorable", VALKI},
    ),  # the loyalty cost is printed with a minus sign, U+2212
    ('o:"~ deals 4"', {CUT, "Demon Bolt"}),
    ('lang:ja o:"~はそれに"', {CUT, "Demon Bolt", "Play with Fire", UGIN}),  # ~ is the Japanese name too
    # rulings
    ("rul:foretell", {"Demon Bolt"}),
    ('rul:"doesn’t count as a creature"', {"Gideon of the Trials"}),  # typographic apostrophe
    ("has:ruling t:instant", {"Demon Bolt", "Village Rites"}),
    (
        "-has:ruling t:creature",
        {"Bladestitched Skaab", "Dune Beetle", "Grizzled Outrider", RIN, "Walking Corpse"},
    ),
    ("ruling:/targets? .+ more than once/", {"Goldspan Dragon"}),
]


@pytest.fixture(scope="module", params=BACKENDS)
def search_db(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[carddb.Database]:
    """The search fixture imported once per backend for the whole module."""
    with fresh_database_url(request.param, tmp_path_factory.mktemp("search")) as url:
        database = carddb.open(url)
        database.import_path(FIXTURE)
        yield database
        database.close()


def test_fixture_is_small_and_whole() -> None:
    files = sorted(FIXTURE.glob("*.json.xz"))
    assert [f.name for f in files] == ["AKH.json.xz", "KHM.json.xz", "M21.json.xz", "MID.json.xz"]
    assert sum(f.stat().st_size for f in files) < 300_000


def test_there_are_enough_golden_queries() -> None:
    assert len(GOLDEN) >= 60
    assert len({query for query, _ in GOLDEN}) == len(GOLDEN)
    for _query, names in GOLDEN:
        assert names <= ALL_CARDS


def test_all_cards(search_db: carddb.Database) -> None:
    result = search_db.search("mv>=0", limit=100)
    assert set(result.names) == ALL_CARDS
    assert result.total == len(ALL_CARDS) == 38


@pytest.mark.parametrize(("query", "expected"), GOLDEN, ids=[query for query, _ in GOLDEN])
def test_golden(search_db: carddb.Database, query: str, expected: set[str]) -> None:
    result = search_db.search(query, limit=100)

    assert sorted(result.names) == sorted(expected)
    assert result.total == len(expected)


# -- one row per card, totals, pages, orders, languages ----------------------------------------------
def test_one_row_per_card_not_per_printing(search_db: carddb.Database) -> None:
    result = search_db.search("Cancel")  # printed in AKH and M21, translated in ten languages
    assert result.names == ["Cancel"]
    assert result.total == 1


def test_pages_and_total(search_db: carddb.Database) -> None:
    everything = search_db.search("t:creature", limit=100).names
    pages = [search_db.search("t:creature", limit=7, page=page) for page in (1, 2, 3)]
    assert [p.total for p in pages] == [len(everything)] * 3 == [20] * 3
    assert [name for p in pages for name in p.names] == everything
    assert search_db.search("t:creature", limit=7, page=9).cards == ()
    assert everything == sorted(everything, key=str.lower)


def test_order_by_mana_value(search_db: carddb.Database) -> None:
    result = search_db.search("t:instant", order="mv")
    values = [hit.mana_value for hit in result.cards]
    assert values == sorted(values)
    assert result.names[:3] == ["Consider", "Play with Fire", "Village Rites"]


def test_order_by_release_newest_first(search_db: carddb.Database) -> None:
    result = search_db.search("t:legendary t:creature", order="released")
    assert result.names == [COSIMA, TOSKI, VALKI, RIN, HAPATRA, "Oketra the True", TEMMET]


def test_order_by_set(search_db: carddb.Database) -> None:
    result = search_db.search("t:dragon or is:vanilla", order="set")
    assert result.names == [
        "Dune Beetle",
        "Glorybringer",
        "Goldspan Dragon",
        "Grizzled Outrider",
        "Walking Corpse",
    ]


def test_results_in_the_requested_language(search_db: carddb.Database) -> None:
    result = search_db.search("稲妻", lang="ja")
    (hit,) = result.cards
    assert (hit.name, hit.english_name, hit.language, hit.type_line) == (
        "悪魔の稲妻",
        "Demon Bolt",
        "ja",
        "インスタント",
    )
    assert hit.mana_cost == "{2}{R}"
    german = search_db.search("t:dragon", lang="Deutsch")
    assert german.language == "de"
    assert german.names == ["Goldspan Dragon", "Glorybringer"]  # sorted by German name
    assert [hit.name for hit in german.cards] == ["Drache der Goldbrücke", "Ruhmbringer"]


def test_untranslated_card_falls_back_to_english(search_db: carddb.Database) -> None:
    (hit,) = search_db.search("t:werewolf mv=3", lang="ja").cards
    assert (hit.name, hit.language) == (CATHAR, "en")


def test_requested_language_also_searches_its_text(search_db: carddb.Database) -> None:
    assert search_db.search("o:fliegend").names == []
    german = search_db.search("o:fliegend", lang="de")
    assert german.names == ["Baneslayer Angel", "Goldspan Dragon", "Glorybringer"]  # German order
    assert [hit.name for hit in german.cards] == ["Bannender Engel", "Drache der Goldbrücke", "Ruhmbringer"]


def test_split_card_faces_in_results(search_db: carddb.Database) -> None:
    (hit,) = search_db.search("!Cut").cards
    assert (hit.name, hit.mana_cost, hit.mana_value, hit.type_line) == (
        CUT,
        "{1}{R} // {X}{B}{B}",
        4.0,
        "Sorcery // Sorcery",
    )
    (german,) = search_db.search("!Cut", lang="de").cards
    assert german.name == "Schneiden // Stücke"


def test_hits_show_the_translation_a_card_view_shows(search_db: carddb.Database) -> None:
    """A page of hits chooses each face's translation in SQL (``shown_translation``), a card view in
    Python (``_localizations``, with no name typed): the same translation, in every language."""
    with search_db.session() as session:
        face_ids = list(session.scalars(select(Face.id)))
        for language in ("de", "es", "fr", "it", "ja", "ko", "pt-BR", "ru", "zh-Hans", "zh-Hant"):
            chosen = translations_to_show(session, face_ids, {language}, "").get(language, {})
            in_sql = session.execute(select(Face.id, shown_translation(Face.id, language))).all()
            assert {face: loc.id for face, loc in chosen.items()} == {
                face: loc for face, loc in in_sql if loc is not None
            }, language


def test_ast_queries(search_db: carddb.Database) -> None:
    span = Span(0, 0)
    query = And(
        (
            Term("type", ":", Text("creature"), span),
            Not(Term("color", ":", Choices((Text("w"), Text("u"), Text("b"))), span), span),
            Or((Term("mv", "=", Text("2"), span), Name("dragon", span)), span),
        ),
        span,
    )
    assert set(search_db.search(query).names) == {"Goldspan Dragon", "Heartfire Immolator", "Scavenging Ooze"}


def test_compiled_select_binds_user_values() -> None:
    evil = "x'); DROP TABLE cards; --"
    span = Span(0, len(evil))
    for query in (
        Name(evil, span),
        Term("oracle", ":", Text(evil), span),
        Term("type", ":", Text(evil), span),
    ):
        sql = str(compile_query(query))
        assert "DROP" not in sql


# -- the shipped sample: adventure, Japanese voicing marks, reading hints ------------------------------
def test_sample_adventure_and_japanese(sample_db: carddb.Database) -> None:
    assert sample_db.search("is:adventure").names == ["Realm-Cloaked Giant // Cast Off"]
    assert sample_db.search("カラス").names == ["Murder of Crows"]  # not ガラス (Glass Casket)
    assert sample_db.search("ガラス").names == ["Glass Casket"]
    assert sample_db.search("脱ぎ捨て").names == ["Realm-Cloaked Giant // Cast Off"]  # reading hints folded
    assert sample_db.search("t:basic", limit=10).total == 5
    assert "Knight of the Keep" in sample_db.search("is:vanilla").names


# -- errors ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("query", "value"),
    [
        ("c:purple", "purple"),
        ("id:rainbow", "rainbow"),
        ("r:legendary", "legendary"),
        ("is:foo", "foo"),
        ("not:shiny", "shiny"),
        ("has:flavor", "flavor"),
        ("lang:klingon", "klingon"),
        ("in:xx", "xx"),
        ("name:/(/", "regular expression"),
        ("o:/a{2,1}/", "regular expression"),
        ("m:{2}q", "{2}q"),
        ("year=abc", "abc"),
        ("mv:foo", "foo"),
        ("date>=yesterday!", "yesterday!"),
        ("m<{R}", "<"),
        ("mv>pow", "power"),
    ],
)
def test_unknown_values_are_typed_errors(search_db: carddb.Database, query: str, value: str) -> None:
    with pytest.raises(QuerySyntaxError) as caught:
        search_db.search(query)
    error = caught.value
    assert isinstance(error, SearchValueError | QuerySyntaxError)
    assert value in str(error)
    assert "\n" not in str(error)
    if isinstance(error, SearchValueError):
        assert error.query == query


def test_bad_arguments(search_db: carddb.Database) -> None:
    with pytest.raises(SearchValueError, match="unknown order"):
        search_db.search("t:dragon", order="price")
    with pytest.raises(SearchValueError, match="page"):
        search_db.search("t:dragon", page=0)
    with pytest.raises(CarddbError, match="unknown language"):
        search_db.search("t:dragon", lang="klingon")


def test_invalid_postgres_regex_is_a_typed_error(search_db: carddb.Database) -> None:
    # Valid for Python's re, rejected by PostgreSQL: a typed error there, a result on SQLite.
    try:
        result = search_db.search("name:/(?P<x>a)/")
    except QuerySyntaxError as error:
        assert "database" in str(error)
    else:
        assert result.total > 0
    assert search_db.search("t:dragon").total == 2  # the session is usable afterwards


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.text(
        alphabet=st.sampled_from(list('tcoimrs:=<>!-"/(),~ 0123456789wubrgx稲妻é{}.*?+|^$\\')), max_size=24
    )
)
def test_any_text_gives_a_result_or_a_typed_error(search_db: carddb.Database, query: str) -> None:
    try:
        result = search_db.search(query)
    except CarddbError:
        return
    assert result.total >= len(result.cards)


# -- the command line ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def sqlite_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('search-cli') / 'cli.sqlite'}"
    with carddb.open(url) as database:
        database.import_path(FIXTURE)
    return url


def test_cli_table(sqlite_url: str) -> None:
    result = CliRunner().invoke(cli, ["--db", sqlite_url, "search", "t:dragon", "--lang", "ja"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[-1] == "2 cards"
    assert lines[0].split()[:3] == ["栄光をもたらすもの", "{3}{R}{R}", "クリーチャー"]
    assert "黄金架のドラゴン" in lines[1]


def test_cli_pages(sqlite_url: str) -> None:
    result = CliRunner().invoke(
        cli, ["--db", sqlite_url, "search", "t:creature", "--limit", "5", "--page", "2", "--order", "mv"]
    )
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "20 cards (showing 6-10)"


def test_cli_json(sqlite_url: str) -> None:
    result = CliRunner().invoke(cli, ["--db", sqlite_url, "search", "Blitz", "--json", "--lang", "de"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["object"], data["total_cards"], data["has_more"]) == ("list", 1, False)
    card = data["data"][0]
    assert (card["object"], card["name"], card["lang"]) == ("card", "Demon Bolt", "de")
    assert card["printed_name"] == "Dämonischer Blitz"


def test_cli_error_names_the_value_and_points_at_it(
    sqlite_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """One line saying what is wrong and where, then the query with a caret under the value."""
    status = main(["--db", sqlite_url, "search", "c:purple"])
    err = capsys.readouterr().err
    assert status == 1
    assert err.splitlines() == [err.splitlines()[0], "c:purple", "  ^"]
    assert err.startswith("carddb: unknown color 'purple' at 2")


def test_text_matching_folds_non_ascii_capitals(search_db: carddb.Database) -> None:
    """Type lines and rules text are compared lowercased in every script: "Éphémère" and "éphémère",
    "Существо" and "существо" (SQLite's own lower() folds ASCII only)."""
    accented = search_db.search("lang:fr t:éphémère").total
    assert accented > 0
    assert search_db.search("lang:fr t:Éphémère").total == accented
    assert search_db.search("lang:ru t:существо").total == search_db.search("lang:ru t:Существо").total > 0


def test_a_negated_comma_list_excludes_every_value(search_db: carddb.Database) -> None:
    """ "r!=rare,mythic" means neither rare nor mythic."""
    names = {hit.english_name for hit in search_db.search("r!=rare,mythic t:dragon", limit=100).cards}
    rares = {hit.english_name for hit in search_db.search("r:rare,mythic t:dragon", limit=100).cards}
    assert rares and not names & rares


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("o:flying", "o:haste"),  # one full-text query for both
        ("dragon", "angel"),
        ("rul:foretell", "rul:dice"),
        ("o:x", "o:flying"),  # too short for the trigram index: each on its own
        ("稲妻", "dragon"),  # a CJK pair: the bigram index
        ('o:"draw a card"', "name:bolt"),  # different fields
    ],
)
def test_words_of_one_field_or_each_other_find_what_each_finds(
    search_db: carddb.Database, left: str, right: str
) -> None:
    def names(query: str) -> set[str]:
        return set(search_db.search(query, limit=100).names)

    assert names(f"{left} or {right}") == names(left) | names(right) != set()


@pytest.mark.parametrize(
    "queries",
    [
        ("o:haste", "o:flying", "o:trample"),
        ("t:creature c:r mv<=3", "t:creature c:g mv<=5", "t:creature c:u mv<=1"),
        ('!"Demon Bolt"', '!"Cancel"', "!Consider"),
        ("lang:de o:fliegend", "lang:de o:verursacht"),
    ],
)
def test_queries_of_one_shape_share_a_statement_and_keep_their_values(
    search_db: carddb.Database, queries: tuple[str, ...]
) -> None:
    """A page statement is built once per shape; each query binds its own values to it."""
    alone = {}
    for query in queries:
        _SHAPES.clear()
        alone[query] = search_db.search(query, lang="de", limit=5, page=1)
    _SHAPES.clear()
    for query in (*queries, *reversed(queries)):
        assert search_db.search(query, lang="de", limit=5, page=1) == alone[query]
    assert len(_SHAPES) == 1


@pytest.mark.parametrize(
    ("pattern", "prefix"),
    [
        ("^a.*n$", "a"),
        ("^Gold", "Gold"),
        ("^legendary planeswalker", "legendary plane"),  # "(?i)k" also matches the Kelvin sign
        ("^ab?c", "a"),
        ("^a+b", "a"),
        (r"^\.x", ".x"),
        ("^a_%", "a_%"),
        ("^(a)", None),
        ("^a|b", None),
        ("abc", None),
        (r"^\d", None),
        ("^é", None),  # LIKE compares non-ASCII letters case-sensitively
        ("^A{2}", None),
    ],
)
def test_the_prefix_of_an_anchored_regex(pattern: str, prefix: str | None) -> None:
    assert required_prefix(pattern) == prefix


@pytest.mark.parametrize(
    ("text", "chosen"),
    [
        ("damage to any target", ["dam", "tar", "any"]),  # a word's first letters, the longest words first
        ("damage", ["dam", "age"]),  # then the next three letters
        ("counterspell counter", ["cou", "nte", "rsp"]),
        ("稲妻を", ["稲妻を"]),
        ("a b", []),  # no word of three letters: the documents are searched as text
    ],
)
def test_the_trigrams_that_narrow_a_regex(text: str, chosen: list[str]) -> None:
    assert trigrams(text) == chosen


def test_an_anchored_regex_is_case_insensitive_through_its_prefix(search_db: carddb.Database) -> None:
    """On SQLite ``name:/^gold/`` is tried only on names that start with it, a LIKE that ignores
    case like the pattern does."""
    for query in ("name:/^gold/", "name:/^GOLD/", "name:/^GoLd.*dragon$/"):
        assert search_db.search(query).names == ["Goldspan Dragon"]
    upper = search_db.search("t:/^LEGENDARY PLANESWALKER/", limit=100).names
    assert upper == search_db.search("t:/^legendary planeswalker/", limit=100).names
    assert len(upper) == 5


@pytest.mark.parametrize(
    ("query", "lookups"),
    [
        # a rare layout finds the candidates; the printings of each are read, not every printing
        ("year>=2021 is:mdfc", ["probe", "drive"]),
        # a colour finds them; every German translation or type line is not listed
        ("lang:de t:Kreatur c:r", ["probe", "probe", "drive"]),
        # what is excluded is tested on each of the few candidates (colours: the card row)
        ("c>=uw -kw:flying", ["drive", "probe"]),
        # lists cheap to make are made: power from an index, colours from another
        ("t:creature c:g pow>=4", ["list", "list", "drive"]),
        # a long word of rules text drives, as before
        ("lang:de o:fliegend", ["probe", "drive"]),
    ],
)
def test_how_an_and_finds_its_cards(query: str, lookups: list[str]) -> None:
    parsed = parse_query(query)
    assert isinstance(parsed, And)
    context = Context("sqlite", text_languages(parsed), {"kreatur": ("creature",)})
    assert _lookups(parsed.items, context) == lookups


def test_a_negated_language_does_not_widen_the_text_search() -> None:
    """ "-lang:de o:fliegend" excludes German translations; it does not make o: search German text,
    as "lang:de o:fliegend" does."""
    from carddb.search.compile import text_languages
    from carddb.search.parse import parse_query

    assert text_languages(parse_query("lang:de o:fliegend")) == {"de"}
    assert text_languages(parse_query("-lang:de o:fliegend")) == frozenset()
