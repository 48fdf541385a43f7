// Draws the board: one element per tile, moved with CSS transforms so every move animates.
// Also the picture mode (each tile shows its piece of an image), the hint highlight, tiles
// that take the keyboard focus in the order they are on the screen (Enter or Space slides
// one) and swipes on touch screens.

import { el } from './dom.js';

const GAP = 4;

export class BoardView {
  /**
   * `root` is an empty element; `onCell(cell)` is called when a tile is clicked (or Enter is
   * pressed on it), `onSwipe(letter)` with the blank move a swipe asks for.
   */
  constructor(root, onCell, onSwipe) {
    this.root = root;
    this.onCell = onCell;
    this.onSwipe = onSwipe;
    this.tilesLayer = el('div', { class: 'tiles' });
    this.root.append(this.tilesLayer);
    this.root.addEventListener('click', (e) => this.click(e));
    this.root.addEventListener('keydown', (e) => this.key(e));
    this.root.addEventListener('pointerdown', (e) => { this.down = { x: e.clientX, y: e.clientY }; this.swiped = false; });
    this.root.addEventListener('pointerup', (e) => this.swipe(e));
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
    // Fits the column, and leaves room under the board for the step controls on a phone (and
    // on a narrow one for the buttons and the tab bar above the fold at 360x740).
    const share = window.innerWidth <= 480 ? 0.4 : 0.45;
    const width = Math.min(this.root.parentElement?.clientWidth || 440, 460, window.innerHeight * share);
    const side = Math.max(this.rows, this.cols) || 3;
    return Math.max(24, Math.min(108, Math.floor(width / side)));
  }

  setShape(rows, cols, goal) {
    this.rows = rows;
    this.cols = cols;
    this.goal = goal;
    this.elements.clear();
    this.tilesLayer.replaceChildren();
    const n = rows * cols;
    for (let t = 1; t < n; t++) {
      const tile = el('div', { class: 'tile', 'data-tile': t, role: 'button', tabindex: -1 }, el('span', { class: 'num', text: String(t) }));
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
    this.draw(false);
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
    const gap = this.tiles.indexOf(0);
    const [gr, gc] = [Math.floor(gap / cols), gap % cols];
    this.tiles.forEach((t, i) => {
      if (t === 0) return;
      const tile = this.elements.get(t);
      if (!tile) return;
      const [r, c] = [Math.floor(i / cols), i % cols];
      tile.style.transform = `translate(${c * cell + GAP / 2}px, ${r * cell + GAP / 2}px)`;
      tile.dataset.cell = i;
      tile.classList.toggle('home', this.goal[i] === t);
      // Tiles in line with the gap can slide: those are the tab stops.
      const movable = this.interactive && (r === gr || c === gc);
      tile.tabIndex = movable ? 0 : -1;
      tile.setAttribute('aria-label', `tile ${t}, row ${r + 1}, column ${c + 1}${movable ? ', can slide' : ''}`);
    });
    this.order();
    if (!animate) {
      // Re-enable transitions after this frame has been laid out.
      void this.root.offsetWidth;
      requestAnimationFrame(() => this.root.classList.remove('no-anim'));
    }
  }

  /**
   * Puts the tiles in the DOM in the order of their cells, so that Tab visits them as they are
   * on the screen, row by row. A tile taken out of the DOM and put back would jump instead of
   * sliding and lose the focus: moveBefore keeps both. Where the browser has no moveBefore,
   * the tiles still sliding stay where they are (the tiles of one move keep their order among
   * themselves) and the others are put around them, and the focus is given back.
   */
  order() {
    const layer = this.tilesLayer;
    const native = typeof layer.moveBefore === 'function';
    const focused = document.activeElement;
    let next = layer.firstElementChild;
    for (const t of this.tiles) {
      const tile = this.elements.get(t);
      if (!tile) continue;
      if (tile === next) {
        next = tile.nextElementSibling;
      } else if (!native && next && tile.getAnimations().length
        && next.compareDocumentPosition(tile) & Node.DOCUMENT_POSITION_FOLLOWING) {
        // A sliding tile further on: the tiles passed over are put before it in their turn.
        next = tile.nextElementSibling;
      } else if (native) {
        layer.moveBefore(tile, next);
      } else {
        layer.insertBefore(tile, next);
      }
    }
    if (focused !== document.activeElement && layer.contains(focused)) focused.focus({ preventScroll: true });
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
    if (this.swiped) {
      this.swiped = false;
      return;
    }
    const tile = event.target.closest('.tile');
    if (tile) this.onCell(Number(tile.dataset.cell));
  }

  key(event) {
    if (!this.interactive || (event.key !== 'Enter' && event.key !== ' ')) return;
    const tile = event.target.closest('.tile');
    if (!tile) return;
    event.preventDefault();
    event.stopPropagation();
    this.onCell(Number(tile.dataset.cell));
  }

  /** A swipe of at least 24 px slides the tile beside the gap in that direction. */
  swipe(event) {
    const from = this.down;
    this.down = null;
    if (!from || !this.interactive) return;
    const [dx, dy] = [event.clientX - from.x, event.clientY - from.y];
    if (Math.max(Math.abs(dx), Math.abs(dy)) < 24) return;
    // The tile moves with the finger, so the blank moves the other way.
    const letter = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? 'L' : 'R') : (dy > 0 ? 'U' : 'D');
    this.swiped = true;
    this.onSwipe?.(letter);
  }
}
