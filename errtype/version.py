"""errtype's version (a leaf module: what records a version imports it without the package's
public API, so no import cycle runs through :mod:`errtype`)."""

__version__ = "0.1.0"
