// "Use a ruleset file" in the lobby's new-match form (docs/rulesets/authoring.md): choose a
// game written as a file, read what the service's check says of it (every problem with its
// line and column), and once it passes the game is chosen in the scenario form below, ready
// for its sides and units. The file goes to POST /api/rulesets, which stores it only when it
// passes.

import { api } from "./api.js";
import { h } from "./dom.js";

const MOST = 1024 * 1024;  // what the service reads of a file (413 past it)

/** The problems in the players' words: where each is, then what is wrong. */
function problems(name, errors) {
  const count = errors.length;
  return [
    h("p", { class: "report-head" }, `${name} was not loaded: ${count} problem${count === 1 ? "" : "s"} to fix in the file.`),
    h("ol", { class: "problems" }, errors.map((e) =>
      h("li", {}, h("strong", {}, `Line ${e.line}, column ${e.column}: `), e.message))),
  ];
}

/** The warnings in the players' words: not refusals, what another reader would read otherwise. */
function warnings(list) {
  if (!Array.isArray(list) || !list.length) return [];
  const count = list.length;
  return [
    h("p", { class: "report-head" }, `${count} thing${count === 1 ? "" : "s"} worth a look (not a problem here):`),
    h("ol", { class: "problems warnings" }, list.map((w) =>
      h("li", {}, h("strong", {}, `Line ${w.line}, column ${w.column}: `), w.message))),
  ];
}

/** The section; `chosen(info)` is given what the stored file declares (GET /api/rulesets/{hash}/info). */
export function rulesetUpload(chosen) {
  const input = h("input", { type: "file", id: "ruleset-file", name: "ruleset-file",
    accept: ".yaml,.yml,.json,application/yaml,application/json", "aria-describedby": "ruleset-file-hint" });
  const report = h("div", { class: "ruleset-report", role: "status", "aria-live": "polite" });
  const say = (kind, ...children) => { report.className = `ruleset-report ${kind}`; report.replaceChildren(...children); };

  input.addEventListener("change", async () => {
    const file = input.files?.[0];
    if (!file) { say(""); return; }
    if (file.size > MOST) { say("bad", h("p", {}, `${file.name} is ${Math.ceil(file.size / 1024)} KiB: a ruleset file is at most 256 KiB.`)); return; }
    say("busy", h("p", {}, `Checking ${file.name}…`));
    const json = /\.json$/i.test(file.name);
    let response;
    try {
      response = await fetch("/api/rulesets", { method: "POST", body: await file.text(),
        headers: { "Content-Type": json ? "application/json" : "application/yaml" } });
    } catch {
      say("bad", h("p", {}, "The service could not be reached: try again.")); return;
    }
    const answer = await response.json().catch(() => ({}));
    if (response.status === 201) {
      const info = await api(`/api/rulesets/${encodeURIComponent(answer.hash)}/info`).catch(() => null);
      say("good", h("p", {}, h("strong", {}, answer.title), ` passed every check and is chosen as the game system below: name the sides, add their units and start the match.`),
        ...warnings(answer.warnings));
      if (info) chosen(info);
      return;
    }
    if (response.status === 422 && Array.isArray(answer.errors)) { say("bad", ...problems(file.name, answer.errors), ...warnings(answer.warnings)); return; }
    if (response.status === 409) {
      say("bad", h("p", {}, answer.detail || "Another file already has this id: give yours an id of its own."));
      return;
    }
    if (response.status === 401 || response.status === 403) {
      say("bad", h("p", {}, "This server takes no ruleset files from the page: ask whoever runs it to load the file."));
      return;
    }
    say("bad", h("p", {}, answer.detail || `The file was not loaded (HTTP ${response.status}).`));
  });

  return h("div", { class: "ruleset-upload stack" },
    h("div", { class: "field" },
      h("label", { class: "label", for: input.id }, "Ruleset file"),
      input,
      h("small", { class: "hint", id: "ruleset-file-hint" }, "a game written as a file (YAML or JSON): it is checked before anything is kept")),
    report);
}
