// Admin console enhancements. Every form also works without this file:
// the add and edit forms then post to /admin/clips..., and the cover
// preview is simply not live.
"use strict";

const clipFields = ["title", "iframe_url", "cover_url", "actor", "studio", "platform", "notes"];

function fieldError(form, name) {
  return form.querySelector(`[data-error-for="${name}"]`);
}

// errorSlot returns the message element of a field, creating it after
// the field (and its hint) as the server-rendered form places it.
function errorSlot(form, input, name) {
  let out = fieldError(form, name);
  if (!out) {
    out = document.createElement("p");
    out.className = "field-error";
    out.id = `${name}-error`;
    out.dataset.errorFor = name;
    input.closest(".field").append(out);
  }
  return out;
}

function clearErrors(form) {
  for (const name of clipFields) {
    const input = form.elements.namedItem(name);
    const out = fieldError(form, name);
    if (input) input.removeAttribute("aria-invalid");
    if (out) out.remove();
  }
  const alert = form.querySelector("[data-alert]");
  alert.hidden = true;
  alert.textContent = "";
}

function showAlert(form, message) {
  const alert = form.querySelector("[data-alert]");
  alert.textContent = message;
  alert.hidden = false;
  alert.focus();
}

// showErrors puts each field's message next to it and moves the focus to
// the first failing field, as the server-rendered form does.
function showErrors(form, error) {
  const fields = error.fields || {};
  let first = null;
  const other = [];
  for (const [name, message] of Object.entries(fields)) {
    const input = form.elements.namedItem(name);
    if (input && input.closest(".field")) {
      input.setAttribute("aria-invalid", "true");
      errorSlot(form, input, name).textContent = message;
      if (!first) first = input;
    } else {
      other.push(`${name} ${message}`);
    }
  }
  if (first) {
    const prefix = form.dataset.failed;
    showAlert(form, other.length ? `${prefix} ${other.join("; ")}` : prefix);
    first.focus();
    return;
  }
  showAlert(form, error.message || form.dataset.msgUnsaved);
}

async function submitToAPI(form) {
  clearErrors(form);
  const body = {};
  for (const name of clipFields) {
    const input = form.elements.namedItem(name);
    if (input) body[name] = input.value;
  }
  const button = form.querySelector("[type=submit]");
  button.disabled = true;
  try {
    const res = await fetch(form.dataset.api, {
      method: form.dataset.method,
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      credentials: "same-origin",
      body: JSON.stringify(body),
    });
    if (res.ok) {
      const clip = (await res.json()).data;
      window.location.assign(form.dataset.done.replace("{id}", clip.id));
      return;
    }
    if (res.status === 401) {
      window.location.assign("/admin/login");
      return;
    }
    if (form.dataset.lang !== "en") {
      // The JSON API speaks English only: the form goes to the console
      // itself, which checks it again (nothing was written) and shows
      // the problems in the page's language.
      form.submit();
      return;
    }
    let error = {};
    try {
      error = (await res.json()).error || {};
    } catch {
      // Not the API's error shape (a proxy page): the generic message will do.
    }
    showErrors(form, error);
  } catch {
    showAlert(form, form.dataset.msgOffline);
  } finally {
    button.disabled = false;
  }
}

document.querySelectorAll("form[data-api]").forEach((form) => {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submitToAPI(form);
  });
});

// Cover preview: the cover URL when one is typed, else the cover the
// server derives from the player URL (GET /admin/cover keeps the rule in
// one place, on the server).
function setupCoverPreview(form) {
  const iframe = form.elements.namedItem("iframe_url");
  const cover = form.elements.namedItem("cover_url");
  const img = form.querySelector("[data-cover-preview]");
  const note = form.querySelector("[data-cover-note]");
  if (!iframe || !cover || !img || !note) return;
  const placeholder = img.dataset.placeholder;
  let timer = 0;
  let seq = 0;

  let said = "";
  img.addEventListener("error", () => {
    if (img.getAttribute("src") !== placeholder) {
      img.src = placeholder;
      note.textContent = `${said} ${form.dataset.msgCoverNotLoaded}`;
    }
  });

  // show previews src (the placeholder when empty); source says where
  // the cover comes from: "typed", "derived" or "none".
  function show(src, text, source) {
    said = text;
    img.dataset.source = source;
    note.textContent = text;
    img.src = src || placeholder;
  }

  async function update() {
    const mine = ++seq;
    const typed = cover.value.trim();
    if (/^https?:\/\/\S+$/i.test(typed)) {
      show(typed, form.dataset.msgCoverTyped, "typed");
      return;
    }
    const player = iframe.value.trim();
    if (!player) {
      show("", form.dataset.msgCoverNone, "none");
      return;
    }
    try {
      const res = await fetch("/admin/cover?iframe_url=" + encodeURIComponent(player), {
        headers: { Accept: "application/json" },
        credentials: "same-origin",
      });
      const derived = res.ok ? (await res.json()).cover_url : "";
      if (mine !== seq) return; // a newer keystroke won
      if (derived) {
        show(derived, form.dataset.msgCoverDerived, "derived");
      } else {
        show("", form.dataset.msgCoverUnderivable, "none");
      }
    } catch {
      if (mine === seq) show("", form.dataset.msgCoverUnavailable, "none");
    }
  }

  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(update, 200);
  };
  iframe.addEventListener("input", later);
  cover.addEventListener("input", later);
  update();
}

document.querySelectorAll("form[data-cover]").forEach(setupCoverPreview);

// The movie form (movieform.html): each poster's preview follows its URL
// as it is typed, with the image's size and a word when its shape is not
// the poster's; each episode editor's line numbers and count follow its
// text. Without this file the form posts the same, the previews show the
// saved URLs and the numbers the saved lines.
function setupPoster(box, msg) {
  const input = box.querySelector("input");
  const img = box.querySelector("[data-poster-preview]");
  const note = box.querySelector("[data-poster-note]");
  if (!input || !img || !note) return;
  const placeholder = img.dataset.placeholder;
  const shape = box.dataset.poster;
  let timer = 0;

  img.addEventListener("error", () => {
    if (img.getAttribute("src") !== placeholder) {
      img.src = placeholder;
      note.textContent = msg.msgPosterNotLoaded;
    }
  });
  img.addEventListener("load", () => {
    if (img.getAttribute("src") === placeholder) return;
    const w = img.naturalWidth;
    const h = img.naturalHeight;
    let text = msg.msgPosterSize.replace("{w}", w).replace("{h}", h);
    if (shape === "landscape" && w <= h) text += " " + msg.msgPosterNotLandscape;
    if (shape === "portrait" && h <= w) text += " " + msg.msgPosterNotPortrait;
    note.textContent = text;
  });

  // Only an http(s) address reaches src, as the server's previewURL
  // allows; the page's Content-Security-Policy decides what loads.
  function update() {
    const typed = input.value.trim();
    if (!typed) {
      note.textContent = msg.msgPosterNone;
      img.src = placeholder;
    } else if (!/^https?:\/\/[^\s/?#]+\S*$/i.test(typed)) {
      note.textContent = msg.msgPosterNotWeb;
      img.src = placeholder;
    } else if (img.getAttribute("src") !== typed) {
      note.textContent = "";
      img.src = typed;
    }
  }
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(update, 300);
  });
  // The saved poster may have loaded, or failed, before this ran.
  if (img.complete && img.getAttribute("src") !== placeholder) {
    img.dispatchEvent(new Event(img.naturalWidth > 0 ? "load" : "error"));
  }
}

function setupEpisodeEditor(editor, msg) {
  const text = editor.querySelector("textarea");
  const gutter = editor.querySelector("[data-gutter]");
  const count = editor.closest(".field").querySelector("[data-line-count]");
  if (!text || !gutter || !count) return;
  editor.classList.add("code-editor--live");
  let shown = -1;
  // Lines as the server counts them (serverBlock.Lines): a final newline
  // ends a line rather than starting one.
  function update() {
    const lines = text.value.replace(/\n$/, "").split("\n").length;
    if (lines === shown) return;
    shown = lines;
    const numbers = new Array(lines);
    for (let n = 0; n < lines; n++) numbers[n] = n + 1;
    gutter.textContent = numbers.join("\n");
    text.rows = lines + 1;
    count.textContent = msg.msgLines.replace("{n}", lines.toLocaleString(document.documentElement.lang));
  }
  text.addEventListener("input", update);
  update();
}

document.querySelectorAll("form[data-movie-form]").forEach((form) => {
  form.querySelectorAll("[data-poster]").forEach((box) => setupPoster(box, form.dataset));
  form.querySelectorAll("[data-code-editor]").forEach((editor) => setupEpisodeEditor(editor, form.dataset));
});
