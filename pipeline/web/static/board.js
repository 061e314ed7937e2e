// The board as read, drawn from the record: any size (n x n with b x b boxes, from the
// board's length), each cell a button that can be selected and given a value.
//
// A board is a string of n*n characters as the server writes it: for 16x16 the newspaper's
// hex (0-9 A-F for the values, '.' empty), for the other sizes the canonical symbols ('0'
// empty, '1'-'9' then 'A', 'B', ... for the values 1..n). What a cell shows is decided in one
// place, `cellView`, from the layers of the state: the board, the solution, the cells the
// server corrected, the cells the user fixed, the clashes. A later layer (pen entries and
// the wrong ones in check mode) is one more entry there.

const SYMBOLS = "123456789ABCDEFGHIJKLMNOP";

export function sizeOf(board) {
  const n = Math.round(Math.sqrt(board.length));
  const box = Math.round(Math.sqrt(n));
  if (n * n !== board.length || box * box !== n) throw new Error(`not a board: ${board.length} cells`);
  return { n, box };
}

const HEX = "0123456789ABCDEF";

export function symbols(n) {
  return n === 16 ? HEX : SYMBOLS.slice(0, n);
}

// The character of an empty cell on a board of n x n.
export function emptyOf(n) {
  return n === 16 ? "." : "0";
}

// The alphabet the server is told a board is in ("hex" for 16x16), or undefined.
export function alphabetOf(board) {
  return board.length === 256 ? "hex" : undefined;
}

export function emptyBoard(n = 9) {
  return emptyOf(n).repeat(n * n);
}

export function cellName(i, n) {
  return `r${Math.floor(i / n) + 1}c${(i % n) + 1}`;
}

// Cells holding a value that another cell of the same row, column or box also holds.
export function clashes(board) {
  const { n, box } = sizeOf(board);
  const bad = new Set();
  const empty = emptyOf(n);
  const units = [];
  for (let k = 0; k < n; k++) {
    const row = [], col = [], blk = [];
    const br = Math.floor(k / box) * box, bc = (k % box) * box;
    for (let j = 0; j < n; j++) {
      row.push(k * n + j);
      col.push(j * n + k);
      blk.push((br + Math.floor(j / box)) * n + bc + (j % box));
    }
    units.push(row, col, blk);
  }
  for (const unit of units) {
    const seen = new Map();
    for (const i of unit) {
      const v = board[i];
      if (v === empty) continue;
      if (seen.has(v)) { bad.add(i); bad.add(seen.get(v)); } else seen.set(v, i);
    }
  }
  return bad;
}

// What one cell shows: its text and its classes, from every layer of the state.
function cellView(state, i) {
  const given = state.board[i];
  const empty = emptyOf(state.n);
  const classes = [];
  let text = "";
  const entry = state.entries ? state.entries[i] : empty;
  if (given !== empty) {
    text = given;
    classes.push("given");
  } else if (entry !== empty) {
    text = entry;
    classes.push("entry");
    if (state.wrong.has(i)) classes.push("wrong");
    else if (state.doubtful.has(i)) classes.push("doubtful");
  } else if (state.solution && state.showSolution) {
    text = state.solution[i];
    classes.push("solution");
  }
  if (state.corrected.has(i)) classes.push("corrected");
  if (state.fixed.has(i)) classes.push("fixed");
  if (state.clashing.has(i)) classes.push("clash");
  if (state.selected === i) classes.push("selected");
  return { text, classes };
}

export class Board {
  // container: the element to draw in; pad: the element for the value buttons;
  // onChange(board, cell): called when the user gives a cell a value (or clears it).
  constructor(container, pad, onChange) {
    this.el = container;
    this.pad = pad;
    this.onChange = onChange;
    this.state = null;
    this.cells = [];
    this.el.addEventListener("click", (e) => {
      const cell = e.target.closest("[data-cell]");
      if (cell) this.select(Number(cell.dataset.cell));
    });
    this.el.addEventListener("keydown", (e) => this.key(e));
    this.pad.addEventListener("click", (e) => {
      const button = e.target.closest("[data-value]");
      if (button && this.state && this.state.selected !== null) this.set(this.state.selected, button.dataset.value);
    });
  }

  // state: {board, solution, corrected: Set, fixed: Set, showSolution, entries, wrong: Set,
  //         doubtful: Set}
  show(state) {
    const previous = this.state;
    const { n, box } = sizeOf(state.board);
    this.state = {
      selected: previous && previous.n === n ? previous.selected : null,
      entries: null,
      wrong: new Set(),
      doubtful: new Set(),
      ...state,
      n, box,
      clashing: clashes(state.board),
    };
    if (!previous || previous.n !== n) this.build(n, box);
    this.paint();
  }

  build(n, box) {
    this.el.replaceChildren();
    this.el.style.setProperty("--n", n);
    this.el.dataset.size = `${n}x${n}`;
    this.cells = [];
    for (let i = 0; i < n * n; i++) {
      const r = Math.floor(i / n), c = i % n;
      const b = document.createElement("button");
      b.type = "button";
      b.className = "cell";
      b.dataset.cell = i;
      b.tabIndex = i === 0 ? 0 : -1;
      const frame = [];
      if (c === n - 1) frame.push("edge-right");
      else if (c % box === box - 1) frame.push("box-right");
      if (r === n - 1) frame.push("edge-bottom");
      else if (r % box === box - 1) frame.push("box-bottom");
      b.dataset.frame = frame.join(" ");
      this.cells.push(b);
      this.el.append(b);
    }
    this.pad.replaceChildren();
    this.pad.dataset.size = `${n}x${n}`;
    this.pad.style.setProperty("--values", n + 1);
    this.pad.style.setProperty("--half", Math.ceil((n + 1) / 2));
    for (const v of symbols(n)) this.pad.append(padButton(v, v, `Put ${v} in the selected cell`));
    this.pad.append(padButton(emptyOf(n), "Clear", "Clear the selected cell", true));
  }

  paint() {
    const s = this.state;
    this.cells.forEach((b, i) => {
      const { text, classes } = cellView(s, i);
      b.textContent = text;
      b.className = ["cell", b.dataset.frame, ...classes].join(" ").trim();
      const what = !text ? "empty"
        : classes.includes("given") ? text
        : classes.includes("entry") ? `your entry ${text}${classes.includes("wrong") ? ", wrong"
          : classes.includes("doubtful") ? ", perhaps wrong: check it" : ""}`
        : `empty, solution ${text}`;
      b.setAttribute("aria-label", `${cellName(i, s.n)}: ${what}`);
    });
    this.pad.classList.toggle("inactive", s.selected === null);
  }

  select(i) {
    if (!this.state) return;
    this.state.selected = i;
    this.cells.forEach((b, k) => { b.tabIndex = k === i ? 0 : -1; });
    this.cells[i].focus({ preventScroll: true });
    this.paint();
  }

  set(i, value) {
    const s = this.state;
    if (s.board[i] === value) return;
    const board = s.board.slice(0, i) + value + s.board.slice(i + 1);
    this.onChange(board, i);
  }

  key(e) {
    const s = this.state;
    if (!s || s.selected === null) return;
    const i = s.selected, n = s.n;
    const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -n, ArrowDown: n };
    const key = e.key.toUpperCase();
    if (e.key in moves) {
      const j = i + moves[e.key];
      if (j >= 0 && j < n * n && (Math.abs(moves[e.key]) === n || Math.floor(j / n) === Math.floor(i / n))) this.select(j);
    } else if (symbols(n).includes(key) && key.length === 1) {
      this.set(i, key);
    } else if ([".", " ", "Backspace", "Delete"].includes(e.key) || (e.key === "0" && n !== 16)) {
      this.set(i, emptyOf(n));
    } else if (e.key === "Escape") {
      s.selected = null;
      this.paint();
    } else {
      return;
    }
    e.preventDefault();
  }
}

function padButton(value, label, title, clear = false) {
  const b = document.createElement("button");
  b.type = "button";
  b.dataset.value = value;
  b.textContent = label;
  b.title = title;
  b.setAttribute("aria-label", title);
  if (clear) b.classList.add("clear");
  return b;
}
