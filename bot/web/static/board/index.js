// The board of a live table: ``drawBoard(container, state, {locale, onTarget})`` returns an
// object with update(state), highlight(targets, step, chosen) and clear() (docs/live.md).

import { RaceBoard } from "./race.js";
import { CarcassonneBoard } from "./carcassonne.js";

/** Draw ``state`` (a ``state`` message) into ``container``; see the module comment. */
export function drawBoard(container, state, options = {}) {
  let board = make(container, state, options);
  const name = (s) => board.svg.setAttribute("aria-label", (s.labels && s.labels.title) || "");
  name(state);
  let game = state.game;
  return {
    update(next) {
      if (next.game !== game) {
        // Another game in the same element (a replay of another table): start afresh.
        board.svg.remove();
        board = make(container, next, options);
        game = next.game;
      } else board.update(next);
      name(next);
    },
    highlight(targets, step = 0, chosen = []) {
      return board.highlight(new Set(targets), step, chosen);
    },
    clear() {
      board.clear();
    },
    get element() {
      return board.svg;
    },
  };
}

function make(container, state, options) {
  return state.game === "carcassonne" ? new CarcassonneBoard(container, state, options) : new RaceBoard(container, state, options);
}
