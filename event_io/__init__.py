"""Export and import of a whole event as one JSON document; the format is described in services.py."""
