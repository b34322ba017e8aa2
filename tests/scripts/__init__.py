"""The scripts under scripts/, run as their users run them."""
