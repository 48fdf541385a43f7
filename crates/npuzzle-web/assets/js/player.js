// Plays a solution back: first, back, play/pause, forward, last, a scrubber over the whole
// path, a speed range from one move a second up to the whole path in three seconds, the step
// counter, the move list with the current move highlighted, and the moves to copy.

import { el, plural } from './dom.js';
import { ARROW, WORD, pathBoards, tileMove } from './puzzle.js';

/** Moves per second for each speed setting; the last one plays the whole path in 3 s. */
const RATES = [1, 2, 3, 5, 8, 12, 20, 40, 80, 160];
const WHOLE_PATH_SECONDS = 3;
/** Longest path whose moves are listed one button each (longer ones stay usable). */
const MAX_LISTED = 3000;

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
    this.frame = null;
    parts.first.addEventListener('click', () => this.go(0));
    parts.back.addEventListener('click', () => this.go(this.step - 1));
    parts.play.addEventListener('click', () => this.toggle());
    parts.forward.addEventListener('click', () => this.go(this.step + 1));
    parts.last.addEventListener('click', () => this.go(this.boards.length - 1));
    parts.scrub.addEventListener('input', () => this.go(Number(parts.scrub.value), false));
    parts.speed.max = String(RATES.length + 1);
    parts.speed.addEventListener('input', () => { this.showSpeed(); if (this.frame) this.playing(); });
    parts.copy.addEventListener('click', () => this.copy());
    this.showSpeed();
    this.clear();
  }

  /** Moves per second at the current speed setting. */
  rate() {
    const s = Number(this.p.speed.value);
    if (s > RATES.length) return Math.max(RATES[RATES.length - 1], this.moves.length / WHOLE_PATH_SECONDS);
    return RATES[Math.max(0, s - 1)];
  }

  showSpeed() {
    const s = Number(this.p.speed.value);
    this.p.speedOut.textContent = s > RATES.length ? `whole path in ${WHOLE_PATH_SECONDS} s` : `${RATES[s - 1]} move${s === 1 ? '' : 's'}/s`;
  }

  clear() {
    this.pause();
    this.boards = [];
    this.moves = [];
    this.step = 0;
    this.p.root.hidden = true;
    this.p.list.replaceChildren();
    this.p.root.dispatchEvent(new Event('player-change'));
  }

  load(start, rows, cols, letters) {
    this.pause();
    this.moves = [...letters];
    this.boards = pathBoards(start, rows, cols, this.moves);
    this.step = 0;
    this.p.root.hidden = false;
    this.p.scrub.max = String(this.moves.length);
    this.p.movesText.value = this.moves.join('');
    const listed = this.moves.slice(0, MAX_LISTED);
    this.p.list.replaceChildren(
      ...listed.map((m, i) => {
        const { tile, dir } = tileMove(this.boards[i], rows, cols, m);
        return el('button', {
          class: 'move',
          type: 'button',
          title: `step ${i + 1}: tile ${tile} slides ${WORD[dir]} (blank ${WORD[m]})`,
          'aria-label': `step ${i + 1}: tile ${tile} ${WORD[dir]}`,
          'data-step': i + 1,
          onclick: () => this.go(i + 1),
        }, el('b', { text: String(tile) }), ARROW[dir]);
      }),
      ...(this.moves.length > MAX_LISTED ? [el('span', { class: 'muted', text: `… ${this.moves.length - MAX_LISTED} more (use the scrubber)` })] : []),
    );
    this.update(false);
    this.p.root.dispatchEvent(new Event('player-change'));
  }

  get active() {
    return this.boards.length > 0;
  }

  /** The board the player shows now. */
  get current() {
    return this.boards[this.step];
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
    if (this.frame) this.pause();
    else this.playing();
  }

  /** Plays from the current step, in animation frames: fast rates skip frames' worth of moves. */
  playing() {
    if (!this.active) return;
    cancelAnimationFrame(this.frame);
    if (this.step >= this.boards.length - 1) this.go(0, false);
    this.p.play.textContent = '❚❚ Pause';
    this.p.play.setAttribute('aria-label', 'Pause');
    this.p.play.title = 'Pause (space)';
    const rate = this.rate();
    this.onSpeed?.(Math.min(1000 / rate * 0.8, 400));
    const from = this.step;
    const t0 = performance.now();
    const tick = (now) => {
      const target = from + Math.floor(((now - t0) / 1000) * rate) + (rate <= 12 ? 1 : 0);
      if (target !== this.step) this.go(target, rate <= 12 && target === this.step + 1);
      if (this.step < this.boards.length - 1) this.frame = requestAnimationFrame(tick);
      else this.pause();
    };
    this.frame = requestAnimationFrame(tick);
  }

  pause() {
    cancelAnimationFrame(this.frame);
    this.frame = null;
    this.p.play.textContent = '▶ Play';
    this.p.play.setAttribute('aria-label', 'Play');
    this.p.play.title = 'Play (space)';
  }

  async copy() {
    const text = this.moves.join('');
    try {
      await navigator.clipboard.writeText(text);
      this.p.status.textContent = `Copied ${plural(text.length, 'move')} (blank moves U, D, L, R).`;
    } catch {
      // No clipboard (an insecure origin, say): select the text for the user to copy.
      this.p.movesText.hidden = false;
      this.p.movesText.select();
      this.p.status.textContent = 'Press Ctrl+C to copy the selected moves.';
    }
  }

  update(animate) {
    const last = this.boards.length - 1;
    this.show(this.boards[this.step], animate);
    this.p.counter.textContent = `Step ${this.step} of ${last}`;
    this.p.scrub.value = String(this.step);
    this.p.scrub.setAttribute('aria-valuetext', `step ${this.step} of ${last}`);
    this.p.first.disabled = this.p.back.disabled = this.step === 0;
    this.p.last.disabled = this.p.forward.disabled = this.step === last;
    const list = this.p.list;
    list.querySelector('.current')?.classList.remove('current');
    for (const b of list.children) b.classList.toggle('done', Number(b.dataset.step) < this.step);
    const current = list.querySelector(`[data-step="${this.step}"]`);
    if (current) {
      current.classList.add('current');
      // Scroll only the move list, never the page.
      const top = current.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - current.offsetHeight) {
        list.scrollTop = top - list.clientHeight / 2;
      }
    }
    this.p.status.textContent = this.step === last ? 'Goal reached.' : '';
  }
}
