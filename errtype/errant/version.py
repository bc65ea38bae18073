"""The ERRANT release whose API and English results :mod:`errtype.errant` reproduces (a leaf
module, so that :mod:`errtype.errant.alias` reads it without importing its package back)."""

__version__ = "3.0.2"
