"""Pure FIDE rating rules: no database, no clock, no I/O; one function per rule (shared/RULES.md)."""
