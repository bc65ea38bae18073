"""ERRANT's ``errant.en`` modules (``merger``, ``classifier``) backed by errtype's English."""
