// JSON Patch (RFC 6902) applied without changing its input: each operation copies only the
// objects and arrays on its path, so every version of a replay's board can be kept at once
// and shares what did not change with the version before it.

const clone = (x) => (Array.isArray(x) ? x.slice() : { ...x });

function tokens(pointer) {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) throw new Error(`bad JSON pointer ${pointer}`);
  return pointer.slice(1).split("/").map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
}

function index(list, token, adding) {
  if (adding && token === "-") return list.length;
  const i = Number(token);
  if (!/^(0|[1-9]\d*)$/.test(token) || i > list.length - (adding ? 0 : 1)) throw new Error(`no index ${token}`);
  return i;
}

function get(doc, path) {
  return path.reduce((at, t) => {
    if (at === null || typeof at !== "object" || !(Array.isArray(at) ? t < at.length : Object.hasOwn(at, t))) throw new Error(`nothing at /${path.join("/")}`);
    return Array.isArray(at) ? at[index(at, t, false)] : at[t];
  }, doc);
}

/** `doc` with `change(parent, last token)` done on a copy of the parent of `path`. */
function at(doc, path, change) {
  const [head, ...rest] = path;
  if (head === "__proto__") throw new Error("no such key");
  const copy = clone(doc);
  if (!rest.length) return change(copy, head);
  const key = Array.isArray(copy) ? index(copy, head, false) : head;
  copy[key] = at(doc[key], rest, change);
  return copy;
}

function add(doc, path, value) {
  if (!path.length) return value;
  return at(doc, path, (parent, t) => {
    if (Array.isArray(parent)) parent.splice(index(parent, t, true), 0, value);
    else parent[t] = value;
    return parent;
  });
}

function remove(doc, path) {
  return at(doc, path, (parent, t) => {
    if (Array.isArray(parent)) parent.splice(index(parent, t, false), 1);
    else delete parent[t];
    return parent;
  });
}

/** The document after the patch's operations, in order; the input is left as it was. */
export function applyPatch(doc, patch) {
  let out = doc;
  for (const op of patch) {
    const path = tokens(op.path);
    if (op.op === "add") out = add(out, path, op.value);
    else if (op.op === "remove") out = remove(out, path);
    else if (op.op === "replace") out = path.length ? add(remove(out, path), path, op.value) : op.value;
    else if (op.op === "move") { const from = tokens(op.from); const value = get(out, from); out = add(remove(out, from), path, value); }
    else if (op.op === "copy") out = add(out, path, get(out, tokens(op.from)));
    else if (op.op !== "test") throw new Error(`unknown patch operation ${op.op}`);
  }
  return out;
}
