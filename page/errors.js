// The page's script errors, kept for the browser tests as `window.jungleErrors`. The
// first module main.js imports, so that it is listening before the others run.
window.jungleErrors = window.jungleErrors || [];
window.addEventListener("error", (e) => window.jungleErrors.push(String(e.message)));
window.addEventListener("unhandledrejection", (e) => window.jungleErrors.push(String(e.reason)));
