"""Edit-based metrics: the hypothesis' edits matched against the gold edits (ERRANT, MaxMatch,
their sentence-level variants, GoToScorer)."""
