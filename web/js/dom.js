// Building DOM from data. Text always goes in as text (textContent / createTextNode): nothing the
// server or a player sends is ever parsed as HTML.

const SVG_NS = 'http://www.w3.org/2000/svg';

// The page's element with this id (null when there is none).
export const $ = (id) => document.getElementById(id);

// h('button', {class: 'big', onclick: f, 'aria-label': '...'}, 'text', child, [more]) -> element.
// Attributes starting with "on" are event listeners; `class` may be an array (falsy items
// skipped); `style` is not accepted (the Content-Security-Policy forbids style attributes: use a
// class, or set element.style from code).
export function h(tag, attrs, ...children) {
  return build(document.createElement(tag), attrs, children);
}

export function svg(tag, attrs, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

function build(el, attrs, children) {
  if (attrs) {
    for (const [key, value] of Object.entries(attrs)) {
      if (value === undefined || value === null || value === false) continue;
      if (key.startsWith('on') && typeof value === 'function') {
        el.addEventListener(key.slice(2), value);
      } else if (key === 'class') {
        const names = Array.isArray(value) ? value.filter(Boolean).join(' ') : String(value);
        if (names) el.setAttribute('class', names);
      } else if (key === 'dataset') {
        for (const [k, v] of Object.entries(value)) el.dataset[k] = String(v);
      } else if (key === 'value' && 'value' in el) {
        el.value = String(value);
      } else if (key === 'checked' || key === 'disabled' || key === 'selected' || key === 'hidden') {
        el[key] = Boolean(value);
      } else {
        el.setAttribute(key, value === true ? '' : String(value));
      }
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

// Replaces the children of `el`, keeping the keyboard focus on the element with the same
// data-fk key when there was one (a redraw must not throw a keyboard user out).
export function replace(el, ...children) {
  const active = document.activeElement;
  const key = active && el.contains(active) && active.dataset ? active.dataset.fk : undefined;
  el.replaceChildren();
  append(el, children);
  if (key) {
    const again = el.querySelector(`[data-fk="${CSS.escape(key)}"]`);
    if (again) again.focus({ preventScroll: true });
  }
}

export function clear(el) {
  el.replaceChildren();
}

// A translated sentence with elements in it: `text` (t('Room {code}'), its places left unfilled)
// split at its {name} places, each replaced by args[name] (an element, or a text). For h():
// sentence(t('On a phone: {link}'), { link: h('a', ...) }). The sentence stays whole for translators.
export function sentence(text, args) {
  const out = [];
  let last = 0;
  const re = /\{(\w+)\}/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (!(m[1] in args)) continue;
    out.push(text.slice(last, m.index), args[m[1]]);
    last = re.lastIndex;
  }
  out.push(text.slice(last));
  return out.filter((x) => x !== '' && x !== null && x !== undefined);
}
