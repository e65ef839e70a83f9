// The API reference page: renders the service's OpenAPI document
// (operations, parameters, bodies, responses, schemas) and lets a reader
// try each operation against this same origin. Served with a CSP that
// allows this file and docs.css only, so it builds the page with DOM
// calls, never with inline handlers or HTML strings.
"use strict";

(function () {
  const root = document.getElementById("reference");
  // msg is a text of the page's own, in its language (data-msg-*).
  const msg = (name) => root.dataset["msg" + name];
  let spec = null;

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") e.className = v;
      else e.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c === undefined || c === null || c === false) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  // resolve follows a local $ref ("#/components/...").
  function resolve(obj, seen) {
    seen = seen || 0;
    if (!obj || typeof obj !== "object" || !obj.$ref || seen > 20) return obj;
    const parts = obj.$ref.replace(/^#\//, "").split("/").map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
    let cur = spec;
    for (const p of parts) cur = cur && cur[p];
    return resolve(cur, seen + 1);
  }

  function refName(obj) {
    return obj && obj.$ref ? obj.$ref.split("/").pop() : "";
  }

  // constraints lists a schema's limits in words.
  function constraints(s) {
    const out = [];
    const add = (k, label) => { if (s[k] !== undefined) out.push(label + " " + JSON.stringify(s[k])); };
    add("const", "always");
    if (s.enum) out.push("one of " + s.enum.map((v) => JSON.stringify(v)).join(", "));
    add("minimum", "≥"); add("maximum", "≤");
    add("minLength", "min length"); add("maxLength", "max length");
    add("maxItems", "max items"); add("pattern", "pattern"); add("format", "format"); add("default", "default");
    for (const k of Object.keys(s)) if (k.startsWith("x-")) out.push(k.slice(2).replace(/-/g, " ") + " " + JSON.stringify(s[k]));
    return out.join("; ");
  }

  function typeOf(s) {
    if (!s) return "any";
    if (s.type) return Array.isArray(s.type) ? s.type.join(" | ") : s.type;
    if (s.const !== undefined) return typeof s.const;
    if (s.oneOf) return "one of";
    return "any";
  }

  // schemaView renders a schema as a nested list, to a bounded depth.
  function schemaView(schemaOrRef, depth) {
    depth = depth || 0;
    const name = refName(schemaOrRef);
    const s = resolve(schemaOrRef) || {};
    const head = el("span", { class: "type" }, typeOf(s), name ? " " : "", name ? el("span", { class: "ref" }, name) : "");
    const box = el("div", { class: "schema" }, head);
    const c = constraints(s);
    if (c) box.append(" ", el("span", { class: "limits" }, c));
    if (s.description) box.append(el("p", { class: "desc" }, s.description));
    if (depth > 6) return box;
    if (s.oneOf) {
      const ul = el("ul");
      for (const alt of s.oneOf) ul.append(el("li", {}, schemaView(alt, depth + 1)));
      box.append(ul);
    }
    if (s.properties) {
      const req = new Set(s.required || []);
      const ul = el("ul", { class: "props" });
      for (const [k, v] of Object.entries(s.properties)) {
        ul.append(el("li", {}, el("code", {}, k), req.has(k) ? el("span", { class: "req" }, " " + msg("Required")) : "", " ", schemaView(v, depth + 1)));
      }
      box.append(ul);
      if (s.additionalProperties === false) box.append(el("p", { class: "note" }, msg("NoOtherMembers")));
    } else if (s.additionalProperties && typeof s.additionalProperties === "object") {
      box.append(el("div", {}, "values: ", schemaView(s.additionalProperties, depth + 1)));
    }
    if (s.items) box.append(el("div", {}, "items: ", schemaView(s.items, depth + 1)));
    if (s.example !== undefined) box.append(el("pre", { class: "example" }, JSON.stringify(s.example, null, 2)));
    return box;
  }

  function paramsOf(pathItem, op) {
    const byKey = new Map();
    for (const p of [...(pathItem.parameters || []), ...(op.parameters || [])].map((p) => resolve(p))) byKey.set(p.in + ":" + p.name, p);
    return [...byKey.values()];
  }

  function responsesView(op) {
    const dl = el("dl", { class: "responses" });
    for (const [code, r0] of Object.entries(op.responses || {})) {
      const r = resolve(r0) || {};
      const dd = el("dd", {}, el("p", {}, r.description || ""));
      const hs = Object.entries(r.headers || {});
      if (hs.length) {
        const ul = el("ul", { class: "headers" });
        for (const [h, v0] of hs) {
          const v = resolve(v0) || {};
          const sch = resolve(v.schema) || {};
          ul.append(el("li", {}, el("code", {}, h), " ", el("span", { class: "limits" }, constraints(sch)), v.description ? " — " + v.description : ""));
        }
        dd.append(ul);
      }
      for (const [type, media] of Object.entries(r.content || {})) {
        dd.append(el("details", {}, el("summary", {}, type), schemaView(media.schema)));
      }
      dl.append(el("dt", { class: "status s" + code[0] }, code), dd);
    }
    return dl;
  }

  // tryForm builds the "try it" form of one operation.
  function tryForm(method, path, params, op) {
    const form = el("form", { class: "try" });
    const inputs = [];
    for (const p of params) {
      if (p.in !== "path" && p.in !== "query") continue;
      const input = el("input", { name: p.name, "data-in": p.in, required: p.required, placeholder: p.schema && p.schema.default !== undefined ? String(p.schema.default) : "" });
      inputs.push(input);
      form.append(el("label", {}, el("span", {}, p.name + (p.in === "path" ? " (path)" : "")), input));
    }
    let body = null;
    const media = op.requestBody && resolve(op.requestBody).content;
    if (media) {
      const type = Object.keys(media)[0];
      body = el("textarea", { name: "body", rows: 6, "data-type": type }, "{}");
      form.append(el("label", {}, el("span", {}, "body (" + type + ")"), body));
    }
    const out = el("pre", { class: "result", "aria-live": "polite" });
    form.append(el("button", { type: "submit" }, msg("Send") + " " + method.toUpperCase()), out);
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      let url = path;
      const query = new URLSearchParams();
      for (const i of inputs) {
        if (i.dataset.in === "path") url = url.replace("{" + i.name + "}", encodeURIComponent(i.value));
        else if (i.value !== "") query.append(i.name, i.value);
      }
      if ([...query].length) url += "?" + query;
      const init = { method: method.toUpperCase(), credentials: "same-origin", headers: {} };
      if (body) { init.body = body.value; init.headers["Content-Type"] = body.dataset.type; }
      out.textContent = init.method + " " + url + " …";
      try {
        const res = await fetch(url, init);
        const text = await res.text();
        let shown = text;
        try { shown = JSON.stringify(JSON.parse(text), null, 2); } catch (e) { /* not JSON: show as is */ }
        const heads = [...res.headers].map(([k, v]) => k + ": " + v).join("\n");
        out.textContent = init.method + " " + url + "\n" + res.status + " " + res.statusText + "\n" + heads + "\n\n" + shown;
      } catch (e) {
        out.textContent = init.method + " " + url + "\nfailed: " + e;
      }
    });
    return el("details", { class: "tryit" }, el("summary", {}, msg("TryIt")), form);
  }

  function operationView(method, path, pathItem, op) {
    const params = paramsOf(pathItem, op);
    const sec = (op.security || spec.security || []).flatMap((r) => Object.keys(r));
    const section = el("section", { class: "op", id: op.operationId || method + path },
      el("h3", {}, el("span", { class: "method m-" + method }, method.toUpperCase()), " ", el("code", { class: "path" }, path), " ", el("span", { class: "summary" }, op.summary || "")));
    if (op.description) section.append(el("p", { class: "desc" }, op.description));
    if (sec.length) section.append(el("p", { class: "auth" }, msg("Needs") + " " + sec.join(" " + msg("Or") + " ")));
    if (params.length) {
      const tbody = el("tbody");
      for (const p of params) {
        tbody.append(el("tr", {}, el("td", {}, el("code", {}, p.name), p.required ? el("span", { class: "req" }, " required") : ""), el("td", {}, p.in),
          el("td", {}, schemaView(p.schema)), el("td", {}, p.description || "")));
      }
      section.append(el("table", { class: "params" }, el("thead", {}, el("tr", {}, el("th", {}, "parameter"), el("th", {}, "in"), el("th", {}, "schema"), el("th", {}, "meaning"))), tbody));
    }
    if (op.requestBody) {
      const rb = resolve(op.requestBody);
      for (const [type, media] of Object.entries(rb.content || {})) section.append(el("h4", {}, msg("RequestBody") + " (" + type + ")"), schemaView(media.schema));
    }
    section.append(el("h4", {}, msg("Responses")), responsesView(op));
    if (method !== "options") section.append(tryForm(method, path, params, op));
    return section;
  }

  function render() {
    document.title = spec.info.title + " — API reference";
    document.getElementById("title").textContent = spec.info.title + " " + spec.info.version;
    root.textContent = "";
    const intro = el("section", { class: "intro" });
    if (spec.info.summary) intro.append(el("p", { class: "summary" }, spec.info.summary));
    for (const para of (spec.info.description || "").split("\n\n")) intro.append(el("p", {}, para));
    root.append(intro);
    const methods = ["get", "post", "put", "patch", "delete", "options"];
    const nav = el("nav", {}, el("h2", {}, msg("Operations")));
    const navList = el("ul");
    nav.append(navList);
    root.append(nav);
    for (const [path, item0] of Object.entries(spec.paths || {})) {
      const item = resolve(item0);
      for (const m of methods) {
        if (!item[m]) continue;
        const view = operationView(m, path, item, item[m]);
        if (m !== "options") navList.append(el("li", {}, el("a", { href: "#" + view.id }, m.toUpperCase() + " " + path)));
        root.append(view);
      }
    }
    const schemes = (spec.components && spec.components.securitySchemes) || {};
    if (Object.keys(schemes).length) {
      const ul = el("ul");
      for (const [k, v] of Object.entries(schemes)) ul.append(el("li", {}, el("code", {}, k), " (" + v.type + (v.in ? ", " + v.in + " " + v.name : "") + (v.scheme ? ", " + v.scheme : "") + "): " + (v.description || "")));
      root.append(el("section", { class: "schemes" }, el("h2", {}, msg("Authentication")), ul));
    }
    root.dataset.rendered = "true";
  }

  fetch(root.dataset.document, { headers: { Accept: "application/json" } })
    .then((res) => { if (!res.ok) throw new Error("HTTP " + res.status); return res.json(); })
    .then((doc) => { spec = doc; render(); })
    .catch((e) => { root.textContent = msg("LoadFailed") + " " + e.message; });
})();
