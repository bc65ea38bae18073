"""Language-model metrics (reference-free Scribendi) and the pluggable language models."""
