// The import form without this script is a plain multipart POST: the
// browser shows the upload's progress itself and then the report page.
// With it, the page shows the progress beside the form (the importer
// reads the file as it arrives, so the upload's progress is the
// import's) and then shows the report.
"use strict";
document.querySelectorAll("form[data-upload]").forEach((form) => {
  const bar = form.querySelector("[data-progress]");
  const text = form.querySelector("[data-progress-text]");
  form.addEventListener("submit", (event) => {
    if (!form.reportValidity()) return;
    event.preventDefault();
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    bar.hidden = false;
    const xhr = new XMLHttpRequest();
    xhr.open("POST", form.action);
    xhr.upload.addEventListener("progress", (e) => {
      if (!e.lengthComputable) return;
      const pct = Math.floor((100 * e.loaded) / e.total);
      bar.value = pct;
      text.textContent = form.dataset.msgProgress
        .replace("{pct}", pct)
        .replace("{sent}", (e.loaded / 1048576).toFixed(1))
        .replace("{total}", (e.total / 1048576).toFixed(1));
    });
    xhr.upload.addEventListener("load", () => {
      text.textContent = form.dataset.msgSent;
    });
    xhr.addEventListener("load", () => {
      const doc = new DOMParser().parseFromString(xhr.responseText, "text/html");
      document.title = doc.title;
      document.body.replaceWith(document.adoptNode(doc.body));
    });
    xhr.addEventListener("error", () => {
      button.disabled = false;
      text.textContent = form.dataset.msgFailed;
    });
    xhr.send(new FormData(form));
  });
});
