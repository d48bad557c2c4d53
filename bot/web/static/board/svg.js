// Small SVG helpers shared by the race and Carcassonne boards: element creation, colours
// and the drawing pieces both boards use (seat chips, number badges, wrapped text).

export const NS = "http://www.w3.org/2000/svg";

// The renderer's palette (renderer/style.py): Okabe–Ito seat colours, paper, ink, highlight.
export const INK = "#1e1e1e";
export const PAPER = "#faf7f0";
export const WHITE = "#ffffff";
export const GREY = "#969696";
export const LIGHT_GREY = "#d7d4cd";
export const HIGHLIGHT = "#e6007e";
export const RACE_COLOURS = ["#d55e00", "#0072b2", "#f0e442", "#009e73", "#cc79a7", "#e69f00"];
export const CARC_COLOURS = ["#d55e00", "#0072b2", "#009e73", "#f0e442", "#2d2d2d", "#cc79a7"];

/** Create an SVG element with attributes (``text`` sets its text content). */
export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined) continue;
    if (key === "text") node.textContent = String(value);
    else node.setAttribute(key, String(value));
  }
  if (parent) parent.appendChild(node);
  return node;
}

/** Remove every child of ``node``. */
export function empty(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
}

function rgb(hex) {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function hex([r, g, b]) {
  return "#" + [r, g, b].map((c) => Math.round(c).toString(16).padStart(2, "0")).join("");
}

/** ``colour`` mixed towards white by ``amount`` (renderer.style.tint). */
export function tint(colour, amount) {
  return hex(rgb(colour).map((c) => c + (255 - c) * amount));
}

/** ``colour`` mixed towards black by ``amount`` (renderer.style.shade). */
export function shade(colour, amount) {
  return hex(rgb(colour).map((c) => c * (1 - amount)));
}

/** Ink or white, whichever reads better on ``colour`` (renderer.style.text_colour_on). */
export function textOn(colour) {
  const [r, g, b] = rgb(colour);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 140 ? INK : WHITE;
}

/** The colour of ``seat``: the server's (state.seats) first, else the renderer's palette. */
export function seatColour(state, seat) {
  const info = (state.seats || []).find((s) => s.seat === seat);
  if (info && info.colour) return info.colour;
  const palette = state.game === "carcassonne" ? CARC_COLOURS : RACE_COLOURS;
  return palette[seat % palette.length];
}

/**
 * The initial drawn on a seat's pawns and figures (a shape cue besides the colour): the
 * server's (state.seats[].initial, in the reader's language: German "Ge", "Gr"), never a
 * letter of its own, which would name another colour in another language.
 */
export function seatLetter(state, seat) {
  const info = (state.seats || []).find((s) => s.seat === seat);
  return info && info.initial ? String(info.initial) : "";
}

/** The seat's name in words from the server (never invented here). */
export function seatName(state, seat) {
  const info = (state.seats || []).find((s) => s.seat === seat);
  return info && info.name ? info.name : "";
}

/** Centred text; ``size`` in board units. */
export function centredText(parent, x, y, text, size, fill = INK, extra = {}) {
  return el(
    "text",
    {
      x,
      y,
      "font-size": size,
      fill,
      "text-anchor": "middle",
      "dominant-baseline": "central",
      text,
      ...extra,
    },
    parent,
  );
}

/** Text wrapped to ``width`` units by a rough measure (SVG has no line breaking). */
export function wrapLines(text, size, width) {
  const perLine = Math.max(6, Math.floor(width / (size * 0.5)));
  const words = String(text).split(/\s+/).filter(Boolean);
  const lines = [];
  let line = "";
  for (const word of words) {
    const next = line ? line + " " + word : word;
    if (next.length > perLine && line) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/** A white disc with a number, ringed in ink when ``strong`` (the newest move). */
export function numberBadge(parent, x, y, r, number, colour, strong, size = r * 1.3) {
  const g = el("g", { class: "move-number" }, parent);
  el("circle", { cx: x, cy: y, r, fill: WHITE, stroke: strong ? INK : colour, "stroke-width": strong ? 3 : 2 }, g);
  centredText(g, x, y + 1, String(number), size, INK, { "font-weight": "bold" });
  return g;
}

/** An arrow head at ``tip`` pointing away from ``from``. */
export function arrowHead(parent, tip, from, size, colour) {
  const a = Math.atan2(tip[1] - from[1], tip[0] - from[0]);
  const left = [tip[0] - size * Math.cos(a - 0.45), tip[1] - size * Math.sin(a - 0.45)];
  const right = [tip[0] - size * Math.cos(a + 0.45), tip[1] - size * Math.sin(a + 0.45)];
  return el(
    "polygon",
    { points: [tip, left, right].map((p) => p.join(",")).join(" "), fill: colour, stroke: WHITE, "stroke-width": 1.5 },
    parent,
  );
}

/** ``points`` with the last pulled back by ``gap`` so a head shows beside the pawn there. */
export function stopShort(points, gap) {
  if (points.length < 2) return points;
  const [x0, y0] = points[points.length - 2];
  const [x1, y1] = points[points.length - 1];
  const length = Math.hypot(x1 - x0, y1 - y0);
  if (length <= 1) return points;
  const pull = Math.min(gap, length * 0.6) / length;
  return [...points.slice(0, -1), [x1 - (x1 - x0) * pull, y1 - (y1 - y0) * pull]];
}

/** The public events of a ``since`` entry (``entry.events``; ``entry.arrow.events`` too). */
export function arrowEvents(entry) {
  if (entry && Array.isArray(entry.events)) return entry.events;
  const arrow = entry && entry.arrow;
  if (!arrow) return [];
  if (Array.isArray(arrow)) return arrow;
  if (Array.isArray(arrow.events)) return arrow.events;
  return [];
}

/**
 * Shared target handling: one click handler on the SVG that picks the nearest lit target
 * within its touch radius, so neighbouring fields never steal each other's taps and a
 * finger-sized area around each target counts.
 */
export class Targets {
  constructor(svg, onTarget) {
    this.svg = svg;
    this.onTarget = onTarget;
    this.spots = []; // {id, x, y, r}
    svg.addEventListener("click", (event) => this.click(event));
  }

  set(spots) {
    this.spots = spots;
  }

  /** Make a lit target reachable by keyboard too: Tab to it, Enter or Space to choose. */
  bind(node, id, label) {
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    if (label) node.setAttribute("aria-label", label);
    node.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        if (this.onTarget) this.onTarget(id);
      }
    });
  }

  click(event) {
    if (!this.spots.length) return;
    const matrix = this.svg.getScreenCTM();
    if (!matrix) return;
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    // A finger is about 40 CSS px: never less than that around a target, in board units.
    const minimum = 22 / Math.max(matrix.a, 1e-6);
    let best = null;
    let bestDistance = Infinity;
    for (const spot of this.spots) {
      const d = Math.hypot(point.x - spot.x, point.y - spot.y);
      if (d <= Math.max(spot.r, minimum) && d < bestDistance) {
        best = spot;
        bestDistance = d;
      }
    }
    if (best && this.onTarget) this.onTarget(best.id);
  }
}
