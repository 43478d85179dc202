// The printed boards (issue 36, for a game played with coins on paper): one page a seat's board,
// each with the player's name, the four regions named, the square numbers, every square's
// character as a black-and-white picture and its word, and the legend (roll, character,
// action). The pages are built in a print-only section (#print-boards, outside #screen, so the
// game's redraws leave it alone) and printed with the browser's own print (app.css, @media
// print: only that section prints, one board a page). The paper is A4 or US Letter (a named
// @page each), chosen next to the button and remembered in this browser.
//
// printBoards() is what the "Print boards" button (screen_game.js) calls; any Spook game's screen
// can call it. The module is loaded when the button is first pressed, not with the page.
import { $, h, svg } from './dom.js';
import { t } from './i18n.js';
import { letterName, regionNames } from './game_words.js';
import { view } from './session.js';
import { savedPaper } from './store.js';

// The legend's rows: the activation roll, the character's letter, what it does to a piece on
// one of its squares (docs/rules.md).
const LEGEND = () => [
  [t('1 or 2'), 'H', t('moves forward 3 squares (from 37 into the church; from 38 or 39 it stays)')],
  ['3', 'C', t('moves back 6 squares, never below square 1')],
  ['4', 'S', t('goes back to the entrance of its region')],
  ['5', 'W', t('goes back to the entrance of its region')],
  ['6', 'X', t('goes back to square 1')],
];

// The pictures (100 x 100, black on white, told apart by their outline alone): the same shapes
// as the terminal's PDF (client/board_print.cpp).
const B = { fill: '#000' };
const W = { fill: '#fff' };
const line = (x1, y1, x2, y2, width, colour = '#000') => svg('line', { x1, y1, x2, y2, stroke: colour, 'stroke-width': width });
const SHAPES = {
  H: () => [ // a wizard's hat: a bent cone on a brim
    svg('polygon', { points: '25,77.5 75,77.5 60,32.5 77.5,2.5 47.5,25', ...B }),
    svg('ellipse', { cx: 50, cy: 80, rx: 47.5, ry: 10, ...B }),
    svg('circle', { cx: 50, cy: 58, r: 7, ...W })],
  C: () => [ // a cat's head: round, pointed ears, whiskers
    svg('circle', { cx: 50, cy: 57.5, r: 30, ...B }),
    svg('polygon', { points: '21,47.5 25,7.5 46,30', ...B }), svg('polygon', { points: '79,47.5 75,7.5 54,30', ...B }),
    svg('ellipse', { cx: 38, cy: 51, rx: 5.5, ry: 8.5, ...W }), svg('ellipse', { cx: 62, cy: 51, rx: 5.5, ry: 8.5, ...W }),
    line(27.5, 67.5, 0, 61, 3), line(27.5, 72.5, 0, 77.5, 3), line(72.5, 67.5, 100, 61, 3), line(72.5, 72.5, 100, 77.5, 3)],
  S: () => [ // a ghost: white, outlined, a wavy hem
    svg('path', { d: 'M20,92.5 L20,40 C20,0 80,0 80,40 L80,92.5 L65,80 L50,92.5 L35,80 Z', fill: '#fff', stroke: '#000', 'stroke-width': 6 }),
    svg('ellipse', { cx: 39, cy: 37.5, rx: 5, ry: 7.5, ...B }), svg('ellipse', { cx: 61, cy: 37.5, rx: 5, ry: 7.5, ...B }),
    svg('ellipse', { cx: 50, cy: 60, rx: 7, ry: 10, ...B })],
  W: () => [ // a wolf's head: tall ears, a long snout, slanted eyes
    svg('polygon', { points: '22.5,2.5 39,27.5 61,27.5 77.5,2.5 90,47.5 66,67.5 57,97.5 43,97.5 34,67.5 10,47.5', ...B }),
    svg('polygon', { points: '27.5,40 44,47.5 35,52.5', ...W }), svg('polygon', { points: '72.5,40 56,47.5 65,52.5', ...W })],
  X: () => [ // a witch's broom: a long stick, a bound brush
    line(95, 5, 40, 60, 7),
    svg('polygon', { points: '45,65 35,55 1,77.5 22.5,99', ...B }),
    line(35, 65, 10, 90, 2.5, '#fff'), line(38, 59, 8, 80, 2.5, '#fff'), line(41, 62, 20, 92, 2.5, '#fff'),
    line(47.5, 69, 31, 52.5, 5)],
  '.': () => [ // an entrance: an open gate
    svg('path', { d: 'M25,90 L25,45 C25,10 75,10 75,45 L75,90', fill: 'none', stroke: '#000', 'stroke-width': 5 }),
    line(10, 90, 90, 90, 5)],
  '+': () => [ // the church: walls, roof, door, cross
    svg('rect', { x: 25, y: 47.5, width: 50, height: 42.5, fill: '#fff', stroke: '#000', 'stroke-width': 5 }),
    svg('polygon', { points: '17.5,52.5 50,25 82.5,52.5', ...B }),
    svg('rect', { x: 42.5, y: 67.5, width: 15, height: 22.5, ...B }),
    line(50, 25, 50, 0, 5), line(41, 10, 59, 10, 5)],
};

export function picture(letter, cls = 'pb-pic') {
  const shape = SHAPES[letter];
  return svg('svg', { class: cls, viewBox: '0 0 100 100', 'aria-hidden': 'true' }, shape ? shape() : []);
}

function squareWord(letter) {
  if (letter === '+') return t('church');
  return letter ? letterName(letter) : '?';
}

function boardPage(seat, board, subtitle) {
  const rows = regionNames().map((region, r) => {
    const first = r * 10 + 1;
    const cells = [];
    for (let square = first; square < first + 10; square++) {
      const letter = board[square - 1];
      cells.push(h('div', { class: ['pb-sq', (letter === '.' || letter === '+') && 'pb-plain'] },
        h('span', { class: 'pb-num' }, String(square)), picture(letter), h('span', { class: 'pb-word' }, squareWord(letter))));
    }
    return h('div', { class: 'pb-region' },
      h('h3', null, region, ' ', h('span', { class: 'pb-span' }, t('squares {first} to {last}', { first, last: first + 9 }))),
      h('div', { class: 'pb-row' }, cells));
  });
  const legend = h('table', { class: 'pb-legend' },
    h('thead', null, h('tr', null, h('th', null, t('Roll')), h('th', null, ''), h('th', null, t('Character')), h('th', null, t('Action')))),
    h('tbody', null, LEGEND().map(([roll, letter, action]) => h('tr', null,
      h('td', { class: 'pb-roll' }, roll), h('td', null, picture(letter, 'pb-pic-small')), h('th', { scope: 'row' }, letterName(letter)),
      h('td', null, action)))));
  return h('section', { class: 'print-page', dataset: { seat } },
    h('h1', null, view.seatName(seat)),
    h('p', { class: 'pb-sub' }, t('Spook & Werewolf Ludo: {where}', { where: subtitle })),
    h('p', { class: 'pb-how' }, t('Move left to right, row after row: square 1 to 39, then into the church on 40.')),
    rows,
    h('h2', null, t('Legend'), ' ', h('span', { class: 'pb-span' }, t('The activation roll wakes one character for everybody: every piece on its squares moves.'))),
    legend,
    h('p', { class: 'pb-note' }, t('The entrances (1, 11, 21, 31) and the church carry no character.')),
    h('p', { class: 'pb-foot' }, t('Board notation: {board}', { board })));
}

// The seats whose boards the game uses, in seat order.
export function printedSeats() {
  return view.playSeats.filter((seat) => typeof view.spookBoards[seat] === 'string' && view.spookBoards[seat].length === 40);
}

// Lays out one page a seat's board in #print-boards (made once, refilled each time) for `paper`
// ('a4' or 'letter'), then opens the browser's print. The section is only printed while the
// body has the class printing-boards (from the button until the print is done), so the page's
// own print (Ctrl+P) prints the page as before.
export function printBoards(paper = savedPaper()) {
  let section = $('print-boards');
  if (!section) {
    section = h('div', { id: 'print-boards', 'aria-hidden': 'true' });
    document.body.append(section);
    window.addEventListener('afterprint', () => document.body.classList.remove('printing-boards'));
  }
  section.className = paper === 'letter' ? 'paper-letter' : 'paper-a4';
  const seats = printedSeats();
  section.replaceChildren(...seats.map((seat) =>
    boardPage(seat, view.spookBoards[seat], t('room {room}, seat {seat}', { room: view.room, seat: seat + 1 }))));
  document.body.classList.add('printing-boards');
  window.print();
  return seats.length;
}
