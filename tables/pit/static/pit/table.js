// A table's page in the pit: its seat map follows the ratings written by anyone (another
// supervisor, the API) without a reload. The pit's socket says which table's ratings changed;
// the page reads its seat map again, worded by the server in the reader's language. A reading
// waits while someone fills a form of the map (a buy-in, a walk-with, a player chosen).
const root = document.querySelector("[data-pit-table]");
const DEBOUNCE_MS = 120;
const SAFETY_REFRESH_MS = 20000; // whatever the socket missed, the map is true within this
const tableId = root.dataset.pitTable;
let due = false;
let timer = null;
let retry = 1000;

function map() {
  return root.querySelector("[data-seat-map]");
}

function touched(node) {
  const focus = document.activeElement;
  if (node.contains(focus) && focus.matches("input, select, textarea")) return true;
  for (const field of node.querySelectorAll("input:not([type=hidden]), textarea")) {
    if (field.value !== field.defaultValue) return true;
  }
  for (const select of node.querySelectorAll("select")) {
    const first = Math.max(0, [...select.options].findIndex((o) => o.defaultSelected));
    if (select.selectedIndex !== first) return true;
  }
  return false;
}

async function read() {
  const response = await fetch(root.dataset.seats, { headers: { Accept: "text/html" }, credentials: "same-origin" });
  if (!response.ok) return;
  const incoming = document.createElement("div");
  incoming.innerHTML = await response.text();
  const fresh = incoming.querySelector("[data-seat-map]");
  const shown = map();
  if (fresh && shown && !touched(shown)) shown.replaceWith(fresh);
  else if (fresh) due = true; // filled in while it was read: once the form is left
}

function flush() {
  timer = null;
  const shown = map();
  if (!due || (shown && touched(shown))) return;
  due = false;
  read().catch(() => { due = true; });
}

function soon() {
  due = true;
  if (!timer) timer = setTimeout(flush, DEBOUNCE_MS);
}

function connect() {
  const url = new URL(root.dataset.ws, location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  url.searchParams.set("language", root.dataset.language);
  const socket = new WebSocket(url);
  socket.onmessage = (message) => {
    const data = JSON.parse(message.data);
    if (data.type === "hello") { retry = 1000; root.dataset.live = "up"; soon(); }
    else if (data.type === "seats" && String(data.table) === tableId) soon();
    else if (data.type === "changed") soon(); // a pit action: the table opened or closed
  };
  socket.onclose = () => {
    root.dataset.live = "down";
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 15000);
  };
}

document.addEventListener("focusout", () => { if (due && !timer) timer = setTimeout(flush, DEBOUNCE_MS); });
setInterval(soon, SAFETY_REFRESH_MS);
connect();
