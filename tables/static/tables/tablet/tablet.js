// The dealer tablet (issue 8). The server's round is the truth: the page draws whatever
// round it last received (an API answer or the table's channel, the higher seq wins), with
// the taps still on their way drawn over it. Every action is one write to the round API
// with its own idempotency key: the same action tapped again while its write is on its way
// is that write, not a second one. Writes wait in an outbox, in tap order, each judged on
// the round the writes before it make (expected_seq one more each); one that got no answer
// is kept with its key and sent again when the link returns, so it applies once, and the
// dealer sees the list of those held. A refused write takes the ones tapped behind it with
// it, named on screen; a tap on a stale round comes back 409 stale and is said so.
import { Api, LinkDown } from "./api.js";
import { TableSocket } from "./live.js";
import { amountText, clockFormat, fill, moneyFormat, parseAmount, readCard } from "./format.js";

const root = document.getElementById("tablet");
const page = JSON.parse(document.getElementById("tablet-page").textContent);
const words = JSON.parse(document.getElementById("tablet-words").textContent);
const money = moneyFormat(page.money);
const clock = clockFormat({ language: page.money.language, timeZone: page.time_zone });
const decimal = page.money.language.startsWith("fr") ? "," : ".";
const api = new Api({ base: root.dataset.api, csrf: root.dataset.csrf });
const BETS = ["ante", "blind", "play", "trips", "progressive", "envy"];
const DECISION_STAGES = ["preflop", "flop", "river"];
const FINISHED = ["settled", "void"];
const OUTBOX = `tapis.tablet.${page.table.id}.outbox`;
const UNDO = `tapis.tablet.${page.table.id}.undo`;

let table = page.table;
let round = page.round;
let target = null; // the place the next card goes to ("board", "dealer", "3")
let drafts = { round: null, seats: {} };
let preview = null; // {id, seq, body}: the provisional settlement shown at showdown
// Writes on their way, in tap order: {key, path, body, label, undo, action, round, state
// ("queued", "sending", "held"), held (ever held by a lost link)}.
let outbox = [];
let lastEntry = readStore(sessionStorage, UNDO);
let socketUp = false;
let fetchDown = false;
let retryTimer = null;
let tap = null;
let irregularityOpen = false;
// A correction being prepared after settlement: the facts as the dealer restates them.
// {round, board, dealer, seats: {n: {hole, play, fold}}, place, changed: [places]}
let correction = null;
// Measured by the e2e run: taps, and the time from a tap to the screen showing its answer.
const metrics = (window.tabletMetrics = { taps: 0, timings: [] });

const $ = (selector, scope = root) => scope.querySelector(selector);
const $$ = (selector, scope = root) => [...scope.querySelectorAll(selector)];
const seatEl = (n) => $(`.seat[data-seat="${n}"]`);

function readStore(store, key) {
  try {
    return JSON.parse(store.getItem(key) || "null");
  } catch (err) {
    return null;
  }
}

function writeStore(store, key, value) {
  if (value === null) store.removeItem(key);
  else store.setItem(key, JSON.stringify(value));
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

// --- what is on the felt --------------------------------------------------------------

function placeName(place) {
  if (place === "board") return words["place.board"];
  if (place === "dealer") return words["place.dealer"];
  return fill(words["place.seat"], { seat: place });
}

function actionName(action) {
  if (action === "check") return words.check;
  if (action === "fold") return words.fold;
  return fill(words.bet, { multiple: action.split(":")[1] });
}

function seatOf(n) {
  return round ? round.seats.find((s) => s.seat === n) || null : null;
}

function cardsAt(place) {
  if (!round) return [];
  const facts = correcting() ? correction : correctedFacts();
  if (place === "board") return facts ? facts.board : [...round.board, ...pendingCards(place)];
  if (place === "dealer") return facts ? facts.dealer : [...round.dealer, ...pendingCards(place)];
  if (facts) return facts.seats[place] ? facts.seats[place].hole : [];
  const seat = seatOf(Number(place));
  return seat ? [...seat.hole, ...pendingCards(place)] : [];
}

function cardsOnTable() {
  if (!round) return new Set();
  return new Set(["board", "dealer", ...round.seats.map((s) => String(s.seat))].flatMap(cardsAt));
}

// The facts as the last correction restated them (the felt shows these once corrected), in
// the shape a correction being prepared has: {board, dealer, seats: {n: {hole, play, fold}}}.
function correctedFacts() {
  const list = round && round.stage === "settled" ? round.corrections || [] : [];
  const last = list.length ? list[list.length - 1].facts : null;
  if (!last) return null;
  return {
    board: last.board,
    dealer: last.dealer,
    seats: Object.fromEntries(last.seats.map((s) => [s.seat, { hole: s.hole, play: s.play || null, fold: Boolean(s.fold) }])),
  };
}

// The engine's settlement of the facts being corrected, once fetched for them as they stand.
function correctionPreview() {
  if (!correcting() || !correction.preview || correction.preview.facts !== JSON.stringify(correctionFacts())) return null;
  return correction.preview.body;
}

function correcting() {
  return Boolean(correction && round && correction.round === round.id && round.stage === "settled");
}

// The events of this round still in the outbox: the screen draws them as made, so that the
// dealer goes on while they are on their way (or held by a lost link).
function pendingEvents() {
  if (!round) return [];
  // Each event moves the round one seq on: one judged on a seq the round has passed is in
  // it already (the table's channel brought it before the write's own answer).
  return outbox.filter((w) => w.round === round.id && w.body.event && w.body.expected_seq >= round.seq);
}

function pendingOf(kind, seat = null) {
  return pendingEvents().find((w) => w.body.event.kind === kind && (seat === null || w.body.event.seat === seat)) || null;
}

function pendingCards(place) {
  if (correcting()) return [];
  return pendingEvents()
    .filter((w) => w.body.event.kind === "cards_entered" && String(w.body.event.place) === String(place))
    .flatMap((w) => w.body.event.cards);
}

function stillExpected(place) {
  return round ? (round.cards_expected[place] || 0) - pendingCards(place).length : 0;
}

function expectedPlaces() {
  if (!round) return [];
  const order = (p) => (p === "board" ? -2 : p === "dealer" ? -1 : Number(p));
  return Object.keys(round.cards_expected)
    .filter((p) => stillExpected(p) > 0)
    .sort((a, b) => order(a) - order(b));
}

function inProgress() {
  return round !== null && !FINISHED.includes(round.stage);
}

function isDealer() {
  return table && table.dealer !== null && table.dealer.id === page.staff.id;
}

function settlementShown() {
  if (!round) return null;
  const fixed = correctionPreview();
  if (fixed) return fixed.settlement;
  if (FINISHED.includes(round.stage)) return round.settlement;
  if (preview && preview.id === round.id && preview.seq === round.seq) return preview.body;
  return null;
}

// A card is drawn by the style sheet from its face and suit symbol; its place's button is
// named by the place and the canonical codes of the cards on it.
function cardFace(code) {
  const suit = code[1];
  const symbol = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" }[suit];
  const colour = suit === "h" || suit === "d" ? "red" : "black";
  return el("span", { class: `face ${colour}`, "data-code": code, "data-face": page.card_faces[code[0]], "data-suit": symbol });
}

// A card in a message, in the page's notation: "R♥" on a French page, "K♥" on an English one.
function cardText(code) {
  return page.card_faces[code[0]] + { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" }[code[1]];
}

function drawCards(container, cards) {
  const slots = Number(container.dataset.slots);
  const held = new Set(pendingCards(container.closest(".place").dataset.place));
  const faces = cards.map((code) => {
    const face = cardFace(code);
    if (held.has(code)) face.classList.add("held");
    return face;
  });
  for (let i = cards.length; i < slots; i += 1) faces.push(el("span", { class: "face empty" }));
  container.replaceChildren(...faces);
  const place = container.closest(".place");
  const name = fill(words.put_cards, { place: placeName(place.dataset.place) });
  place.setAttribute("aria-label", cards.length ? `${name}: ${cards.join(" ")}` : name);
}

// --- the next step ----------------------------------------------------------------------

function nextStep() {
  if (!round || FINISHED.includes(round.stage)) {
    if (table.status !== "open") return { text: words["next.closed"] };
    const done = round && round.stage === "settled" ? words["next.settled"] : round && round.stage === "void" ? words["next.void"] : words["next.open"];
    return { text: done, action: "open" };
  }
  if (round.pending_void) return { text: words["next.pending_void"], element: "supervisor" };
  if (round.stage === "betting") {
    return { text: words["next.wagers"], action: round.seats.length ? "lock" : null };
  }
  const acting = round.seats.find((s) => s.to_act && s.actions.length && !pendingOf("decision", s.seat));
  if (acting) return { text: fill(words["next.decide"], { seat: acting.seat }), seat: acting.seat };
  const places = expectedPlaces();
  if (places.length) return { text: fill(words["next.cards"], { place: placeName(target) }), place: target };
  if (round.stage === "showdown") return { text: words["next.settle"], action: "confirm" };
  return { text: "" };
}

// --- drawing ------------------------------------------------------------------------------

function render() {
  const dealing = isDealer();
  const stage = round ? round.stage : "none";
  root.dataset.stage = stage;
  root.dataset.seq = round ? round.seq : "";
  root.dataset.round = round ? round.id : "";
  root.dataset.role = dealing ? "dealer" : "watcher";
  $("[data-stage-label]").textContent = words[`stage.${stage}`];
  $("[data-round-no]").textContent = round
    ? `${fill(words.round, { number: round.number })} · ${fill(words.opened_at, { time: clock(round.opened_at) })}`
    : "";

  const places = expectedPlaces();
  if (!places.includes(target)) target = places[0] || null;
  if (drafts.round !== (round && round.id)) drafts = { round: round && round.id, seats: {} };

  const step = nextStep();
  $("[data-next]").textContent = dealing || step.element === "supervisor" ? step.text : `${step.text} ${words.watching}`.trim();
  $$(".next-step").forEach((node) => node.classList.remove("next-step"));

  drawHouse();
  const shown = settlementShown();
  for (const node of $$(".seat")) drawSeat(node, Number(node.dataset.seat), dealing, shown);
  drawCardEntry(dealing, places);
  drawActions(dealing, step);
  drawSettlement(shown);
  drawVoid(dealing);
  drawCorrection();
  drawPending();

  if (step.seat) seatEl(step.seat).classList.add("next-step");
  if (step.place) $(`.place[data-place="${step.place}"]`).classList.add("next-step");
  if (step.action) $(`[data-action="${step.action}"]`).classList.add("next-step");
  if (step.element === "supervisor") $("[data-supervisor]").classList.add("next-step");
  if (correcting() && correction.place) $(`.place[data-place="${correction.place}"]`).classList.add("next-step");

  if (round && round.stage === "showdown" && !places.length && !round.pending_void) loadPreview();
  if (tap && round && (round.id !== tap.id || round.seq > tap.seq)) {
    const started = tap.t0;
    tap = null;
    requestAnimationFrame(() => metrics.timings.push(performance.now() - started));
  }
}

function drawHouse() {
  drawCards($('.place[data-place="board"] [data-cards]'), cardsAt("board"));
  drawCards($('.place[data-place="dealer"] [data-cards]'), cardsAt("dealer"));
  const fixing = correcting();
  const chosen = fixing ? correction.place : target;
  for (const node of $$(".place")) {
    const expects = fixing || (round && stillExpected(node.dataset.place) > 0);
    node.classList.toggle("expects", Boolean(expects));
    node.classList.toggle("target", node.dataset.place === chosen);
    node.setAttribute("aria-pressed", node.dataset.place === chosen ? "true" : "false");
    node.disabled = !expects;
  }
  const shown = settlementShown();
  const hand = shown && shown.dealer && shown.dealer.category;
  $("[data-dealer-hand]").textContent = hand
    ? `${words[`cat.${hand}`]} · ${shown.dealer.qualifies ? words.dealer_qualifies : words.dealer_not_qualified}`
    : "";
}

function seatStatus(seat, n) {
  const held = round && !correcting() ? pendingOf("wagers_placed", n) || pendingOf("decision", n) : null;
  if (held) return fill(words.held_step, { step: held.label });
  if (!seat) return words.empty_seat;
  const facts = correcting() ? correction : correctedFacts();
  if (facts) {
    const fact = facts.seats[seat.seat];
    return fact.fold ? words.folded : fill(words.play_bet, { multiple: fact.play.multiple });
  }
  if (seat.fold) return words.folded;
  if (seat.play) return fill(words.play_bet, { multiple: seat.play.multiple });
  if (round.stage === "betting") return words.recorded;
  if (seat.to_act) return words.to_act;
  if (DECISION_STAGES.includes(round.stage)) return words.checked;
  return "";
}

function drawSeat(node, n, dealing, shown) {
  const seat = seatOf(n);
  node.classList.toggle("occupied", Boolean(seat));
  node.classList.toggle("folded", Boolean(seat && seat.fold));
  node.classList.toggle("target", String(n) === target);
  $("[data-seat-status]", node).textContent = round ? seatStatus(seat, n) : "";

  const rows = [];
  if (seat) {
    rows.push([words.ante_blind, money(seat.ante), "ante"]);
    if (seat.trips) rows.push([words.trips, money(seat.trips), "trips"]);
    if (seat.progressive) rows.push([words.progressive, money(seat.progressive), "progressive"]);
    if (seat.play) rows.push([words.play, money(seat.ante * seat.play.multiple), "play"]);
  }
  $("[data-wagers]", node).hidden = Boolean(dealing && round && round.stage === "betting");
  $("[data-wagers]", node).replaceChildren(
    ...rows.map(([label, value, bet]) => el("div", { "data-bet": bet }, el("dt", { text: label }), el("dd", { text: value }))));

  const editor = $("[data-wager-editor]", node);
  editor.hidden = !(dealing && round && round.stage === "betting");
  if (!editor.hidden) drawEditor(editor, n, seat);

  const decisions = $("[data-decisions]", node);
  if (seat && correcting()) {
    drawCorrectedDecision(decisions, n);
  } else {
    const open = dealing && seat && !round.pending_void && !pendingOf("decision", n);
    drawDecisions(decisions, n, open ? seat.actions : []);
  }

  const place = $(".place", node);
  place.hidden = !(seat && (seat.hole.length || round.stage === "showdown"));
  drawCards($("[data-cards]", place), cardsAt(String(n)));
  drawPayout($("[data-payout]", node), n, shown);
}

function drawDecisions(decisions, n, actions) {
  decisions.replaceChildren(...actions.map((action) => el("button", {
    type: "button",
    class: `decision ${action.replace(":", "-")}`,
    "data-decision": action,
    "aria-label": fill(words.action_of, { seat: n, action: actionName(action) }),
    text: action.startsWith("bet:") ? `${action.split(":")[1]}x` : actionName(action),
  })));
}

// --- a correction after settlement ------------------------------------------------------------

// The Play a multiple stands for: the pre-flop multiples of the rules, 2x on the flop, 1x
// on the river.
function playOf(multiple) {
  if (table.rules.preflop_multiples.includes(multiple)) return { street: "preflop", multiple };
  return { street: multiple === 2 ? "flop" : "river", multiple };
}

function correctedDecisions() {
  return ["fold", ...[...table.rules.preflop_multiples].sort((a, b) => b - a).map((m) => `bet:${m}`), "bet:2", "bet:1"];
}

function drawCorrectedDecision(decisions, n) {
  const fact = correction.seats[n];
  const now = fact.fold ? "fold" : `bet:${fact.play.multiple}`;
  decisions.setAttribute("aria-label", fill(words.decision_of, { seat: n }));
  decisions.replaceChildren(...correctedDecisions().map((action) => el("button", {
    type: "button",
    class: `decision ${action.replace(":", "-")}`,
    "data-fix-decision": action,
    "aria-pressed": action === now ? "true" : "false",
    "aria-label": fill(words.action_of, { seat: n, action: actionName(action) }),
    text: action.startsWith("bet:") ? `${action.split(":")[1]}x` : actionName(action),
  })));
}

function startCorrection() {
  // From the facts as they stand: the round's, or as the last correction restated them.
  const facts = correctedFacts();
  correction = {
    round: round.id,
    board: [...(facts ? facts.board : round.board)],
    dealer: [...(facts ? facts.dealer : round.dealer)],
    seats: Object.fromEntries(round.seats.map((s) => {
      const fact = facts ? facts.seats[s.seat] : { hole: s.hole, play: s.play, fold: !s.play };
      return [s.seat, { hole: [...fact.hole], play: fact.play, fold: fact.fold }];
    })),
    place: null,
    changed: [],
    preview: null,
  };
  render();
}

// The corrected facts as settle.md input: the round's wagers, the cards and decisions as
// restated, the irregularities that do not void a round.
function correctionFacts() {
  return {
    board: correction.board,
    dealer: correction.dealer,
    irregularities: round.irregularities.filter((kind) => !page.voiding.includes(kind)).map((kind) => ({ kind })),
    seats: round.seats.map((s) => {
      const fact = correction.seats[s.seat];
      const seat = { seat: s.seat, ante: s.ante, blind: s.blind, trips: s.trips, progressive: s.progressive, hole: fact.hole };
      if (fact.fold) seat.fold = true;
      else seat.play = fact.play;
      return seat;
    }),
  };
}

// The engine settles the facts as restated before anyone signs: the supervisor sees the new
// payouts (on the felt and as the correction's lines) before the PIN.
async function loadCorrectionPreview() {
  if (!correcting() || correction.place || !correction.changed.length) return;
  const facts = JSON.stringify(correctionFacts());
  if (correction.preview && correction.preview.facts === facts) return;
  const fixing = correction;
  fixing.preview = { facts, body: null, error: "" };
  let answer;
  try {
    answer = await api.post(`rounds/${round.id}/corrections/preview`, { round: JSON.parse(facts) });
  } catch (err) {
    fixing.preview = null;
    linkFails();
    render();
    return;
  }
  linkWorks();
  if (correction !== fixing || !fixing.preview || fixing.preview.facts !== facts) return;
  if (answer.status === 200) fixing.preview.body = answer.body;
  else fixing.preview.error = answer.body && answer.body.error ? answer.body.error.message : fill(words.server_error, { status: answer.status });
  render();
}

function slotsOf(place) {
  return place === "board" ? 5 : 2;
}

function correctPlace(place) {
  correction.place = place;
  if (place === "board") correction.board = [];
  else if (place === "dealer") correction.dealer = [];
  else correction.seats[place].hole = [];
  if (!correction.changed.includes(place)) correction.changed.push(place);
  render();
}

function correctCard(card) {
  const place = correction.place;
  const cards = cardsAt(place);
  cards.push(card);
  if (cards.length >= slotsOf(place)) correction.place = null;
  render();
}

function correctDecision(n, action) {
  const fact = correction.seats[n];
  fact.fold = action === "fold";
  fact.play = fact.fold ? null : playOf(Number(action.split(":")[1]));
  const name = fill(words.decision_of, { seat: n });
  if (!correction.changed.includes(name)) correction.changed.push(name);
  render();
}

function drawCorrectionPreview() {
  const box = $("[data-correction-preview]");
  const shown = correctionPreview();
  const waiting = correction.preview && correction.preview.facts === JSON.stringify(correctionFacts()) ? correction.preview : null;
  if (!shown) {
    const text = waiting && waiting.error ? waiting.error : correction.changed.length && !correction.place ? words.correction_computing : words.correction_preview_wait;
    box.replaceChildren(el("p", { class: waiting && waiting.error ? "field-error" : "", text }));
    return;
  }
  const pays = shown.lines.filter((l) => l.net > 0).reduce((sum, l) => sum + l.net, 0);
  const collects = -shown.lines.filter((l) => l.net < 0).reduce((sum, l) => sum + l.net, 0);
  box.replaceChildren(
    el("p", { text: words.correction_preview }),
    el("ul", {}, ...shown.lines.map((l) => el("li", {
      class: l.net > 0 ? "win" : "lose", "data-preview-seat": l.seat, "data-preview-bet": l.bet, "data-net": l.net,
      text: fill(words.line, { seat: l.seat, bet: words[l.bet] || l.bet, net: `${l.net > 0 ? "+" : ""}${money(l.net)}` }),
    }))),
    el("p", { class: "correction-total", text: fill(words.correction_total, { pays: money(pays), collects: money(collects) }) }),
  );
}

function drawCorrection() {
  const form = $("[data-correction]");
  form.hidden = !correcting();
  if (form.hidden) return;
  drawCorrectionPreview();
  loadCorrectionPreview();
  const state = correction.place
    ? fill(words.correction_cards, { place: placeName(correction.place), count: slotsOf(correction.place) - cardsAt(correction.place).length })
    : correction.changed.length
      ? fill(words.correction_changes, { places: correction.changed.map((p) => (/^\d+$|^board$|^dealer$/.test(p) ? placeName(p) : p)).join(", ") })
      : words.correction_unchanged;
  $("[data-correction-state]").textContent = state;
}

function sendCorrection(form) {
  const error = $("[data-correction-error]");
  error.textContent = "";
  if (correction.place) {
    error.textContent = $("[data-correction-state]").textContent;
    flash(error.textContent);
    return;
  }
  if (!correctionPreview()) {
    // Nobody signs a correction without its new payouts on the screen.
    error.textContent = words.correction_preview_needed;
    flash(error.textContent);
    return;
  }
  send(`rounds/${round.id}/corrections`, {
    reason: form.elements.reason.value.trim(),
    supervisor: { employee_number: form.elements.employee_number.value.trim(), pin: form.elements.pin.value },
    round: correctionFacts(),
  }, { label: words.send_correction, supervisor: true, correction: true });
}

function drawCorrections() {
  const section = $("[data-corrections]");
  const list = round && round.stage === "settled" ? round.corrections || [] : [];
  section.hidden = !list.length;
  $("[data-correction-list]").replaceChildren(...list.map((c) => {
    const pays = c.lines.filter((l) => l.net > 0).reduce((sum, l) => sum + l.net, 0);
    const collects = -c.lines.filter((l) => l.net < 0).reduce((sum, l) => sum + l.net, 0);
    return el("li", { "data-correction-number": c.number },
      el("p", { text: fill(words.correction_line, { number: c.number, time: clock(c.at), supervisor: c.supervisor ? c.supervisor.name : "", reason: c.reason }) }),
      el("ul", {}, ...c.lines.map((l) => el("li", {
        class: l.net > 0 ? "win" : "lose", "data-line-seat": l.seat, "data-line-bet": l.bet, "data-net": l.net,
        text: fill(words.line, { seat: l.seat, bet: words[l.bet] || l.bet, net: `${l.net > 0 ? "+" : ""}${money(l.net)}` }),
      }))),
      el("p", { class: "correction-total", text: fill(words.correction_total, { pays: money(pays), collects: money(collects) }) }));
  }));
}

function draftOf(n, seat) {
  if (!drafts.seats[n]) {
    drafts.seats[n] = seat
      ? { ante: seat.ante, trips: seat.trips, progressive: seat.progressive > 0, dirty: false }
      : { ante: 0, trips: 0, progressive: false, dirty: false };
  }
  return drafts.seats[n];
}

function recordedAs(seat, draft) {
  return Boolean(seat && seat.ante === draft.ante && seat.trips === draft.trips && seat.progressive > 0 === Boolean(draft.progressive));
}

function wagerProblem(draft) {
  const limits = {
    min: money(table.min_bet_cents), max: money(table.max_bet_cents),
  };
  if (draft.ante === null || draft.trips === null) return words.not_amount;
  if (draft.ante < table.min_bet_cents || draft.ante > table.max_bet_cents) return fill(words["limits.ante"], limits);
  if (draft.trips && (draft.trips < table.trips_min_cents || draft.trips > table.trips_max_cents)) {
    return fill(words["limits.trips"], { min: money(table.trips_min_cents), max: money(table.trips_max_cents) });
  }
  if (draft.progressive && (!table.bank || table.bank.status !== "open")) return words.bank_closed;
  return "";
}

function drawEditor(editor, n, seat) {
  const draft = draftOf(n, seat);
  for (const bet of ["ante", "trips"]) {
    const input = $(`input[data-bet="${bet}"]`, editor);
    if (document.activeElement !== input && draft[bet] !== null) input.value = amountText(draft[bet], decimal);
  }
  const toggle = $("[data-progressive]", editor);
  if (toggle) {
    toggle.setAttribute("aria-pressed", draft.progressive ? "true" : "false");
    toggle.setAttribute("aria-disabled", table.bank && table.bank.status === "open" ? "false" : "true");
  }
  const problem = wagerProblem(draft);
  const record = $("[data-record]", editor);
  // A seat recorded as the draft says (or on its way) has nothing to record: no active button.
  const done = recordedAs(seat, draft) || Boolean(pendingOf("wagers_placed", n));
  record.setAttribute("aria-disabled", problem || done ? "true" : "false");
  record.classList.toggle("changed", draft.dirty && !done);
  $("[data-wager-error]", editor).textContent = draft.dirty || seat ? problem : "";
}

function drawPayout(node, n, shown) {
  const result = shown && shown.seats ? shown.seats.find((s) => s.seat === n) : null;
  if (!result) {
    node.replaceChildren();
    return;
  }
  const confirmed = round.stage === "settled" && !correctionPreview() ? seatOf(n)?.payout : null;
  const lines = [];
  for (const bet of BETS) {
    const stake = result.bets[bet] ? result.bets[bet].stake || 0 : 0;
    const net = confirmed && bet in confirmed ? confirmed[bet] : result.bets[bet] ? result.bets[bet].net : 0;
    if (!stake && !net) continue;
    lines.push(el("div", { class: net > 0 ? "win" : net < 0 ? "lose" : "push", "data-bet": bet, "data-net": net },
      el("dt", { text: words[bet] }), el("dd", { text: `${net > 0 ? "+" : ""}${money(net)}` })));
  }
  if (result.capped_cents) {
    lines.push(el("div", { class: "lose", "data-bet": "cap", "data-net": -result.capped_cents },
      el("dt", { text: words.cap }), el("dd", { text: money(-result.capped_cents) })));
  }
  const net = confirmed ? confirmed.net : result.net;
  const corrected = round.stage === "settled" && !correctionPreview() && (round.corrections || []).some((c) => c.lines.some((l) => l.seat === n));
  const heading = corrected
    ? words.corrected
    : result.outcome
      ? `${words[`outcome.${result.outcome}`]}${result.category ? ` · ${words[`cat.${result.category}`]}` : ""}`
      : "";
  node.replaceChildren(
    el("p", { class: "outcome", text: heading }),
    el("dl", {}, ...lines),
    el("p", { class: `seat-net ${net > 0 ? "win" : net < 0 ? "lose" : "push"}`, "data-seat-net": net },
      `${words.net} ${net > 0 ? "+" : ""}${money(net)}`),
  );
}

function drawCardEntry(dealing, places) {
  const section = $("[data-card-entry]");
  section.hidden = correcting() ? !correction.place : !(dealing && places.length && !round.pending_void);
  if (section.hidden) return;
  const taken = cardsOnTable();
  for (const button of $$("[data-card]", section)) {
    const used = taken.has(button.dataset.card);
    button.classList.toggle("taken", used);
    button.setAttribute("aria-disabled", used ? "true" : "false");
  }
}

function drawActions(dealing, step) {
  const show = (name, visible) => { $(`[data-action="${name}"]`).hidden = !visible; };
  const finished = !round || FINISHED.includes(round.stage);
  show("open", dealing && finished && table.status === "open" && !correcting() && !outbox.some((w) => w.action === "open"));
  show("lock", dealing && round && round.stage === "betting" && !round.pending_void && !pendingOf("bets_locked"));
  $('[data-action="lock"]').setAttribute("aria-disabled", round && round.seats.length ? "false" : "true");
  show("confirm", dealing && step.action === "confirm" && settlementShown() !== null && !pendingOf("settlement_confirmed"));
  const undo = undoable();
  const undoButton = $('[data-action="undo"]');
  show("undo", dealing && undo !== null);
  if (undo) {
    undoButton.textContent = undo.kind === "card"
      ? fill(words.undo_card, { card: cardText(undo.card), place: placeName(undo.place) })
      : fill(words.undo_wagers, { seat: undo.seat });
  }
  const declarable = round && !round.pending_void ? page.declarable[round.stage] || [] : [];
  show("irregularity", dealing && inProgress() && declarable.length > 0);
  show("correct", (dealing || page.may_approve) && round && round.stage === "settled" && !correcting());
}

function drawSettlement(shown) {
  const section = $("[data-settlement]");
  section.hidden = !shown;
  if (!shown) return;
  $("[data-provisional]").textContent = round.stage === "void"
    ? fill(words.void_reason, { reason: words[`irr.${round.void.reason}`] || round.void.reason })
    : round.stage === "settled" ? "" : words.provisional;
  const hits = (shown.progressive && shown.progressive.hits) || [];
  let pays = 0;
  let collects = 0;
  let meter = 0;
  for (const seat of shown.seats) {
    const hit = hits.find((h) => h.seat === seat.seat);
    // Once settled, each seat's payout (corrections included) is what the dealer pays.
    const confirmed = round.stage === "settled" && !correctionPreview() ? seatOf(seat.seat)?.payout : null;
    for (const bet of BETS) {
      const net = confirmed && bet in confirmed ? confirmed[bet] : seat.bets[bet] ? seat.bets[bet].net : 0;
      if (bet === "progressive" && hit) meter += hit.amount_cents;
      else if (net > 0) pays += net;
      else collects -= net;
    }
    pays -= confirmed ? confirmed.capped_cents || 0 : seat.capped_cents || 0;
  }
  $('[data-total="pays"]').textContent = money(pays);
  $('[data-total="pays"]').dataset.cents = pays;
  $('[data-total="collects"]').textContent = money(collects);
  $('[data-total="collects"]').dataset.cents = collects;
  $("[data-meter-total]").hidden = !meter;
  $('[data-total="meter"]').textContent = money(meter);
  const lines = hits.map((h) => el("li", { class: "hit", "data-hit-seat": h.seat },
    `${fill(words.hit, { seat: h.seat, amount: money(h.amount_cents) })} · ${words[`hit_state.${h.state || "pending"}`]}`));
  for (const seat of shown.seats) {
    const envy = seat.bets.envy ? seat.bets.envy.net : 0;
    if (envy > 0) lines.push(el("li", { class: "envy", text: fill(words.envy_line, { seat: seat.seat, amount: money(envy) }) }));
  }
  $("[data-hits]").replaceChildren(...lines);
  drawCorrections();
}

function drawVoid(dealing) {
  const kinds = round && !round.pending_void ? page.declarable[round.stage] || [] : [];
  const list = $("[data-irregularities]");
  list.hidden = !(irregularityOpen && dealing && inProgress() && kinds.length);
  if (!list.hidden) {
    $("[data-irr-list]").replaceChildren(...kinds.map((kind) => el("button", {
      type: "button", class: "irregularity", "data-irregularity": kind, text: words[`irr.${kind}`],
    })));
  }
  const form = $("[data-supervisor]");
  const waiting = Boolean(round && round.pending_void && inProgress());
  form.hidden = !waiting;
  if (waiting) {
    $("[data-void-reason]").textContent = fill(words.void_pending, { reason: words[`irr.${round.pending_void}`] || round.pending_void });
  } else {
    $("[data-supervisor-error]").textContent = "";
  }
}

// --- the round as the server says it ----------------------------------------------------------

function adopt(next) {
  if (!next) return false;
  // A correction writes lines, not events: the same seq with one more correction is newer.
  const more = (r) => (r.corrections || []).length;
  const newer = !round || next.id > round.id || (next.id === round.id && (next.seq > round.seq || more(next) > more(round)));
  if (!newer) return false;
  // The socket may bring the round with the correction being sent before the answer to the
  // send arrives: the draft is done then, not left open over its own result.
  const sent = outbox.some((w) => w.correction);
  if (sent && correcting() && next.id === round.id && more(next) > more(round)) {
    correction = null;
    $("[data-correction]").reset();
  }
  round = next;
  if (round.stage !== "betting" || drafts.round !== round.id) drafts = { round: round.id, seats: {} };
  // Wagers being typed stay; the others show what the server recorded (perhaps elsewhere).
  for (const [n, draft] of Object.entries(drafts.seats)) if (!draft.dirty) delete drafts.seats[n];
  render();
  return true;
}

async function loadPreview() {
  const wanted = { id: round.id, seq: round.seq };
  if (preview && preview.id === wanted.id && preview.seq === wanted.seq) return;
  preview = { ...wanted, body: null };
  try {
    const answer = await api.get(`rounds/${wanted.id}/settlement`);
    linkWorks();
    if (answer.status === 200 && preview.id === wanted.id && preview.seq === wanted.seq) {
      preview.body = answer.body;
      render();
    } else if (answer.status !== 200 && answer.body && answer.body.error) {
      flash(answer.body.error.message);
    }
  } catch (err) {
    preview = null;
    linkFails();
  }
}

// --- the link ------------------------------------------------------------------------------

function drawLink() {
  const up = socketUp && !fetchDown;
  const node = $("[data-link]");
  node.dataset.state = up ? "online" : "offline";
  node.textContent = up ? words.online : words.offline;
  root.classList.toggle("offline", !up);
}

function linkWorks() {
  if (fetchDown) {
    fetchDown = false;
    drawLink();
  }
}

function linkFails() {
  fetchDown = true;
  drawLink();
}

function flash(text, kind = "error") {
  const node = $("[data-flash]");
  node.textContent = text;
  node.dataset.kind = kind;
  node.hidden = !text;
  if (text) root.dataset.flashes = Number(root.dataset.flashes || 0) + 1;
}

// --- writes ----------------------------------------------------------------------------------

function newKey() {
  return `t${page.table.id}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

function keep() {
  writeStore(localStorage, OUTBOX, outbox.filter((w) => !w.supervisor));
}

function online() {
  return socketUp && !fetchDown;
}

// The taps held by a lost link, in the order they will be sent: none is dropped or replaced.
function drawPending() {
  const held = outbox.filter((w) => w.held);
  $("[data-pending]").hidden = !held.length;
  $("[data-pending-list]").replaceChildren(...held.map((w) => el("li", { "data-pending-key": w.key, text: w.label })));
}

function send(path, body, { label, undo = null, supervisor = false, correction: fixing = false, action = null } = {}) {
  // One tap, one write: the same action tapped again while its write is on its way (or
  // held) is that write, under its key, not a second one.
  if (action && outbox.some((w) => w.action === action)) return;
  if (supervisor && !online()) {
    // A PIN is never held on the tablet: with the link down, the approval is refused here.
    $(fixing ? "[data-correction-error]" : "[data-supervisor-error]").textContent = words.offline;
    flash(words.offline);
    return;
  }
  tap = { t0: performance.now(), id: round ? round.id : null, seq: round ? round.seq : -1 };
  const held = !online();
  outbox.push({ key: newKey(), path, body, label, undo, supervisor, correction: fixing, action, round: round ? round.id : null, state: held ? "held" : "queued", held });
  keep();
  render();
  flush();
}

function event(body, options) {
  if (!round) return;
  // Each event moves the round one seq on: a tap made behind events still on their way is
  // judged on the round they will have made.
  const ahead = pendingEvents();
  const seq = ahead.length ? ahead[ahead.length - 1].body.expected_seq + 1 : round.seq;
  send(`rounds/${round.id}/events`, { expected_seq: seq, ...body }, options);
}

let flushing = false;

async function flush() {
  clearTimeout(retryTimer);
  if (flushing) return;
  flushing = true;
  while (outbox.length) {
    const write = outbox[0];
    write.state = "sending";
    let answer;
    try {
      answer = await api.post(write.path, { ...write.body, key: write.key });
    } catch (err) {
      flushing = false;
      if (!(err instanceof LinkDown)) throw err;
      // No answer: the write may or may not have arrived. It is sent again with the same
      // key, so the server applies it once either way; it and those behind it are listed.
      outbox.forEach((w) => { w.state = "held"; w.held = true; });
      keep();
      linkFails();
      render();
      retryTimer = setTimeout(flush, 1500);
      return;
    }
    outbox.shift();
    keep();
    linkWorks();
    answered(write, answer);
  }
  flushing = false;
}

// A refused event takes with it the events tapped behind it in its round: each was judged
// on the round it would have made. They are named, to be tapped again if still wanted.
function dropBehind(write) {
  const behind = outbox.filter((w) => w.round === write.round && w.body.event);
  if (!write.body.event || !behind.length) return "";
  outbox = outbox.filter((w) => !behind.includes(w));
  keep();
  return ` ${fill(words.not_sent, { steps: behind.map((w) => w.label).join(" · ") })}`;
}

function answered(write, answer) {
  const { status, body } = answer;
  const error = body && body.error;
  if (status === 200 || status === 201) {
    if (!outbox.some((w) => w.held)) flash("");
    if (write.correction) {
      correction = null;
      $("[data-correction]").reset();
    } else if (write.supervisor) $("[data-supervisor]").reset();
    lastEntry = write.undo && body ? { ...write.undo, round: body.id, seq: body.seq } : lastEntry;
    writeStore(sessionStorage, UNDO, lastEntry);
    if (write.undo && write.undo.kind === "wagers" && drafts.seats[write.undo.seat]) drafts.seats[write.undo.seat].dirty = false;
    if (!adopt(body)) render();
    return;
  }
  if (status === 202 && write.correction) {
    // The correction waits for a second person at the pit: the round is unchanged.
    correction = null;
    $("[data-correction]").reset();
    flash(words.correction_waiting);
    if (!adopt(body)) render();
    return;
  }
  const dropped = dropBehind(write);
  if (status === 409 && error && error.code === "stale") {
    flash((write.held ? words.refused_stale : words.stale) + dropped);
    if (!adopt(body.round)) render();
    return;
  }
  if (error && write.supervisor) {
    $(write.correction ? "[data-correction-error]" : "[data-supervisor-error]").textContent = error.message;
    // A refused PIN is typed again from nothing, never after the wrong digits.
    $(write.correction ? "[data-correction]" : "[data-supervisor]").elements.pin.value = "";
  }
  flash((error ? error.message : fill(words.server_error, { status })) + dropped);
  if (!(body && body.round && adopt(body.round))) render();
}

// The last tap, while it is still held by a lost link, is taken back from the outbox: it
// was never sent.
function heldUndo() {
  const last = outbox[outbox.length - 1];
  return last && last.undo && last.state === "held" && last.round === (round && round.id) ? last : null;
}

function undoable() {
  const held = heldUndo();
  if (held) return held.undo;
  if (pendingEvents().length) return null;
  if (!lastEntry || !round || lastEntry.round !== round.id || lastEntry.seq !== round.seq) return null;
  return lastEntry;
}

// --- taps ----------------------------------------------------------------------------------

function enterCard(card) {
  if (correcting() && correction.place) {
    if (cardsOnTable().has(card)) flash(fill(words.card_taken, { card: cardText(card) }));
    else correctCard(card);
    return;
  }
  if (!round || !target) {
    flash(words.no_card_expected);
    return;
  }
  if (cardsOnTable().has(card)) {
    flash(fill(words.card_taken, { card: cardText(card) }));
    return;
  }
  const place = target === "board" || target === "dealer" ? target : Number(target);
  event({ event: { kind: "cards_entered", place, cards: [card] } }, {
    label: `${cardText(card)} → ${placeName(target)}`, undo: { kind: "card", place: target, card }, action: `card:${card}`,
  });
}

function recordWagers(n) {
  const seat = seatOf(n);
  const draft = draftOf(n, seat);
  const problem = wagerProblem(draft);
  if (problem) {
    $("[data-wager-error]", seatEl(n)).textContent = problem;
    flash(problem);
    return;
  }
  if (recordedAs(seat, draft)) {
    flash(fill(words.already_recorded, { seat: n }));
    return;
  }
  const progressive = draft.progressive ? table.bank.progressive_wager_cents : 0;
  event({ event: { kind: "wagers_placed", seat: n, ante: draft.ante, blind: draft.ante, trips: draft.trips, progressive } }, {
    label: fill(words.record_seat, { seat: n }), undo: { kind: "wagers", seat: n }, action: `wagers:${n}`,
  });
}

function undo() {
  const held = heldUndo();
  if (held) {
    outbox.pop();
    keep();
    render();
    return;
  }
  const entry = undoable();
  if (!entry) {
    flash(words.nothing_to_undo);
    return;
  }
  if (entry.kind === "card") {
    const place = entry.place === "board" || entry.place === "dealer" ? entry.place : Number(entry.place);
    target = entry.place;
    event({ event: { kind: "card_removed", place, card: entry.card } }, { label: fill(words.undo_card, { card: cardText(entry.card), place: placeName(entry.place) }) });
  } else {
    event({ event: { kind: "wagers_withdrawn", seat: entry.seat } }, { label: fill(words.undo_wagers, { seat: entry.seat }) });
  }
}

function onClick(e) {
  const button = e.target.closest("button");
  if (!button || !root.contains(button)) return;
  metrics.taps += 1;
  const seatNode = button.closest(".seat");
  const n = seatNode ? Number(seatNode.dataset.seat) : null;
  if (button.dataset.card) {
    enterCard(button.dataset.card);
  } else if (button.dataset.decision) {
    const [action, multiple] = button.dataset.decision.split(":");
    const decision = { kind: "decision", seat: n, action: action === "bet" ? "bet" : action };
    if (multiple) decision.multiple = Number(multiple);
    event({ event: decision }, {
      label: fill(words.action_of, { seat: n, action: actionName(button.dataset.decision) }), action: `decision:${n}`,
    });
  } else if (button.dataset.chip) {
    const draft = draftOf(n, seatOf(n));
    draft[button.dataset.chip] = (draft[button.dataset.chip] || 0) + Number(button.dataset.cents);
    draft.dirty = true;
    render();
  } else if (button.dataset.chipClear) {
    const draft = draftOf(n, seatOf(n));
    draft[button.dataset.chipClear] = 0;
    draft.dirty = true;
    render();
  } else if (button.hasAttribute("data-progressive")) {
    if (button.getAttribute("aria-disabled") === "true") {
      flash(words.bank_closed);
      return;
    }
    const draft = draftOf(n, seatOf(n));
    draft.progressive = !draft.progressive;
    draft.dirty = true;
    render();
  } else if (button.dataset.place && correcting()) {
    correctPlace(button.dataset.place);
  } else if (button.dataset.fixDecision) {
    correctDecision(n, button.dataset.fixDecision);
  } else if (button.dataset.place) {
    target = button.dataset.place;
    render();
  } else if (button.dataset.irregularity) {
    irregularityOpen = false;
    event({ event: { kind: "irregularity_declared", irregularity: button.dataset.irregularity } }, {
      label: words[`irr.${button.dataset.irregularity}`], action: "irregularity",
    });
  } else {
    const action = button.dataset.action;
    if (action === "open") send(`tables/${table.id}/rounds`, {}, { label: words.new_round, action: "open" });
    else if (action === "lock") {
      if (button.getAttribute("aria-disabled") === "true") flash(words["next.wagers"]);
      else event({ event: { kind: "bets_locked" } }, { label: words.no_more_bets, action: "lock" });
    } else if (action === "confirm") event({ event: { kind: "settlement_confirmed" } }, { label: words.confirm, action: "confirm" });
    else if (action === "undo") undo();
    else if (action === "irregularity") {
      irregularityOpen = !irregularityOpen;
      render();
    } else if (action === "cancel-irregularity") {
      irregularityOpen = false;
      render();
    } else if (action === "correct") startCorrection();
    else if (action === "cancel-correction") {
      correction = null;
      $("[data-correction]").reset();
      render();
    }
  }
}

function onSubmit(e) {
  e.preventDefault();
  const form = e.target;
  if (form.matches("[data-wager-editor]")) {
    recordWagers(Number(form.closest(".seat").dataset.seat));
  } else if (form.matches("[data-correction]")) {
    sendCorrection(form);
  } else if (form.matches("[data-supervisor]")) {
    const kind = e.submitter ? e.submitter.value : "void_approved";
    $("[data-supervisor-error]").textContent = "";
    event({
      event: { kind },
      supervisor: { employee_number: form.elements.employee_number.value.trim(), pin: form.elements.pin.value },
    }, { label: e.submitter ? e.submitter.textContent : kind, supervisor: true });
  }
}

function onInput(e) {
  const input = e.target;
  if (!input.dataset.bet) return;
  const n = Number(input.closest(".seat").dataset.seat);
  const draft = draftOf(n, seatOf(n));
  draft[input.dataset.bet] = parseAmount(input.value);
  draft.dirty = true;
  render();
}

function onKeyboard(e) {
  if (e.key !== "Enter") return;
  e.preventDefault();
  metrics.taps += 1;
  const typed = e.target.value;
  // The field is emptied whatever the outcome: a refused entry never sticks to the next one.
  e.target.value = "";
  const card = readCard(typed, page.card_notation);
  if (!card) {
    flash(fill(words.not_a_card, { text: typed.trim() }));
    return;
  }
  enterCard(card);
}

// --- start ---------------------------------------------------------------------------------

root.addEventListener("click", onClick);
root.addEventListener("submit", onSubmit);
root.addEventListener("input", onInput);
$("[data-keyboard]").addEventListener("keydown", onKeyboard);

// --- the progressive meter, live from the bank's feed through the table's channel --------

let meterSeq = -1;

function drawMeter(message) {
  const meter = $("[data-meter]");
  if (!meter) return;
  if (message.type === "meter") {
    if (message.seq < meterSeq) return;
    meterSeq = message.seq;
    for (const level of message.levels) {
      const amount = $(`[data-level="${level.level}"] [data-amount]`, meter);
      if (amount) {
        amount.textContent = money(level.amount_cents);
        amount.dataset.cents = level.amount_cents;
      }
    }
    $("[data-meter-at]", meter).textContent = fill(words.meter_at, { time: clock(new Date().toISOString()) });
  } else if (message.type === "status") {
    if (table.bank) table.bank = { ...table.bank, status: message.status };
    render();
  } else if (message.type === "hit") {
    $("[data-meter-hit]", meter).textContent = fill(words.meter_hit, {
      table: message.table, seat: message.seat, amount: money(message.amount_cents),
    });
  }
  meter.dataset.status = table.bank ? table.bank.status : "";
  $("[data-meter-status]", meter).textContent = table.bank && table.bank.status !== "open" ? words.meter_closed : "";
}

// A rated seat shows its player's alias (never a name or a card): the page's own at load,
// then the table's `seats` message after every rating write.
function drawSeatAliases(seats) {
  for (const title of document.querySelectorAll("[id^='seat-'][id$='-title']")) {
    const n = title.id.slice(5, -6);
    let label = $("[data-seat-alias]", title);
    const alias = seats[n];
    if (!alias) {
      if (label) label.remove();
      continue;
    }
    if (!label) {
      label = document.createElement("span");
      label.className = "seat-alias";
      label.dataset.seatAlias = "";
      title.append(" ", label);
    }
    label.textContent = alias;
  }
}

const socket = new TableSocket({
  // The meter's labels come in the page's language.
  url: `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${root.dataset.wsPath}?language=${page.money.language}`,
  onLink(up) {
    socketUp = up;
    drawLink();
    if (up) flush();
  },
  onMessage(message) {
    if (message.type === "round") adopt(message.round);
    else if (message.type === "table" && message.table) {
      table = message.table;
      render();
    } else if (message.type === "seats" && message.seats) drawSeatAliases(message.seats);
    else if (["meter", "status", "hit"].includes(message.type)) drawMeter(message);
  },
});

// A write that never got its answer before the page went away is sent again, same key.
const held = readStore(localStorage, OUTBOX);
if (Array.isArray(held)) outbox = held.map((w) => ({ ...w, state: "held", held: true }));

const meterAt = $("[data-meter-at]");
if (meterAt) meterAt.textContent = fill(words.meter_at, { time: clock(new Date().toISOString()) });
if (table.bank) drawMeter({ type: "status", status: table.bank.status });
drawLink();
render();
socket.start();
if (outbox.length) flush();
