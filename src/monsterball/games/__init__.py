"""Built-in games. Importing this package registers each of them."""

from monsterball.games import huck_monster as huck_monster
from monsterball.games import midway as midway
from monsterball.games import paper_ultimate as paper_ultimate
