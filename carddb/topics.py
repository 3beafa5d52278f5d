"""What rulings and keyword pages are about: keyword abilities, keyword actions and game topics.

A paragraph of a rulings page is attached to the topics it is *about*, found in its own words,
not only under the heading above it (a page's "Dredge" section goes on with paragraphs about
dice). The topics are:

* every keyword ability of the keyword table (:data:`carddb.oracle.keywords.KEYWORDS`, rule 702),
  by its name; a renamed keyword is one topic (``Totem armor`` is an alias of ``Umbra armor``);
* the keyword actions of rule 701 that name a game term of their own (mill, scry, cloak,
  investigate…). The actions that are ordinary English verbs in rules text (cast, play, exile,
  discard, sacrifice, counter, search, reveal…) are left out on purpose: nearly every ruling uses
  them, and a topic every paragraph mentions says nothing;
* game topics with no keyword: ``dice`` (rule 706: a die, dice, d20, rolling) and ``planechase``
  (rule 901: Planechase, the planar die, the planar controller, planeswalking).

Keyword and action names are matched in lowercase, or capitalized where a sentence begins: a
capitalized word inside a sentence is part of a name ("Artifact Ward", "Circle of Protection:
Artifacts"), not the keyword. Game topics are matched in any case ("Planechase"). A reference to
a rule ("see rule 702.35") names the topic of that rule.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from carddb.oracle.keywords import KEYWORDS
from carddb.oracle.keywords import lookup as lookup_keyword
from carddb.text import normalize

__all__ = ["TOPICS", "Topic", "TopicKind", "find_topic", "topic_by_key", "topics_in"]


class TopicKind(StrEnum):
    KEYWORD_ABILITY = "keyword ability"
    KEYWORD_ACTION = "keyword action"
    GAME_TOPIC = "game topic"


@dataclass(frozen=True, slots=True)
class Topic:
    """One thing notes can be about. ``key`` is what ``notes.topic`` stores (``"madness"``)."""

    key: str
    name: str
    kind: TopicKind
    rule: str | None
    pattern: str
    """A regular expression (matched case-insensitively) finding the topic in running text."""
    any_case: bool = False
    """Matched whatever its case (proper nouns, dice words); else see the module docstring."""
    aliases: tuple[str, ...] = ()


# Rule 701 keyword actions that are terms of their own (see the module docstring), with the forms
# rules text inflects them in. Rule numbers: Comprehensive Rules of 2025-02-07.
_ACTIONS: tuple[tuple[str, str, str], ...] = (
    ("Mill", "701.13", r"mill(?:s|ed|ing)?"),
    ("Scry", "701.18", r"scr(?:y|ies|ied|ying)"),
    ("Fateseal", "701.22", r"fateseal(?:s|ed|ing)?"),
    ("Clash", "701.23", r"clash(?:es|ed|ing)?"),
    ("Proliferate", "701.27", r"proliferat(?:e|es|ed|ing)"),
    ("Detain", "701.29", r"detain(?:s|ed|ing)?"),
    ("Populate", "701.30", r"populat(?:e|es|ed|ing)"),
    ("Monstrosity", "701.31", r"monstrosity|monstrous"),
    ("Bolster", "701.33", r"bolster(?:s|ed|ing)?"),
    ("Manifest", "701.34", r"manifest(?:s|ed|ing)?"),
    ("Investigate", "701.36", r"investigat(?:e|es|ed|ing)"),
    ("Meld", "701.37", r"meld(?:s|ed|ing)?"),
    ("Goad", "701.38", r"goad(?:s|ed|ing)?"),
    ("Exert", "701.39", r"exert(?:s|ed|ing)?"),
    ("Explore", "701.40", r"explor(?:e|es|ed|ing)"),
    ("Surveil", "701.42", r"surveil(?:s|led|ling)?"),
    ("Amass", "701.44", r"amass(?:es|ed|ing)?"),
    ("Venture into the dungeon", "701.46", r"ventur(?:e|es|ed|ing) into the dungeon"),
    ("Connive", "701.47", r"conniv(?:e|es|ed|ing)"),
    ("Incubate", "701.51", r"incubat(?:e|es|ed|ing)"),
    ("The Ring tempts you", "701.52", r"the ring tempts you"),
    ("Time travel", "701.54", r"time travel(?:s|ed|ing)?"),
    ("Discover", "701.55", r"discover(?:s|ed|ing)?"),
    ("Cloak", "701.56", r"cloak(?:s|ed|ing)?"),
    ("Collect evidence", "701.57", r"collect(?:s|ed|ing)? evidence"),
    ("Suspect", "701.58", r"suspect(?:s|ed|ing)?"),
    ("Forage", "701.59", r"forag(?:e|es|ed|ing)"),
    ("Manifest dread", "701.60", r"manifest(?:s|ed|ing)? dread"),
)

_DICE = (
    r"dice|d\d+|(?:re)?roll(?:s|ed|ing)?|die[- ]roll(?:s|ing)?"
    r"|(?:a|an|the|one|each|that|this|any|another|same|extra|planar|[a-z]+-sided) die"
)
_PLANECHASE = r"planechase|planar (?:die|dice|controller|deck)|planeswalk(?:s|ed|ing)?|chaos ensues"


def _keyword_topics() -> list[Topic]:
    topics: list[Topic] = []
    by_rule: dict[str, int] = {}
    for spec in KEYWORDS:
        lower = spec.name.lower()
        if spec.rule in by_rule:  # a renamed keyword (Totem armor -> Umbra armor): one topic
            index = by_rule[spec.rule]
            first = topics[index]
            aliases = (*first.aliases, spec.name)
            pattern = f"{first.pattern}|{re.escape(lower)}"
            topics[index] = Topic(first.key, first.name, first.kind, first.rule, pattern, aliases=aliases)
            continue
        if spec.pattern is not None:  # a family: islandwalk, swampcycling, goblin offering
            pattern = spec.pattern
        else:
            pattern = re.escape(lower) + ("s?" if " " not in lower else "")
        by_rule[spec.rule] = len(topics)
        topics.append(Topic(lower, spec.name, TopicKind.KEYWORD_ABILITY, spec.rule, pattern))
    return topics


def _build() -> tuple[Topic, ...]:
    topics = _keyword_topics()
    topics += [
        Topic(name.lower(), name, TopicKind.KEYWORD_ACTION, rule, pattern) for name, rule, pattern in _ACTIONS
    ]
    topics += [
        Topic(
            "dice",
            "Dice",
            TopicKind.GAME_TOPIC,
            "706",
            _DICE,
            any_case=True,
            aliases=("Die", "Rolling a die"),
        ),
        Topic("planechase", "Planechase", TopicKind.GAME_TOPIC, "901", _PLANECHASE, any_case=True),
    ]
    keys = [topic.key for topic in topics]
    duplicates = {key for key in keys if keys.count(key) > 1}
    if duplicates:
        raise RuntimeError(f"topics defined twice: {sorted(duplicates)}")
    return tuple(topics)


TOPICS: tuple[Topic, ...] = _build()
"""Every topic, keyword abilities first (in rule order), then keyword actions, then game topics."""

_BY_KEY = {topic.key: topic for topic in TOPICS}
_BY_RULE = {topic.rule: topic for topic in TOPICS if topic.rule}


@cache
def _by_name() -> dict[str, Topic]:
    names: dict[str, Topic] = {}
    for topic in TOPICS:
        for name in (topic.key, topic.name, *topic.aliases):
            names.setdefault(normalize(name), topic)
    return names


@cache
def _matcher() -> re.Pattern[str]:
    """One alternation of every topic's pattern, longest names first, each in a named group."""
    ordered = sorted(enumerate(TOPICS), key=lambda item: -len(item[1].name))
    body = "|".join(f"(?P<t{index}>{topic.pattern})" for index, topic in ordered)
    return re.compile(rf"(?<![\w-])(?:{body})(?![\w-])", re.IGNORECASE)


def topic_by_key(key: str) -> Topic | None:
    """The topic stored under ``key`` (``"madness"``), if it is one."""
    return _BY_KEY.get(key)


def find_topic(name: str) -> Topic | None:
    """The topic a person or a page heading names: ``"Madness"``, ``"mill"``, ``"Totem armor"``,
    ``"Islandwalk"``, an inflected action (``"scrying"``); None if none."""
    folded = normalize(name)
    if not folded:
        return None
    topic = _by_name().get(folded)
    if topic is not None:
        return topic
    spec = lookup_keyword(folded)
    if spec is not None:
        return _BY_RULE.get(spec.rule)
    match = _matcher().fullmatch(folded)
    return _topic_of(match) if match else None


def _topic_of(match: re.Match[str]) -> Topic:
    group = match.lastgroup or ""
    return TOPICS[int(group[1:])]


_SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s+)[\"“”'‘(\[]*$")
_RULE_REFERENCE = re.compile(
    r"\brules?\s+(\d{3}(?:\.\d+[a-z]?)?(?:(?:,\s*|,?\s+(?:and|or)\s+)\d{3}(?:\.\d+[a-z]?)?)*)"
)
_RULE_NUMBER = re.compile(r"\d{3}(?:\.\d+)?")


def _cased_right(text: str, match: re.Match[str], topic: Topic) -> bool:
    found = match.group(0)
    if topic.any_case or found == found.lower():
        return True
    return (
        found[0].isupper()
        and found[1:] == found[1:].lower()
        and bool(_SENTENCE_START.search(text[: match.start()]))
    )


def topics_in(text: str) -> tuple[Topic, ...]:
    """The topics ``text`` talks about, in order of first mention (see the module docstring)."""
    found: dict[str, Topic] = {}
    for match in _matcher().finditer(text):
        topic = _topic_of(match)
        if topic.key not in found and _cased_right(text, match, topic):
            found[topic.key] = topic
    for topic in _referenced(text):
        found.setdefault(topic.key, topic)
    return tuple(found.values())


def _referenced(text: str) -> Iterable[Topic]:
    """Topics of the rules a text refers to: "see rule 702.35" -> madness; "rule 706.2" -> dice."""
    for reference in _RULE_REFERENCE.finditer(text):
        for number in _RULE_NUMBER.findall(reference.group(1)):
            topic = _BY_RULE.get(number) or _BY_RULE.get(number.split(".")[0])
            if topic is not None:
                yield topic
