"""Player ratings: Glicko-2 (``glicko``), used by the tournaments and the web app's ladder."""
