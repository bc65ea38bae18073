"""N-gram metrics over the corrected texts (GLEU)."""
