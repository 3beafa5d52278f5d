"""The rules engine: parsed abilities executed in a game (issue 4).

``state`` holds players, zones and objects; ``decisions`` is the one source of choices and die
rolls; ``cards`` builds card definitions (from the database or a scenario); ``mana`` pays costs;
``execution`` executes an ability's steps, ``nouns`` resolves its noun phrases and ``handlers`` has
one handler per phrase verb (registered in ``registry``); ``executable`` says what has no handler;
``game`` puts spells and abilities on the stack and resolves them; ``scenario`` runs TOML scenario
files.
"""
