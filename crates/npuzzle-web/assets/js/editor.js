// The board editor: one text field per cell, arrow keys between them, a palette of the
// tiles still missing, and live marks on duplicate or out-of-range tiles.

import { el } from './dom.js';

export class BoardEditor {
  /** `onChange(cells)` gets numbers, or null for empty cells, after every edit. */
  constructor(root, onChange) {
    this.root = root;
    this.onChange = onChange;
    this.inputs = [];
    this.rows = 0;
    this.cols = 0;
    this.focused = 0;
    /** Called with pasted text that holds a whole board. */
    this.onPaste = null;
  }

  /** Fills the editor with a board (null entries stay empty). */
  load(cells, rows, cols, cellSize) {
    this.rows = rows;
    this.cols = cols;
    this.root.replaceChildren();
    this.root.style.gridTemplateColumns = `repeat(${cols}, ${cellSize}px)`;
    this.root.style.gridAutoRows = `${cellSize}px`;
    this.inputs = cells.map((t, i) => {
      const input = el('input', {
        class: 'cell',
        type: 'text',
        inputmode: 'numeric',
        autocomplete: 'off',
        maxlength: 3,
        'aria-label': `row ${Math.floor(i / cols) + 1}, column ${(i % cols) + 1}`,
        'data-cell': i,
      });
      input.value = t == null ? '' : String(t);
      input.style.fontSize = `${Math.round(cellSize * 0.38)}px`;
      input.addEventListener('input', () => this.changed());
      input.addEventListener('focus', () => { this.focused = i; input.select(); });
      input.addEventListener('keydown', (e) => this.key(e, i));
      input.addEventListener('paste', (e) => this.paste(e));
      return input;
    });
    this.root.append(...this.inputs);
    this.mark(new Set());
  }

  cells() {
    return this.inputs.map((input) => {
      const v = input.value.trim();
      if (v === '') return null;
      if (v === '_') return 0;
      return /^\d+$/.test(v) ? Number(v) : NaN;
    });
  }

  /** Marks invalid cells (a Set of indices) and the blank. */
  mark(bad) {
    this.inputs.forEach((input, i) => {
      input.classList.toggle('bad', bad.has(i));
      input.classList.toggle('blank', input.value.trim() === '0' || input.value.trim() === '_');
    });
  }

  /** Puts a tile into the focused cell and moves on to the next empty one. */
  place(tile) {
    const input = this.inputs[this.focused];
    if (!input) return;
    input.value = String(tile);
    this.changed();
    const next = this.inputs.findIndex((x, i) => i > this.focused && x.value.trim() === '');
    const target = next >= 0 ? next : this.inputs.findIndex((x) => x.value.trim() === '');
    if (target >= 0) this.inputs[target].focus();
  }

  clear() {
    this.inputs.forEach((input) => { input.value = ''; });
    this.changed();
    this.inputs[0]?.focus();
  }

  changed() {
    this.onChange(this.cells());
  }

  key(e, i) {
    const { cols } = this;
    const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -cols, ArrowDown: cols };
    if (e.key in moves) {
      const j = i + moves[e.key];
      if (j >= 0 && j < this.inputs.length) {
        e.preventDefault();
        this.inputs[j].focus();
      }
    } else if (e.key === 'Enter') {
      e.preventDefault();
      this.inputs[(i + 1) % this.inputs.length].focus();
    }
  }

  /** Pasting a whole board into one cell fills every cell. */
  paste(e) {
    const text = e.clipboardData?.getData('text') || '';
    const numbers = text.split(/[^0-9_]+/).filter((t) => t);
    if (numbers.length < 2) return;
    e.preventDefault();
    if (this.onPaste) {
      this.onPaste(text);
      return;
    }
    numbers.slice(0, this.inputs.length).forEach((t, i) => { this.inputs[i].value = t; });
    this.changed();
  }
}
