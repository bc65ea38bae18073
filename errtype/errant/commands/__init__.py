"""ERRANT's ``errant.commands`` modules: the helper functions toolkits import from them."""
