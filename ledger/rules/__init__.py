"""Pure FIDE rating rules: no database, no clock, no I/O; one function per rule (docs/RULES.md)."""
