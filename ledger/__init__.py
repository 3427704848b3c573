"""ledger: a persistent FIDE rating ledger for chess clubs and federations."""

__version__ = "0.1.0"
