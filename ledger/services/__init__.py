"""Use cases. Each runs in one transaction and is the only place database rows become domain values."""
