"""The documentation: its commands run, its site builds."""
