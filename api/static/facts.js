// What a unit is, in words, for its card (units.js) and the map's sheet (sheet.js): its
// values (figures, steps, morale, the attributes a ruleset file declares for its kind, by
// their titles: Ridge Watch's "Eyes 2"), its kind's title, and its markers and statuses.

/** The unit's kind as the game says it: a ruleset file's title for it, else its id in words. */
export function kindWords(u, board) {
  return board.unit_kinds?.[u.kind]?.title || u.kind.replaceAll("_", " ");
}

/** The attributes its kind declares (a ruleset file's), with the unit's values: "Eyes 2". */
function declared(u, board) {
  const attributes = board.unit_kinds?.[u.kind]?.attributes || {};
  return Object.entries(attributes).map(([name, title]) => {
    const v = (u.extra || {})[name];
    if (v === undefined || v === null || v === "" || v === false) return null;
    // an id another unit or the scenario names (a battlegroup, the unit it belongs to): that name
    return v === true ? title : `${title} ${board.extra_words?.[name]?.[v] ?? v}`;
  }).filter(Boolean);
}

/** The unit's values in words, in the order a card shows them. */
export function unitFacts(u, board) {
  const c = u.computed || {};
  return [
    u.figures !== null && u.figures !== undefined ? `${u.figures} figures` : null,
    u.steps !== null && u.steps !== undefined ? `${u.steps} steps` : null,
    c.must_split ? null : c.current_die ? `morale ${c.current_die}${c.base_die && c.base_die !== c.current_die ? ` (base ${c.base_die})` : ""}` : (u.morale_die ? `morale ${u.morale_die}` : null),
    u.qv !== null && u.qv !== undefined ? `QV ${u.qv}` : null, u.lv !== null && u.lv !== undefined ? `LV ${u.lv}` : null,
    u.q !== null && u.q !== undefined ? `Q ${u.q}` : null,
    ...declared(u, board),
  ].filter(Boolean);
}

/** A marker kind in words ("pinned down", never "pinned_down"; a file's title when it has one). */
export const markerName = (k, board) => (board.marker_titles?.[k] || (k === "wound" ? "wounds" : k.replaceAll("_", " ")));

/** A status in words ("corner locked"; a file's title when it has one). */
export const statusName = (st, board) => (board.status_titles?.[st] || st.replaceAll("_", " "));
