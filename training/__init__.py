"""The trainers of the shipped models (``python training/rebuild.py`` runs them in order)."""
