// The rule set page follows its par sheet's computation: the progress every few seconds,
// then the page again once it is done (or failed), to show the figures.
const state = document.querySelector(".parsheet-state");
const running = (status) => status === "queued" || status === "running";

async function follow() {
  const response = await fetch(state.dataset.statusUrl, { credentials: "same-origin" });
  if (!response.ok) return;
  const found = await response.json();
  if (!running(found.status)) {
    window.location.reload();
    return;
  }
  state.querySelector("progress").value = found.progress;
  state.querySelector(".parsheet-progress").textContent = `${found.progress} %`;
  state.querySelector(".parsheet-label").textContent = found.status_label;
  setTimeout(follow, 3000);
}

if (state && running(state.dataset.status)) setTimeout(follow, 3000);
