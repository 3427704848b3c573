"""``python -m ledger``: the same entry point as the ``ledger`` console script."""

from ledger.cli.app import main

if __name__ == "__main__":
    main()
