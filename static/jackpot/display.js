// The jackpot display page: renders the public feed only, so it is also the feed's
// reference client. Amounts animate toward a new value and never past it.
import { FeedClient } from "./feed-client.js";

const ANIMATION_MS = 1500;
const HIT_SHOW_MS = 20000;

const root = document.getElementById("jackpot-display");
const levelsEl = root.querySelector("[data-levels]");
const faultEl = root.querySelector("[data-fault]");
const hitEl = root.querySelector("[data-hit]");
const words = root.dataset;
const language = words.language || "fr";
let currency = words.currency || "EUR";
let money = makeFormat(currency);

const levels = new Map(); // level code -> {el, amountEl, shown, from, target, startedAt}
const state = { status: "closed", faulted: true, hitTimer: null, meterSeq: -1 };

function makeFormat(code) {
  return new Intl.NumberFormat(language === "en" ? "en-GB" : "fr-FR", { style: "currency", currency: code });
}

function formatCents(cents) {
  return money.format(Math.floor(cents) / 100);
}

function renderLevels(list) {
  const seen = new Set();
  for (const item of list) {
    seen.add(item.level);
    let entry = levels.get(item.level);
    if (!entry) {
      const el = document.createElement("li");
      el.className = "level";
      el.dataset.level = item.level;
      el.innerHTML = '<span class="label"></span><span class="amount" data-amount></span>';
      levelsEl.appendChild(el);
      entry = { el, amountEl: el.querySelector("[data-amount]"), shown: item.amount_cents, from: item.amount_cents, target: item.amount_cents, startedAt: 0 };
      levels.set(item.level, entry);
      paint(entry);
    }
    entry.el.querySelector(".label").textContent = item.label;
    setTarget(entry, item.amount_cents);
  }
  for (const [code, entry] of levels) {
    if (!seen.has(code)) {
      entry.el.remove();
      levels.delete(code);
    }
  }
}

function setTarget(entry, cents) {
  entry.el.dataset.targetCents = String(cents);
  if (cents <= entry.shown) {
    // A lower amount (after a hit) is shown at once: counting down would look like a loss.
    entry.shown = entry.from = entry.target = cents;
    paint(entry);
    return;
  }
  entry.from = entry.shown;
  entry.target = cents;
  entry.startedAt = performance.now();
  requestAnimationFrame(tick);
}

function tick(now) {
  let moving = false;
  for (const entry of levels.values()) {
    if (entry.shown === entry.target) continue;
    const t = Math.min(1, (now - entry.startedAt) / ANIMATION_MS);
    const eased = 1 - (1 - t) ** 3;
    // Never past the committed value, whatever the easing does.
    entry.shown = Math.min(entry.target, Math.floor(entry.from + (entry.target - entry.from) * eased));
    if (t >= 1) entry.shown = entry.target;
    paint(entry);
    moving = moving || entry.shown !== entry.target;
  }
  if (moving) requestAnimationFrame(tick);
}

function paint(entry) {
  entry.amountEl.textContent = formatCents(entry.shown);
  entry.el.dataset.shownCents = String(entry.shown);
}

function setFault(on) {
  state.faulted = on;
  faultEl.hidden = !on;
  levelsEl.hidden = on;
  root.classList.toggle("is-fault", on);
  root.dataset.state = on ? "fault" : "live";
  if (on) hideHit();
}

function levelAmount(code) {
  const entry = levels.get(code);
  return entry ? entry.target : null;
}

function showHit(message) {
  hitEl.querySelector("[data-hit-table]").textContent = `${words.tableWord} ${message.table}`;
  hitEl.querySelector("[data-hit-amount]").textContent = formatCents(message.amount_cents);
  hitEl.dataset.level = message.level;
  hitEl.dataset.seq = String(message.seq);
  updateHitNewAmount();
  hitEl.hidden = false;
  root.classList.add("is-hit");
  clearTimeout(state.hitTimer);
  state.hitTimer = setTimeout(hideHit, HIT_SHOW_MS);
}

function updateHitNewAmount() {
  if (!hitEl.dataset.level) return;
  // The new amount is the one after the reset: wait for a meter newer than the hit.
  const fresh = state.meterSeq > Number(hitEl.dataset.seq);
  const cents = fresh ? levelAmount(hitEl.dataset.level) : null;
  hitEl.querySelector("[data-hit-new]").textContent = cents === null ? "" : `${words.newAmountWord} ${formatCents(cents)}`;
}

function hideHit() {
  hitEl.hidden = true;
  delete hitEl.dataset.level;
  root.classList.remove("is-hit");
}

function apply(message) {
  switch (message.type) {
    case "snapshot":
      if (message.currency && message.currency !== currency) {
        currency = message.currency;
        money = makeFormat(currency);
      }
      state.status = message.status;
      state.meterSeq = message.seq;
      renderLevels(message.levels);
      setFault(message.status !== "open");
      break;
    case "meter":
      state.meterSeq = message.seq;
      renderLevels(message.levels);
      updateHitNewAmount();
      break;
    case "status":
      state.status = message.status;
      setFault(message.status !== "open");
      break;
    case "hit":
      if (message.state === "pending" && !state.faulted) showHit(message);
      break;
    case "heartbeat":
      if (state.faulted && state.status === "open") setFault(false);
      return; // the bank's seq, not one this screen applied
  }
  root.dataset.seq = String(message.seq);
}

// The page's cookie (set when it traded its address token for it) authenticates the socket: the
// token never appears in a URL the servers log.
const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
const client = new FeedClient({
  url: `${scheme}//${window.location.host}${words.wsPath}`,
  onMessage: apply,
  onFault: () => setFault(true),
  onResync: () => {
    root.dataset.resyncs = String(Number(root.dataset.resyncs || 0) + 1);
  },
  staleMs: Number(words.staleSeconds || 15) * 1000,
});
setFault(true);
client.start();
