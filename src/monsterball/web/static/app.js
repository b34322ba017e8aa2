// The monsterball browser client: ES modules, no build step. The server sends each seat's
// state as JSON (board drawing, legal actions with click hints, log); board.js draws it as SVG
// and play.js turns clicks into actions. Pages: the lobby, a game, a replay, how to play.
// Which module holds what: docs/web.md, "The browser client".
import { guidePage } from "./guide.js";
import { learnPage } from "./learn.js";
import { applyTheme } from "./page-controls.js";
import { playPage } from "./play.js";
import { ratingsPage } from "./ratings.js";
import { replayPage, rulesPage } from "./replay.js";
import { lobby } from "./lobby.js";
import { accountCorner, playerPage, whoAmI } from "./social.js";
import { errorPage } from "./util.js";

applyTheme();
const main = document.getElementById("main");
const where = document.getElementById("where");
const connection = document.getElementById("connection");

const path = location.pathname.split("/").filter(Boolean);
const failed = (error) => errorPage(main, "Something went wrong", error.message);
const me = whoAmI();
me.then(accountCorner);
if (path[0] === "play" && path[1]) playPage(main, where, connection, path[1]);
else if (path[0] === "replay" && path[1]) replayPage(main, where, path[1]).catch(failed);
else if (path[0] === "rules" && path[1]) rulesPage(main, where, path[1]).catch(failed);
else if (path[0] === "guide" && path[1]) guidePage(main, where, path[1]).catch(failed);
else if (path[0] === "learn" && path[1]) learnPage(main, where, path[1]).catch(failed);
else if (path[0] === "players" && path[1])
  playerPage(main, where, decodeURIComponent(path[1])).catch(failed);
else if (path[0] === "ratings" && path[1]) ratingsPage(main, where, path[1]).catch(failed);
else me.then((who) => lobby(main, where, connection, who)).catch(failed);
