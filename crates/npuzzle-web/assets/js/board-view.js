// Draws the board: one element per tile, moved with CSS transforms so every move animates.
// Also the picture mode (each tile shows its piece of an image) and the hint highlight.

import { el } from './dom.js';

const GAP = 4;

export class BoardView {
  /** `root` is an empty element; `onCell(cell)` is called when a cell is clicked. */
  constructor(root, onCell) {
    this.root = root;
    this.onCell = onCell;
    this.tilesLayer = el('div', { class: 'tiles' });
    this.root.append(this.tilesLayer);
    this.root.addEventListener('click', (e) => this.click(e));
    this.rows = 0;
    this.cols = 0;
    this.goal = [];
    this.tiles = [];
    this.elements = new Map();
    this.picture = null;
    this.numbers = true;
    this.interactive = false;
    window.addEventListener('resize', () => this.layout());
  }

  /** Cell size in pixels, so the board fits its column. */
  cellSize() {
    const width = Math.min(this.root.parentElement?.clientWidth || 440, 460);
    const side = Math.max(this.rows, this.cols) || 3;
    return Math.max(34, Math.min(108, Math.floor(width / side)));
  }

  setShape(rows, cols, goal) {
    this.rows = rows;
    this.cols = cols;
    this.goal = goal;
    this.elements.clear();
    this.tilesLayer.replaceChildren();
    const n = rows * cols;
    for (let t = 1; t < n; t++) {
      const tile = el('div', { class: 'tile', 'data-tile': t }, el('span', { class: 'num', text: String(t) }));
      this.elements.set(t, tile);
      this.tilesLayer.append(tile);
    }
    this.tiles = [];
    this.layout();
  }

  setGoal(goal) {
    this.goal = goal;
    this.draw();
  }

  /** An image URL to cut into tiles, or null for numbered tiles. */
  setPicture(url, numbers) {
    this.picture = url;
    this.numbers = numbers;
    this.root.classList.toggle('picture', !!url);
    this.root.classList.toggle('hide-numbers', !!url && !numbers);
    this.layout();
  }

  setInteractive(on) {
    this.interactive = on;
    this.root.classList.toggle('interactive', on);
  }

  /** Marks the whole board as solved (the blank's piece appears in picture mode). */
  setSolved(on) {
    this.root.classList.toggle('solved', on);
  }

  /** Animation time of one move, in milliseconds. */
  setSpeed(ms) {
    this.root.style.setProperty('--move-ms', `${ms}ms`);
  }

  layout() {
    this.cell = this.cellSize();
    const { cell, rows, cols } = this;
    this.root.style.setProperty('--cell', `${cell}px`);
    this.root.style.width = `${cols * cell}px`;
    this.root.style.height = `${rows * cell}px`;
    for (const [t, tile] of this.elements) {
      tile.style.width = `${cell - GAP}px`;
      tile.style.height = `${cell - GAP}px`;
      tile.style.fontSize = `${Math.round(cell * (t > 99 ? 0.32 : 0.4))}px`;
      if (this.picture) {
        const home = this.goal.indexOf(t);
        const [r, c] = [Math.floor(home / cols), home % cols];
        tile.style.backgroundImage = `url("${this.picture}")`;
        tile.style.backgroundSize = `${cols * cell}px ${rows * cell}px`;
        tile.style.backgroundPosition = `${-(c * cell + GAP / 2)}px ${-(r * cell + GAP / 2)}px`;
      } else {
        tile.style.backgroundImage = '';
      }
    }
    if (this.picture) {
      this.root.style.setProperty('--picture', `url("${this.picture}")`);
    }
    this.draw(false);
  }

  /** Shows a board; tiles slide to their new cells unless `animate` is false. */
  show(tiles, animate = true) {
    this.tiles = tiles.slice();
    this.draw(animate);
  }

  draw(animate = true) {
    const { cell, cols } = this;
    this.root.classList.toggle('no-anim', !animate);
    this.tiles.forEach((t, i) => {
      if (t === 0) return;
      const tile = this.elements.get(t);
      if (!tile) return;
      const [r, c] = [Math.floor(i / cols), i % cols];
      tile.style.transform = `translate(${c * cell + GAP / 2}px, ${r * cell + GAP / 2}px)`;
      tile.dataset.cell = i;
      tile.classList.toggle('home', this.goal[i] === t);
    });
    if (!animate) {
      // Re-enable transitions after this frame has been laid out.
      void this.root.offsetWidth;
      requestAnimationFrame(() => this.root.classList.remove('no-anim'));
    }
  }

  /** Pulses a tile (the hint). */
  flash(tile) {
    for (const e of this.elements.values()) e.classList.remove('hint');
    const e = this.elements.get(tile);
    if (!e) return;
    void e.offsetWidth;
    e.classList.add('hint');
  }

  clearFlash() {
    for (const e of this.elements.values()) e.classList.remove('hint');
  }

  click(event) {
    if (!this.interactive) return;
    const tile = event.target.closest('.tile');
    if (tile) this.onCell(Number(tile.dataset.cell));
  }
}
