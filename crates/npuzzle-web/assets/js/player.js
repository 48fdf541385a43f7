// Plays a solution back: first, back, play/pause, forward, last, a speed slider, the step
// counter and the move list with the current move highlighted.

import { el } from './dom.js';
import { ARROW, WORD, pathBoards, tileMove } from './puzzle.js';

export class Player {
  /**
   * `parts` holds the control elements; `show(tiles, animate)` draws a board.
   */
  constructor(parts, show) {
    this.p = parts;
    this.show = show;
    this.boards = [];
    this.moves = [];
    this.step = 0;
    this.timer = null;
    parts.first.addEventListener('click', () => this.go(0));
    parts.back.addEventListener('click', () => this.go(this.step - 1));
    parts.play.addEventListener('click', () => this.toggle());
    parts.forward.addEventListener('click', () => this.go(this.step + 1));
    parts.last.addEventListener('click', () => this.go(this.boards.length - 1));
    parts.speed.addEventListener('input', () => this.restartTimer());
    this.clear();
  }

  /** Milliseconds between moves, from the speed slider (1 slow … 10 fast). */
  interval() {
    const s = Number(this.p.speed.value);
    return Math.round(1400 / s);
  }

  clear() {
    this.pause();
    this.boards = [];
    this.moves = [];
    this.step = 0;
    this.p.root.hidden = true;
    this.p.list.replaceChildren();
  }

  load(start, rows, cols, letters) {
    this.pause();
    this.moves = [...letters];
    this.boards = pathBoards(start, rows, cols, this.moves);
    this.step = 0;
    this.p.root.hidden = false;
    this.p.list.replaceChildren(
      ...this.moves.map((m, i) => {
        const { tile, dir } = tileMove(this.boards[i], rows, cols, m);
        return el('button', {
          class: 'move',
          type: 'button',
          title: `step ${i + 1}: tile ${tile} slides ${WORD[dir]} (blank ${WORD[m]})`,
          'data-step': i + 1,
          onclick: () => this.go(i + 1),
        }, el('b', { text: String(tile) }), ARROW[dir]);
      }),
    );
    this.update(false);
  }

  get active() {
    return this.boards.length > 0;
  }

  go(step, animate = true) {
    if (!this.active) return;
    const target = Math.max(0, Math.min(this.boards.length - 1, step));
    // Jumps of more than one move are drawn at once; single steps slide.
    const slide = animate && Math.abs(target - this.step) === 1;
    this.step = target;
    if (this.step === this.boards.length - 1) this.pause();
    this.update(slide);
  }

  toggle() {
    if (this.timer) this.pause();
    else this.playing();
  }

  playing() {
    if (!this.active) return;
    if (this.step >= this.boards.length - 1) this.go(0, false);
    this.p.play.textContent = '❚❚ Pause';
    this.p.play.setAttribute('aria-label', 'Pause');
    this.p.play.title = 'Pause (space)';
    this.restartTimer(true);
  }

  restartTimer(force = false) {
    if (!this.timer && !force) return;
    clearInterval(this.timer);
    this.timer = setInterval(() => this.go(this.step + 1), this.interval());
    this.onSpeed?.(Math.min(this.interval() * 0.8, 400));
  }

  pause() {
    clearInterval(this.timer);
    this.timer = null;
    this.p.play.textContent = '▶ Play';
    this.p.play.setAttribute('aria-label', 'Play');
    this.p.play.title = 'Play (space)';
  }

  update(animate) {
    const last = this.boards.length - 1;
    this.show(this.boards[this.step], animate);
    this.p.counter.textContent = `Step ${this.step} of ${last}`;
    this.p.first.disabled = this.p.back.disabled = this.step === 0;
    this.p.last.disabled = this.p.forward.disabled = this.step === last;
    for (const b of this.p.list.children) {
      const s = Number(b.dataset.step);
      b.classList.toggle('current', s === this.step);
      b.classList.toggle('done', s < this.step);
    }
    const current = this.p.list.querySelector('.current');
    if (current) {
      // Scroll only the move list, never the page.
      const list = this.p.list;
      const top = current.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - current.offsetHeight) {
        list.scrollTop = top - list.clientHeight / 2;
      }
    }
    this.p.status.textContent = this.step === last ? 'Goal reached.' : '';
  }
}
