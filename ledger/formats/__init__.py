"""Pure text <-> records, one module per format: text in, records plus problems out."""
