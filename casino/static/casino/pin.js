// The keypad types into whichever field (employee number or PIN) has the focus last.
const form = document.querySelector("[data-pin-form]");
if (form) {
  const fields = [...form.querySelectorAll("[data-pin-field]")];
  let target = fields.find((f) => !f.value) || fields[fields.length - 1];
  fields.forEach((f) => f.addEventListener("focus", () => { target = f; }));
  form.querySelectorAll("[data-key]").forEach((button) => {
    button.addEventListener("click", () => {
      const key = button.dataset.key;
      if (key === "clear") {
        target.value = "";
      } else if (!target.maxLength || target.maxLength < 0 || target.value.length < target.maxLength) {
        target.value += key;
      }
      target.focus();
    });
  });
}
