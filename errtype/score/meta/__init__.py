"""Scores about metrics and annotators: correlation with human judgments, human-relative
ratios."""
