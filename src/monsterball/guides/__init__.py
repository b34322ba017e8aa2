"""What players read: the rules documents with every rule id and ruling (``rulebooks``) and
each game's hints, lessons and guide (``lessons``), for the terminal and the web app alike."""
