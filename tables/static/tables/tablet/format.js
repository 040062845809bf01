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

// Cards as settle.md reads them: rank 2-9 T J Q K A (or 10), suit s h d c, any case.
const RANKS = "23456789TJQKA";
const SUITS = "shdc";

export function canonicalCard(text) {
  const value = text.trim();
  const match = /^(10|[2-9tjqka])([shdc])$/i.exec(value);
  if (!match) return null;
  const rank = match[1] === "10" ? "T" : match[1].toUpperCase();
  return RANKS.includes(rank) && SUITS.includes(match[2].toLowerCase()) ? rank + match[2].toLowerCase() : null;
}

export function fill(template, params) {
  return template.replace(/%\((\w+)\)s/g, (_, name) => String(params[name] ?? ""));
}
