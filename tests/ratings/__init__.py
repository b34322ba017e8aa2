"""Ratings (ratings/ and the web app's ladder)."""
