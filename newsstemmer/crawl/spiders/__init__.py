"""Spiders of the newsstemmer project."""
