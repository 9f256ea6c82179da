// The join page (`/play/{match}#join=…`): it names the match and the side the link takes, in
// the players' names, before asking for yours. A used or replaced link says so, and asks
// nothing (GET /api/matches/{id}/invitation).

import { api, devices, entropy } from "./api.js";
import { $, field, h, notice } from "./dom.js";

/** "Expeditionary Force (Ann), Free Militia (open)". */
function seated(invitation) {
  const players = new Map(invitation.seats.map((seat) => [seat.side, seat.player]));
  return invitation.sides.map((s) => `${s.name} (${players.get(s.id) ?? "open"})`).join(", ");
}

function spent(main) {
  document.title = "This link opens no seat · battlelog";
  main.replaceChildren(h("h1", {}, "This link opens no seat"),
    h("p", {}, "Each join link takes its seat once, so it was used already, or the referee replaced it. Ask the referee for a fresh link. If you took this seat on another device, open the match there."),
    h("p", {}, h("a", { href: "/" }, "Back to the lobby")));
}

export async function joinPage(main, id, token) {
  let invitation = null;
  try {
    invitation = await api(`/api/matches/${id}/invitation`, { token });
  } catch (error) {
    if (error.status === 401) return spent(main);
    notice(error);
  }
  const side = invitation?.side;
  const form = h("form", {
    class: "stack join", "aria-label": "Join this match",
    onsubmit: async (event) => {
      event.preventDefault();
      const player = event.target.elements.player.value.trim();
      try {
        const joined = await api(`/api/matches/${id}/seats`, { method: "POST", token, body: { player, entropy: entropy() } });
        devices.save(id, { tokens: { [joined.side]: joined.token }, seat: joined.side, scenario: invitation?.scenario, ruleset: invitation?.ruleset });
        location.replace(`/play/${id}`);
      } catch (error) { notice(error); }
    },
  },
  field("Your name", h("input", { name: "player", required: true, maxlength: 120, autocomplete: "nickname" }),
    "the name the other players see beside your side"),
  h("p", { class: "hint" }, "Your browser adds its own random entropy to the match's dice when you join (docs/integrity.md)."),
  h("button", { type: "submit" }, side ? `Take my seat as ${side.name}` : "Take my seat"));
  if (invitation) {
    document.title = `Join ${invitation.scenario} · battlelog`;
    $("#where").textContent = `${invitation.ruleset_title} · joining`;
  }
  main.replaceChildren(...[
    h("h1", {}, invitation ? `Join ${invitation.scenario}` : "Join the match"),
    invitation ? h("p", { class: "invite" }, "You are invited to play ", h("strong", {}, side ? side.name : "a seat"),
      " in ", h("strong", {}, invitation.scenario), `, a game of ${invitation.ruleset_title}.`) : null,
    invitation ? h("p", { class: "meta" }, `Sides: ${seated(invitation)}.`) : null,
    invitation?.ended ? h("p", { class: "hint" }, "This match has ended: you may still take the seat, to look back over it.") : null,
    form].filter(Boolean));
  form.elements.player.focus();
}
