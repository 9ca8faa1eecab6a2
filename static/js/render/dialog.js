// A yes/no question in a modal dialog (#confirm in the page): resolves true only on the
// explicit yes button; Escape, the backdrop and "cancel" all answer no.

import { $ } from "../dom.js";

export function confirmDialog(T, message, yes) {
  const dialog = $("confirm");
  $("confirm-text").textContent = message;
  $("confirm-yes").textContent = yes || T.confirmYes;
  $("confirm-no").textContent = T.cancel;
  return new Promise((resolve) => {
    const done = (answer) => {
      dialog.removeEventListener("close", onClose);
      $("confirm-yes").onclick = null;
      $("confirm-no").onclick = null;
      if (dialog.open) dialog.close();
      resolve(answer);
    };
    const onClose = () => done(false);
    dialog.addEventListener("close", onClose);
    $("confirm-yes").onclick = () => done(true);
    $("confirm-no").onclick = () => done(false);
    dialog.showModal();
    $("confirm-no").focus(); // the safe answer has the focus
  });
}
