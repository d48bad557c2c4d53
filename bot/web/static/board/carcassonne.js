// The Carcassonne map in SVG: the tiles as the server draws them (PNG per tile, turned here),
// figures in seat colours with their letters (the renderer's silhouettes), the latest tile in
// a bold frame, each player's last tile in a thin frame of their colour, the tiles placed
// since the reader's last turn numbered, and the clickable cells, turns and figure spots.

import { INK, WHITE, HIGHLIGHT, el, empty, tint, textOn, seatColour, seatLetter, centredText, arrowEvents, Targets } from "./svg.js";
import { splitTarget } from "./race.js";

const T = 100; // one cell, board units
const EMPTY_CELL = "#ece8de";
const GRID = "#ddd9cd";
const RULER = 34;
const MIN_CELL_PX = 46;
// The figure step zooms in when a whole-map cell would be smaller than this (a phone): the
// new tile's spots lie a few px apart there. The zoomed view is centred on the new tile, as
// many cells wide as fit at ZOOM_CELL_PX (at least ZOOM_CELLS: on a phone the tile and half
// of each neighbour), and the spots are spread to ZOOM_GAP apart.
const ZOOM_BELOW_PX = 150;
const ZOOM_CELL_PX = 190;
const ZOOM_CELLS = 2;
const ZOOM_RING = 13;
const ZOOM_GAP = 2 * ZOOM_RING + 10;

// Figure outlines in units of the letter size (renderer/carcassonne/board.py).
const MEEPLE = [[-0.32, -0.42], [0.32, -0.42], [1.0, -0.12], [1.02, 0.24], [0.5, 0.26], [0.82, 1.0], [0.14, 1.0], [0.0, 0.78], [-0.14, 1.0], [-0.82, 1.0], [-0.5, 0.26], [-1.02, 0.24], [-1.0, -0.12]];
const ROBE = [[-0.42, -0.45], [0.42, -0.45], [0.95, 1.0], [-0.95, 1.0]];
const HOUSE = [[0.0, -1.0], [0.95, -0.25], [0.8, -0.25], [0.8, 0.95], [-0.8, 0.95], [-0.8, -0.25], [-0.95, -0.25]];

let spotsPromise = null;

/** Figure spots per tile and segment (tile units, unturned), fetched once per page. */
function loadSpots(url) {
  if (!spotsPromise) {
    spotsPromise = fetch(url)
      .then((r) => (r.ok ? r.json() : {}))
      .catch(() => ({}));
  }
  return spotsPromise;
}

/** A point in tile units after turning the tile ``rot`` degrees clockwise. */
function rotatePoint([x, y], rot) {
  for (let i = 0; i < ((rot / 90) % 4 + 4) % 4; i++) [x, y] = [1 - y, x];
  return [x, y];
}

/** The silhouette a figure is drawn with (renderer figure_kind). */
function figureKind(kind, segment) {
  if (kind === "follower" && segment.startsWith("field")) return "farmer";
  if (kind === "follower" && segment === "monastery") return "monk";
  return kind || "follower";
}

/** The segment named by a figure target (``figure:city0`` or ``figure:follower:city0``). */
function targetSegment(pos) {
  const parts = String(pos).split(":");
  return parts[parts.length - 1];
}

export class CarcassonneBoard {
  constructor(container, state, options = {}) {
    this.options = options;
    this.tileBase = String(options.tiles || new URL("../../tiles/", import.meta.url));
    this.svg = el("svg", { class: "poeppel-board carcassonne-board", role: "img", preserveAspectRatio: "xMidYMid meet" });
    container.appendChild(this.svg);
    this.layers = {};
    for (const name of ["grid", "tiles", "frames", "figures", "badges", "ghost", "lit"]) {
      this.layers[name] = el("g", { class: "layer-" + name }, this.svg);
    }
    this.targets = new Targets(this.svg, (id) => options.onTarget && options.onTarget(id));
    this.spots = {};
    loadSpots(String(options.tileSpots || new URL("../../tiles.json", import.meta.url))).then((spots) => {
      this.spots = spots || {};
      if (this.state) this.update(this.state, true);
    });
    this.update(state);
  }

  tileUrl(id) {
    return this.tileBase + encodeURIComponent(id) + ".png";
  }

  update(state, keepHighlight = false) {
    this.state = state;
    const view = state.public || {};
    const board = view.board || [];
    const xs = board.map((t) => t.x);
    const ys = board.map((t) => t.y);
    const minX = Math.min(0, ...xs) - 1;
    const minY = Math.min(0, ...ys) - 1;
    const maxX = Math.max(0, ...xs) + 1;
    const maxY = Math.max(0, ...ys) + 1;
    this.bounds = { minX, minY, cols: maxX - minX + 1, rows: maxY - minY + 1 };
    const w = this.bounds.cols * T;
    const h = this.bounds.rows * T;
    this.wholeView = `${-RULER} ${-RULER} ${w + RULER + 4} ${h + RULER + 4}`;
    // A cell never smaller than a fingertip: on a phone a large map scrolls sideways.
    this.wholeMinWidth = `${Math.round(((w + RULER + 4) * MIN_CELL_PX) / T)}px`;
    this.zoomed = null;
    this.showWhole();
    this.cells = new Map(board.map((t) => [`${t.x},${t.y}`, t]));
    for (const name of ["grid", "tiles", "frames", "figures", "badges"]) empty(this.layers[name]);
    this.drawGrid();
    for (const t of board) this.drawTile(this.layers.tiles, t.tile, t.x, t.y, t.rot || 0, { class: "tile", "data-cell": `${t.x},${t.y}`, "data-tile": t.tile });
    this.drawFrames(state, view);
    for (const fig of view.figures || []) this.drawFigure(this.layers.figures, fig);
    if (!keepHighlight) this.clear();
    else if (this.lastHighlight) this.highlight(...this.lastHighlight);
    this.showLatest();
  }

  /** The whole map in the box (the view of every step but a zoomed figure step). */
  showWhole() {
    this.zoomed = null;
    this.svg.classList.remove("zoomed");
    this.svg.setAttribute("viewBox", this.wholeView);
    this.svg.style.minWidth = this.wholeMinWidth;
  }

  /**
   * Zoom to the tile at ``x``, ``y`` and its neighbours when the whole map's cells are
   * smaller than ZOOM_BELOW_PX on screen (a phone, a large map). Returns whether it did.
   */
  zoomTo(x, y) {
    const box = this.svg.parentElement;
    const wholeWidth = Number(this.wholeView.split(" ")[2]);
    // The width the map gets in its box (a wider map scrolls at MIN_CELL_PX a cell).
    const width = Math.max(box ? box.clientWidth : 0, parseFloat(this.wholeMinWidth) || 0);
    if (!width || (width * T) / wholeWidth >= ZOOM_BELOW_PX) return false;
    const [ox, oy] = this.origin(x, y);
    const cells = Math.max(ZOOM_CELLS, Math.floor((box ? box.clientWidth : 0) / ZOOM_CELL_PX));
    const margin = ((cells - 1) * T) / 2;
    this.zoomed = { x, y };
    this.svg.classList.add("zoomed");
    this.svg.setAttribute("viewBox", `${ox - margin} ${oy - margin} ${cells * T} ${cells * T}`);
    this.svg.style.minWidth = "";
    if (box) box.scrollLeft = 0;
    return true;
  }

  /** Scroll a map wider than its box so the latest tile is in sight. */
  showLatest() {
    const box = this.svg.parentElement;
    const latest = this.svg.querySelector(".latest-tile");
    if (!box || !latest || box.scrollWidth <= box.clientWidth + 1) return;
    const boxRect = box.getBoundingClientRect();
    const rect = latest.getBoundingClientRect();
    box.scrollLeft += rect.left + rect.width / 2 - (boxRect.left + boxRect.width / 2);
  }

  origin(x, y) {
    return [(x - this.bounds.minX) * T, (y - this.bounds.minY) * T];
  }

  drawGrid() {
    const g = this.layers.grid;
    const { minX, minY, cols, rows } = this.bounds;
    el("rect", { x: 0, y: 0, width: cols * T, height: rows * T, fill: EMPTY_CELL }, g);
    for (let c = 0; c <= cols; c++) el("line", { x1: c * T, y1: 0, x2: c * T, y2: rows * T, stroke: GRID, "stroke-width": 1.5 }, g);
    for (let r = 0; r <= rows; r++) el("line", { x1: 0, y1: r * T, x2: cols * T, y2: r * T, stroke: GRID, "stroke-width": 1.5 }, g);
    for (let c = 0; c < cols; c++) centredText(g, c * T + T / 2, -RULER / 2, String(minX + c), 20, minX + c ? INK : HIGHLIGHT);
    for (let r = 0; r < rows; r++) centredText(g, -RULER / 2, r * T + T / 2, String(minY + r), 20, minY + r ? INK : HIGHLIGHT);
  }

  drawTile(parent, id, x, y, rot, attrs = {}) {
    const [ox, oy] = this.origin(x, y);
    const image = el("image", {
      href: this.tileUrl(id), x: ox, y: oy, width: T, height: T,
      transform: rot ? `rotate(${rot} ${ox + T / 2} ${oy + T / 2})` : null,
      preserveAspectRatio: "none", ...attrs,
    }, parent);
    return image;
  }

  spot(tileId, rot, segment) {
    const spots = this.spots[tileId] || {};
    return rotatePoint(spots[segment] || [0.5, 0.5], rot);
  }

  drawFigure(parent, fig) {
    const tile = this.cells.get(`${fig.x},${fig.y}`);
    if (!tile) return;
    const [sx, sy] = this.spot(tile.tile, tile.rot || 0, String(fig.segment || ""));
    const [ox, oy] = this.origin(fig.x, fig.y);
    figureShape(parent, ox + sx * T, oy + sy * T, figureKind(fig.kind, String(fig.segment || "")), seatColour(this.state, fig.player), seatLetter(this.state, fig.player), T * 0.25, { "data-seat": fig.player, "data-cell": `${fig.x},${fig.y}`, "data-segment": fig.segment });
  }

  drawFrames(state, view) {
    const g = this.layers.frames;
    const board = view.board || [];
    const latest = board.length ? board[board.length - 1] : null;
    const latestKey = latest ? `${latest.x},${latest.y}` : null;
    // The tiles placed since the reader's last turn, numbered in order.
    const recent = [];
    (state.since || []).forEach((entry, index) => {
      for (const event of arrowEvents(entry)) {
        const data = event.data || {};
        if (event.kind === "place" && Number.isInteger(data.x) && Number.isInteger(event.seat)) {
          recent.push([`${data.x},${data.y}`, event.seat, data.x, data.y, entry.number ?? index + 1]);
        }
      }
    });
    const numbered = new Set(recent.length > 1 ? recent.map((r) => r[0]) : []);
    for (const [seat, cell] of Object.entries(view.last_tiles || {})) {
      const key = `${cell[0]},${cell[1]}`;
      if (key === latestKey || numbered.has(key) || !this.cells.has(key)) continue;
      const [ox, oy] = this.origin(cell[0], cell[1]);
      el("rect", { x: ox + 3, y: oy + 3, width: T - 6, height: T - 6, fill: "none", stroke: seatColour(state, Number(seat)), "stroke-width": 3, class: "last-tile" }, g);
    }
    if (recent.length > 1) {
      // Numbered as the list beside the board numbers the moves.
      recent.forEach(([key, seat, x, y, number]) => {
        if (!this.cells.has(key)) return;
        const [ox, oy] = this.origin(x, y);
        if (key !== latestKey) el("rect", { x: ox + 3, y: oy + 3, width: T - 6, height: T - 6, fill: "none", stroke: seatColour(state, seat), "stroke-width": 6, class: "recent-tile" }, g);
        const label = String(number);
        const half = 11;
        const width = Math.max(2 * half, 11 * label.length + 8);
        el("rect", { x: ox + 7, y: oy + 7, width, height: 2 * half, fill: WHITE, stroke: INK, "stroke-width": 2 }, this.layers.badges);
        centredText(this.layers.badges, ox + 7 + width / 2, oy + 7 + half + 1, label, 18, INK, { "font-weight": "bold", class: "tile-number" });
      });
    }
    if (latest) {
      const owner = Object.entries(view.last_tiles || {}).find(([, c]) => c[0] === latest.x && c[1] === latest.y);
      const colour = owner ? seatColour(state, Number(owner[0])) : INK;
      const [ox, oy] = this.origin(latest.x, latest.y);
      el("rect", { x: ox - 2, y: oy - 2, width: T + 4, height: T + 4, fill: "none", stroke: INK, "stroke-width": 2 }, g);
      el("rect", { x: ox + 3.5, y: oy + 3.5, width: T - 7, height: T - 7, fill: "none", stroke: colour, "stroke-width": 7, class: "latest-tile" }, g);
      el("rect", { x: ox + 7, y: oy + 7, width: T - 14, height: T - 14, fill: "none", stroke: INK, "stroke-width": 1 }, g);
      if (owner) {
        // The owner's letter in the corner farthest from the tile's figures.
        const spots = (view.figures || []).filter((f) => f.x === latest.x && f.y === latest.y).map((f) => this.spot(latest.tile, latest.rot || 0, String(f.segment)));
        let corners = [[0, 0], [1, 0], [0, 1], [1, 1]];
        if (numbered.has(`${latest.x},${latest.y}`)) corners = corners.slice(1);
        const far = (c) => Math.min(9, ...spots.map((p) => Math.hypot(c[0] - p[0], c[1] - p[1])));
        const corner = corners.reduce((a, b) => (far(b) > far(a) ? b : a));
        const half = 12;
        const bx = ox + (corner[0] === 0 ? half + 8 : T - half - 8);
        const by = oy + (corner[1] === 0 ? half + 8 : T - half - 8);
        el("rect", { x: bx - half, y: by - half, width: 2 * half, height: 2 * half, fill: colour, stroke: INK, "stroke-width": 2 }, this.layers.badges);
        centredText(this.layers.badges, bx, by + 1, seatLetter(state, Number(owner[0])), 18, textOn(colour), { "font-weight": "bold" });
      }
    }
  }

  /**
   * Light up ``targets``. ``chosen`` (the clicks so far) says where the new tile would lie:
   * after a cell the tile is shown there, turned as the first turn offered (the page offers
   * the turns as buttons); after a turn, the figure spots of the turned tile. Returns the
   * ids not drawn on the board.
   */
  highlight(targets, step = 0, chosen = []) {
    this.lastHighlight = [targets, step, chosen];
    empty(this.layers.ghost);
    empty(this.layers.lit);
    const lit = this.layers.lit;
    const spots = [];
    const missing = [];
    const view = this.state.public || {};
    const current = view.current_tile;
    let cell = null;
    let rot = null;
    for (const id of chosen) {
      const [kind, pos] = splitTarget(id);
      if (kind === "cell") cell = pos.split(",").map(Number);
      if (kind === "turn") rot = Number(pos);
    }
    const turns = [...targets].filter((id) => id.startsWith("turn:"));
    if (cell && current) {
      // The tile where it would go: turned as chosen, else as the first turn offered.
      const shown = rot ?? (turns.length ? Number(splitTarget(turns[0])[1]) : 0);
      this.drawTile(this.layers.ghost, current, cell[0], cell[1], shown, { class: "ghost-tile", opacity: rot === null ? 0.75 : 1 });
      const [ox, oy] = this.origin(cell[0], cell[1]);
      el("rect", { x: ox, y: oy, width: T, height: T, fill: "none", stroke: HIGHLIGHT, "stroke-width": 4 }, this.layers.ghost);
    }
    // Where figures may go: on the tile being placed, or on the latest tile (figure phase).
    let figureTile = null;
    if (cell && current && rot !== null) figureTile = { tile: current, x: cell[0], y: cell[1], rot };
    else if (!cell && (view.board || []).length) figureTile = view.board[view.board.length - 1];
    // The figure step: zoomed to the tile on a small screen, the whole map at any other step.
    const figureStep = figureTile && [...targets].some((id) => splitTarget(id)[0] === "figure" && splitTarget(id)[1] !== "none");
    const wasZoomed = this.zoomed;
    this.showWhole();
    const zoomed = figureStep && this.zoomTo(figureTile.x, figureTile.y);
    if (!zoomed && wasZoomed) this.showLatest();
    const centres = zoomed ? this.spreadSpots(figureTile, targets) : null;
    const used = new Map();
    for (const id of targets) {
      const [kind, pos] = splitTarget(id);
      if (kind === "cell") {
        const [x, y] = pos.split(",").map(Number);
        const [ox, oy] = this.origin(x, y);
        const r = el("rect", { x: ox + 4, y: oy + 4, width: T - 8, height: T - 8, rx: 8, fill: tint(HIGHLIGHT, 0.7), "fill-opacity": 0.55, stroke: HIGHLIGHT, "stroke-width": 5, class: "target", "data-target": id }, lit);
        r.style.cursor = "pointer";
        this.targets.bind(r, id, this.options.labelFor && this.options.labelFor(id));
        spots.push({ id, x: ox + T / 2, y: oy + T / 2, r: T * 0.72 });
      } else if (kind === "figure" && figureTile && pos !== "none") {
        const segment = targetSegment(pos);
        const [sx, sy] = this.spot(figureTile.tile, figureTile.rot || 0, segment);
        const [ox, oy] = this.origin(figureTile.x, figureTile.y);
        const key = `${sx},${sy}`;
        const n = used.get(key) || 0;
        used.set(key, n + 1);
        const [cx, cy] = centres ? centres.get(id) : [ox + sx * T + n * 22, oy + sy * T];
        const ringR = zoomed ? ZOOM_RING : 15;
        // The figure as it would stand there (a farmer on a field, a monk on a monastery),
        // faint in the player's colour, in a lit ring.
        const you = this.state.you;
        if (you && Number.isInteger(you.seat)) {
          const ghost = figureShape(lit, cx, cy, figureKind("follower", segment), seatColour(this.state, you.seat), seatLetter(this.state, you.seat), zoomed ? T * 0.14 : T * 0.2);
          ghost.setAttribute("opacity", "0.6");
        }
        const ring = el("circle", { cx, cy, r: ringR, fill: WHITE, "fill-opacity": 0.01, stroke: HIGHLIGHT, "stroke-width": 4, class: "target", "data-target": id }, lit);
        ring.style.cursor = "pointer";
        this.targets.bind(ring, id, this.options.labelFor && this.options.labelFor(id));
        spots.push({ id, x: cx, y: cy, r: zoomed ? ZOOM_GAP / 2 : 22 });
      } else {
        missing.push(id);
      }
    }
    this.targets.set(spots);
    return missing;
  }

  /**
   * The ring centres (board units) of the figure targets on ``tile`` when zoomed: each at
   * its segment's spot, pushed apart until any two are ZOOM_GAP apart (some tiles have spots
   * a few units apart, or two figures on one spot), and kept on the tile.
   */
  spreadSpots(tile, targets) {
    const [ox, oy] = this.origin(tile.x, tile.y);
    const points = [];
    for (const id of targets) {
      const [kind, pos] = splitTarget(id);
      if (kind !== "figure" || pos === "none") continue;
      const [sx, sy] = this.spot(tile.tile, tile.rot || 0, targetSegment(pos));
      // A nudge of a unit, its direction per target: spots in a line (a city above a field
      // above a city) then spread sideways as well, not only along the line to the tile's edge.
      const angle = points.length * 2.4;
      points.push({ id, x: ox + sx * T + Math.cos(angle), y: oy + sy * T + Math.sin(angle) });
    }
    const lo = ZOOM_RING - 2;
    const hi = T - ZOOM_RING + 2;
    for (let round = 0; round < 200; round++) {
      let moved = false;
      for (let i = 0; i < points.length; i++) {
        for (let j = i + 1; j < points.length; j++) {
          const a = points[i];
          const b = points[j];
          let dx = b.x - a.x;
          let dy = b.y - a.y;
          let d = Math.hypot(dx, dy);
          if (d >= ZOOM_GAP) continue;
          if (d < 1e-6) {
            // One spot for two targets: side by side, in a fixed direction per pair.
            const angle = ((i * 7 + j * 3) % 8) * (Math.PI / 4);
            [dx, dy, d] = [Math.cos(angle), Math.sin(angle), 1];
          }
          const push = (ZOOM_GAP - d) / 2 + 0.5;
          a.x -= (dx / d) * push;
          a.y -= (dy / d) * push;
          b.x += (dx / d) * push;
          b.y += (dy / d) * push;
          moved = true;
        }
      }
      for (const p of points) {
        p.x = Math.min(ox + hi, Math.max(ox + lo, p.x));
        p.y = Math.min(oy + hi, Math.max(oy + lo, p.y));
      }
      if (!moved) break;
    }
    return new Map(points.map((p) => [p.id, [p.x, p.y]]));
  }

  clear() {
    if (this.zoomed) {
      this.showWhole();
      this.showLatest();
    }
    this.lastHighlight = null;
    empty(this.layers.ghost);
    empty(this.layers.lit);
    this.targets.set([]);
  }
}

/** A figure (renderer _draw_figure): the silhouette tells the kind, the letter the seat. */
export function figureShape(parent, x, y, kind, fill, letter, size, attrs = {}) {
  const g = el("g", { class: "figure", ...attrs }, parent);
  const s = size / 1.15;
  const ink = textOn(fill);
  const outline = Math.max(2, size / 10);
  const poly = (points, scale = 1) => points.map(([px, py]) => `${x + px * s * scale},${y + py * s * scale}`).join(" ");
  const meeple = (scale, colour, stroke, width) => {
    el("circle", { cx: x, cy: y - 0.72 * s * scale, r: 0.36 * s * scale, fill: colour, stroke, "stroke-width": width }, g);
    el("polygon", { points: poly(MEEPLE, scale), fill: colour, stroke, "stroke-width": width, "stroke-linejoin": "round" }, g);
  };
  if (kind === "follower" || kind === "big") {
    const scale = kind === "big" ? 1.08 : 1;
    if (kind === "big") {
      meeple(scale * 1.22, INK, INK, 0);
      meeple(scale * 1.11, WHITE, WHITE, 0);
    }
    meeple(scale, fill, INK, outline);
    // A two-letter initial (German "Gr", "Ge") is wider than the meeple's waist: a rim of
    // the figure's colour keeps its letters readable where they cross the outline.
    const rim = letter.length > 1 ? { stroke: fill, "stroke-width": size * 0.3, "stroke-linejoin": "round", "paint-order": "stroke" } : {};
    centredText(g, x, y + 0.18 * s * scale + 1, letter, size, ink, { "font-weight": "bold", ...rim });
  } else if (kind === "farmer") {
    el("circle", { cx: x - 1.45 * s + 0.4 * s, cy: y, r: 0.4 * s, fill, stroke: INK, "stroke-width": outline }, g);
    for (const dy of [-0.32, 0.32]) el("rect", { x: x + 0.6 * s, y: y + dy * s - 0.2 * s, width: 0.75 * s, height: 0.4 * s, rx: 0.2 * s, fill, stroke: INK, "stroke-width": outline }, g);
    el("rect", { x: x - 0.75 * s, y: y - 0.62 * s, width: 1.55 * s, height: 1.24 * s, rx: 0.45 * s, fill, stroke: INK, "stroke-width": outline }, g);
    centredText(g, x + 0.02 * s, y + 1, letter, size, ink, { "font-weight": "bold" });
  } else if (kind === "monk") {
    el("polygon", { points: poly(ROBE), fill, stroke: INK, "stroke-width": outline }, g);
    el("circle", { cx: x, cy: y - 0.72 * s, r: 0.42 * s, fill, stroke: INK, "stroke-width": outline }, g);
    el("circle", { cx: x, cy: y - 0.68 * s, r: 0.21 * s, fill: INK }, g);
    centredText(g, x, y + 0.3 * s + 1, letter, size, ink, { "font-weight": "bold" });
  } else if (kind === "builder") {
    el("polygon", { points: poly(HOUSE), fill, stroke: INK, "stroke-width": outline }, g);
    centredText(g, x, y + 0.2 * s + 1, letter, size, ink, { "font-weight": "bold" });
  } else if (kind === "pig") {
    const w = 1.05 * s;
    const h = 0.72 * s;
    for (const leg of [-0.6, -0.2, 0.25, 0.65]) el("rect", { x: x + leg * w - 0.1 * s, y: y + h * 0.6, width: 0.2 * s, height: h * 0.65, fill: INK }, g);
    for (const ex of [-0.45, 0.35]) el("polygon", { points: poly([[ex - 0.18, -0.55], [ex, -0.95], [ex + 0.18, -0.55]]), fill, stroke: INK }, g);
    el("ellipse", { cx: x, cy: y, rx: w, ry: h, fill, stroke: INK, "stroke-width": outline }, g);
    el("ellipse", { cx: x + w + 0.05 * s, cy: y - 0.025 * s, rx: 0.2 * s, ry: 0.225 * s, fill, stroke: INK, "stroke-width": outline }, g);
    centredText(g, x - 0.05 * s, y + 1, letter, size, ink, { "font-weight": "bold" });
  } else {
    el("circle", { cx: x, cy: y, r: 0.9 * s, fill, stroke: INK, "stroke-width": outline }, g);
    centredText(g, x, y + 1, letter, size, ink, { "font-weight": "bold" });
  }
  return g;
}
