/** The service worker of "Tell me when it's my turn" (push.js): shows each notice the
 *  server pushes, and opens the match's table when it is tapped. The first message of a
 *  new subscription is its confirmation: the worker posts its code back to this server
 *  (which proves the subscription is this browser's) and says the device is set. */
self.addEventListener("push", (event) => {
  const data = event.data ? event.data.json() : {};
  if (data.type === "registration.confirm") {
    event.waitUntil(confirm(data));
    return;
  }
  event.waitUntil(self.registration.showNotification(data.title || "Your move", {
    body: data.body || "", tag: data.match_id, data: { url: data.url || "/" } }));
});

async function confirm(data) {
  const path = `/api/matches/${encodeURIComponent(data.match_id)}/notifications/` +
    `${encodeURIComponent(data.registration_id)}/confirm`;
  const answer = await fetch(path, {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ code: data.code }) });
  await self.registration.showNotification(
    answer.ok ? "Turn notices are on" : "Turn notices could not be confirmed", {
      body: answer.ok ? "This device will be told when it's your turn." : "Press the button on the table page again.",
      tag: `confirm-${data.registration_id}`, data: { url: `/play/${data.match_id}` } });
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(self.clients.openWindow(event.notification.data.url));
});
