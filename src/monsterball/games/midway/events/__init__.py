"""What happens in a game of Monsters of the Midway, as typed records told in plain sentences.

One dataclass per kind of happening; each keeps the exact numbers (the die, the modifier, the
total, what was needed) as fields and says them in words a newcomer follows. ``in_brief()``
is a die's result in a few words, for the odds the page lists. Sentences never name a hidden
hex: mirror-image and invisibility events are written for both coaches.

One module per part of the game, each event imported from the module that defines it:
``draft`` (the draft and the toss), ``lineup`` (lining up and the snap), ``kicks``, ``ball``
(passes, catches, fumbles, the loose ball, out of bounds, touchbacks), ``contact`` (blocks,
tackles, the ettin), ``moving``, ``magic``, ``scoring`` (points and the end of plays and of
the game); ``common`` holds the words they share (a team, the score, a die's reading).
"""
