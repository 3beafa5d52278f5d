"""The engine's lowest layer: errors, decisions, card definitions, the game state, the execution context
and the catalog's types. It imports nothing else of the engine."""
