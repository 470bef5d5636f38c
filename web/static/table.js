/* The table page: vanilla JavaScript over the HTTP API and Server-Sent Events. No build step.
 * The engine decides every rule: this file only shows what /api/game says and sends what players tap. */
"use strict";

const $ = (sel, root = document) => root.querySelector(sel);
const el = (tag, attrs = {}, ...kids) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== false && v !== null && v !== undefined) node.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids) if (kid !== null && kid !== undefined) node.append(kid);
  return node;
};

const CSRF = document.querySelector('meta[name="csrf-token"]').content;
const PAGE = document.body.dataset.page;
const TILE_NAMES = { H: "home", S: "shop", F: "factory", P: "park", R: "road", C: "construction", ".": "empty" };
const COLOUR_TILE = { red: "H", blue: "S", black: "F", green: "P", gray: "R", white: "★" };
const COLOURS = ["red", "blue", "black", "green", "gray", "white"];

let game = null; // the last view of /api/game
let device = null; // the last /api/device
const selected = {}; // player -> index into that player's legal choices

// ------------------------------------------------------------------------------------------ helpers

function say(text, kind = "error") {
  const box = $("#message");
  if (!box) return;
  box.textContent = text;
  box.className = "message " + kind;
  box.hidden = !text;
  clearTimeout(say.timer);
  if (text) say.timer = setTimeout(() => (box.hidden = true), kind === "error" ? 9000 : 4000);
}

async function api(method, path, body) {
  const opts = { method, headers: { "X-CSRF-Token": CSRF }, credentials: "same-origin" };
  if (body instanceof FormData) opts.body = body;
  else if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, opts);
  } catch (e) {
    say("The table is not answering: " + e.message);
    return { ok: false, status: 0, data: {} };
  }
  const data = await res.json().catch(() => ({}));
  if (!res.ok && method !== "GET") say(data.error || `refused (${res.status})`);
  if (res.ok && data && data.seq !== undefined && data.players) show(data);
  return { ok: res.ok, status: res.status, data };
}

function cube(colour) {
  const tile = COLOUR_TILE[colour] || "?";
  return el("span", { class: `cube c-${colour}`, title: `${colour} cube (${TILE_NAMES[tile] || "wild"})` },
    el("b", { text: tile }), el("small", { text: colour }));
}

function boardGrid(rows, opts = {}) {
  const grid = el("div", { class: "board" + (opts.small ? " small" : ""), role: "grid" });
  rows.forEach((row, r) => {
    [...row].forEach((letter, c) => {
      const cell = el("button", {
        type: "button", class: `cell t-${letter === "." ? "E" : letter}`, "data-row": r, "data-col": c,
        "aria-label": `row ${r} column ${c}: ${TILE_NAMES[letter] || letter}`, text: letter === "." ? "" : letter,
      });
      if (opts.onTap) cell.addEventListener("click", () => opts.onTap(r, c, cell));
      else cell.tabIndex = -1;
      grid.append(cell);
    });
  });
  return grid;
}

function choiceKey(ch) { return ch.colour + (ch.wilds ? "+wilds" : ""); }

// ------------------------------------------------------------------------------------- live updates

function connect() {
  const live = $("#live");
  const source = new EventSource("/api/events");
  source.addEventListener("open", () => { live.textContent = "● live"; live.classList.add("on"); });
  source.addEventListener("error", () => {
    // The browser retries by itself unless the stream was refused outright (CLOSED): then only a reload helps.
    live.textContent = source.readyState === EventSource.CLOSED ? "○ offline: reload the page" : "○ reconnecting";
    live.classList.remove("on");
  });
  source.addEventListener("game", (e) => {
    const data = JSON.parse(e.data);
    if (data.game) show(data.game);
  });
  source.addEventListener("device", (e) => onDevice(JSON.parse(e.data)));
}

function deviceStatus(text) {
  const line = $("#device-status");
  if (line) line.textContent = text;
}

function onDevice(ev) {
  if (ev.type === "leds") { if (device) { device.tracker = ev; renderTracker(); } }
  else if (ev.type === "shake_again") say("Shake again: " + ev.reason);
  else if (ev.type === "pattern" && ev.accepted) deviceStatus(`Pattern read by the camera (${Math.round((ev.latency_s || 0) * 1000)} ms).`);
  else if (ev.type === "refused") deviceStatus(`Not taken (${ev.action.replace("_", " ")}): ${ev.reason}`);
  else if (ev.type === "round") deviceStatus(ev.action === "undo" ? "Undone from the round tracker." : "");
  else if (ev.type === "camera" && ev.status) {
    if (!ev.status.ok) say("Camera: " + ev.status.message);
    deviceStatus(ev.status.ok ? "" : "Camera: " + ev.status.message);
  } else if (ev.type === "rescan") deviceStatus("Reading the table afresh…");
}

function show(view) {
  if (game && view.id === game.id && view.version < game.version) return; // an older view arriving late
  if (!game || view.id !== game.id) for (const k of Object.keys(selected)) delete selected[k];
  game = view;
  if (PAGE === "table") renderRound();
  else if (PAGE === "boards") renderBoardsPage();
  else if (PAGE === "scores" && !document.body.dataset.gameId) renderScores(view);
}

async function loadGame() {
  const res = await api("GET", "/api/game");
  if (res.status === 404) {
    const main = $("main");
    if (PAGE !== "history" && PAGE !== "plain") {
      main.prepend(el("p", { class: "notice", id: "no-game" }, "No game yet. ", el("a", { href: "/setup", text: "Set one up" })));
    }
    return;
  }
  if (res.ok) show(res.data);
}

// ---------------------------------------------------------------------------------------- the round

function renderRound() {
  const g = game;
  $("#no-game")?.remove();
  $("#round-title").textContent = g.finished ? "Game over" : `Round ${g.round} of ${g.rounds}`;
  const info = [];
  if (!g.finished) info.push(`${g.active_player} is the active player`);
  if (g.free_choice && !g.finished) info.push("free choice (rounds 13–15)");
  if (g.variants.length) info.push("variants: " + g.variants.join(", "));
  if (g.variants.includes("wild_nights")) info.push(`white cubes in the shaker: ${g.whites_in_shaker}`);
  $("#round-info").textContent = info.join(" · ");
  const pattern = $("#pattern");
  pattern.replaceChildren();
  if (g.pattern) for (const row of g.pattern) for (const colour of row) pattern.append(cube(colour));
  else for (let i = 0; i < 9; i++) pattern.append(el("span", { class: "cube empty", text: "?" }));
  $("#pattern-note").textContent = g.finished ? "Final scores are on the Scores page."
    : g.pattern ? g.legal_now : `Waiting for ${g.active_player} to shake.`;
  const nobodyChose = g.players.every((p) => !p.choice && !p.placed);
  $("#shake-actions").hidden = g.finished || !(g.phase === "shake" || nobodyChose);
  $("#shake-demo").textContent = g.pattern ? "Shake again (simulated)" : "Shake (simulated)";
  $("#next-round").disabled = g.phase !== "next_round";
  $("#next-round").textContent = g.round === g.rounds ? "End the game" : "Next round";
  $("#undo").disabled = !g.can_undo;
  const me = $("#me");
  const names = g.players.map((p) => p.name);
  if ([...me.options].slice(1).map((o) => o.value).join() !== names.join()) {
    me.replaceChildren(el("option", { value: "", text: "every player" }), ...names.map((n) => el("option", { value: n, text: n })));
  }
  const mine = names.includes(localStorage.getItem("shakecity-me")) ? localStorage.getItem("shakecity-me") : "";
  me.value = mine;
  const shown = mine ? g.players.filter((p) => p.name === mine) : g.players;
  $("#others").textContent = mine ? g.players.filter((p) => p.name !== mine).map((p) => `${p.name}: ${playerStatus(p)}`).join(" · ") : "";
  $("#players").replaceChildren(...shown.map(playerCard));
}

function playerStatus(p) {
  const g = game;
  if (g.finished) return `${p.score.total} points`;
  if (!g.pattern) return "waits for the shake";
  if (p.placed && p.placed.length) return `placed ${p.choice.colour}${p.choice.wilds ? " + wilds" : ""}`;
  if (p.waiting_for_active) return `waits for ${g.active_player} to choose`;
  if (p.done) return "can place nothing this round";
  return p.choice ? `chose ${p.choice.colour}: tap where it goes` : "choose a colour";
}

function playerCard(p) {
  const g = game;
  const card = el("article", { class: "card player" + (p.name === g.active_player && !g.finished ? " active" : ""), "data-player": p.name });
  card.append(el("h2", {},
    el("span", { text: p.name }),
    p.name === g.active_player && !g.finished ? el("span", { class: "badge", text: "▶ active" }) : null,
    el("span", { class: "total", text: `${p.score.total} pts` })));
  card.append(el("p", { class: "status", text: playerStatus(p) }));
  if (p.construction.length || p.construction_removed.length) {
    const left = p.construction.map((t) => `${t.name} at (${t.cell[0]}, ${t.cell[1]})`).join(", ") || "none";
    card.append(el("p", { class: "info construction", text: `Construction tiles left: ${left}` +
      (p.construction_removed.length ? ` · cleared: ${p.construction_removed.join(", ")}` : "") }));
  }
  const legal = p.legal || [];
  let choice = null;
  if (legal.length && !p.done) {
    if (selected[p.name] === undefined || selected[p.name] >= legal.length) {
      const pre = p.choice ? legal.findIndex((c) => choiceKey(c) === choiceKey(p.choice)) : -1;
      selected[p.name] = pre >= 0 ? pre : legal.length === 1 ? 0 : -1;
    }
    choice = selected[p.name] >= 0 ? legal[selected[p.name]] : null;
    const row = el("div", { class: "choices", role: "group", "aria-label": `${p.name}'s colours` });
    legal.forEach((c, i) => {
      const n = c.shape.length;
      row.append(el("button", {
        type: "button", class: "choice" + (i === selected[p.name] ? " picked" : ""), "aria-pressed": i === selected[p.name] ? "true" : "false",
        "data-colour": c.colour, "data-wilds": c.wilds ? "1" : "0",
        onclick: () => { selected[p.name] = i; renderRound(); },
      }, cube(c.colour), c.wilds ? cube("white") : null, el("span", { text: ` ${c.colour}${c.wilds ? " + wilds" : ""} ×${n}` })));
    });
    card.append(row);
    const barred = (p.allowed || []).length < presentColours().length;
    if (barred && !g.free_choice) card.append(el("p", { class: "info", text: "Colours not offered are the active player's, or fit nowhere." }));
  }
  const board = boardGrid(p.board, { onTap: (r, c, cell) => tapBoard(p, choice, r, c, cell) });
  if (p.placed) for (const [r, c] of p.placed) board.children[r * 6 + c].classList.add("placed");
  if (choice) {
    const [dr, dc] = choice.shape[0];
    for (const [r, c] of choice.spots) {
      const cell = board.children[(r + dr) * 6 + (c + dc)];
      if (cell) cell.classList.add("spot");
    }
    card.append(el("p", { class: "hint", text: "Tap where the shape's first (top-left) cube goes; ringed cells fit." }));
    board.addEventListener("pointerover", (e) => preview(board, choice, e.target));
    board.addEventListener("pointerleave", () => preview(board, choice, null));
  }
  card.append(board);
  return card;
}

function presentColours() {
  const seen = new Set();
  for (const row of game.pattern || []) for (const c of row) if (c !== "white") seen.add(c);
  return [...seen];
}

function preview(board, choice, target) {
  for (const cell of board.querySelectorAll(".preview")) cell.classList.remove("preview");
  if (!target || !target.dataset || target.dataset.row === undefined) return;
  const [dr, dc] = choice.shape[0];
  const ar = +target.dataset.row - dr, ac = +target.dataset.col - dc;
  for (const [sr, sc] of choice.shape) {
    const r = ar + sr, c = ac + sc;
    if (r >= 0 && r < 6 && c >= 0 && c < 6) board.children[r * 6 + c].classList.add("preview");
  }
}

async function tapBoard(p, choice, r, c, cell) {
  if (!choice) {
    if (game.pattern && !p.done) say(`${p.name}: choose a colour first`);
    return;
  }
  const [dr, dc] = choice.shape[0];
  const res = await api("POST", "/api/place", {
    player: p.name, colour: choice.colour, wilds: choice.wilds, row: r - dr, col: c - dc,
  }); // no seq: players place at the same time, and the engine refuses a second placement itself
  if (!res.ok) {
    cell.classList.add("refused");
    setTimeout(() => cell.classList.remove("refused"), 1500);
    if (res.status === 409) loadGame();
  } else delete selected[p.name];
}

function patternEntry(box = $("#pattern-entry")) {
  box.replaceChildren();
  for (let i = 0; i < 9; i++) {
    const select = el("select", { name: `cube${i}`, "aria-label": `cube ${Math.floor(i / 3) + 1}, ${(i % 3) + 1}` });
    for (const colour of COLOURS) select.append(el("option", { value: colour, text: `${COLOUR_TILE[colour]} ${colour}` }));
    box.append(select);
  }
}

function enteredPattern(box) {
  const cubes = [...box.querySelectorAll("select")].map((s) => s.value);
  return [cubes.slice(0, 3), cubes.slice(3, 6), cubes.slice(6, 9)];
}

function renderTracker() {
  const box = $("#tracker");
  if (!box || !device || !device.tracker) return;
  const t = device.tracker;
  box.hidden = false;
  $("#tracker-pins").textContent = `(${t.pins})`;
  const led = (lit, label, cls = "") => el("span", { class: `led ${cls}` + (lit ? " lit" : ""), title: label },
    el("i", { text: lit ? "●" : "○" }), el("small", { text: label }));
  const leds = $("#leds");
  leds.replaceChildren(
    el("div", { class: "led-row" }, ...t.rounds.map((lit, i) => led(lit, String(i + 1), "round"))),
    el("div", { class: "led-row" }, ...t.seats.map((lit, i) => led(lit, game && game.players[i] ? game.players[i].name : `seat ${i + 1}`, "seat")),
      led(t.free_choice, "free choice", "free"), led(t.wild_nights, "wild +1", "wild"),
      led(t.status.lit || t.status.mode === "reading", `status: ${t.status.mode}`, `status s-${t.status.mode}`)),
  );
}

async function loadDevice() {
  const res = await api("GET", "/api/device");
  if (!res.ok) return;
  device = res.data;
  renderTracker();
  if (device.camera && PAGE === "table") $("#read-camera").hidden = false;
  if (device.camera && PAGE === "boards") $("#board-camera").hidden = false;
  if (device.camera && PAGE === "table") {
    const fig = $("#camera"), img = $("#camera-img");
    fig.hidden = false;
    const next = () => setTimeout(() => { img.src = "/api/camera.jpg?t=" + Date.now(); }, 1000);
    img.addEventListener("load", next);
    img.addEventListener("error", () => setTimeout(next, 2000));
    img.src = "/api/camera.jpg?t=" + Date.now();
  }
}

function initRound() {
  patternEntry();
  $("#me").addEventListener("change", (e) => {
    localStorage.setItem("shakecity-me", e.target.value);
    if (game) renderRound();
  });
  $("#shake-demo").addEventListener("click", () => api("POST", "/api/shake", { simulate: true, seq: game?.seq }));
  $("#enter-pattern").addEventListener("click", () => { $("#pattern-form").hidden = !$("#pattern-form").hidden; });
  $("#pattern-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const res = await api("POST", "/api/shake", { pattern: enteredPattern($("#pattern-entry")), seq: game?.seq });
    if (res.ok) $("#pattern-form").hidden = true;
  });
  $("#read-camera").addEventListener("click", () => api("POST", "/api/shake", { camera: true, seq: game?.seq }));
  $("#shake-photo").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    e.target.value = "";
    if (!file) return;
    const form = new FormData();
    form.append("photo", file);
    if (game) form.append("seq", game.seq);
    say("Reading the photo…", "info");
    const res = await api("POST", "/api/shake", form);
    if (res.ok) say("Pattern read from the photo", "info");
  });
  $("#next-round").addEventListener("click", () => api("POST", "/api/next-round", { seq: game?.seq }));
  $("#undo").addEventListener("click", async () => {
    const res = await api("POST", "/api/undo", { seq: game?.seq });
    const u = res.ok ? res.data.undone : null;
    if (u) say(`Took back: ${u.kind === "engine" ? u.type.replace("_", " ") : u.kind + " of " + u.player}`, "info");
  });
  for (const b of document.querySelectorAll("#tracker [data-button]")) {
    b.addEventListener("click", async () => {
      b.disabled = true;
      const res = await api("POST", `/api/tracker/${b.dataset.button}`, { hold: !!b.dataset.hold });
      b.disabled = false;
      if (res.ok && device) { device.tracker = res.data.tracker; renderTracker(); }
    });
  }
  loadDevice();
}

// ------------------------------------------------------------------------------------------- boards

const boardEdit = { player: null, grid: null, low: new Set(), photo: null, reading: null, image: null, cell: null };

function renderBoardsPage() {
  const select = $("#board-player");
  const names = game.players.map((p) => p.name);
  if ([...select.options].map((o) => o.value).join() !== names.join()) {
    select.replaceChildren(...names.map((n) => el("option", { value: n, text: n })));
    boardEdit.player = null;
  }
  if (boardEdit.player === null || !names.includes(boardEdit.player)) startEditing(select.value, null);
}

function currentPlayer(name) { return game.players.find((p) => p.name === name); }

function startEditing(name, reading) {
  const p = currentPlayer(name);
  boardEdit.player = name;
  boardEdit.reading = reading;
  boardEdit.photo = reading ? reading.photo : null;
  boardEdit.grid = (reading && reading.found ? reading.grid : p.board).map((row) => [...row]);
  boardEdit.low = new Set((reading && reading.low_confidence_cells || []).map(([r, c]) => `${r},${c}`));
  boardEdit.cell = null;
  $("#edit-title").textContent = `${name}'s board` + (reading && reading.found ? " (as read from the photo)" : ` (${p.board_source})`);
  renderEditor();
  drawPhoto();
}

function renderEditor() {
  const p = currentPlayer(boardEdit.player);
  const rows = boardEdit.grid.map((r) => r.join(""));
  const grid = boardGrid(rows, { onTap: (r, c) => { boardEdit.cell = [r, c]; renderEditor(); } });
  const diffs = [];
  rows.forEach((row, r) => [...row].forEach((letter, c) => {
    const cell = grid.children[r * 6 + c];
    if (boardEdit.low.has(`${r},${c}`)) cell.classList.add("low");
    if (game.tracked && p.tracked_board[r][c] !== letter) { cell.classList.add("diff"); diffs.push(`(${r}, ${c}) photo ${letter} / tracked ${p.tracked_board[r][c]}`); }
    if (boardEdit.cell && boardEdit.cell[0] === r && boardEdit.cell[1] === c) cell.classList.add("editing");
  }));
  $("#edit-board").replaceWith(Object.assign(grid, { id: "edit-board" }));
  grid.classList.add("edit");
  $("#differences").textContent = game.tracked ? (diffs.length ? `Differs from the tracked board at ${diffs.join("; ")}` : "Matches the board tracked move by move.") : "";
  const picker = $("#letter-picker");
  picker.replaceChildren();
  if (boardEdit.cell) {
    for (const letter of ["H", "S", "F", "P", "R", "C", "."]) {
      picker.append(el("button", {
        type: "button", class: `cell t-${letter === "." ? "E" : letter}`, "data-letter": letter, text: letter === "." ? "·" : letter,
        title: TILE_NAMES[letter], onclick: () => {
          const [r, c] = boardEdit.cell;
          boardEdit.grid[r][c] = letter;
          boardEdit.low.delete(`${r},${c}`);
          boardEdit.cell = null;
          renderEditor();
          drawPhoto();
        },
      }));
    }
  }
}

function drawPhoto() {
  const wrap = $("#photo-wrap"), canvas = $("#photo-canvas");
  const reading = boardEdit.reading;
  if (!reading || !boardEdit.image) { wrap.hidden = true; return; }
  wrap.hidden = false;
  const img = boardEdit.image;
  const scale = Math.min(1, 900 / img.naturalWidth);
  canvas.width = Math.round(img.naturalWidth * scale);
  canvas.height = Math.round(img.naturalHeight * scale);
  const ctx = canvas.getContext("2d");
  ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
  if (!reading.found || !reading.outline || reading.outline.length !== 4) return;
  const [nw, ne, se, sw] = reading.outline.map(([x, y]) => [x * scale, y * scale]);
  const at = (u, v) => [0, 1].map((k) => (1 - u) * (1 - v) * nw[k] + u * (1 - v) * ne[k] + u * v * se[k] + (1 - u) * v * sw[k]);
  ctx.lineWidth = 3;
  ctx.strokeStyle = "#00e5ff";
  ctx.beginPath();
  [nw, ne, se, sw].forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
  ctx.closePath();
  ctx.stroke();
  ctx.lineWidth = 1;
  for (let i = 1; i < 6; i++) {
    for (const [a, b] of [[at(i / 6, 0), at(i / 6, 1)], [at(0, i / 6), at(1, i / 6)]]) {
      ctx.beginPath(); ctx.moveTo(...a); ctx.lineTo(...b); ctx.stroke();
    }
  }
  const size = Math.max(12, Math.hypot(ne[0] - nw[0], ne[1] - nw[1]) / 14);
  ctx.font = `bold ${size}px sans-serif`;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  for (let r = 0; r < 6; r++) for (let c = 0; c < 6; c++) {
    const [x, y] = at((c + 0.5) / 6, (r + 0.5) / 6);
    const letter = boardEdit.grid[r][c];
    if (boardEdit.low.has(`${r},${c}`)) {
      ctx.strokeStyle = "#ffd400"; ctx.lineWidth = 4;
      ctx.beginPath(); ctx.arc(x, y, size * 0.9, 0, 2 * Math.PI); ctx.stroke();
    }
    ctx.fillStyle = "rgba(0,0,0,0.6)";
    ctx.fillRect(x - size * 0.45, y - size * 0.55, size * 0.9, size * 1.1);
    ctx.fillStyle = "#fff";
    ctx.fillText(letter === "." ? "·" : letter, x, y);
  }
  ctx.fillStyle = "#00e5ff";
  ctx.fillText("N", ...at(0.5, -0.06));
}

function uploadPhoto(file) {
  const player = $("#board-player").value;
  const progress = $("#upload-progress"), state = $("#read-state");
  const form = new FormData();
  form.append("photo", file);
  const xhr = new XMLHttpRequest();
  xhr.open("POST", `/api/boards/${encodeURIComponent(player)}/photo`);
  xhr.setRequestHeader("X-CSRF-Token", CSRF);
  progress.hidden = false;
  progress.value = 0;
  state.textContent = "Sending the photo…";
  xhr.upload.addEventListener("progress", (e) => { if (e.lengthComputable) progress.value = (100 * e.loaded) / e.total; });
  xhr.upload.addEventListener("load", () => { progress.removeAttribute("value"); state.textContent = "Reading the board…"; });
  xhr.addEventListener("load", () => {
    progress.hidden = true;
    let data = {};
    try { data = JSON.parse(xhr.responseText); } catch (e) { data = { error: "unreadable answer" }; }
    if (xhr.status !== 200) { state.textContent = ""; say(data.error || `refused (${xhr.status})`); return; }
    showReading(player, data);
  });
  xhr.addEventListener("error", () => { progress.hidden = true; say("The upload failed: is the table reachable?"); });
  xhr.send(form);
}

function showReading(player, data) {
  const state = $("#read-state");
  state.textContent = data.found
    ? `Read. North was ${data.north} in the photo. ${data.low_confidence_cells.length} cell(s) to confirm (yellow).`
    : `No reading: ${data.reason}. Enter the board by tapping cells.`;
  const img = new Image();
  img.addEventListener("load", () => { boardEdit.image = img; startEditing(player, data); });
  img.src = data.photo_url;
}

function initBoards() {
  loadDevice();
  $("#board-camera").addEventListener("click", async () => {
    const player = $("#board-player").value;
    $("#read-state").textContent = "Reading the board under the camera…";
    const res = await api("POST", `/api/boards/${encodeURIComponent(player)}/camera`);
    if (res.ok) showReading(player, res.data);
    else $("#read-state").textContent = "";
  });
  $("#board-player").addEventListener("change", (e) => { boardEdit.image = null; startEditing(e.target.value, null); });
  $("#board-photo").addEventListener("change", (e) => { if (e.target.files[0]) uploadPhoto(e.target.files[0]); e.target.value = ""; });
  $("#confirm-board").addEventListener("click", async () => {
    const res = await api("PUT", `/api/boards/${encodeURIComponent(boardEdit.player)}`, {
      grid: boardEdit.grid.map((r) => r.join("")), source: boardEdit.photo ? "photo" : "correction",
      photo: boardEdit.photo,
    });
    if (res.ok) {
      say(`${boardEdit.player}'s board is set: ${currentPlayer(boardEdit.player).score.total} points`, "info");
      $("#read-state").textContent = "Confirmed.";
    }
  });
}

// ------------------------------------------------------------------------------------------- scores

const CATEGORIES = ["road", "park", "factory", "shop", "home", "bonus"];

function renderScores(g) {
  $("#no-game")?.remove();
  $("#scores-title").textContent = `Scores · game ${g.id}`;
  $("#scores-state").textContent = g.finished ? "Final scores." : `Live, during round ${g.round} of ${g.rounds}.`;
  const places = g.standings.places;
  $("#ranking").replaceChildren(...places.map((s) => el("li", { class: s.eligible ? "" : "out", "data-place": s.place },
    el("b", { text: `${s.place}. ${s.player}` }), ` ${s.total} points` + (s.eligible ? "" : " (cannot win)"),
    g.standings.winners.includes(s.player) ? el("span", { class: "badge", text: g.finished ? "★ winner" : "leading" }) : null)));
  $("#explanation").replaceChildren(...g.standings.explanation.map((t) => el("li", { text: t })));
  const table = $("#score-table");
  const head = el("tr", {}, el("th", { text: "" }), ...g.players.map((p) => el("th", { scope: "col", text: p.name })));
  const rows = CATEGORIES.map((c) => el("tr", {}, el("th", { scope: "row", text: c }), ...g.players.map((p) => el("td", { text: p.score.breakdown[c] }))));
  const extra = [
    ["total", (p) => p.score.total],
    ["bonus flipped", (p) => p.score.bonus_flipped.map((b) => b.split(":").pop()).join(", ") || "–"],
    ["empty cells", (p) => p.score.empty_cells],
    ["construction left", (p) => p.score.construction_left],
    ["board from", (p) => p.board_source],
  ];
  if (g.variants.includes("solo")) extra.push(["solo", (p) => (p.score.solo_win ? "★ won" : "not reached")]);
  const more = extra.map(([name, f]) => el("tr", { class: name === "total" ? "total" : "" }, el("th", { scope: "row", text: name }), ...g.players.map((p) => el("td", { text: String(f(p)) }))));
  const notes = el("tr", {}, el("th", { scope: "row", text: "notes" }), ...g.players.map((p) => el("td", { text: (p.score.notes || []).join("; ") })));
  table.replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows, ...more, notes));
  $("#exports").replaceChildren(
    el("a", { href: `/api/games/${g.id}/export.json`, text: "Export JSON" }), " · ",
    el("a", { href: `/api/games/${g.id}/export.csv`, text: "Export CSV" }));
  renderBonus(g);
  $("#final-boards").replaceChildren(...g.players.map((p) => el("figure", { class: "card" },
    boardGrid(p.board, { small: true }),
    p.photo ? el("img", { src: `/api/photos/${p.photo}`, alt: `photo of ${p.name}'s board`, class: "thumb" }) : null,
    el("figcaption", { text: `${p.name}: ${p.score.total}` }))));
}

function renderBonus(g) {
  const box = $("#bonus-verdicts");
  const readOnly = !!document.body.dataset.gameId;
  box.replaceChildren(...g.players.map((p) => el("fieldset", { "data-player": p.name }, el("legend", { text: p.name }),
    ...p.bonus.map((b) => {
      const value = b.by_hand === null ? "auto" : b.by_hand ? "yes" : "no";
      const select = el("select", { "data-tile": b.name, disabled: readOnly, "aria-label": `${p.name}: ${b.name}` },
        el("option", { value: "auto", text: `engine: ${b.engine ? "✓ flipped" : "✗ not flipped"}` }),
        el("option", { value: "yes", text: "✓ flipped (by hand)" }),
        el("option", { value: "no", text: "✗ not flipped (by hand)" }));
      select.value = value;
      select.addEventListener("change", () => api("PUT", `/api/bonus/${encodeURIComponent(p.name)}`, {
        tile: b.name, flipped: select.value === "auto" ? null : select.value === "yes",
      }));
      return el("label", {}, el("span", { text: b.name.split(":").pop() + ` (${b.name.split(":")[0]}) ` }), select);
    }))));
}

async function initScores() {
  const id = document.body.dataset.gameId;
  if (id) {
    const res = await api("GET", `/api/games/${id}`);
    if (res.ok) renderScores(res.data);
  }
}

// ------------------------------------------------------------------------------------------ history

async function initHistory() {
  const res = await api("GET", "/api/games");
  if (!res.ok) return;
  const list = $("#games");
  if (!res.data.games.length) list.append(el("li", { text: "No games yet." }));
  for (const g of res.data.games) {
    const scores = Object.entries(g.scores).map(([n, s]) => `${n} ${s}`).join(", ");
    list.append(el("li", { "data-game": g.id },
      el("a", { href: `/history/${g.id}`, text: `Game ${g.id}` }),
      ` · ${g.created.slice(0, 16).replace("T", " ")} · ${g.side}${g.variants.length ? " (" + g.variants.join(", ") + ")" : ""} · `,
      g.finished ? `finished: ${scores}` + (g.winners.length ? ` · won by ${g.winners.join(" and ")}` : "") : `round ${g.round}: ${scores}`,
      " · ", el("a", { href: `/api/games/${g.id}/export.json`, text: "JSON" }),
      " · ", el("a", { href: `/api/games/${g.id}/export.csv`, text: "CSV" })));
  }
}

// ------------------------------------------------------------------------------------------- set-up

function initSetup() {
  const known = $("#known-board");
  const layout = known ? known.dataset.grid.split(",") : [];
  if (known) known.replaceWith(Object.assign(boardGrid(layout, { small: true }), { id: "known-board" }));
  const state = $("#calibration-state");
  const colourBox = $("#colour-pattern");
  patternEntry(colourBox);
  api("GET", "/api/calibration").then((r) => {
    if (!r.ok) return;
    state.textContent = r.data.board ? "The board reader is calibrated." : "Not calibrated yet: photos can still be corrected by hand.";
    $("#colour-state").textContent = r.data.colours ? "The camera's colours are calibrated." : "Default colours (not calibrated).";
  });
  $("#calibrate-colours").addEventListener("click", async () => {
    const form = new FormData();
    form.append("pattern", JSON.stringify(enteredPattern(colourBox)));
    const file = $('#colour-calibration input[name="photo"]').files[0];
    if (file) form.append("photo", file);
    $("#colour-state").textContent = "Calibrating…";
    const res = await api("POST", "/api/calibration/colours", form);
    $("#colour-state").textContent = res.ok ? "Calibrated: the shaker reader uses these colours now." : "";
  });
  $("#calibrate")?.addEventListener("click", async () => {
    const box = $("#calibration");
    const empty = box.querySelector('input[name="empty"]').files[0];
    const laid = box.querySelector('input[name="known"]').files[0];
    if (!empty || !laid) { say("Choose both photos first"); return; }
    const form = new FormData();
    form.append("empty", empty);
    form.append("known", laid);
    form.append("known_board", JSON.stringify(layout));
    form.append("side", box.querySelector('select[name="side"]').value);
    $("#calibrate-progress").hidden = false;
    const res = await api("POST", "/api/calibration/board", form);
    $("#calibrate-progress").hidden = true;
    if (res.ok) state.textContent = "Calibrated: board photos will be read.";
  });
}

// --------------------------------------------------------------------------------------------- start

document.addEventListener("DOMContentLoaded", () => {
  if (PAGE === "table") initRound();
  if (PAGE === "boards") initBoards();
  if (PAGE === "scores") initScores();
  if (PAGE === "history") initHistory();
  if (PAGE === "setup") initSetup();
  if (["table", "boards", "scores"].includes(PAGE)) {
    if (!(PAGE === "scores" && document.body.dataset.gameId)) { loadGame(); connect(); }
  }
});
