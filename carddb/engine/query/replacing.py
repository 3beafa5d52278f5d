"""Sentences that say what would happen and what happens instead (614.1a), read from the parse:
whether a condition speaks of an event that would happen ("If that creature would die this turn"),
and the shapes the engine applies as replacement effects — one created by a resolving spell or
ability ("If that creature would die this turn, exile it instead.", 614.1, lasting until cleanup,
514.2) and one of a permanent's own replacement ability ("If ~ would die, exile it instead.").

Its own module because three readers need it and it executes nothing: what is missing
(``query.executable``), the 608.2c reading of "… instead" sentences (``query.tree``), and the
rules that apply the effects (``rules.instead``, ``rules.lasting``)."""

from __future__ import annotations

from carddb.engine.core.forms import written
from carddb.oracle.model import Ability, Action, Clause, Conditional, Kind, Noun, Pronoun, SelfRef
from carddb.oracle.phrases import find

DIES_THIS_TURN = "would_die_this_turn"
"""The condition of "If that creature would die this turn, …"."""


def would_condition(node: object) -> bool:
    """A condition about an event that would happen ("… would die", "… would deal damage", "you
    would gain life"): what a replacement effect watches for, never a state to evaluate now."""
    if not isinstance(node, Action):
        return False
    form = find(node.verb, node.form)
    return form is not None and form.family == "cond" and " would " in f" {form.text} "


def _sole_if(ability: object) -> tuple[object, object] | None:
    """A replacement ability of one sentence "If …, …": its condition and its body."""
    if not (isinstance(ability, Ability) and ability.kind is Kind.REPLACEMENT and len(ability.effects) == 1):
        return None
    step = ability.effects[0]
    if not (isinstance(step, Conditional) and step.word == "if" and not step.after):
        return None
    return step.condition, step.body


def _sole_if_on(ability: object, verb: str) -> tuple[Action, object] | None:
    """:func:`_sole_if` of an ability whose condition is the phrase ``verb`` ("would_deal_damage")."""
    read = _sole_if(ability)
    if read is None or not (isinstance(read[0], Action) and read[0].verb == verb):
        return None
    return read[0], read[1]


def _instead_action(body: object, subjects: tuple[object, ...] = (None,)) -> object | None:
    """What happens instead in a body of one "{action:pred} instead" predicate (form 0; not
    "instead of putting it …", which names a zone) whose subject is one of ``subjects``."""
    if not (isinstance(body, Clause) and body.subject in subjects and len(body.predicates) == 1):
        return None
    instead = body.predicates[0]
    if not (isinstance(instead, Action) and instead.verb == "instead" and instead.form == 0):
        return None
    return instead.arg("action")


def exiles_it_instead(body: object) -> bool:
    """The body "exile it instead" (and nothing else): the event's object goes to exile instead."""
    action = _instead_action(body)
    what = action.arg("what") if isinstance(action, Action) else None
    exiled = isinstance(action, Action) and action.verb == "exile" and len(action.args) == 1
    return exiled and isinstance(what, Pronoun) and what.word == "it"


def put_instead(body: object) -> tuple[str, int | None] | None:
    """Where the body puts the event's object instead: "exile it instead" (``("exile", None)``),
    "put ~ on top of its owner's library instead" (``("library", 0)``), "put it on the bottom of
    its owner's library instead" (``("library", None)``). None: another body."""
    if exiles_it_instead(body):
        return "exile", None
    action = _instead_action(body)
    if not (isinstance(action, Action) and action.verb == "put_into_library" and len(action.args) == 2):
        return None
    what, to = action.arg("what"), action.arg("to")
    itself = isinstance(what, SelfRef) or (isinstance(what, Pronoun) and what.word == "it")
    owners = isinstance(to, Action) and to.verb == "zone" and to.arg("owner") == "its owner's"
    if not (itself and owners) or action.form_name not in ("top", "bottom"):
        return None
    return "library", 0 if action.form_name == "top" else None


def dies_this_turn_instead(step: object) -> object | None:
    """ "If that creature would die this turn, exile it instead." (and "If a creature dealt damage
    this way would die this turn, …", "If a creature would die this turn, …"), a step of a
    resolving spell or ability: the noun phrase of what the replacement effect it creates applies
    to (None: not such a sentence)."""
    if not (isinstance(step, Conditional) and step.word == "if" and not step.after):
        return None
    condition = step.condition
    if not (isinstance(condition, Action) and condition.verb == DIES_THIS_TURN):
        return None
    return condition.arg("what") if exiles_it_instead(step.body) else None


NEXT_DAMAGE = "{what:np} would deal damage to {to:np} this turn"
"""The one event a "next time" prevention waits for: damage a source deals to one recipient
(never "would deal damage this turn", whose one time may be damage to several at once)."""
YOUR_CHOICE = "of your choice"


def chosen_source(what: object) -> Action | None:
    """The "of your choice" of "a red source of your choice": the source is chosen as the effect
    is created (609.7a). None: the phrase names its source otherwise."""
    if not isinstance(what, Noun):
        return None
    return next((q for q in what.qualifiers if q.verb == "of_the_chosen" and written(q) == YOUR_CHOICE), None)


def next_time_prevention(action: object) -> Action | None:
    """ "The next time a red source of your choice would deal damage to you this turn, prevent
    that damage." (615.7, Circle of Protection: Red; "… to any target …", "The next time target
    creature would deal damage to you …"): its condition, whose ``what`` is the source (one of
    your choice, a target, ~) and ``to`` the one recipient (you, a target). None: another shape."""
    if not (isinstance(action, Action) and action.verb == "next_time" and action.form == 0):
        return None
    condition, prevented = action.arg("cond"), action.arg("action")
    if not (isinstance(condition, Action) and condition.verb == "would_deal_damage"):
        return None
    if written(condition) != NEXT_DAMAGE or not isinstance(prevented, Action):
        return None
    if prevented.verb != "prevent_that_damage" or written(prevented) != "prevent that damage":
        return None
    what, to = condition.arg("what"), condition.arg("to")
    names_source = isinstance(what, SelfRef) or (isinstance(what, Noun) and what.targeted)
    one_recipient = (isinstance(to, Pronoun) and (to.word == "you" or to.slot is not None)) or (
        isinstance(to, Noun) and to.determiners == ("target",) and not to.plural  # "target creature"
    )
    if not (chosen_source(what) is not None or names_source) or not one_recipient:
        return None
    return condition



GAIN_MORE = {"gain that much life plus {amount:n}": "plus", "gain twice that much life": "twice"}


def gains_more_instead(ability: object) -> tuple[str, Action] | None:
    """ "If you would gain life, you gain that much life plus 1 instead." (Heron of Hope) and
    "… you gain twice that much life instead." (Boon Reflection), a permanent's replacement
    ability on its controller's life gain: ``("plus", phrase)`` or ``("twice", phrase)``."""
    read = _sole_if(ability)
    if read is None:
        return None
    condition, body = read
    you = Pronoun("you")
    gains = isinstance(condition, Action) and condition.verb == "would_gain_life"
    if not (gains and isinstance(condition, Action) and condition.arg("who") == you):
        return None
    action = _instead_action(body, (you,))
    if not (isinstance(action, Action) and action.verb == "gain_that_much_life"):
        return None
    how = GAIN_MORE.get(written(action))
    return (how, action) if how is not None else None


MODIFIED_DAMAGE = {
    "deals double that damage to {to:np}": "double",
    "deals triple that damage to {to:np}": "triple",
    "deals that much damage plus {amount:n} to {to:np}": "plus",
    "deals that much damage minus {amount:n} to {to:np}": "minus",
}


def modified_damage(ability: object) -> tuple[Action, str, Action] | None:
    """ "If a source would deal damage to a permanent or player, it deals double that damage to
    that permanent or player instead." (Furnace of Rath; "… that much damage plus 1 …", "…
    minus 1 …", "triple") and "If a red source would deal damage to you, prevent 2 of that
    damage." (Sphere of Law: "prevent"), a permanent's replacement or prevention ability on
    damage: its condition (``what`` the source, ``to`` what is dealt damage), how it changes the
    damage and the phrase that says so. None: another shape (a spell as source, "would deal
    damage this turn", another recipient)."""
    read = _sole_if_on(ability, "would_deal_damage")
    if read is None:
        return None
    condition, body = read
    if written(condition) != "{what:np} would deal damage to {to:np}":
        return None
    what, to = condition.arg("what"), condition.arg("to")
    if not (isinstance(what, Noun) and not what.targeted and _names_a_source(what)):
        return None
    if not (isinstance(to, Pronoun | SelfRef) or (isinstance(to, Noun) and not to.targeted)):
        return None
    prevented = _prevents_some(body)
    if prevented is not None:  # "If a red source would deal damage to you, prevent 2 of that damage."
        return condition, "prevent", prevented
    action = _instead_action(body, (Pronoun("it"),))
    if not (isinstance(action, Action) and action.verb == "deals_modified_damage"):
        return None
    how = MODIFIED_DAMAGE.get(written(action))
    if how is None or not _same_recipient(to, action.arg("to")):
        return None
    return condition, how, action


def _prevents_some(body: object) -> Action | None:
    """The body "prevent N of that damage" (615: a prevention effect on each such damage)."""
    if not (isinstance(body, Clause) and body.subject is None and len(body.predicates) == 1):
        return None
    prevent = body.predicates[0]
    if not (isinstance(prevent, Action) and prevent.verb == "prevent_that_damage"):
        return None
    return prevent if written(prevent) == "prevent {amount:n} of that damage" else None


def _names_a_source(noun: Noun) -> bool:
    """A description of damage sources the engine tells apart: not "a spell" (which would be any
    object: the engine's descriptions do not read "spell" as on the stack)."""
    words = {w.lower().rstrip("s") for w in noun.description.split()}
    return "spell" not in words or bool(words & {"instant", "sorcery"})


def _same_recipient(to: object, again: object) -> bool:
    """ "to a permanent or player … to that permanent or player", "to you … to you", "to ~ … to ~"."""
    if isinstance(to, Pronoun) and to.word == "you":
        return again == to
    if isinstance(to, SelfRef):
        return isinstance(again, SelfRef)
    return (
        isinstance(to, Noun)
        and not to.targeted
        and isinstance(again, Noun)
        and again.determiners == ("that",)
        and again.description.split()[-1] == to.description.split()[-1]
        and not again.qualifiers
    )


def redirected_damage(ability: object) -> tuple[object, object] | None:
    """ "All damage that would be dealt to you is dealt to ~ instead." (Empyrial Archangel; "… to
    enchanted creature …", Pariah; "… to equipped creature …", Pariah's Shield), a redirection
    (614.9): what would be dealt damage (you) and what is dealt it instead (~, or the creature its
    source is attached to). None: another shape."""
    if not (isinstance(ability, Ability) and ability.kind is Kind.REPLACEMENT and len(ability.effects) == 1):
        return None
    step = ability.effects[0]
    action = _instead_action(step)
    if not (isinstance(action, Action) and action.verb == "redirect_damage"):
        return None
    if written(action) != "all damage that would be dealt to {to:np} is dealt to {redirect:np}":
        return None
    to, redirect = action.arg("to"), action.arg("redirect")
    attached = isinstance(redirect, Noun) and not redirect.determiners and redirect.description in (
        "enchanted creature",
        "equipped creature",
    )
    if to != Pronoun("you") or not (isinstance(redirect, SelfRef) or attached):
        return None
    return to, redirect


def counters_instead_of_damage(ability: object) -> Action | None:
    """ "If damage would be dealt to ~, put that many +1/+1 counters on it instead." (Phytohydra;
    "-1/-1 counters", Lichenthrope), the object's own replacement ability: the counters phrase."""
    read = _sole_if_on(ability, "would_deal_damage")
    if read is None:
        return None
    condition, body = read
    to_itself = isinstance(condition.arg("to"), SelfRef)
    if written(condition) != "damage would be dealt to {to:np}" or not to_itself:
        return None
    action = _instead_action(body)
    on_it = isinstance(action, Action) and action.arg("what") == Pronoun("it")
    if not (isinstance(action, Action) and action.verb == "put_counters" and on_it):
        return None
    counters = action.arg("counters")
    if not (isinstance(counters, Action) and counters.arg("determiner") == "that many"):
        return None
    return counters if counters.arg("kind") in ("+1/+1 counters", "-1/-1 counters") else None


TOKENS_CREATED = frozenset({
    "{what:np} would be created under your control", "an effect would create {what:np} under your control",
})  # fmt: skip
TWICE_THOSE_TOKENS = frozenset({
    "twice that many of those tokens are created", "creates twice that many of those tokens",
})  # fmt: skip


def doubles_tokens(ability: object) -> bool:
    """ "If an effect would create one or more tokens under your control, it creates twice that
    many of those tokens instead." (Parallel Lives; "If one or more tokens would be created under
    your control, twice that many of those tokens are created instead.", Adrix and Nev)."""
    read = _sole_if_on(ability, "would_be_created")
    if read is None:
        return False
    condition, body = read
    what = condition.arg("what")
    tokens = isinstance(what, Noun) and what.determiners == ("one or more",) and what.description == "tokens"
    if written(condition) not in TOKENS_CREATED or not tokens:
        return False
    action = _instead_action(body, (None, Pronoun("it")))
    return isinstance(action, Action) and action.verb == "doubled" and written(action) in TWICE_THOSE_TOKENS
