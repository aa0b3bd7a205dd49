"""What a game sees: the table, its states, stats, options, the Deck, and the game registry."""
