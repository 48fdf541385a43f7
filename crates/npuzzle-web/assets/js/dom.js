// Small DOM helpers shared by the page's modules.

/** The element with this id (throws if missing, so a typo fails loudly). */
export function byId(id) {
  const e = document.getElementById(id);
  if (!e) throw new Error(`no element #${id}`);
  return e;
}

/** Creates an HTML element: el('button', {class: 'x', onclick: f}, 'text', child). */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  setAttrs(e, attrs);
  for (const c of children.flat()) if (c != null) e.append(c);
  return e;
}

/**
 * `node.replaceChildren(...children)` with null and undefined left out, as `el` leaves them
 * out: `replaceChildren` itself would show them as the text "null".
 */
export function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c != null));
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Creates an SVG element with attributes. */
export function svg(tag, attrs = {}, ...children) {
  const e = document.createElementNS(SVG_NS, tag);
  setAttrs(e, attrs);
  for (const c of children.flat()) if (c != null) e.append(c);
  return e;
}

function setAttrs(e, attrs) {
  for (const [k, v] of Object.entries(attrs)) {
    if (v == null || v === false) continue;
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'text') e.textContent = v;
    else e.setAttribute(k, v === true ? '' : v);
  }
}

/** 1234567 → "1,234,567". */
export function count(n) {
  return n == null ? '–' : Number(n).toLocaleString('en-US');
}

/** 1 → "1 move", 31 → "31 moves" (`word` is the singular). */
export function plural(n, word) {
  return `${count(n)} ${word}${Number(n) === 1 ? '' : 's'}`;
}

/** Seconds → a short human duration. */
export function duration(s) {
  if (s == null) return '–';
  if (s < 0.001) return `${(s * 1e6).toFixed(0)} µs`;
  if (s < 1) return `${(s * 1000).toFixed(s < 0.01 ? 2 : 1)} ms`;
  return `${s.toFixed(2)} s`;
}

/** Whether a key event was typed into a form field (then page shortcuts stay out of it). */
export function typingIn(event) {
  const t = event.target;
  return t instanceof HTMLElement && (t.isContentEditable || ['INPUT', 'SELECT', 'TEXTAREA'].includes(t.tagName));
}
