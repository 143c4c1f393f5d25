/* The service worker of tournament pages (scope /tournaments/): phones show system notifications
   only through a service worker (static/js/tournament-notices.js). It caches nothing; a tap on a
   notification brings the player's page back to the front. It also shows the notices the server
   pushes while the page is closed or the phone locked (tournaments/push.py: JSON with the title,
   body, key and page), tagged with the notice's key like the page's own, so one moment is one
   notification. */
self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });
self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {}; }
  var page = new URL(data.url || "/tournaments/", self.location.origin).href;
  var options = { body: data.body || "", data: { url: page } };
  if (data.key) options.tag = data.key;
  event.waitUntil(self.registration.showNotification(data.title || "Tournament", options));
});
self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = (event.notification.data && event.notification.data.url) || "/tournaments/";
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
      for (var i = 0; i < windows.length; i++) {
        if (windows[i].url === url && "focus" in windows[i]) return windows[i].focus();
      }
      return self.clients.openWindow(url);
    })
  );
});
