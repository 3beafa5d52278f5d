"""Choices an object remembers (607, linked abilities): "As ~ enters the battlefield, choose a
creature type." is made as the permanent enters (:func:`entering_choice` recognizes it;
:mod:`carddb.engine.rules.choices` makes it) and read by the abilities linked to it ("creatures of
the chosen type"), through ``GameObject.chosen``.

Its own module because the catalog's check (what executes) and the rules that make and read the
choice both need the same recognizer and the same options, and neither executes anything."""

from __future__ import annotations

from carddb.engine.core.forms import written
from carddb.oracle.model import Ability, Action, Clause, Conditional, Kind, Noun, SelfRef

CREATURE_TYPE = "creature type"

CREATURE_TYPES: tuple[str, ...] = (
    "Advisor", "Aetherborn", "Alien", "Ally", "Angel", "Antelope", "Ape", "Archer", "Archon",
    "Armadillo", "Army", "Artificer", "Assassin", "Assembly-Worker", "Astartes", "Atog", "Aurochs",
    "Avatar", "Azra", "Badger", "Balloon", "Barbarian", "Bard", "Basilisk", "Bat", "Bear", "Beast",
    "Beaver", "Beeble", "Beholder", "Berserker", "Bird", "Blinkmoth", "Boar", "Bringer",
    "Brushwagg", "Camarid", "Camel", "Capybara", "Caribou", "Carrier", "Cat", "Centaur", "Child",
    "Chimera", "Citizen", "Cleric", "Clown", "Cockatrice", "Construct", "Coward", "Coyote", "Crab",
    "Crocodile", "C’tan", "Custodes", "Cyberman", "Cyclops", "Dalek", "Dauthi", "Demigod", "Demon",
    "Deserter", "Detective", "Devil", "Dinosaur", "Djinn", "Doctor", "Dog", "Dragon", "Drake",
    "Dreadnought", "Drone", "Druid", "Dryad", "Dwarf", "Efreet", "Egg", "Elder", "Eldrazi",
    "Elemental", "Elephant", "Elf", "Elk", "Employee", "Eye", "Faerie", "Ferret", "Fish",
    "Flagbearer", "Fox", "Fractal", "Frog", "Fungus", "Gamer", "Gargoyle", "Germ", "Giant", "Gith",
    "Glimmer", "Gnoll", "Gnome", "Goat", "Goblin", "God", "Golem", "Gorgon", "Graveborn", "Gremlin",
    "Griffin", "Guest", "Hag", "Halfling", "Hamster", "Harpy", "Hellion", "Hippo", "Hippogriff",
    "Homarid", "Homunculus", "Horror", "Horse", "Human", "Hydra", "Hyena", "Illusion", "Imp",
    "Incarnation", "Inkling", "Inquisitor", "Insect", "Jackal", "Jellyfish", "Juggernaut", "Kavu",
    "Kirin", "Kithkin", "Knight", "Kobold", "Kor", "Kraken", "Llama", "Lamia", "Lammasu", "Leech",
    "Leviathan", "Lhurgoyf", "Licid", "Lizard", "Manticore", "Masticore", "Mercenary", "Merfolk",
    "Metathran", "Minion", "Minotaur", "Mite", "Mole", "Monger", "Mongoose", "Monk", "Monkey",
    "Moonfolk", "Mount", "Mouse", "Mutant", "Myr", "Mystic", "Nautilus", "Necron", "Nephilim",
    "Nightmare", "Nightstalker", "Ninja", "Noble", "Noggle", "Nomad", "Nymph", "Octopus", "Ogre",
    "Ooze", "Orb", "Orc", "Orgg", "Otter", "Ouphe", "Ox", "Oyster", "Pangolin", "Peasant",
    "Pegasus", "Pentavite", "Performer", "Pest", "Phelddagrif", "Phoenix", "Phyrexian", "Pilot",
    "Pincher", "Pirate", "Plant", "Porcupine", "Possum", "Praetor", "Primarch", "Prism",
    "Processor", "Rabbit", "Raccoon", "Ranger", "Rat", "Rebel", "Reflection", "Rhino", "Rigger",
    "Robot", "Rogue", "Sable", "Salamander", "Samurai", "Sand", "Saproling", "Satyr", "Scarecrow",
    "Scientist", "Scion", "Scorpion", "Scout", "Sculpture", "Seal", "Serf", "Serpent", "Servo",
    "Shade", "Shaman", "Shapeshifter", "Shark", "Sheep", "Siren", "Skeleton", "Skunk", "Slith",
    "Sliver", "Sloth", "Slug", "Snail", "Snake", "Soldier", "Soltari", "Spawn", "Specter",
    "Spellshaper", "Sphinx", "Spider", "Spike", "Spirit", "Splinter", "Sponge", "Squid", "Squirrel",
    "Starfish", "Surrakar", "Survivor", "Synth", "Tentacle", "Tetravite", "Thalakos", "Thopter",
    "Thrull", "Tiefling", "Toy", "Treefolk", "Trilobite", "Triskelavite", "Troll", "Turtle",
    "Tyranid", "Unicorn", "Vampire", "Varmint", "Vedalken", "Volver", "Wall", "Walrus", "Warlock",
    "Warrior", "Weasel", "Weird", "Werewolf", "Whale", "Wizard", "Wolf", "Wolverine", "Wombat",
    "Worm", "Wraith", "Wurm", "Yeti", "Zombie", "Zubera", "Time Lord",
)  # fmt: skip
"""The creature types (205.3m), the options of "choose a creature type"."""

CHOICES: dict[str, tuple[str, ...]] = {CREATURE_TYPE: CREATURE_TYPES}
"""What may be chosen as a permanent enters, and the options."""


def entering_choice(ability: Ability) -> str | None:
    """ "As ~ enters the battlefield, choose a creature type." (614.12, 607.2d): what is chosen
    (a key of :data:`CHOICES`); None: not such an ability."""
    if ability.kind is not Kind.REPLACEMENT or len(ability.effects) != 1:
        return None
    step = ability.effects[0]
    if not (isinstance(step, Conditional) and step.word == "as" and isinstance(step.condition, Action)):
        return None
    entering = step.condition
    if entering.verb != "enters" or not isinstance(entering.arg("what"), SelfRef) or len(entering.args) != 1:
        return None
    body = step.body
    if not isinstance(body, Clause) or body.subject is not None or len(body.predicates) != 1:
        return None
    choose = body.predicates[0]
    what = choose.arg("what") if isinstance(choose, Action) and choose.verb == "choose" else None
    if not (isinstance(what, Noun) and what.determiners == ("a",) and not what.qualifiers):
        return None
    return what.description if what.description in CHOICES else None


YOUR_CHOICE = "of your choice"


PROTECTION_FROM_CHOSEN_COLOR = ("the color of your choice",)
"""The qualities of "protection from the color of your choice" (a ``protection_choice``)."""


def protection_from_chosen_color(keywords: object) -> bool:
    """ "gains protection from the color of your choice": a choice of one colour, made as the
    effect begins (the one protection choice the engine makes)."""
    return (
        isinstance(keywords, Action)
        and keywords.verb == "protection_choice"
        and tuple(keywords.arg("qualities") or ()) == PROTECTION_FROM_CHOSEN_COLOR  # type: ignore[arg-type]
    )


def chosen_color(what: object) -> bool:
    """ "… becomes the color of your choice": a colour its controller chooses as the effect begins."""
    if not (isinstance(what, Noun) and what.description == "color" and what.determiners == ("the",)):
        return False
    return len(what.qualifiers) == 1 and written(what.qualifiers[0]) == YOUR_CHOICE


def color_choices(nodes: list[object]) -> set[int]:
    """The nodes of "[permanents] become(s) the color of your choice" (its noun and qualifier) that
    the layer change reads itself (``rules.layers.changes``); not for a spell ("Target spell or
    permanent becomes …": a colour change applies to permanents only here)."""
    found: set[int] = set()
    for clause in nodes:
        if not isinstance(clause, Clause):
            continue
        subject = clause.subject
        if isinstance(subject, Noun) and "spell" in subject.description.lower():
            continue
        for predicate in clause.predicates:
            becomes = isinstance(predicate, Action) and predicate.verb == "becomes"
            what = predicate.arg("what") if isinstance(predicate, Action) and becomes else None
            if isinstance(what, Noun) and chosen_color(what):
                found.update((id(what), id(what.qualifiers[0])))
    return found
