"""shengji: its engine, table, random legal player and helpers."""
