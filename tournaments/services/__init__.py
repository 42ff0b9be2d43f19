"""Writes: load, call the domain core, save in one transaction, write the audit entry."""
