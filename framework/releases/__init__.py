"""Versioned releases of games and upgrades of the tables in progress."""
