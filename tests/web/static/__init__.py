"""The browser client (web/static/) in a real Chromium (marker `browser`)."""
