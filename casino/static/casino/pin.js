// The keypad types into whichever field (employee number or PIN) has the focus last. Its OK
// key (and Enter) on the employee number moves on to the PIN; on the PIN it signs in. After a
// refused sign-in the page comes back with the number kept and the PIN empty and focused.
const form = document.querySelector("[data-pin-form]");
if (form) {
  const fields = [...form.querySelectorAll("[data-pin-field]")];
  const [number, pin] = fields;
  let target = fields.find((f) => !f.value) || fields[fields.length - 1];
  const ok = form.querySelector(".key-ok");
  // The field being typed is outlined, and OK says what it does there: "Next" on the number.
  const mark = () => {
    fields.forEach((f) => f.closest("label").classList.toggle("typing", f === target));
    ok.textContent = target === number ? ok.dataset.next : ok.dataset.ok;
  };
  fields.forEach((f) => f.addEventListener("focus", () => { target = f; mark(); }));
  // The focus may have landed (autofocus) before this module ran.
  if (fields.includes(document.activeElement)) target = document.activeElement;
  mark();
  const moveOn = () => {
    target = pin;
    pin.focus();
    mark();
  };
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
  // OK (or Enter, which clicks it) on a typed employee number is "next", not "sign in" with
  // an empty PIN: caught on the click, before the browser's own check of the empty field.
  ok.addEventListener("click", (e) => {
    if (target === number && number.value.trim() && !pin.value) {
      e.preventDefault();
      moveOn();
    }
  });
}
