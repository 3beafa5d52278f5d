"""TOML scenarios and seeded random play, above everything else of the engine."""
