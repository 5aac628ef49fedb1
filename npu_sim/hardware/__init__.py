"""Hardware components: cost formulas, shared bandwidth, cores."""
