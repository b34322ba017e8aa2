"""Huck + Monster's rule steps, one module per chapter of the rulebook: ``flow`` (the flow of a
point, every step kind), ``point``, ``moves``, ``upcall``, ``bid``, ``pro``, the optional kits in
``kits/``, over ``common``."""
