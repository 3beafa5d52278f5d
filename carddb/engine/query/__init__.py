"""Questions about the game that change nothing: what noun phrases name, what an object has, what the
catalog cannot execute."""
