// The page: pick or take a photo, send it, show what came back, and let the user fix the
// board, which is solved again (and the photo redrawn) after every fix.
//
// The API (docs/web.md): POST /api/solve with a photo (multipart) or a board (JSON), and
// the answer is the photo's record plus `id` and `image_url`.

import { Board, alphabetOf, emptyBoard, emptyOf } from "./board.js";
import { Viewer } from "./viewer.js";

const $ = (id) => document.getElementById(id);
const RESOLVE_DELAY = 350; // ms after the last fix before the board is sent (typing runs)
const BUSY_RETRIES = 3; // times a busy server (503) is asked again before giving up

const TITLES = {
  solved: "Solved",
  multiple: "More than one solution",
  invalid: "Some digits clash",
  unsolvable: "No solution",
  no_grid: "No Sudoku found",
  unreadable: "Not a photo snapsolve can read",
  error: "Something went wrong",
  hint: "The next step",
};
const ADVICE = {
  multiple: "Tap the empty cell that has a digit on the paper and type it.",
  invalid: "The cells in red clash: tap the one that was misread and type the right digit, or clear it.",
  unsolvable: "A digit was probably misread: compare the board with the paper and fix the wrong cell.",
  no_grid: "Take the photo again with the whole grid in view, flat and lit evenly, or type the board.",
  unreadable: "Choose a JPEG, PNG, HEIC, WebP, TIFF or BMP photo.",
};

const page = {
  file: null, // the photo chosen (kept to show it while there is no annotated version)
  localUrl: null,
  photoId: null, // the server's id of the photo, to redraw it with a fixed board
  read: null, // the board as read from the photo
  record: null,
  fixed: new Set(),
  pending: null, // the request in flight for a fix (aborted by the next fix)
  sending: null, // the photo's upload in flight (aborted by the next photo)
  uploads: 0, // photos sent so far: an answer for any but the last is dropped
  hinting: false, // a hint was asked: fixes answer with the next one, not the solution
  timer: 0,
  maxUpload: null,
};

const board = new Board($("board"), $("pad"), (next, cell) => fix(next, cell));
const viewer = new Viewer($("viewer"), $("photo"), {
  in: $("zoom-in"), out: $("zoom-out"), fit: $("zoom-fit"), full: $("zoom-full"),
});

// ---- choosing a photo ----------------------------------------------------------------

for (const input of [$("camera"), $("chooser")]) {
  input.addEventListener("change", () => {
    if (input.files.length) send(input.files[0]);
    input.value = "";
  });
}
$("type-board").addEventListener("click", () => typeBoard(9));
$("type-board-16").addEventListener("click", () => typeBoard(16));
$("type-instead").addEventListener("click", () => typeBoard());
for (const id of ["again", "retake"]) {
  $(id).addEventListener("click", () => {
    $("pick").scrollIntoView({ behavior: "smooth" });
    $("camera").click();
  });
}
$("show-solution").addEventListener("change", () => {
  if (page.record?.hint && $("show-solution").checked) resolve(page.record.board); // the whole of it
  else paintBoard();
});
$("hint").addEventListener("click", () => {
  if (page.record?.board) resolve(page.record.board, true);
});
$("check-only").addEventListener("change", () => {
  if (page.photoId && page.record?.board) resolve(page.record.board); // the same photo, the other way
});

// The corrections of misread print (not the digits taken for the user's handwriting,
// which show as entries).
function solverCorrections(rec) {
  return (rec.corrections || []).filter((c) => !c.handwriting);
}

// Check mode: the pen entries are checked, and nothing the user has not written is shown.
function checking() {
  return $("check-only").checked;
}
$("undo").addEventListener("click", () => {
  if (page.read) fix(page.read, null, true);
});

let dragDepth = 0;
document.addEventListener("dragenter", (e) => {
  if (!hasFile(e)) return;
  dragDepth++;
  document.body.classList.add("dragging");
});
document.addEventListener("dragleave", () => {
  dragDepth = Math.max(0, dragDepth - 1);
  if (!dragDepth) document.body.classList.remove("dragging");
});
document.addEventListener("dragover", (e) => { if (hasFile(e)) e.preventDefault(); });
document.addEventListener("drop", (e) => {
  e.preventDefault();
  dragDepth = 0;
  document.body.classList.remove("dragging");
  const file = [...(e.dataTransfer?.files || [])][0];
  if (file) send(file);
});
document.addEventListener("paste", (e) => {
  const file = [...(e.clipboardData?.files || [])].find((f) => f.type.startsWith("image/"));
  if (file) send(file);
});

function hasFile(e) {
  return [...(e.dataTransfer?.types || [])].includes("Files");
}

fetch("/api/health").then((r) => r.json()).then((h) => { page.maxUpload = h.max_upload; }).catch(() => {});

// ---- sending a photo -----------------------------------------------------------------

async function send(file) {
  clearTimeout(page.timer);
  page.pending?.abort();
  const mine = ++page.uploads; // a photo chosen while another uploads replaces it
  page.hinting = false;
  if (page.localUrl) URL.revokeObjectURL(page.localUrl);
  Object.assign(page, { file, localUrl: URL.createObjectURL(file), photoId: null, read: null, record: null });
  page.fixed = new Set();
  if (page.maxUpload && file.size > page.maxUpload) {
    showRefusal(413, { message: `this photo is ${mb(file.size)}, more than the server accepts (${mb(page.maxUpload)})` });
    return;
  }
  progress(0, "Uploading the photo…");
  const form = new FormData();
  form.append("photo", file, file.name || "photo.jpg");
  if (checking()) form.append("check", "1");
  let answer;
  for (let attempt = 0; ; attempt++) {
    answer = await upload(form);
    if (mine !== page.uploads) return;
    if (answer.status !== 503 || attempt >= BUSY_RETRIES) break;
    const wait = Number(answer.retryAfter) || 2;
    progress(null, `The server is busy; trying again in ${wait} s…`);
    await new Promise((ok) => setTimeout(ok, wait * 1000));
    if (mine !== page.uploads) return;
  }
  if (answer.status === 200) showRecord(answer.body, true);
  else showRefusal(answer.status, answer.body);
}

// XMLHttpRequest, not fetch: it reports the upload's progress.
function upload(form) {
  return new Promise((resolve) => {
    page.sending?.abort();
    const xhr = new XMLHttpRequest();
    page.sending = xhr;
    xhr.addEventListener("abort", () => resolve({ status: -1, body: {} }));
    xhr.open("POST", "/api/solve");
    xhr.responseType = "json";
    xhr.upload.addEventListener("progress", (e) => {
      if (e.lengthComputable) progress(e.loaded / e.total, `Uploading the photo… ${Math.round((100 * e.loaded) / e.total)} %`);
    });
    xhr.upload.addEventListener("load", () => progress(null, "Reading the puzzle…"));
    xhr.addEventListener("load", () => resolve({
      status: xhr.status, body: xhr.response || {}, retryAfter: xhr.getResponseHeader("Retry-After"),
    }));
    xhr.addEventListener("error", () => resolve({ status: 0, body: { message: "could not reach snapsolve (is snapsolve serve still running?)" } }));
    xhr.send(form);
  });
}

function progress(fraction, text) {
  $("progress").hidden = false;
  $("progress-text").textContent = text;
  const fill = $("progress-fill");
  fill.classList.toggle("indeterminate", fraction === null);
  if (fraction !== null) fill.style.setProperty("--done", fraction);
}

// ---- fixing the board ----------------------------------------------------------------

function fix(next, cell, undo = false) {
  if (cell !== null) {
    if (page.read && next[cell] !== page.read[cell]) page.fixed.add(cell);
    else page.fixed.delete(cell);
  }
  if (undo) page.fixed = new Set();
  page.pending?.abort(); // its answer, for the board before this digit, would paint over it
  page.pending = null;
  page.record = { ...page.record, board: next, solution: null, status: "pending" };
  paintBoard();
  $("board-busy").hidden = false;
  clearTimeout(page.timer);
  page.timer = setTimeout(() => resolve(next, page.hinting && !$("show-solution").checked),
    RESOLVE_DELAY);
}

// The board solved again (and the photo redrawn); with `hint`, the next logical step
// instead of the solution.
async function resolve(next, hint = false) {
  page.pending?.abort();
  const pending = new AbortController();
  page.pending = pending;
  $("board-busy").hidden = false; // a hint or the check toggle waits as a fix does
  const body = page.photoId ? { board: next, photo: page.photoId } : { board: next };
  if (checking()) body.check = true;
  page.hinting = hint;
  if (hint) {
    body.hint = true;
    $("show-solution").checked = false;
  }
  if (alphabetOf(next)) body.alphabet = alphabetOf(next);
  try {
    let response = await post(body, pending.signal);
    if (response.status === 404 && page.photoId) { // the photo expired: solve the board alone
      page.photoId = null;
      response = await post({ ...body, photo: undefined }, pending.signal);
    }
    const data = await response.json();
    if (page.pending !== pending) return;
    if (response.ok) showRecord(data, false);
    else showRefusal(response.status, data, true);
  } catch (err) {
    if (err.name !== "AbortError") showRefusal(0, { message: "could not reach snapsolve (is snapsolve serve still running?)" }, true);
  } finally {
    if (page.pending === pending) $("board-busy").hidden = true;
  }
}

function post(body, signal) {
  return fetch("/api/solve", {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), signal,
  });
}

function typeBoard(n = 9) {
  clearTimeout(page.timer);
  page.pending?.abort();
  page.hinting = false;
  Object.assign(page, { file: null, photoId: null, read: null, record: null });
  page.fixed = new Set();
  showRecord({ status: "typing", board: emptyBoard(n), solution: null, message: "", corrections: [] }, true);
  board.select(0);
}

// ---- showing a result ----------------------------------------------------------------

function showRecord(rec, fresh) {
  $("progress").hidden = true;
  $("pick").classList.add("compact");
  $("result").hidden = false;
  page.record = rec;
  if (fresh) {
    page.read = rec.board;
    if (rec.id) page.photoId = rec.id;
  }
  const typing = rec.status === "typing";
  if (typing) {
    setStatus("typing", "Type the digits of the puzzle: tap a cell, then a digit.");
  } else if (!page.file && rec.status === "multiple") {
    const empty = emptyOf(Math.round(Math.sqrt(rec.board.length)));
    const count = [...rec.board].filter((c) => c !== empty).length;
    setStatus("typing", `${count} digits so far: keep typing (the board has more than one solution yet).`);
  } else {
    setStatus(rec.hint ? "hint" : rec.status, explain(rec));
  }
  $("hint").hidden = rec.status !== "solved" || rec.hint !== undefined; // given, or none to give
  showPhoto(rec);
  const hasBoard = Boolean(rec.board);
  $("board-pane").hidden = !hasBoard && !page.read;
  if (!hasBoard && page.read === null && rec.status !== "typing") {
    $("board-pane").hidden = true;
  } else {
    paintBoard();
  }
  if (fresh) $("result").scrollIntoView({ behavior: "smooth", block: "start" });
}

function explain(rec) {
  if (rec.hint) {
    const where = page.photoId ? " It is drawn in green on your photo." : "";
    const text = rec.hint.explanation.replace(/([^.!?])$/, "$1."); // "r4c7 must be 5: ...": no capital
    return checking() ? `${text}${where}` : `${text}${where} Tick “show the solution” for all of it.`;
  }
  // under the title "Solved", the record's own "solved; " is not said again
  const said = rec.status === "solved" ? rec.message.replace(/^solved; /, "") : rec.message;
  const parts = [rec.status === "solved" && said === "solved"
    ? "The missing digits are written in red on your photo." : sentence(said)];
  if (rec.status === "solved" && rec.wrong_entries?.length) {
    parts.push(checking() ? "Your wrong entries are ringed in magenta on the photo."
      : "Your wrong entries are ringed in magenta on the photo, the right digit on a badge at the corner.");
  }
  if (rec.status === "solved" && rec.doubtful_entries?.length) {
    parts.push("Ringed in orange: entries that look wrong but may have been misread; check them against the paper.");
  }
  const misread = solverCorrections(rec);
  if (rec.status === "solved" && misread.length) {
    parts.push(`Ringed in orange: ${misread.length === 1 ? "a reading" : `${misread.length} readings`} the solver corrected; check ${misread.length === 1 ? "it" : "them"} against the paper.`);
  }
  const others = rec.other_puzzles || [];
  if (rec.status === "solved" && others.length) {
    const count = others.length === 1 ? "Another puzzle is" : `${others.length} more puzzles are`;
    parts.push(`${count} on the photo (${others.map((other) => other.where).join(", ")}), solved${checking() ? ", its wrong entries ringed" : " and drawn in too"}.`);
  }
  if (ADVICE[rec.status]) parts.push(ADVICE[rec.status]);
  return parts.filter(Boolean).join(" ");
}

// photos a browser can show as they are: HEIC (an iPhone's own format) and TIFF are read by
// the server, but few browsers draw them, so an unsolved one is not shown broken
const SHOWN = /^image\/(jpeg|png|webp|gif|bmp|avif)$/;

function showPhoto(rec) {
  const pane = $("photo-pane");
  const download = $("download");
  if (rec.image_url) {
    pane.hidden = false;
    viewer.show(rec.image_url, "the photo with the solution drawn in");
    $("photo-caption").textContent = "Your photo, solved";
    download.hidden = false;
    download.href = `${rec.image_url}?download`;
  } else if (page.localUrl && page.file && rec.status !== "unreadable" && SHOWN.test(page.file.type)) {
    pane.hidden = false;
    viewer.show(page.localUrl, "your photo");
    $("photo-caption").textContent = "Your photo (not solved yet)";
    download.hidden = true;
  } else {
    pane.hidden = true;
    viewer.clear();
  }
}

function paintBoard() {
  const rec = page.record;
  const current = rec?.board || page.read;
  if (!current) return;
  const typing = rec.status === "typing" || !page.file;
  $("board-title").textContent = typing ? "The board" : "The board as read";
  $("board-hint").textContent = typing
    ? "Tap a cell, then a digit (or type it). The puzzle is solved as you go."
    : "A digit misread? Tap its cell, then the right digit (or Clear).";
  $("undo").hidden = page.fixed.size === 0 || !page.file; // a typed board: nothing read to go back to
  const corrected = new Set(solverCorrections(rec).map((c) => cellIndex(c.cell, current)));
  const empty = emptyOf(Math.round(Math.sqrt(current.length)));
  const entries = rec.entries && rec.entries.length === current.length
    && [...rec.entries].some((c) => c !== empty) ? rec.entries : null;
  const wrong = new Set((rec.wrong_entries || []).map((name) => cellIndex(name, current)));
  const doubtful = new Set((rec.doubtful_entries || []).map((name) => cellIndex(name, current)));
  board.show({
    board: current,
    solution: rec.status === "solved" ? rec.solution : null,
    corrected,
    fixed: page.fixed,
    showSolution: $("show-solution").checked,
    entries,
    wrong,
    doubtful,
  });
  legend(corrected.size > 0, entries !== null, wrong.size > 0, Boolean(rec.solution), doubtful.size > 0);
}

function legend(corrected, entries, wrong, solution, doubtful = false) {
  const items = [["given", page.file ? "as read" : "typed"]];
  if (entries) items.push(["entry", "your entries"]);
  if (wrong) items.push(["wrong", "wrong entries"]);
  if (doubtful) items.push(["doubtful", "entries to check"]);
  if (solution) items.push(["solution", "solution"]);
  if (page.fixed.size) items.push(["fixed", "fixed by you"]);
  if (corrected) items.push(["corrected", "corrected by the solver"]);
  const el = $("legend");
  el.replaceChildren(...items.map(([cls, text]) => {
    const span = document.createElement("span");
    span.className = `key ${cls}`;
    span.textContent = text;
    return span;
  }));
}

function cellIndex(name, current) {
  const n = Math.round(Math.sqrt(current.length));
  const m = /^r(\d+)c(\d+)$/.exec(name || "");
  return m ? (Number(m[1]) - 1) * n + Number(m[2]) - 1 : -1;
}

function setStatus(status, message) {
  const el = $("status");
  el.className = `status ${status}`;
  $("status-actions").hidden = !["no_grid", "unreadable", "error"].includes(status) || Boolean(page.read);
  $("again").hidden = !$("status-actions").hidden;
  $("status-title").textContent = TITLES[status] || (status === "typing" ? "Type the board" : status);
  $("status-message").textContent = message;
}

function showRefusal(code, body, keepBoard = false) {
  $("progress").hidden = true;
  $("result").hidden = false;
  const message = sentence(body?.message || `the server answered ${code}`);
  if (code === 415 || code === 422) {
    setStatus("unreadable", `${message} ${ADVICE.unreadable}`);
  } else if (code === 413) {
    setStatus("error", `${message} Try a smaller photo.`);
  } else {
    setStatus("error", `${message}${code === 503 ? " Try again in a moment." : ""}`);
  }
  if (!keepBoard) {
    $("board-pane").hidden = true;
    $("photo-pane").hidden = true;
  }
}

function sentence(text) {
  if (!text) return "";
  const s = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

function mb(bytes) {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}
