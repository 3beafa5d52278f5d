"""carddb serve: a local Scryfall-compatible API and a multilingual web page."""
