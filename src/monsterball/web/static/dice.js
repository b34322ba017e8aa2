// Contributed dice (docs/web.md, "Fair dice"): while the server takes them (before the first
// die), a seat's page sends its own random nonce once per socket, so the dice come from the
// server's committed seed and every seat's nonce, and nobody alone chooses them.
const sent = new WeakSet();

export function contributeDice(socket, message) {
  const game = message.game || {};
  const mine = message.you && game.dice_open && game.dice_nonces && game.dice_nonces[message.you];
  if (mine !== "" || sent.has(socket) || !globalThis.crypto?.getRandomValues) return;
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const nonce = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  sent.add(socket);
  socket.send(JSON.stringify({ type: "nonce", nonce }));
}
