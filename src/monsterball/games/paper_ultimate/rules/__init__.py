"""Paper Ultimate's rule steps, one module per chapter of the rulebook: ``flow`` (the flow of a
point, every step kind), ``setting``, ``running``, ``throwing``, ``monster``, ``turn``,
``scoring``, over ``common``."""
