"""Tournaments: events, entrants, drafts, rounds, tables, results, standings, pairing, round clock."""
