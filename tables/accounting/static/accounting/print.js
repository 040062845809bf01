// The report's Print button (an inline onclick would be refused by the Content-Security-Policy).
for (const button of document.querySelectorAll("[data-print]")) {
  button.addEventListener("click", () => window.print());
}
