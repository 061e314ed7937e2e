// A zoomable photo: the image fills the width of a scrolling frame at zoom 1, and is drawn
// `zoom` times wider beyond that; one finger (or the scroll bars) pans, as the browser
// does natively. Two fingers pinch, a double tap or double click toggles a close look at
// the point tapped, ctrl + wheel (a trackpad's pinch) zooms on a desktop, and the buttons
// step. Full screen puts the frame over the whole page.

const MAX_ZOOM = 8;
const CLOSE_LOOK = 3;
const STEP = 1.5;

export class Viewer {
  constructor(frame, img, buttons) {
    this.frame = frame;
    this.img = img;
    this.zoom = 1;
    this.pointers = new Map();
    this.pinch = null;
    buttons.in.addEventListener("click", () => this.zoomTo(this.zoom * STEP));
    buttons.out.addEventListener("click", () => this.zoomTo(this.zoom / STEP));
    buttons.fit.addEventListener("click", () => this.zoomTo(1));
    buttons.full.addEventListener("click", () => this.fullScreen(!this.frame.classList.contains("full")));
    frame.addEventListener("dblclick", (e) => {
      e.preventDefault();
      this.zoomTo(this.zoom > 1 ? 1 : CLOSE_LOOK, e.clientX, e.clientY);
    });
    frame.addEventListener("wheel", (e) => {
      if (!e.ctrlKey) return;
      e.preventDefault();
      this.zoomTo(this.zoom * Math.exp(-e.deltaY / 200), e.clientX, e.clientY);
    }, { passive: false });
    img.addEventListener("load", () => this.zoomTo(1));
    window.addEventListener("resize", () => this.zoomTo(this.zoom));
    frame.addEventListener("pointerdown", (e) => this.down(e));
    frame.addEventListener("pointermove", (e) => this.move(e));
    for (const type of ["pointerup", "pointercancel", "pointerleave"]) {
      frame.addEventListener(type, (e) => this.up(e));
    }
    frame.addEventListener("keydown", (e) => {
      if (e.key === "+" || e.key === "=") this.zoomTo(this.zoom * STEP);
      else if (e.key === "-") this.zoomTo(this.zoom / STEP);
      else if (e.key === "Escape") this.fullScreen(false);
      else return;
      e.preventDefault();
    });
  }

  show(src, alt) {
    this.img.src = src;
    this.img.alt = alt;
    this.zoomTo(1);
  }

  clear() {
    this.img.removeAttribute("src");
  }

  fullScreen(on) {
    this.frame.classList.toggle("full", on);
    document.body.classList.toggle("viewing", on);
    this.zoomTo(1);
  }

  // The width at zoom 1: the whole photo in the frame, as wide as it can be.
  fitWidth() {
    const { naturalWidth: w, naturalHeight: h } = this.img;
    const full = this.frame.classList.contains("full");
    const height = full ? this.frame.clientHeight : parseFloat(getComputedStyle(this.frame).maxHeight);
    const width = this.frame.clientWidth;
    if (!w || !h || !width) return width;
    return Math.min(width, Number.isFinite(height) ? (height * w) / h : width);
  }

  // Zoom to `zoom`, keeping the photo's point under (x, y) (the frame's centre by default)
  // where it is on the screen.
  zoomTo(zoom, x, y) {
    zoom = Math.min(MAX_ZOOM, Math.max(1, zoom));
    const box = this.frame.getBoundingClientRect();
    const px = (x ?? box.left + box.width / 2) - box.left;
    const py = (y ?? box.top + box.height / 2) - box.top;
    const fx = (this.frame.scrollLeft + px) / this.zoom;
    const fy = (this.frame.scrollTop + py) / this.zoom;
    this.zoom = zoom;
    this.img.style.setProperty("--fit", `${this.fitWidth()}px`);
    this.img.style.setProperty("--zoom", zoom);
    this.frame.classList.toggle("zoomed", zoom > 1);
    this.frame.scrollLeft = fx * zoom - px;
    this.frame.scrollTop = fy * zoom - py;
  }

  down(e) {
    this.pointers.set(e.pointerId, e);
    if (this.pointers.size === 2) {
      const [a, b] = [...this.pointers.values()];
      this.pinch = { distance: distance(a, b), zoom: this.zoom };
    }
  }

  move(e) {
    if (!this.pointers.has(e.pointerId)) return;
    this.pointers.set(e.pointerId, e);
    if (this.pinch && this.pointers.size === 2) {
      const [a, b] = [...this.pointers.values()];
      const scale = distance(a, b) / this.pinch.distance;
      this.zoomTo(this.pinch.zoom * scale, (a.clientX + b.clientX) / 2, (a.clientY + b.clientY) / 2);
    }
  }

  up(e) {
    this.pointers.delete(e.pointerId);
    if (this.pointers.size < 2) this.pinch = null;
  }
}

function distance(a, b) {
  return Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY) || 1;
}
