// The Tock / Dog board in SVG, drawn from the public race view exactly as renderer/
// race_board.py draws the PNG: ring, start fields, home lanes, kennels, pawns in seat
// colours with their letters, guard rings, the moves since the reader's last turn as
// numbered arrows (the newest strongest) and capture crosses, whose turn and the names.

import {
  INK, WHITE, GREY, LIGHT_GREY, HIGHLIGHT,
  el, empty, tint, shade, textOn, seatColour, seatLetter, seatName, centredText, wrapLines,
  numberBadge, arrowHead, stopShort, arrowEvents, Targets,
} from "./svg.js";

const RING_LINE = "#cdc6b9";
const FIELD_FILL = "#fffdf8";
const FIELD_OUTLINE = "#787268";
const RING_BAND = "#f1ece2";
const LANE_FORK = 0.6;
// Room around the ring for the players' names (board units).
const MARGIN = 56;
// The phone rule of the PNG boards (renderer/style.py): every letter at least 9 px tall when
// the board is 400 px wide.
const PHONE_WIDTH = 400;
const MIN_PHONE_TEXT = 9;
// Longer names are cut on the board (the seat list shows them whole).
const NAME_CHARS = 14;

/** ``size`` raised to what stays 9 px tall on a 400 px wide board of ``width`` units. */
function legible(size, width) {
  return Math.max(size, (MIN_PHONE_TEXT * (width + 2 * MARGIN)) / PHONE_WIDTH);
}

/** (ring size, fields per seat) of a race view (renderer.race_layout.board_shape). */
function boardShape(view) {
  const board = view.board || {};
  const perSeat = Number(board.per_seat) || (view.game === "tock" ? 18 : 16);
  let ring = Number(board.ring);
  if (!ring) {
    const seats = view.seats || [0, 1, 2, 3];
    ring = perSeat * (Math.max(...seats) >= 4 || seats.length >= 5 ? 6 : 4);
  }
  return [ring, perSeat];
}

/** Positions of every field, home slot, kennel slot and seat tag (race_layout._layout). */
export function raceLayout(view, bottomSeat) {
  const [ring, perSeat] = boardShape(view);
  const seats = (view.seats || []).map(Number);
  const bottom = bottomSeat !== null && bottomSeat !== undefined && seats.includes(bottomSeat) ? bottomSeat : seats[0];
  const game = view.game;
  const width = ring / perSeat <= 4 ? 900 : 1080;
  const radius = width * 0.415;
  const c = width / 2;
  const spacing = (2 * Math.PI * radius) / ring;
  const pawnR = spacing * 0.6;
  const fieldR = spacing * 0.3;
  const angle = (i) => Math.PI / 2 + (2 * Math.PI * (i - perSeat * bottom)) / ring;
  const polar = (i, r) => [c + r * Math.cos(angle(i)), c + r * Math.sin(angle(i))];
  const ringPoints = Array.from({ length: ring }, (_, i) => polar(i, radius));
  const laneStep = 2 * pawnR + 4;
  const homes = {};
  const kennels = {};
  const labels = {};
  const branchField = (seat) => (game === "tock" ? (perSeat * seat - 2 + ring) % ring : perSeat * seat);
  for (const seat of seats) {
    const start = perSeat * seat;
    const branch = branchField(seat);
    homes[seat] = [1, 2, 3, 4].map((k) => polar(branch + LANE_FORK, radius - laneStep * (k + 0.1)));
    const offset = game === "tock" ? 3.2 : 3.6;
    const a = angle(start + offset);
    const radial = [Math.cos(a), Math.sin(a)];
    const tangent = [-Math.sin(a), Math.cos(a)];
    const kr = radius - laneStep * 1.8;
    const kc = [c + kr * radial[0], c + kr * radial[1]];
    kennels[seat] = [[0.5, -0.5], [0.5, 0.5], [-0.5, -0.5], [-0.5, 0.5]].map(([dr, dt]) => [
      kc[0] + laneStep * (dr * radial[0] + dt * tangent[0]),
      kc[1] + laneStep * (dr * radial[1] + dt * tangent[1]),
    ]);
    labels[seat] = polar(start + 0.5, radius + pawnR + width * 0.035);
  }
  const layout = {
    key: [game, ring, perSeat, seats.join(","), bottom].join("|"),
    game, ring, perSeat, seats, bottom, width, centre: [c, c], radius, pawnR, fieldR,
    ringPoints, homes, kennels, labels, angle, polar, branchField,
    startField: (seat) => perSeat * seat,
  };
  layout.point = (location) => pointOf(layout, location);
  return layout;
}

/** Centre of a location as the view writes it (r12, h0.2, k1, k1.3); ``*`` and ``:`` ok. */
function pointOf(layout, location) {
  const loc = String(location).replace(/\*$/, "").replace(":", ".");
  if (loc.startsWith("r")) return layout.ringPoints[Number(loc.slice(1)) % layout.ring];
  if (loc.startsWith("h")) {
    const [seat, slot] = loc.slice(1).split(".");
    const home = layout.homes[Number(seat)];
    return home ? home[Number(slot) - 1] : undefined;
  }
  if (loc.startsWith("k")) {
    const [seat, slot] = loc.slice(1).split(".");
    const kennel = layout.kennels[Number(seat)];
    return kennel ? kennel[Number(slot || 1) - 1] : undefined;
  }
  return undefined;
}

/** Where each pawn is drawn: [{loc, seat, guarded}] with kennel pawns as kS.n. */
function pawnSlots(view) {
  const placed = [];
  const pawns = view.pawns || {};
  for (const seat of view.seats || []) {
    let kennelCount = 0;
    const locations = [...(pawns[String(seat)] || [])];
    while (locations.length < 4) locations.push("k" + seat);
    for (const raw of locations) {
      const guarded = String(raw).endsWith("*");
      let loc = String(raw).replace(/\*$/, "");
      if (loc.startsWith("k")) {
        kennelCount += 1;
        loc = `k${seat}.${kennelCount}`;
      }
      placed.push({ loc, seat: Number(seat), guarded });
    }
  }
  return placed;
}

function ownerOf(location, pawns) {
  if (location.startsWith("h")) return Number(location.slice(1).split(".")[0]);
  for (const [seat, locations] of Object.entries(pawns || {})) {
    if (locations.some((l) => String(l).replace(/\*$/, "") === location)) return Number(seat);
  }
  return null;
}

/** The drawable parts of one move's public events (renderer.race_events.last_move). */
export function readMove(events) {
  const move = { seat: null, paths: [], swaps: [], bringOut: [], captures: [] };
  for (const event of events) {
    if (event.public === false) continue;
    const data = event.data || {};
    const seat = Number.isInteger(event.seat) ? event.seat : null;
    if (event.kind === "capture") {
      const at = ["at", "location", "loc", "field", "where"].map((k) => data[k]).find((v) => typeof v === "string");
      if (at) {
        const victim = [data.captured, data.owner, seat].find((v) => Number.isInteger(v));
        move.captures.push([at.replace(/\*$/, ""), victim ?? null]);
      }
    } else if (event.kind === "move" && Array.isArray(data.path) && data.from) {
      move.paths.push([[String(data.from), ...data.path.map(String)], Number.isInteger(data.colour) ? data.colour : seat]);
      if (move.seat === null) move.seat = seat;
    } else if (event.kind === "bring_out") {
      move.bringOut.push(Number.isInteger(data.colour) ? data.colour : seat ?? 0);
      if (move.seat === null) move.seat = seat;
    } else if (event.kind === "swap" && data.a && data.b) {
      move.swaps.push([String(data.a), String(data.b)]);
      if (move.seat === null) move.seat = seat;
    }
  }
  return move;
}

/** The race board: build once, ``update`` per state, ``highlight`` the clickable targets. */
export class RaceBoard {
  constructor(container, state, options = {}) {
    this.container = container;
    this.options = options;
    this.svg = el("svg", { class: "poeppel-board race-board", role: "img", preserveAspectRatio: "xMidYMid meet" });
    container.appendChild(this.svg);
    this.layers = {};
    for (const name of ["static", "marks", "arrows", "pawns", "captures", "numbers", "centre", "names", "chosen", "lit"]) {
      this.layers[name] = el("g", { class: "layer-" + name }, this.svg);
    }
    this.targets = new Targets(this.svg, (id) => options.onTarget && options.onTarget(id));
    this.key = null;
    this.update(state);
  }

  bottomSeat(state) {
    if (state.you && Number.isInteger(state.you.seat)) return state.you.seat;
    const viewer = state.public && state.public.viewer;
    return Number.isInteger(viewer) ? viewer : null;
  }

  update(state) {
    this.state = state;
    const view = state.public || {};
    const layout = raceLayout(view, this.bottomSeat(state));
    this.layout = layout;
    if (layout.key !== this.key) {
      this.key = layout.key;
      const w = layout.width;
      this.svg.setAttribute("viewBox", `${-MARGIN} ${-MARGIN} ${w + 2 * MARGIN} ${w + 2 * MARGIN}`);
      this.drawStatic();
    }
    for (const name of ["marks", "arrows", "pawns", "captures", "numbers", "centre", "names"]) empty(this.layers[name]);
    this.drawMarks(view);
    // The moves since the reader's last turn, numbered as the list beside the board numbers
    // them; the newest move with something to draw is the strongest.
    const since = state.since || [];
    const moves = since.map((entry) => readMove(arrowEvents(entry)));
    const drawable = moves.map((m) => m.paths.length + m.swaps.length + m.bringOut.length > 0);
    const newest = drawable.lastIndexOf(true);
    const heads = moves.map((move, i) => this.drawMove(move, view, i !== newest));
    for (const list of heads) for (const [tip, tail, size, colour] of list) arrowHead(this.layers.arrows, tip, tail, size, colour);
    this.drawPawns(view);
    for (const move of moves) this.drawCaptures(move);
    if (drawable.filter(Boolean).length > 1) {
      this.drawNumbers(heads, since.map((entry, i) => entry.number ?? i + 1), newest);
    }
    this.drawCentre(state);
    this.drawNames(state);
    // A new state ends any choice in progress: the app lights the new targets.
    this.clear();
  }

  drawStatic() {
    const g = this.layers.static;
    empty(g);
    const L = this.layout;
    const [cx, cy] = L.centre;
    const r = L.radius;
    el("circle", { cx, cy, r: r + L.pawnR + 6, fill: RING_BAND }, g);
    el("circle", { cx, cy, r: r - L.pawnR - 6, fill: "#faf7f0" }, g);
    el("circle", { cx, cy, r, fill: "none", stroke: RING_LINE, "stroke-width": 3 }, g);
    for (const seat of L.seats) {
      const colour = seatColour(this.state, seat);
      const branch = L.ringPoints[L.branchField(seat)];
      const home = L.homes[seat];
      const pts = [branch, ...home].map((p) => p.join(",")).join(" ");
      el("polyline", { points: pts, fill: "none", stroke: tint(colour, 0.65), "stroke-width": Math.round(L.pawnR * 1.2), "stroke-linejoin": "round", "stroke-linecap": "round" }, g);
      el("line", { x1: branch[0], y1: branch[1], x2: home[0][0], y2: home[0][1], stroke: colour, "stroke-width": Math.max(3, Math.round(L.pawnR * 0.3)) }, g);
    }
    L.ringPoints.forEach(([x, y], index) => {
      el("circle", { cx: x, cy: y, r: L.fieldR, fill: FIELD_FILL, stroke: FIELD_OUTLINE, "stroke-width": 1, class: "field", "data-pos": "r" + index }, g);
      if (index % 6 === 0) {
        const a = L.angle(index);
        const inner = r + L.fieldR + 2;
        const outer = r + L.pawnR + 2;
        el("line", { x1: cx + inner * Math.cos(a), y1: cy + inner * Math.sin(a), x2: cx + outer * Math.cos(a), y2: cy + outer * Math.sin(a), stroke: RING_LINE, "stroke-width": 2 }, g);
      }
    });
    for (const seat of L.seats) {
      const colour = seatColour(this.state, seat);
      const light = tint(colour, 0.65);
      L.homes[seat].forEach(([x, y], k) => {
        el("circle", { cx: x, cy: y, r: L.pawnR * 0.72, fill: light, stroke: colour, "stroke-width": 3, class: "field", "data-pos": `h${seat}.${k + 1}` }, g);
      });
      const [sx, sy] = L.ringPoints[L.startField(seat)];
      el("circle", { cx: sx, cy: sy, r: L.pawnR * 0.95, fill: light, stroke: colour, "stroke-width": 4 }, g);
      const kennel = L.kennels[seat];
      const xs = kennel.map((p) => p[0]);
      const ys = kennel.map((p) => p[1]);
      const pad = L.pawnR + 5;
      el("rect", {
        x: Math.min(...xs) - pad, y: Math.min(...ys) - pad,
        width: Math.max(...xs) - Math.min(...xs) + 2 * pad, height: Math.max(...ys) - Math.min(...ys) + 2 * pad,
        rx: pad * 0.6, fill: tint(colour, 0.8), stroke: colour, "stroke-width": 2,
      }, g);
      for (const [x, y] of kennel) el("circle", { cx: x, cy: y, r: L.pawnR * 0.55, fill: tint(colour, 0.55) }, g);
      const [lx, ly] = L.labels[seat];
      const half = L.pawnR * 1.05;
      el("rect", { x: lx - half, y: ly - half, width: 2 * half, height: 2 * half, rx: half * 0.3, fill: colour, stroke: INK, "stroke-width": 2 }, g);
      centredText(g, lx, ly + 1, seatLetter(this.state, seat), legible(L.pawnR * 1.3, L.width), textOn(colour), { "font-weight": "bold" });
    }
  }

  drawMarks(view) {
    const L = this.layout;
    const g = this.layers.marks;
    const toAct = new Set((view.to_act || []).map(Number));
    for (const seat of L.seats) {
      const [lx, ly] = L.labels[seat];
      if (toAct.has(seat) && !view.finished) {
        const half = L.pawnR * 1.05 + 8;
        el("rect", { x: lx - half, y: ly - half, width: 2 * half, height: 2 * half, rx: half * 0.35, fill: "none", stroke: INK, "stroke-width": 5, class: "to-act", "data-seat": seat }, g);
      }
      if (seat === view.dealer) {
        const a = L.angle(L.startField(seat) + 0.5);
        const r = L.pawnR * 0.7;
        const d = L.pawnR + r + 6;
        const chip = [lx - d * Math.sin(a), ly + d * Math.cos(a)];
        el("circle", { cx: chip[0], cy: chip[1], r, fill: WHITE, stroke: INK, "stroke-width": 2 }, g);
        centredText(g, chip[0], chip[1] + 1, "D", legible(r * 1.25, L.width), INK);
      }
      if ((view.folded || []).map(Number).includes(seat)) {
        el("line", { x1: lx - 20, y1: ly + 20, x2: lx + 20, y2: ly - 20, stroke: GREY, "stroke-width": 6 }, g);
      }
    }
  }

  walkPoints(path) {
    const points = [];
    for (const loc of path) {
      const p = this.layout.point(loc);
      if (p) points.push(p);
    }
    return points;
  }

  drawMove(move, view, faint) {
    const L = this.layout;
    const g = this.layers.arrows;
    const heads = [];
    let width = Math.max(4, Math.round(L.pawnR * 0.35));
    if (faint) width = Math.max(3, Math.round(width * 0.6));
    const paint = (seat) => (seat === null || seat === undefined ? INK : faint ? tint(seatColour(this.state, seat), 0.55) : shade(seatColour(this.state, seat), 0.3));
    const line = (points, colour, w) => {
      const pts = points.map((p) => p.join(",")).join(" ");
      el("polyline", { points: pts, fill: "none", stroke: WHITE, "stroke-width": w + 4, "stroke-linejoin": "round", "stroke-linecap": "round" }, g);
      el("polyline", { points: pts, fill: "none", stroke: colour, "stroke-width": w, "stroke-linejoin": "round", "stroke-linecap": "round", class: faint ? "arrow" : "arrow newest" }, g);
    };
    for (const [path, colourSeat] of move.paths) {
      let points = this.walkPoints(path);
      if (points.length < 2) continue;
      const seat = colourSeat ?? ownerOf(path[path.length - 1], view.pawns) ?? move.seat;
      const colour = paint(seat);
      points = stopShort(points, L.pawnR + 2);
      line(points, colour, width);
      heads.push([points[points.length - 1], points[points.length - 2], L.pawnR * 1.5, colour]);
      el("circle", { cx: points[0][0], cy: points[0][1], r: L.pawnR * 0.55, fill: "none", stroke: colour, "stroke-width": width }, g);
    }
    for (const [a, b] of move.swaps) {
      const pa = L.point(a);
      const pb = L.point(b);
      if (!pa || !pb) continue;
      const ink = faint ? GREY : INK;
      line([pa, pb], ink, width);
      heads.push([stopShort([pb, pa], L.pawnR + 2)[1], pb, L.pawnR * 1.4, ink]);
      heads.push([stopShort([pa, pb], L.pawnR + 2)[1], pa, L.pawnR * 1.4, ink]);
    }
    for (const seat of move.bringOut) {
      const kennel = L.kennels[seat];
      if (!kennel) continue;
      const kc = [kennel.reduce((s, p) => s + p[0], 0) / 4, kennel.reduce((s, p) => s + p[1], 0) / 4];
      const start = L.ringPoints[L.startField(seat)];
      const colour = paint(seat);
      const tip = stopShort([kc, start], L.pawnR + 2)[1];
      line([kc, tip], colour, width);
      heads.push([tip, kc, L.pawnR * 1.5, colour]);
    }
    return heads;
  }

  drawPawns(view) {
    const L = this.layout;
    const g = this.layers.pawns;
    this.pawnAt = {};
    for (const { loc, seat, guarded } of pawnSlots(view)) {
      const p = L.point(loc);
      if (!p) continue;
      const colour = seatColour(this.state, seat);
      const pawn = el("g", { class: "pawn", "data-pos": loc, "data-seat": seat }, g);
      if (guarded) {
        el("circle", { cx: p[0], cy: p[1], r: L.pawnR + 6, fill: INK }, pawn);
        el("circle", { cx: p[0], cy: p[1], r: L.pawnR + 3, fill: WHITE }, pawn);
      }
      el("circle", { cx: p[0], cy: p[1], r: L.pawnR, fill: colour, stroke: INK, "stroke-width": 2 }, pawn);
      centredText(pawn, p[0], p[1] + 1, seatLetter(this.state, seat), legible(L.pawnR * 1.25, L.width), textOn(colour), { "font-weight": "bold" });
      this.pawnAt[loc] = p;
    }
    const seven = view.seven || {};
    for (const location of seven.moved || []) {
      const p = L.point(location);
      if (!p) continue;
      const r = L.pawnR * 0.5;
      const badge = [p[0] + L.pawnR * 0.8, p[1] - L.pawnR * 0.8];
      el("circle", { cx: badge[0], cy: badge[1], r, fill: WHITE, stroke: INK, "stroke-width": 2 }, g);
      centredText(g, badge[0], badge[1] + 1, "7", legible(r * 1.4, L.width), INK);
    }
  }

  drawCaptures(move) {
    const L = this.layout;
    const g = this.layers.captures;
    for (const [location, victim] of move.captures) {
      const p = L.point(location);
      if (!p) continue;
      const a = Math.atan2(p[1] - L.centre[1], p[0] - L.centre[0]);
      const d = L.pawnR * 2.1;
      const [mx, my] = [p[0] + d * Math.cos(a), p[1] + d * Math.sin(a)];
      const s = L.pawnR * 0.75;
      const colour = victim === null ? INK : seatColour(this.state, victim);
      const mark = el("g", { class: "capture", "data-pos": location }, g);
      el("circle", { cx: mx, cy: my, r: s + 5, fill: WHITE, stroke: INK, "stroke-width": 2 }, mark);
      for (const [w, c] of [[7, INK], [3, colour]]) {
        el("line", { x1: mx - s, y1: my - s, x2: mx + s, y2: my + s, stroke: c, "stroke-width": w }, mark);
        el("line", { x1: mx - s, y1: my + s, x2: mx + s, y2: my - s, stroke: c, "stroke-width": w }, mark);
      }
    }
  }

  drawNumbers(heads, numbers, newest) {
    const L = this.layout;
    const size = legible(L.pawnR * 0.85, L.width);
    const r = Math.max(L.pawnR * 0.6, size * 0.66);
    const placed = [];
    heads.forEach((list, i) => {
      if (!list.length) return;
      const [[tx, ty], [fx, fy], , colour] = list[0];
      const length = Math.hypot(tx - fx, ty - fy) || 1;
      const back = Math.min(length / 2, 3 * r) / length;
      const x = tx + (fx - tx) * back;
      const y = ty + (fy - ty) * back;
      const a = Math.atan2(y - L.centre[1], x - L.centre[0]);
      let centre = [x, y];
      for (let step = 0; step < 6; step++) {
        centre = [x - step * 2.3 * r * Math.cos(a), y - step * 2.3 * r * Math.sin(a)];
        if (placed.every(([px, py]) => Math.hypot(centre[0] - px, centre[1] - py) > 2.2 * r)) break;
      }
      placed.push(centre);
      const label = String(numbers[i]);
      // Wide numbers (18, 105) get a wider badge's worth of room through a smaller font.
      const fit = label.length > 1 ? Math.min(size, (r * 2.6) / label.length) : size;
      numberBadge(this.layers.numbers, centre[0], centre[1], r, label, colour, i === newest, Math.max(fit, size * 0.75));
    });
  }

  drawCentre(state) {
    const L = this.layout;
    const g = this.layers.centre;
    const labels = state.labels || {};
    const inner = L.radius - (2 * L.pawnR + 4) * 4.8;
    const maxWidth = inner * 1.7;
    const size = legible(L.width * 0.03, L.width);
    const rows = [];
    const title = labels.title;
    if (title) for (const line of wrapLines(title, size * 1.25, maxWidth)) rows.push([line, size * 1.25, "bold"]);
    const lines = Array.isArray(labels.centre) ? labels.centre : [state.status];
    for (const text of lines) if (text) for (const line of wrapLines(text, size, maxWidth)) rows.push([line, size, "normal"]);
    const height = rows.reduce((s, [, sz]) => s + sz * 1.3, 0);
    let y = L.centre[1] - height / 2;
    for (const [text, sz, weight] of rows) {
      centredText(g, L.centre[0], y + (sz * 1.3) / 2, text, sz, INK, { "font-weight": weight, class: "centre-text" });
      y += sz * 1.3;
    }
  }

  drawNames(state) {
    const L = this.layout;
    const g = this.layers.names;
    const size = legible(L.width * 0.028, L.width);
    for (const seat of L.seats) {
      let name = seatName(state, seat);
      if (!name) continue;
      if (name.length > NAME_CHARS) name = name.slice(0, NAME_CHARS - 1) + "…";
      const [lx, ly] = L.labels[seat];
      const a = L.angle(L.startField(seat) + 0.5);
      const half = L.pawnR * 1.05 + 10;
      let x = lx;
      let y = ly;
      let anchor = "middle";
      if (Math.sin(a) > 0.5) y = ly + half + size * 0.6; // bottom: under the tag
      else if (Math.sin(a) < -0.5) y = ly - half - size * 0.6; // top: over the tag
      else {
        // The sides: under the tag, running inwards from the board's edge.
        y = ly + half + size * 0.6;
        if (Math.cos(a) < 0) {
          x = -MARGIN + 4;
          anchor = "start";
        } else {
          x = L.width + MARGIN - 4;
          anchor = "end";
        }
      }
      const text = el("text", {
        x, y, "font-size": size, "text-anchor": anchor, "dominant-baseline": "central",
        fill: INK, class: "seat-name", "data-seat": seat, text: name,
        "paint-order": "stroke", stroke: "#faf7f0", "stroke-width": 5, "stroke-linejoin": "round",
      }, g);
      if (state.you && state.you.seat === seat) text.setAttribute("font-weight", "bold");
    }
  }

  /** Light up ``targets`` (ids); ``chosen`` are the clicks so far. Returns ids not drawn. */
  highlight(targets, step = 0, chosen = []) {
    this.clear();
    const L = this.layout;
    const lit = this.layers.lit;
    const spots = [];
    const missing = [];
    for (const id of targets) {
      const [kind, pos] = splitTarget(id);
      let p = null;
      if (kind === "pawn") p = this.pawnPoint(pos);
      else if (kind === "field") p = L.point(pos);
      if (!p) {
        missing.push(id);
        continue;
      }
      const r = L.pawnR + 9;
      const ring = el("circle", {
        // A pawn's ring is filled invisibly so that the whole disc takes the tap.
        cx: p[0], cy: p[1], r, fill: tint(HIGHLIGHT, 0.75),
        "fill-opacity": kind === "field" ? 0.6 : 0, stroke: HIGHLIGHT, "stroke-width": 5,
        class: "target", "data-target": id, "data-step": step,
      }, lit);
      ring.style.cursor = "pointer";
      this.targets.bind(ring, id, this.options.labelFor && this.options.labelFor(id));
      spots.push({ id, x: p[0], y: p[1], r: Math.max(2 * L.pawnR, r + 6) });
    }
    this.targets.set(spots);
    this.drawChosen(chosen);
    return missing;
  }

  drawChosen(chosen) {
    const L = this.layout;
    const g = this.layers.chosen;
    let from = null;
    for (const id of chosen) {
      const [kind, pos] = splitTarget(id);
      const p = kind === "pawn" ? this.pawnPoint(pos) : kind === "field" ? L.point(pos) : null;
      if (!p) continue;
      el("circle", { cx: p[0], cy: p[1], r: L.pawnR + 7, fill: "none", stroke: INK, "stroke-width": 4, "stroke-dasharray": "6 4", class: "chosen", "data-target": id }, g);
      if (kind === "field" && from) {
        el("line", { x1: from[0], y1: from[1], x2: p[0], y2: p[1], stroke: HIGHLIGHT, "stroke-width": 4, "stroke-dasharray": "10 6" }, g);
      }
      from = kind === "pawn" ? p : null;
    }
  }

  pawnPoint(pos) {
    const loc = String(pos).replace(/\*$/, "").replace(":", ".");
    if (/^k\d+$/.test(loc)) {
      // A pawn from the kennel: the first kennel slot that holds one.
      for (let n = 1; n <= 4; n++) if (this.pawnAt[`${loc}.${n}`]) return this.pawnAt[`${loc}.${n}`];
      return this.layout.point(loc);
    }
    return this.pawnAt[loc] || this.layout.point(loc);
  }

  clear() {
    empty(this.layers.lit);
    empty(this.layers.chosen);
    this.targets.set([]);
  }
}

export function splitTarget(id) {
  const at = String(id).indexOf(":");
  return at < 0 ? [String(id), ""] : [String(id).slice(0, at), String(id).slice(at + 1)];
}
