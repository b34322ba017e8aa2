// The signed-in account: who is logged in, the header's corner, the lobby's account card
// (sign up, log in, log out).
import { api, el } from "./util.js";

export async function whoAmI() {
  try {
    return (await api("/api/session")).name;
  } catch {
    return null;
  }
}

// The header's account corner: the name (a link to the player page) and "log out".
export function accountCorner(me) {
  const corner = document.getElementById("account");
  if (!corner) return;
  if (!me) {
    corner.replaceChildren(
      el("a", { href: "/#account", "data-testid": "login-link" }, "log in / sign up"),
    );
    return;
  }
  const out = el("button", { type: "button", class: "link", "data-testid": "logout" }, "log out");
  out.onclick = async () => {
    await api("/api/session", { method: "DELETE" });
    location.href = "/";
  };
  corner.replaceChildren(
    el("a", { href: `/players/${encodeURIComponent(me)}`, "data-testid": "me" }, me),
    " · ",
    out,
  );
}

export function accountCard(me) {
  if (me) return null;
  const name = el("input", {
    name: "name",
    autocomplete: "username",
    "data-testid": "account-name",
    "aria-label": "name",
    placeholder: "name",
  });
  const password = el("input", {
    name: "password",
    type: "password",
    autocomplete: "current-password",
    "data-testid": "account-password",
    "aria-label": "password",
    placeholder: "password",
    title: "8 to 128 characters",
  });
  const message = el("p", { class: "error", role: "alert", "data-testid": "account-error" });
  const send = (path) => async (event) => {
    event.preventDefault();
    message.textContent = "";
    try {
      await api(path, {
        method: "POST",
        body: { name: name.value.trim(), password: password.value },
      });
      location.reload();
    } catch (error) {
      message.textContent = error.message;
    }
  };
  const login = el(
    "button",
    { class: "primary", type: "submit", "data-testid": "login" },
    "Log in",
  );
  const signup = el("button", { type: "button", "data-testid": "signup" }, "Sign up");
  signup.onclick = send("/api/accounts");
  return el(
    "form",
    {
      class: "card account",
      id: "account",
      "data-testid": "account-form",
      onsubmit: send("/api/session"),
    },
    el("h2", {}, "Play strangers"),
    el(
      "p",
      { class: "muted" },
      "An account keeps your games and lets you post and take challenges. Playing by link needs none.",
    ),
    el("div", { class: "row" }, name, password, login, signup),
    message,
  );
}
