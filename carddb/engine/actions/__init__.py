"""The players' actions: casting, activating, playing lands, passing priority, moving through the turn,
attacking and blocking."""
