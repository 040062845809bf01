// The pit boss's screen. The server words everything: the socket only says what moved, and
// the page reads that part again (a table's card, the queue, the alerts, the meters). A
// reading waits while someone types in that part (a PIN, a note), so nothing is lost.
const root = document.getElementById("pit");
const DEBOUNCE_MS = 120;
const SAFETY_REFRESH_MS = 20000; // whatever the socket missed, the screen is true within this
const metrics = (window.pitMetrics = { updates: [] });

const parts = {
  cards: { url: root.dataset.cards, node: root.querySelector("[data-cards-list]"), ids: new Set(), all: false },
  approvals: { url: root.dataset.approvals, node: root.querySelector("[data-approvals-list]") },
  alerts: { url: root.dataset.alerts, node: root.querySelector("[data-alerts-list]") },
  banks: { url: root.dataset.banks, node: root.querySelector("[data-banks-list]") },
};
const due = new Set();
let timer = null;
let socket = null;
let retry = 1000;

function busy(node) {
  return node.contains(document.activeElement) && document.activeElement.matches("input, select, textarea");
}

// What a person typed or chose in a part and has not sent, by form and field: a reading puts it
// back, so the screen shows what is true and nothing typed is lost.
function typed(node) {
  const kept = [];
  for (const field of node.querySelectorAll("form input:not([type=hidden]), form select, form textarea")) {
    const focus = field === document.activeElement;
    const changed = field.matches("select")
      ? [...field.options].some((o) => o.selected !== o.defaultSelected)
      : field.value !== field.defaultValue;
    if (changed || focus) kept.push({ form: field.form.getAttribute("action"), name: field.name, value: field.value, focus });
  }
  return kept;
}

function putBack(node, kept) {
  for (const { form, name, value, focus } of kept) {
    const holder = [...node.querySelectorAll("form")].find((f) => f.getAttribute("action") === form);
    const field = holder && holder.elements.namedItem(name);
    if (!(field instanceof HTMLElement)) continue; // none, or several of that name
    field.value = value;
    if (focus) field.focus();
  }
}

function withQuery(url, params) {
  const full = new URL(url, location.href);
  for (const [k, v] of Object.entries(params)) full.searchParams.set(k, v);
  return full.toString();
}

async function read(name) {
  const part = parts[name];
  let url = part.url;
  if (name === "cards" && !part.all && part.ids.size) url = withQuery(url, { ids: [...part.ids].join(",") });
  if (name === "approvals") url = withQuery(url, { next: location.pathname + location.search });
  const replaceAll = name !== "cards" || part.all || !part.ids.size;
  if (name === "cards") { part.ids = new Set(); part.all = false; }
  const response = await fetch(url, { headers: { Accept: "text/html" }, credentials: "same-origin" });
  if (!response.ok) return;
  const html = await response.text();
  const kept = typed(part.node); // read now: it may have been typed while the page waited
  if (replaceAll) {
    part.node.innerHTML = html;
    if (name === "alerts") ringForNew();
  } else {
    const incoming = document.createElement("div");
    incoming.innerHTML = html;
    for (const card of incoming.querySelectorAll("[data-table]")) {
      const shown = part.node.querySelector(`[data-table="${card.dataset.table}"]`);
      if (shown) shown.replaceWith(card);
    }
  }
  putBack(part.node, kept);
  return true;
}

function flush() {
  timer = null;
  for (const name of [...due]) {
    if (busy(parts[name].node)) continue; // read again once the field is left
    due.delete(name);
    const started = performance.now();
    read(name).then((done) => {
      if (done) metrics.updates.push({ part: name, ms: performance.now() - started, at: Date.now() });
    }).catch(() => due.add(name));
  }
}

function soon(...names) {
  names.forEach((name) => due.add(name));
  if (!timer) timer = setTimeout(flush, DEBOUNCE_MS);
}

function everything() {
  parts.cards.all = true;
  soon("cards", "approvals", "alerts", "banks");
}

// The tone is for an alert that is new on this screen, not for one acknowledged elsewhere.
const wanted = new Set();
function shownAlerts() {
  return new Set([...parts.alerts.node.querySelectorAll("[data-alert]")].map((n) => n.dataset.alert));
}
function ringForNew() {
  const shown = shownAlerts();
  if ([...wanted].some((id) => shown.has(id))) chime();
  wanted.clear();
}

function chime() {
  // Audible where the browser allows it (after the person has interacted with the page).
  try {
    const audio = new (window.AudioContext || window.webkitAudioContext)();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 880;
    gain.gain.value = 0.08;
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.25);
  } catch (_) { /* no sound: the alert is on screen all the same */ }
}

function linkState(up) {
  root.querySelector("[data-link]").dataset.link = up ? "up" : "down";
}

function connect() {
  const url = new URL(root.dataset.ws, location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  url.searchParams.set("language", root.dataset.language);
  socket = new WebSocket(url);
  socket.onmessage = (message) => {
    const data = JSON.parse(message.data);
    if (data.type === "hello") { retry = 1000; linkState(true); everything(); }
    else if (data.type === "table") { parts.cards.ids.add(data.table); soon("cards", "approvals"); }
    else if (data.type === "alert") { if (!shownAlerts().has(String(data.alert))) wanted.add(String(data.alert)); soon("alerts"); }
    else if (data.type === "changed") { parts.cards.all = true; soon("cards", "approvals", "banks"); }
    else if (data.type === "bank") { soon("banks", "approvals"); }
  };
  socket.onclose = () => {
    linkState(false);
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 15000);
  };
}

document.addEventListener("focusout", () => { if (due.size && !timer) timer = setTimeout(flush, DEBOUNCE_MS); });
setInterval(everything, SAFETY_REFRESH_MS);
connect();
