// @ts-check
// The page's notice: an error until its cause goes, or information.

import { $ } from "../dom.js";
import { store } from "../store.js";

export function wireNotice() {
  store.subscribe(["notice"], ({ notice }) => {
    const n = $("notice");
    n.hidden = !notice;
    n.className = notice ? `notice ${notice.kind}` : "notice";
    n.textContent = notice?.message ?? "";
  });
}
