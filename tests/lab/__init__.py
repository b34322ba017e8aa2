"""The lab (lab/): simulation, sweeps, tournaments, strength."""
