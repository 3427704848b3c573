"""Database layer: SQLAlchemy 2.x models, the engine with its SQLite hooks, Alembic driven from code."""
