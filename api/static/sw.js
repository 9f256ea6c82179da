/** The service worker of "Tell me when it's my turn" (push.js): shows each notice the
 *  server pushes, and opens the match's table when it is tapped. */
self.addEventListener("push", (event) => {
  const data = event.data ? event.data.json() : {};
  event.waitUntil(self.registration.showNotification(data.title || "Your move", {
    body: data.body || "", tag: data.match_id, data: { url: data.url || "/" } }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(self.clients.openWindow(event.notification.data.url));
});
