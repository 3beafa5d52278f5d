"""The rules engine: parsed abilities executed in a game (issue 4).

``state`` holds players, zones and objects; ``decisions`` is the one source of choices and die
rolls; ``cards`` builds card definitions (from the database or a scenario); ``mana`` pays costs;
``effects`` has one handler per phrase verb; ``game`` puts spells and abilities on the stack and
resolves them; ``scenario`` runs TOML scenario files.
"""
