// Small helpers shared by the pages: DOM building and the JSON API.

export const SVG = "http://www.w3.org/2000/svg";
const HANDLERS = new Set(["onclick", "onchange", "oninput", "onsubmit", "onkeydown"]);

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (HANDLERS.has(key)) node[key] = value;
    else if (value !== null && value !== undefined && value !== false) {
      node.setAttribute(key, value === true ? "" : value);
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child !== null && child !== undefined && child !== false) {
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
  }
  return node;
}

export function svg(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== null) node.textContent = text;
  return node;
}

// The seat token of this page's link, from its fragment (`/play/ID#token=T`): browsers never
// send a fragment to a server, so the token stays out of URLs that logs and proxies keep. It
// travels in a `Seat-Token` header, a request body or the socket's first message instead.
export function seatToken() {
  return new URLSearchParams(location.hash.slice(1)).get("token");
}

// The session's CSRF token (a cookie this site's pages can read, another site's cannot),
// sent back on every call: the server wants it on writes made with the session cookie.
export function csrfHeader() {
  const found = document.cookie.split("; ").find((c) => c.startsWith("mb_csrf="));
  return found ? { "x-csrf-token": decodeURIComponent(found.slice(8)) } : {};
}

// An API call; a refusal becomes an Error carrying the server's one-line message (a 429
// says how long to wait). `token`: sent as the Seat-Token header.
export async function api(path, options = {}) {
  let response;
  const { token, ...rest } = options;
  try {
    response = await fetch(path, {
      ...rest,
      headers: {
        "content-type": "application/json",
        ...(token ? { "seat-token": token } : {}),
        ...csrfHeader(),
      },
      body: options.body ? JSON.stringify(options.body) : undefined,
    });
  } catch {
    throw new Error("cannot reach the server (is it running? check your connection)");
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    let message = (data && data.message) || `${response.status} ${response.statusText}`;
    if (response.status === 429) {
      const wait = response.headers.get("retry-after");
      message = `too many requests: ${message}${wait ? ` (try again in ${wait} s)` : ""}`;
    }
    throw Object.assign(new Error(message), { code: data && data.error, status: response.status });
  }
  return data;
}

// A full-page error with a way back (issue 12: a bad link says so at once).
export function errorPage(main, title, message) {
  main.replaceChildren(
    el(
      "div",
      { class: "card error-page", "data-testid": "error", role: "alert" },
      el("h2", {}, title),
      el("p", {}, message),
      el("p", {}, el("a", { href: "/", "data-testid": "to-lobby" }, "Back to the lobby")),
    ),
  );
}

export function copyButton(text, label = "copy") {
  const button = el(
    "button",
    { type: "button", class: "copy", "aria-label": `${label}: ${text}` },
    label,
  );
  button.onclick = async () => {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = "copied";
    } catch {
      button.textContent = "select and copy";
    }
    setTimeout(() => {
      button.textContent = label;
    }, 1500);
  };
  return button;
}
