"""The pure round-clock core: no Django; times and stored facts passed in, decisions returned."""
