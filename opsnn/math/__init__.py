"""Math family: the table-driven elementwise ops (see README.md)."""
