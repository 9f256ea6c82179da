// The replay file's match data (docs/replay.md), found the way `battlelog verify` and
// `battlelog import` find it (api/replay_read.py): the one element whose id is
// "battlelog-replay", a <script type="application/json">, and no comment in the file that
// holds markup (a second block hidden from one reader and not the other). A file that
// breaks this rule is never said to be verified: its `problem` is said instead.

const ID = "battlelog-replay";

/** Comments of the document that hold markup or the block's id. */
function hiding(doc) {
  const found = [];
  const walk = doc.createTreeWalker(doc, NodeFilter.SHOW_COMMENT | NodeFilter.SHOW_PROCESSING_INSTRUCTION);
  while (walk.nextNode()) {
    const text = walk.currentNode.data;
    if (text.includes("<") || text.toLowerCase().includes(ID)) found.push(walk.currentNode);
  }
  return found;
}

/** `{ text, problem }`: the data block's text (the first one's, when there are several) and,
 *  when the file does not hold exactly one block outside comments, the problem to say
 *  (as integrity.js's check says one: version 0, the match file). */
export function dataBlock(doc = document) {
  const blocks = [...doc.querySelectorAll("[id]")].filter((e) => e.id.trim().toLowerCase() === ID);
  const first = blocks[0];
  let detail = null;
  if (blocks.length !== 1) detail = `holds ${blocks.length} match data blocks, where a replay file holds one`;
  else if (first.localName !== "script" || (first.type || "").trim().toLowerCase() !== "application/json") detail = `holds its match data in a <${first.localName}>, not a script`;
  else if (hiding(doc).length) detail = "holds a comment with markup in it (a match data block hidden from this page)";
  return { text: first ? first.textContent : "{}", problem: detail && { version: 0, kind: "file", detail } };
}
