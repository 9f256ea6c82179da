/** A hex in the players' words on the table page, as the service says it (domain/places.py):
 *  its number and the scenario's name for it, "hex 1405 (Caen)". The names come from the
 *  board's map (`map.cities`, named by the scenario's `city_names`). */
export function hexWords(board, hex) {
  return hexNamed(hex, (board?.map?.cities || []).find((c) => c.hex === hex)?.name);
}

/** A hex and the scenario's name for it (if any), in the same words: "hex 1405 (Caen)". */
export function hexNamed(hex, name) {
  return name ? `hex ${hex} (${name})` : `hex ${hex}`;
}
