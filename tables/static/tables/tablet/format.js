// Money and clock as the server writes them (casino/money.py): integer cents in, the
// property's currency in the page's language out; times in the property's time zone.

const NARROW_NBSP = "\u202f";
const NBSP = "\u00a0";

function group(digits, separator) {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, separator);
}

export function moneyFormat({ symbol, language }) {
  const french = language.startsWith("fr");
  return (cents) => {
    const sign = cents < 0 ? "-" : "";
    const whole = Math.abs(cents);
    const units = String(Math.floor(whole / 100));
    const rest = String(whole % 100).padStart(2, "0");
    if (french) return `${sign}${group(units, NARROW_NBSP)},${rest}${NBSP}${symbol}`;
    const number = `${group(units, ",")}.${rest}`;
    return symbol.length > 1 ? `${sign}${symbol}${NBSP}${number}` : `${sign}${symbol}${number}`;
  };
}

// "25", "12,50", "12.5" -> cents; "" -> 0; anything else -> null.
export function parseAmount(text) {
  const value = text.trim();
  if (value === "") return 0;
  const match = /^(\d{1,7})(?:[.,](\d{1,2}))?$/.exec(value);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] || "0").padEnd(2, "0"));
}

export function amountText(cents, decimal = ",") {
  if (!cents) return "";
  const rest = cents % 100;
  return rest ? `${Math.floor(cents / 100)}${decimal}${String(rest).padStart(2, "0")}` : String(cents / 100);
}

export function clockFormat({ language, timeZone }) {
  const format = new Intl.DateTimeFormat(language === "en" ? "en-GB" : "fr-FR", {
    timeZone, hour: "2-digit", minute: "2-digit",
  });
  return (iso) => (iso ? format.format(new Date(iso)) : "");
}

// A card as the dealer types it, in the field's notation: the engine's tables
// (tables/rules/cards.py NOTATIONS, handed over by the page) read by the engine's own steps
// (read_card): fold the text (lower case, no accents, no spaces), then the longest rank word,
// an optional joining word ("de", "of"), a suit word. The canonical code ("Kh"), or null.
export function foldTyped(text) {
  return text.toLowerCase().replace(/\u0153/g, "oe").normalize("NFD").replace(/\p{M}/gu, "").replace(/\s+/gu, "");
}

export function readCard(text, notation) {
  const folded = foldTyped(text);
  const rankWords = Object.keys(notation.ranks).sort((a, b) => b.length - a.length);
  for (const word of rankWords) {
    if (!folded.startsWith(word)) continue;
    let rest = folded.slice(word.length);
    for (const join of Object.keys(notation.joins)) {
      if (rest.startsWith(join) && Object.hasOwn(notation.suits, rest.slice(join.length))) {
        rest = rest.slice(join.length);
        break;
      }
    }
    if (Object.hasOwn(notation.suits, rest)) return notation.ranks[word] + notation.suits[rest];
  }
  return null;
}

export function fill(template, params) {
  return template.replace(/%\((\w+)\)s/g, (_, name) => String(params[name] ?? ""));
}
