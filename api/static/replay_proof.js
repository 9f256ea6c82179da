// The proof of each roll in a replay file (docs/replay.md), in players' words, from the
// file's own check (integrity.js's `marks`): checked against the revealed seed, sealed
// until the seed is revealed, or not matching.

import { h } from "./dom.js";

const WORDS = {
  checked: ["checked", "Checked: these faces come from the seed the server committed to, now revealed."],
  sealed: ["sealed", "Sealed until the seed is revealed: the server committed to its seed before the roll; the faces are checked once it is revealed (when the match ends, or by the referee)."],
  inherited: ["checked", "Rolled in the match this what-if was forked from: checked there."],
  mismatch: ["mismatch", "Does not match: "],
};

/** The proof line of the event at `version` (a server roll): `found` is the check's result
 *  (null while it runs). */
export function rollProof(found, version) {
  let kind = "checking", text = "Checking this roll…";
  if (found) {
    const { problem } = found;
    const mark = found.marks?.get(version);
    if (problem && problem.version === version) [kind, text] = ["mismatch", `Does not match: this event ${problem.detail}.`];
    else if (mark && mark !== "mismatch") [kind, text] = WORDS[mark];
    else if (problem && (problem.version === 0 || problem.version < version)) [kind, text] = ["unchecked", "Not checked: the log breaks before this roll (above)."];
    else if (mark) [kind, text] = ["mismatch", WORDS.mismatch[1] + "these faces do not come from the revealed seed."];
    else [kind, text] = ["unchecked", "Not checked: this seat does not see what it would be checked with."];
  }
  return h("p", { id: "roll-proof", class: `proof proof-${kind}`, "data-proof": kind }, text);
}
