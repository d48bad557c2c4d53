// The live page of a table (#33): connects the socket, draws the board, shows whose turn it
// is, the seats and scores, the moves since the reader's last turn, and for a seated player
// the hand and the choices; after the game the replay with a slider. Inside Discord (an
// Activity) it first signs the user in through the Embedded App SDK.
//
// Every word shown comes from the server (state.labels, state.status, texts of options and
// targets); this file holds no player-facing English.

import { drawBoard } from "./board/index.js";
import { seatColour, seatLetter, textOn } from "./board/svg.js";

const $ = (id) => document.getElementById(id);

/** The page's state: one table, one socket, the clicks so far. */
const page = {
  table: null,
  session: null,
  socket: null,
  state: null,
  board: null,
  chosen: [],
  pending: false,
  frames: null,
  replayAsked: false,
  replaying: false,
  retry: 0,
  closedForGood: false,
  noticeVersion: null,
  ways: [],
  waysOf: null,
};

/** The table id from the path (`/live/table/<id>`); ids are never in the query. */
function tableFromPath() {
  const match = location.pathname.match(/\/table\/(\d+)\/?$/);
  return match ? Number(match[1]) : null;
}

/** Whether the page runs as a Discord Activity (Discord adds these to the iframe's URL). */
function inDiscord() {
  const query = new URLSearchParams(location.search);
  return query.has("frame_id") && query.has("instance_id");
}

async function postJSON(url, body) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error || String(response.status));
  return data;
}

/**
 * The Activity's sign-in: the SDK's handshake with Discord, `authorize` for an OAuth2 code,
 * the code exchanged on our server for the user's token and a table session, then
 * `authenticate` with that token. The session goes in the socket's hello; never in a URL.
 */
async function signInThroughDiscord() {
  const config = await fetch("/live/api/config", { credentials: "same-origin" }).then((r) => r.json());
  const clientId = config.client_id;
  const { DiscordSDK } = await import("./vendor/discord-sdk.js");
  const sdk = new DiscordSDK(clientId, { disableConsoleLogOverride: true });
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    // identify: who the user is; guilds: whether they belong to the table's server.
    scope: ["identify", "guilds"],
  });
  const answer = await postJSON("/live/api/token", {
    code,
    table: page.table,
    guild_id: sdk.guildId,
    channel_id: sdk.channelId,
    instance_id: sdk.instanceId,
  });
  await sdk.commands.authenticate({ access_token: answer.access_token });
  page.session = answer.session;
  if (page.table === null && Number.isInteger(answer.table)) page.table = answer.table;
}

function spectatorLocale() {
  const language = (navigator.language || "en").slice(0, 2).toLowerCase();
  return ["en", "de", "hu"].includes(language) ? language : "en";
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${scheme}//${location.host}/live/socket`);
  page.socket = socket;
  socket.addEventListener("open", () => {
    page.retry = 0;
    socket.send(JSON.stringify({ type: "hello", table: page.table, session: page.session, locale: spectatorLocale() }));
  });
  socket.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    receive(message);
  });
  socket.addEventListener("close", () => {
    page.pending = false;
    if (page.closedForGood) return; // the server said why (an error): no retry
    $("app").dataset.state = "disconnected";
    if (page.state && labels(page.state).offline) $("status").textContent = labels(page.state).offline;
    // Back after a moment: a restarting bot or a phone waking up.
    const delay = Math.min(10000, 500 * 2 ** page.retry++);
    setTimeout(connect, delay);
  });
}

function receive(message) {
  switch (message.type) {
    case "state":
      onState(message);
      break;
    case "played":
      page.pending = false;
      notice(message.text, false);
      break;
    case "refused":
      page.pending = false;
      page.chosen = [];
      notice(message.text, true);
      renderChoices();
      break;
    case "replay":
      onReplay(message.frames || []);
      break;
    case "error":
      page.closedForGood = true;
      $("app").dataset.state = "error";
      $("status").textContent = message.text || "";
      break;
    default:
      break;
  }
}

function notice(text, refused) {
  page.noticeVersion = text && page.state ? page.state.version : null;
  const box = $("notice");
  box.textContent = text || "";
  box.hidden = !text;
  box.classList.toggle("refused", !!refused);
}

function onState(state) {
  const previous = page.state;
  page.state = state;
  $("app").dataset.state = "live";
  $("app").dataset.version = String(state.version);
  document.documentElement.lang = state.locale || "";
  if (!previous || previous.version !== state.version) {
    page.chosen = [];
    page.pending = false;
  }
  // A notice (played / refused) stays through the state its move made, then goes.
  if (page.noticeVersion !== null && state.version > page.noticeVersion + 1) notice("", false);
  if (!page.replaying) show(state);
  if (state.finished && !page.replayAsked && page.socket) {
    page.replayAsked = true;
    page.socket.send(JSON.stringify({ type: "replay" }));
  }
}

/** Draw ``state``: board, title and status, seats, moves since, the player's choices. */
function show(state) {
  const labels = state.labels || {};
  $("title").textContent = labels.title || "";
  $("status").textContent = state.status || "";
  if (state.public) {
    if (!page.board) {
      page.board = drawBoard($("board"), state, {
        locale: state.locale,
        onTarget: clickTarget,
        // Words for a lit target, for screen readers: the one option it completes, if any.
        labelFor: (id) => (page.state && page.state.you ? targetWords(id, candidates()) : ""),
      });
    } else page.board.update(state);
  }
  renderSeats(state);
  renderSince(state);
  renderChoices();
}

function renderSeats(state) {
  const list = $("seats");
  list.replaceChildren();
  const view = state.public || {};
  const toAct = new Set((state.to_act || view.to_act || []).map(Number));
  const winners = new Set((view.winners || []).map(Number));
  for (const seat of state.seats || []) {
    const item = document.createElement("li");
    item.dataset.seat = seat.seat;
    if (toAct.has(seat.seat) && !state.finished) item.classList.add("to-act");
    if (state.you && state.you.seat === seat.seat) item.classList.add("you");
    const chip = document.createElement("span");
    chip.className = "chip";
    const colour = seatColour(state, seat.seat);
    chip.style.background = colour;
    chip.style.color = textOn(colour);
    chip.textContent = seatLetter(state, seat.seat);
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = (winners.has(seat.seat) ? "★ " : "") + (seat.name || "");
    if (seat.team) {
      const small = document.createElement("small");
      small.textContent = " · " + seat.team;
      name.appendChild(small);
    }
    const facts = document.createElement("span");
    facts.className = "facts";
    if (state.game === "carcassonne") {
      const score = (view.scores || [])[seat.seat];
      if (score !== undefined) facts.textContent = String(score);
      if (labels(state).score) facts.title = labels(state).score;
    } else {
      const cards = (view.hand_sizes || {})[String(seat.seat)];
      if (cards !== undefined) facts.textContent = "🂠 " + cards;
      if (labels(state).hand) facts.title = labels(state).hand;
    }
    item.append(chip, name, facts);
    list.appendChild(item);
  }
  if (state.game === "carcassonne" && view.current_tile && !state.finished) {
    const item = document.createElement("li");
    item.className = "current-tile";
    const image = document.createElement("img");
    image.src = `/live/tiles/${encodeURIComponent(view.current_tile)}.png`;
    image.width = 48;
    image.height = 48;
    image.alt = "";
    // The pile's size only with its words (the status says it while a tile is placed).
    const words = labels(state).tiles_left || "";
    const left = document.createElement("span");
    left.textContent = words;
    const count = document.createElement("span");
    count.className = "facts";
    count.textContent = words && view.tiles_left !== undefined ? String(view.tiles_left) : "";
    item.append(image, left, count);
    list.appendChild(item);
  }
}

function labels(state) {
  return state.labels || {};
}

function renderSince(state) {
  const since = state.since || [];
  $("since-box").hidden = since.length === 0;
  $("since-title").textContent = labels(state).since || "";
  const list = $("since");
  list.replaceChildren();
  for (const entry of since) {
    const item = document.createElement("li");
    item.textContent = entry.text || "";
    list.appendChild(item);
  }
}

function startsWith(path, prefix) {
  return prefix.every((target, i) => path[i] === target);
}

/**
 * Every way to click each option: its own path, and for a split 7 (a card followed by
 * several pawn-field pairs) its pawns in any order, so a player may start with either pawn.
 * Each way keeps its option, whose own path is what is sent.
 */
function clickWays(options) {
  const ways = [];
  // Where the server lists an order as an option of its own, that order means that option.
  const own = new Set(options.map((option) => option.path.join(" ")));
  for (const option of options) {
    ways.push({ path: option.path, option });
    const head = option.path.slice(0, 1);
    const rest = option.path.slice(1);
    const pairs = [];
    for (let i = 0; i + 1 < rest.length; i += 2) pairs.push(rest.slice(i, i + 2));
    const split =
      head.length === 1 && head[0].startsWith("card:") && pairs.length >= 2 && pairs.length <= 4 &&
      rest.length === pairs.length * 2 &&
      pairs.every(([a, b]) => a.startsWith("pawn:") && b.startsWith("field:"));
    if (!split) continue;
    for (const order of permutations(pairs).slice(1)) {
      const path = [...head, ...order.flat()];
      if (!own.has(path.join(" "))) ways.push({ path, option });
    }
  }
  return ways;
}

function permutations(items) {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

/** The ways of clicking still open after the clicks so far. */
function candidates() {
  const you = page.state && page.state.you;
  if (!you || page.replaying) return [];
  if (page.waysOf !== you.options) {
    page.waysOf = you.options;
    page.ways = clickWays(you.options || []);
  }
  return page.ways.filter((way) => startsWith(way.path, page.chosen));
}

/** The different options among ``ways``. */
function optionsOf(ways) {
  return [...new Set(ways.map((way) => way.option))];
}

/** Words for a target drawn as a button: the server's, else the one option it completes. */
function targetWords(id, left) {
  const you = page.state.you || {};
  if (you.targets && you.targets[id]) return you.targets[id];
  const ending = optionsOf(left.filter((way) => way.path[page.chosen.length] === id));
  if (ending.length === 1) return ending[0].text;
  return "";
}

/** Hand, choice buttons and board highlights for the clicks so far. */
function renderChoices() {
  const state = page.state;
  const you = state && state.you;
  const box = $("you");
  box.hidden = !you || page.replaying;
  $("spectating").hidden = !!you || !state || !labels(state).spectating;
  if (state) $("spectating").textContent = labels(state).spectating || "";
  $("hand-title").textContent = state ? labels(state).you || "" : "";
  $("hand-title").hidden = !(you && (you.hand || []).length);
  if (!you) {
    if (page.board) page.board.clear();
    return;
  }
  $("prompt").textContent = you.prompt || "";
  const left = candidates();
  const step = page.chosen.length;
  const next = [...new Set(left.map((o) => o.path[step]).filter((t) => t !== undefined))];
  const complete = optionsOf(left.filter((way) => way.path.length === step && step > 0));
  // The hand: a card is lit when it starts (or is) the next step: card:<t> or give:<t>.
  const hand = $("hand");
  hand.replaceChildren();
  for (const card of you.hand || []) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "card";
    if (/[♥♦]/.test(card.text || "")) button.classList.add("red");
    button.textContent = card.text || card.token;
    button.dataset.token = card.token;
    const ids = [`card:${card.token}`, `give:${card.token}`];
    const target = ids.find((id) => next.includes(id));
    const chosen = ids.find((id) => page.chosen.includes(id));
    button.disabled = !target || page.pending;
    if (target) {
      button.classList.add("lit");
      button.dataset.target = target;
      button.addEventListener("click", () => clickTarget(target));
    }
    if (chosen) button.classList.add("chosen");
    if (you.pick && card.token === you.pick) button.classList.add("chosen");
    hand.appendChild(button);
  }
  const handTargets = new Set((you.hand || []).flatMap((c) => [`card:${c.token}`, `give:${c.token}`]));
  const onBoard = next.filter((id) => !handTargets.has(id));
  let missing = onBoard;
  if (page.board) missing = page.board.highlight(page.pending ? [] : onBoard, step, page.chosen);
  const choices = $("choices");
  choices.replaceChildren();
  if (page.pending) return;
  for (const id of missing) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.target = id;
    const view = state.public || {};
    if (id.startsWith("turn:") && view.current_tile) {
      // The tile as it would lie, beside the words.
      const image = document.createElement("img");
      image.src = `/live/tiles/${encodeURIComponent(view.current_tile)}.png`;
      image.alt = "";
      image.className = "turned-tile";
      image.style.transform = `rotate(${Number(id.slice(5))}deg)`;
      button.appendChild(image);
      button.classList.add("turn");
      // Pointing at a turn shows the tile so on the board.
      const preview = (chosen) => page.board && page.board.highlight(onBoard, step, chosen);
      button.addEventListener("pointerenter", () => preview([...page.chosen, id]));
      button.addEventListener("focus", () => preview([...page.chosen, id]));
      button.addEventListener("pointerleave", () => preview(page.chosen));
      button.addEventListener("blur", () => preview(page.chosen));
    }
    button.append(targetWords(id, left));
    button.addEventListener("click", () => clickTarget(id));
    choices.appendChild(button);
  }
  for (const option of complete) {
    // A move already complete while longer ones go on (rare): finish it here.
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = option.text;
    button.addEventListener("click", () => send(option));
    choices.appendChild(button);
  }
  if (step > 0) {
    const back = document.createElement("button");
    back.type = "button";
    back.className = "back";
    back.textContent = labels(state).cancel || "↶";
    back.addEventListener("click", () => {
      page.chosen = page.chosen.slice(0, -1);
      renderChoices();
    });
    choices.appendChild(back);
  }
}

/** A click on a lit target: narrow the options; send the move once one is left. */
function clickTarget(id) {
  if (page.pending || !page.state || !page.state.you) return;
  const left = candidates();
  if (!left.some((way) => way.path[page.chosen.length] === id)) return;
  notice("", false);
  page.chosen = [...page.chosen, id];
  const now = optionsOf(candidates());
  if (now.length === 1) {
    send(now[0]);
    return;
  }
  renderChoices();
}

function send(option) {
  if (!page.socket || page.socket.readyState !== WebSocket.OPEN) return;
  page.pending = true;
  page.socket.send(JSON.stringify({ type: "move", version: page.state.version, path: option.path }));
  renderChoices();
}

/** After the game: the frames of the whole game on a slider (spectator's view only). */
function onReplay(frames) {
  if (!frames.length) return;
  page.frames = frames;
  const slider = $("replay");
  slider.max = String(frames.length - 1);
  slider.value = String(frames.length - 1);
  $("replay-title").textContent = labels(page.state).replay || "";
  $("replay-step").textContent = `${frames.length} / ${frames.length}`;
  $("replay-box").hidden = false;
  slider.oninput = () => {
    const index = Number(slider.value);
    const last = index === frames.length - 1;
    page.replaying = !last;
    $("replay-step").textContent = `${index + 1} / ${frames.length}`;
    show(last ? page.state : frames[index]);
  };
  const words = labels(page.state);
  for (const button of document.querySelectorAll("#replay-buttons button")) {
    const step = button.dataset.step;
    if (words[`replay_${step}`]) button.setAttribute("aria-label", words[`replay_${step}`]);
    if (words[`replay_${step}`]) button.title = words[`replay_${step}`];
    button.onclick = () => {
      const now = Number(slider.value);
      const to = { first: 0, back: now - 1, forward: now + 1, last: frames.length - 1 }[step];
      slider.value = String(Math.max(0, Math.min(frames.length - 1, to)));
      slider.oninput();
    };
  }
}

async function main() {
  page.table = tableFromPath();
  if (inDiscord()) {
    try {
      await signInThroughDiscord();
    } catch (error) {
      // Without a session the page still shows the table, read-only.
      console.warn("sign-in failed", error);
    }
  }
  if (page.table === null) return;
  connect();
}

// For tests and debugging: the page's state, read-only use.
window.poeppelLive = page;
main();
