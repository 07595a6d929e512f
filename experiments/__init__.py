"""Finished one-question investigations, kept runnable; outside CI."""
