"""Which language a piece of card text is written in, from its script and its words.

Card pages give text without saying its language (a block of a name and rules text, a page of
rulings). The importer first places text by matching what the database already holds; this is
the fallback, and it refuses rather than guesses: :func:`guess_language` returns a
:class:`LanguageGuess` whose ``tag`` is None, with the reason, when the evidence is thin or split.

* **Scripts decide first.** Kana means Japanese (Japanese mixes kana into every sentence, Chinese
  never does); Hangul means Korean; Cyrillic means Russian (the only Cyrillic language cards are
  printed in). Han characters alone are Chinese, simplified or traditional by the characters that
  exist in only one of the two standard character sets: GB 2312 holds the simplified forms (缝,
  将), Big5 the traditional ones (縫, 將), so Python's own codecs tell them apart without a
  conversion table.
* **Latin text is told apart by words**: short lists of function words (articles, pronouns,
  prepositions) and of the game's own words (``Kreatur``, ``criatura``, ``bersaglio``, ``alvo``)
  for English, German, Spanish, French, Italian and Brazilian Portuguese, plus the letters only
  some of them use (``ñ``, ``ß``, ``ã``). A word several languages share counts for each of them
  by a share of one; the best language must lead clearly.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass

__all__ = ["LanguageGuess", "guess_language"]


@dataclass(frozen=True, slots=True)
class LanguageGuess:
    """A language tag (:mod:`carddb.languages`) or None when the text cannot be placed, and why."""

    tag: str | None
    reason: str


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Function words and game words, lowercase as written (accents kept: they tell languages apart).
_LATIN_WORDS: dict[str, frozenset[str]] = {
    "en": _words(
        "the a an and or of to you your is are this that it its with from for on in into each "
        "if when whenever may until then target card cards creature add exile roll put player "
        "library only as battlefield enters control turn spell draw graveyard damage"
    ),
    "de": _words(
        "der die das des dem den ein eine einen einer eines und oder du dein deine deiner deinen "
        "ist sind mit von zu auf unter wie als ins wenn falls kannst bis immer nicht diese "
        "dieser wahl spiel karte karten kreatur erzeuge lege schicke würfle bibliothek nur "
        "wobei zuges friedhof kontrollierst"
    ),
    "es": _words(
        "el la los las del un una unos y o que tu tus su sus es en con por para como esto esta "
        "este de cuando siempre hasta puedes entre sobre pon luego obtiene hace mientras "
        "carta cartas criatura objetivo agrega tira biblioteca solo donde batalla controlas "
        "cementerio hechizo habilidad roba daño"
    ),
    "fr": _words(
        "le la les l' d' qu' n' jusqu' du des un une et ou vous votre vos est sont dans au aux "
        "avec pour sur ce cette de chaque quand pouvez mettez fois puis carte cartes créature "
        "cible ciblée ajoutez lancez bibliothèque que champ bataille contrôlez cimetière"
    ),
    "it": _words(
        "il lo la gli le i del della dei delle un una uno e o tu tua tuo suo sua è nel nella "
        "alla dal sul con per come questa questo di che fino ogni ogniqualvolta puoi metti poi "
        "carta carte creatura bersaglio aggiungi tira grimorio solo battaglia controlli "
        "cimitero"
    ),
    "pt-BR": _words(
        "o a os as do da dos das um uma e ou você seu sua seus é no na nos em com ao para como "
        "este esta de até toda não pode coloque depois card cards criatura alvo adicione role "
        "grimório somente que batalha controla cemitério mágica compre"
    ),
}
# Letters that only some of these languages write.
_LATIN_LETTERS: dict[str, frozenset[str]] = {
    "de": frozenset("äöüß"),
    "es": frozenset("ñ¿¡áíóú"),
    "fr": frozenset("çâêîôûëïœèàù"),
    "it": frozenset("àèìòù"),
    "pt-BR": frozenset("ãõçâêôáíóú"),
}
_LETTER_WEIGHT = 0.5
_MIN_SCORE = 2.0  # the best language needs at least this much evidence...
_MIN_LEAD = 1.5  # ...and this many times the runner-up's

_SYMBOLS = re.compile(r"\{[^}]*\}")  # mana and tap symbols are no language
_LATIN_TOKEN = re.compile(r"[^\W\d_]+'?", re.UNICODE)


def _share(tables: dict[str, frozenset[str]]) -> dict[str, dict[str, float]]:
    """Per item, what it counts for each language listing it: one, shared among them."""
    holders: dict[str, list[str]] = {}
    for tag, items in tables.items():
        for item in items:
            holders.setdefault(item, []).append(tag)
    return {item: {tag: 1.0 / len(tags) for tag in tags} for item, tags in holders.items()}


_WORD_SHARES = _share(_LATIN_WORDS)
_LETTER_SHARES = _share(_LATIN_LETTERS)


def _script(char: str) -> str | None:
    """The script group of a letter that matters here, else None (digits, punctuation, symbols)."""
    code = ord(char)
    if (0x3041 <= code <= 0x30FF and code != 0x30FB) or 0xFF66 <= code <= 0xFF9D:
        return "kana"  # hiragana, katakana (not the ・ separator), half-width katakana
    if 0xAC00 <= code <= 0xD7A3 or 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F:
        return "hangul"
    if (
        0x4E00 <= code <= 0x9FFF
        or 0x3400 <= code <= 0x4DBF
        or 0xF900 <= code <= 0xFAFF
        or 0x20000 <= code <= 0x3134F
    ):
        return "han"
    if 0x0400 <= code <= 0x04FF:
        return "cyrillic"
    if char.isalpha():
        name = unicodedata.name(char, "")
        return "latin" if name.startswith("LATIN") or char.isascii() else name.split(" ")[0].lower()
    return None


def _in_charset(char: str, codec: str) -> bool:
    try:
        char.encode(codec)
    except UnicodeEncodeError:
        return False
    return True


def _chinese(text: str) -> LanguageGuess:
    """Simplified or traditional Chinese, by the characters only one standard character set has."""
    simplified = traditional = 0
    for char in text:
        if _script(char) != "han":
            continue
        in_gb, in_big5 = _in_charset(char, "gb2312"), _in_charset(char, "big5")
        simplified += in_gb and not in_big5
        traditional += in_big5 and not in_gb
    if simplified > traditional:
        return LanguageGuess(
            "zh-Hans", f"Han characters, {simplified} simplified only, {traditional} traditional"
        )
    if traditional > simplified:
        return LanguageGuess(
            "zh-Hant", f"Han characters, {traditional} traditional only, {simplified} simplified"
        )
    return LanguageGuess(None, "Han characters only, as many simplified as traditional forms")


def _latin(text: str) -> LanguageGuess:
    """English or a Romance or German language, by function words, game words and letters."""
    scores: defaultdict[str, float] = defaultdict(float)
    lowered = text.lower().replace("’", "'")
    for token in _LATIN_TOKEN.findall(lowered):
        for candidate in (token, token.rstrip("'")):
            shares = _WORD_SHARES.get(candidate)
            if shares:
                for tag, share in shares.items():
                    scores[tag] += share
                break
    for char in lowered:
        for tag, share in _LETTER_SHARES.get(char, {}).items():
            scores[tag] += share * _LETTER_WEIGHT
    ranked = sorted(scores.items(), key=lambda item: -item[1])
    if not ranked or ranked[0][1] < _MIN_SCORE:
        return LanguageGuess(None, "Latin letters, too few known words")
    best, score = ranked[0]
    runner_up, second = ranked[1] if len(ranked) > 1 else ("", 0.0)
    if second and score < second * _MIN_LEAD:
        return LanguageGuess(
            None, f"Latin letters, words of {best} ({score:.1f}) and {runner_up} ({second:.1f})"
        )
    return LanguageGuess(best, f"Latin letters, words of {best} ({score:.1f}; next {second:.1f})")


def guess_language(text: str) -> LanguageGuess:
    """The language ``text`` is written in, or ``tag=None`` with the reason when it cannot be told."""
    letters = Counter(script for char in _SYMBOLS.sub(" ", text) if (script := _script(char)))
    if not letters:
        return LanguageGuess(None, "no letters")
    if letters["kana"]:
        return LanguageGuess("ja", "kana")
    if letters["hangul"]:
        return LanguageGuess("ko", "Hangul")
    dominant, _count = letters.most_common(1)[0]
    if dominant == "han":
        return _chinese(text)
    if dominant == "cyrillic":
        return LanguageGuess("ru", "Cyrillic letters")
    if dominant == "latin":
        return _latin(_SYMBOLS.sub(" ", text))
    return LanguageGuess(None, f"{dominant} letters, a script no card language here is placed by")
