// The page's back end in the static site: the engine in the visitor's browser
// (worker-backend.js); the site also keeps itself for offline play (sw.js) and can be
// installed on a phone's home screen (manifest.webmanifest).

export { backend } from "./worker-backend.js";

if ("serviceWorker" in navigator && location.protocol !== "file:") {
  navigator.serviceWorker.register("sw.js").catch(() => {});
}
const manifest = document.createElement("link");
manifest.rel = "manifest";
manifest.href = "manifest.webmanifest";
document.head.append(manifest);
