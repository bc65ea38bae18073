"""Essays: texts of several sentences annotated as one unit (issue 34)."""
