"""Live games: models, consumers and views on top of the pure engine."""
