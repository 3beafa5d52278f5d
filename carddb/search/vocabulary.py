"""Localized type and colour words for the search language: ``t:Kreatur``, ``t:クリーチャー``, ``c:rot``.

Type words are open-ended (every set adds creature types, and each language inflects and compounds
them its own way), so they are *learned* from the data: :func:`derive_type_words` aligns every
translated type line with its English line and keeps the translations the evidence supports. Colour
words are a closed set of five game terms per language, so they are a curated table,
``data/color_words.toml``, read by :func:`color_letter` and :func:`color_words`.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, TypeAlias

from carddb.errors import UnknownLanguageError
from carddb.languages import by_tag
from carddb.resources import data_dir
from carddb.text import normalize

__all__ = [
    "COLOR_LETTERS",
    "LINK_SHARE",
    "color_letter",
    "color_words",
    "derive_type_words",
    "load_color_words",
]

# --------------------------------------------------------------------------------------------------
# Type words
# --------------------------------------------------------------------------------------------------

LINK_SHARE = 0.5
"""A localized word keeps an English word it is linked to in more than this share of its lines.

A majority, because a word that is one English word's translation is linked to it in nearly every
line it is in, however rare its inflected form ("Legendärer", "легендарная"), while a word linked
to varying English words is noise. On the 15-set corpus (49,144 rows) 2,875 of the 2,884 linked
words have a partner in every one of their lines; the others sit between 0.5 and 0.8 (French
"singe" is both "ape" and "monkey"; "serpent" is "snake" and "serpent"), and French "et", between
two subtypes, at 0.1. So the value is not delicate.
"""

# The separator between the types and the subtypes, in the raw line: English and most languages
# use "—", Japanese also "―", Chinese "～", French ":" ("Créature : elfe et druide").
_SIDES = re.compile(r"\s*[\u2013-\u2015\uff5e~:\uff1a]\s*|\s+-\s+")
# A word after normalize: letters and digits, with inner hyphens and apostrophes kept
# ("créature-artefact", "urza's"); "・", "／", "," and spaces separate.
_WORD = re.compile(r"[^\W_]+(?:['-][^\W_]+)*")
# A parenthesised note, not a type: エンチャント（プレイヤー） is an "Enchantment" on an old card.
_ANNOTATION = re.compile(r"\([^)]*\)")
# Scripts written without spaces between words: kana and Han.
_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
# Rounds of growing the unspaced vocabulary: each can uncover a word inside last round's leftovers
# (伝説のアーティファクト -> 伝説の + アーティファクト once 伝説の is known); two or three suffice.
_SEGMENT_ROUNDS = 8
# Japanese makes a prefix of a noun with the genitive particle: 伝説の (legendary) is 伝説 + の.
_GENITIVE = "の"

_Pair: TypeAlias = tuple[str, str]
"""A (localized word, English word) pair."""
_Line: TypeAlias = tuple[tuple[frozenset[str], frozenset[str]], ...]
"""A type line as (localized words, English words) per side: the types, then the subtypes."""


def _split_sides(line: str) -> list[str]:
    return _SIDES.split(line.strip(), maxsplit=1)


def _words(side: str) -> list[str]:
    return _WORD.findall(_ANNOTATION.sub(" ", normalize(side)))


def _segment(run: str, vocabulary: frozenset[str], longest: int, exclude: str = "") -> list[tuple[str, bool]]:
    """``run`` cut into (piece, known) with as few unknown characters, then pieces, as possible.

    ``exclude`` is a word not to use (the run itself, when asking what else it could be made of).

    A small dynamic programme over the run: runs are short and only substrings up to the longest
    word are looked up, so this costs little, and unlike greedy longest match it never strands a
    known word behind a wrong cut.
    """
    size = len(run)
    whole = (0, size) if run == exclude else (-1, -1)
    # best[i]: (unknown characters, pieces) of the best cut of run[:i], and where it came from.
    best: list[tuple[int, int]] = [(0, 0)] + [(size + 1, size + 1)] * size
    back: list[tuple[int, bool]] = [(0, False)] * (size + 1)
    for end in range(1, size + 1):
        unknown, pieces = best[end - 1]
        if (unknown + 1, pieces + 1) < best[end]:
            best[end], back[end] = (unknown + 1, pieces + 1), (end - 1, False)
        for start in range(max(0, end - longest), end):
            if run[start:end] in vocabulary and (start, end) != whole:
                unknown, pieces = best[start]
                if (unknown, pieces + 1) < best[end]:
                    best[end], back[end] = (unknown, pieces + 1), (start, True)
    cut: list[tuple[str, bool]] = []
    end = size
    while end > 0:
        start, known = back[end]
        if not known and cut and not cut[-1][1]:  # glue unknown characters into one piece
            cut[-1] = (run[start:end] + cut[-1][0], False)
        else:
            cut.append((run[start:end], known))
        end = start
    cut.reverse()
    return cut


def _unspaced_vocabulary(sides: Iterable[tuple[tuple[str, ...], tuple[str, ...]]]) -> frozenset[str]:
    """The words of the unspaced (Japanese, Chinese) runs of one side of one language's lines.

    ``sides`` are the (localized, English) words of that side of each line; a localized "word" of
    Japanese or Chinese is a run between separators, which may hold several words. Where a side
    has as many runs as English words, each run is one word (アーティファクト・クリーチャー for
    "Artifact Creature"; 人間・戦士 for "Human Warrior"). What those words leave of the other runs
    is a word too (伝説の from 伝説のクリーチャー, 基本 from 基本地), unless it splits into two or
    more of them: a leftover 伝説の氷雪 is 伝説の + 氷雪. Leftovers are taken again with the words
    found so far until nothing changes, so a run whose parts are never seen alone still comes
    apart (伝説のアーティファクト, once 伝説の is known). A run missing its separator
    (エレメンタルトカゲ, a misprint) is cut into its words the same way.
    """
    runs: set[str] = set()
    seeds: set[str] = set()
    for localized, english in sides:
        unspaced = [word for word in localized if _UNSPACED.search(word)]
        runs.update(unspaced)
        if len(localized) == len(english):
            seeds.update(unspaced)
    if not runs:
        return frozenset()
    candidates = set(seeds)
    kept = frozenset(seeds)
    for _ in range(_SEGMENT_ROUNDS):
        longest = max(map(len, kept), default=1)
        for run in runs - seeds:
            cut = _segment(run, kept, longest, exclude=run)
            candidates.update(piece for piece, known in cut if not known)
        grown = set(seeds)
        for candidate in sorted(candidates - seeds, key=len):
            known = frozenset(grown)
            pieces = _segment(candidate, known, max(map(len, known), default=1))
            if len(pieces) < 2 or not all(is_known for _, is_known in pieces):
                grown.add(candidate)
        if grown == kept:
            break
        kept = frozenset(grown)
    return kept


def _split_unspaced(words: tuple[str, ...], vocabulary: frozenset[str], longest: int) -> frozenset[str]:
    """``words`` with each unspaced run not itself a word cut into the words of ``vocabulary``."""
    if not vocabulary:
        return frozenset(words)
    out: set[str] = set()
    for word in words:
        if word not in vocabulary and _UNSPACED.search(word):
            out.update(piece for piece, _ in _segment(word, vocabulary, longest))
        else:
            out.add(word)
    return frozenset(out)


def _tokenize(triples: Iterable[tuple[str, str, str]]) -> dict[str, list[_Line]]:
    """Each distinct translated line as words per side, by language.

    A line whose translation has the separator while the English has not (or the other way round)
    is left out: it is a different rendering (a garbled or partial field), not a translation
    whose words can be paired with confidence. Japanese and Chinese runs are cut into words with
    a vocabulary learned per side (:func:`_unspaced_vocabulary`): types and subtypes are
    different vocabularies, and keeping them apart stops 地 (land) from splitting 地侏 (gnome).
    Sides repeat across lines far more than lines do, so each distinct side is read once.
    """
    words: dict[str, tuple[str, ...]] = {}

    def side_words(side: str) -> tuple[str, ...]:
        found = words.get(side)
        if found is None:
            found = words[side] = tuple(_words(side))
        return found

    split: dict[str, list[list[tuple[tuple[str, ...], tuple[str, ...]]]]] = defaultdict(list)
    for language, localized, english in triples:
        if not localized or not english:
            continue
        local_sides, english_sides = _split_sides(localized), _split_sides(english)
        if len(local_sides) == len(english_sides):
            split[language].append(
                [(side_words(lo), side_words(en)) for lo, en in zip(local_sides, english_sides, strict=True)]
            )
    tokenized: dict[str, list[_Line]] = {}
    for language, lines in split.items():
        cut: list[dict[tuple[tuple[str, ...], tuple[str, ...]], tuple[frozenset[str], frozenset[str]]]] = []
        for i in range(2):
            vocabulary = _unspaced_vocabulary(sides[i] for sides in lines if len(sides) > i)
            longest = max(map(len, vocabulary), default=1)
            cut.append(
                {
                    side: (_split_unspaced(side[0], vocabulary, longest), frozenset(side[1]))
                    for side in {sides[i] for sides in lines if len(sides) > i}
                }
            )
        tokenized[language] = [tuple(cut[i][side] for i, side in enumerate(sides)) for sides in lines]
    return tokenized


def _link(
    local: frozenset[str],
    english: frozenset[str],
    dice: Mapping[_Pair, float],
    follows: Mapping[_Pair, tuple[float, float]],
) -> tuple[set[_Pair], set[_Pair]]:
    """Competitive linking of one side of one line: the (localized, English) word pairs it pairs.

    A word spelt like an English word of the line is linked to it first: a name or a word left
    untranslated ("Zombie", "Planeswalker", an English line in a German field) is the surest
    evidence there is, and it settles lines where Dice cannot (a "Human Archer" seen once). Then
    pairs are taken best Dice first, each word once, so a word frequent beside another (German
    "Legendärer" is nearly always beside "Planeswalker") does not steal its neighbour's
    translation. Equal Dice scores are told apart by a shared spelling (a cognate: "elfo" and
    "elf"); pairs tied on both are taken together, keeping an ambiguity visible instead of
    resolving it by sort order. These are the word's own links (the first set returned).

    Then every word left over is linked to the partner(s) in the line that most reliably come with
    it (``follows``: the share of the localized word's lines holding the English word, then Dice).
    That is how a compound gets all its English words (German "Standardland" is "basic" and
    "land", although "verschneites" beside it has the better Dice with "land"), and how a
    function word ("et", "de") gets a partner that varies from line to line. These are the extra
    links (the second set returned).
    """
    if len(local) == 1 and len(english) == 1:  # the common case, and nothing to choose
        return {(next(iter(local)), next(iter(english)))}, set()
    # Every pair of a side is in ``dice``: the counts are made from the same sides.
    pairs = sorted(
        ((w == e, dice[w, e], _shared_prefix(w, e), w, e) for w in local for e in english), reverse=True
    )
    links: set[_Pair] = set()
    used_local: set[str] = set()
    used_english: set[str] = set()
    start = 0
    while start < len(pairs):
        score = pairs[start][:3]
        end = start
        while end < len(pairs) and pairs[end][:3] == score:
            end += 1
        group = [(w, e) for *_, w, e in pairs[start:end] if w not in used_local and e not in used_english]
        links.update(group)
        used_local.update(w for w, _ in group)
        used_english.update(e for _, e in group)
        start = end
    extra: set[_Pair] = set()
    for w in local - used_local:
        extra.update(_best([(w, e) for e in english], follows))
    for e in english - used_english:
        extra.update(_best([(w, e) for w in local], follows))
    return links, extra - links


def _shared_prefix(local: str, english: str) -> int:
    """How many leading letters two words share: "legendäres" (folded) and "legendary" share 8."""
    size = 0
    for a, b in zip(local, english, strict=False):
        if a != b:
            break
        size += 1
    return size


def _best(pairs: list[_Pair], score: Mapping[_Pair, Any]) -> list[_Pair]:
    """The pairs of ``pairs`` with the highest ``score``, all of them when tied."""
    if not pairs:
        return []
    top = max(score[pair] for pair in pairs)
    return [pair for pair in pairs if score[pair] == top]


def derive_type_words(rows: Iterable[tuple[str, str, str]]) -> dict[tuple[str, str], tuple[str, ...]]:
    """The English type words each localized type word translates, learned from translated lines.

    ``rows`` are ``(language tag, localized type line, English type line)``, one per translated
    card face. The result maps ``(language, word folded with normalize)`` to the lowercase English
    words it stands for, most often linked first: ``("de", "kreatur") -> ("creature",)``,
    ``("de", "artefaktkreatur") -> ("artifact", "creature")``, ``("ja", "伝説の") -> ("legendary",)``.

    How, and why:

    * Each distinct (language, localized, English) line counts once, so a card reprinted in ten
      sets is one piece of evidence, not ten (and 250,000 rows cost what their distinct lines
      cost: well under a second on a real corpus).
    * Lines are cut at the type/subtype separator ("—", "～", French ":") and words are only
      paired within the same side: a subtype never competes with "creature" for a type word. A
      line whose two fields disagree about having subtypes is left out (see :func:`_tokenize`).
    * Words are letters with inner hyphens and apostrophes ("créature-artefact", "urza's");
      Japanese and Chinese runs, written without spaces, are cut with a vocabulary learned from
      the lines themselves (:func:`_unspaced_vocabulary`). A Japanese prefix in の (伝説の) is
      also given without it (伝説), the noun a reader types.
    * Association is the Dice coefficient ``2·n(w,e)/(n(w)+n(e))`` over the sides of the
      language's lines. Dice alone picks "planeswalker" for German "Legendärer" (they nearly
      always come together) and cannot give a rare inflection ("легендарная", once) its word, so
      each side is aligned by competitive linking on Dice (:func:`_link`), and a word keeps the
      English words it is linked to in more than :data:`LINK_SHARE` of its lines; only a word
      that won a link of its own somewhere keeps anything, which leaves out the function words
      that only ever ride along (French "et" and "de", Portuguese "da").
    * Ties: English words linked equally often are all kept (a compound's parts: German
      "Standardland" is "basic" and "land"). A word seen in a single line, beside other unknown
      words, has no evidence to choose between its partners: it keeps only one that is strictly
      better by Dice, then by a shared spelling ("legendäres" and "legendary" share a prefix,
      "artefakt" does not), and nothing when that too is tied: two new subtypes side by side in
      another script (which is which is unknowable from one line). A word alone on its side
      keeps all its partners even from one line: nothing else there could carry them
      (French "terrain-artefact" is "artifact" and "land").
    """
    result: dict[tuple[str, str], tuple[str, ...]] = {}
    for language, lines in _tokenize(set(rows)).items():
        for word, english in _align(lines).items():
            result[language, word] = english
            if word.endswith(_GENITIVE) and _UNSPACED.search(word[:-1]):
                result.setdefault((language, word[:-1]), english)
    return result


def _align(lines: list[_Line]) -> dict[str, tuple[str, ...]]:
    """The English words each localized word of one language's lines is kept for (see above).

    The unit of evidence is a side of a distinct line (its types, or its subtypes): counts are
    of sides, so the work is done once per distinct side, however many lines share it.
    """
    sides = Counter(side for line in lines for side in line)
    local_count: Counter[str] = Counter()
    english_count: Counter[str] = Counter()
    together: Counter[_Pair] = Counter()
    for (local, english), times in sides.items():
        for w in local:
            local_count[w] += times
            for e in english:
                together[w, e] += times
        for e in english:
            english_count[e] += times
    dice = {(w, e): 2 * n / (local_count[w] + english_count[e]) for (w, e), n in together.items()}
    follows = {(w, e): (n / local_count[w], dice[w, e]) for (w, e), n in together.items()}
    linked: Counter[_Pair] = Counter()
    owns: set[str] = set()  # words that won a link of their own somewhere
    for (local, english), times in sides.items():
        own, extra = _link(local, english, dice, follows)
        owns.update(w for w, _ in own)
        for pair in own | extra:
            linked[pair] += times
    cognate_dice = {pair: (score, _shared_prefix(*pair)) for pair, score in dice.items()}
    alone = {next(iter(local)) for local, _ in sides if len(local) == 1}
    kept: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for (w, e), n in linked.items():
        if n > LINK_SHARE * local_count[w] and w in owns:
            kept[w].append((n, e))
    aligned: dict[str, tuple[str, ...]] = {}
    for word, partners in kept.items():
        if local_count[word] == 1 and len(partners) > 1 and word not in alone:
            best = _best([(word, e) for _, e in partners], cognate_dice)
            partners = [(1, e) for _, e in best] if len(best) == 1 else []
        if partners:
            aligned[word] = tuple(e for _, e in sorted(partners, key=lambda p: (-p[0], p[1])))
    return aligned


# --------------------------------------------------------------------------------------------------
# Colour words
# --------------------------------------------------------------------------------------------------

COLOR_LETTERS = "WUBRG"
"""The colour letters, in the game's order."""

_COLOR_FILE = "color_words.toml"


def load_color_words(path: Path) -> dict[str, dict[str, str]]:
    """The colour words of a TOML table file: ``{language tag: {folded word: letter}}``.

    The file holds one table per language tag, mapping a colour letter to a list of words. Words
    are folded with :func:`~carddb.text.normalize`, the form :func:`color_letter` compares. The
    table is checked as it is read, because a mistake in it would otherwise surface as a search
    that silently means something else: an unknown language tag or letter, a word that is not a
    non-empty string, a word given two colours in one language, or a word naming different colours
    in two languages (``c:`` takes a word in any language) raises a :class:`ValueError` naming the
    file and the entry.
    """
    try:
        with path.open("rb") as file:
            document = tomllib.load(file)
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"{path}: not valid TOML: {error}") from error
    tables: dict[str, dict[str, str]] = {}
    anywhere: dict[str, tuple[str, str]] = {}  # folded word -> (letter, language)
    for language, table in document.items():
        where = f"{path}: [{language}]"
        try:
            known = by_tag(language)
        except UnknownLanguageError:
            known = None
        if known is None or known.is_synthetic or known.tag != language:
            raise ValueError(f"{where}: unknown language tag {language!r} (see carddb.languages)")
        if not isinstance(table, dict):
            raise ValueError(f"{where}: expected a table of colour letters, got {table!r}")
        words: dict[str, str] = {}
        for letter, entries in table.items():
            if len(letter) != 1 or letter not in COLOR_LETTERS:
                raise ValueError(
                    f"{where}: unknown colour letter {letter!r} (one of {' '.join(COLOR_LETTERS)})"
                )
            if not isinstance(entries, list):
                raise ValueError(f"{where} {letter}: expected a list of words, got {entries!r}")
            for entry in entries:
                folded = normalize(entry) if isinstance(entry, str) else ""
                if not folded:
                    raise ValueError(f"{where} {letter}: {entry!r} is not a word")
                other = words.setdefault(folded, letter)
                if other != letter:
                    raise ValueError(f"{where} {letter}: {entry!r} is already listed for {other}")
                other_letter, other_language = anywhere.setdefault(folded, (letter, language))
                if other_letter != letter:
                    raise ValueError(
                        f"{where} {letter}: {entry!r} names {other_letter} in [{other_language}]: "
                        "c: could not tell which colour is meant"
                    )
        tables[language] = words
    return tables


@functools.cache
def _color_tables() -> dict[str, dict[str, str]]:
    """The shipped colour table, read and checked once."""
    return load_color_words(data_dir() / _COLOR_FILE)


@functools.cache
def _any_language() -> dict[str, str]:
    """Every language's colour words in one index (the loader has made sure they agree)."""
    return {word: letter for words in _color_tables().values() for word, letter in words.items()}


def color_words(language: str) -> dict[str, str]:
    """The colour words of ``language`` (a tag), folded, with their letters; empty if it has none."""
    return dict(_color_tables().get(language, {}))


def color_letter(word: str, language: str | None = None) -> str | None:
    """The colour letter (``W U B R G``) ``word`` names in ``language``, or in any language if None.

    ``color_letter("Rote")``, ``color_letter("rouge", "fr")`` and ``color_letter("赤")`` give
    ``"R"``; an unknown word, or a word of another language than the one asked, gives None.
    """
    folded = normalize(word)
    if language is None:
        return _any_language().get(folded)
    return _color_tables().get(language, {}).get(folded)
