// What the game page does beyond drawing: the colour theme (kept for every page), keyboard
// stepping through the move list, the "your move" tone.

const THEME = "monsterball-theme";

/** The dark or light theme, kept in localStorage and set on <html data-theme>. */
export function applyTheme(/** @type {string | null} */ theme = null) {
  const chosen =
    theme ||
    localStorage.getItem(THEME) ||
    (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light");
  if (theme) localStorage.setItem(THEME, theme);
  document.documentElement.dataset.theme = chosen;
}

/**
 * Arrow keys step through the move list (left: back, right: on), Escape returns to the game;
 * not while typing, nor on the board (its own arrow keys move between spaces).
 * @param {{step: (by: number) => void, live: () => void}} to
 */
export function pageKeys(to) {
  document.addEventListener("keydown", (event) => {
    const target = /** @type {HTMLElement} */ (event.target);
    if (target.closest && target.closest("input, textarea, select, svg.board")) return;
    if (event.key === "ArrowLeft") to.step(-1);
    else if (event.key === "ArrowRight") to.step(1);
    else if (event.key === "Escape") to.live();
    else return;
    event.preventDefault();
  });
}

export function beep() {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.25);
  } catch {
    /* no audio: the title still says it */
  }
}
