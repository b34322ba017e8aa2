"""The rules documents and lessons (guides/)."""
