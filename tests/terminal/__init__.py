"""Terminal play (terminal/)."""
