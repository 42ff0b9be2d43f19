"""Tests of a data migration: migrate back to before it, write rows as they were, migrate forward."""

from __future__ import annotations

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate_to(targets):
    """Migrate the test database to ``targets``; the historical apps there, for writing old rows."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def migrate_to_latest():
    """Every app to its latest migration, as the rest of the suite expects."""
    migrate_to(MigrationExecutor(connection).loader.graph.leaf_nodes())
