// A finished online game's review and analysis (docs/online.md, "Requests in a
// game"): the visitor's own back end (`local`) loads the game's record once, and its
// states, analysis and notices are then the page's.
import { answer, refusal, recordOf } from "./api.js";

// The review of game `gameId` in `local`; `handlers`: the page's (page/link.js),
// `show()` shows the page the state again.
export function reviewer(local, gameId, handlers, show) {
  // The review's last state, once loaded.
  let state = null;

  async function load() {
    if (state) return true;
    const rec = await recordOf(gameId);
    if (rec.status !== 200) return false;
    const a = await local.request("load", { text: rec.text, game: 1 });
    if (a.status !== 200) return false;
    state = JSON.parse(a.text);
    local.connect({
      open() {},
      error: (key) => handlers().error(key),
      state(s) {
        state = s;
        show();
      },
      analysis: (data) => handlers().analysis(data),
      notice: (n) => handlers().notice(n),
    });
    return true;
  }

  return {
    state: () => state,
    // Carries out `action` (`goto`, `review`, `analysis`) in the review; `view()` is
    // the page's state after it.
    async request(action, body, view) {
      if (!(await load())) return refusal("failed", "the game could not be reviewed");
      const a = await local.request(action, body);
      if (a.status !== 200) return a;
      state = JSON.parse(a.text);
      return answer(200, view());
    },
  };
}
