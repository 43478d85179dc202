// The game's own words in the page's language (i18n.js): the Spook characters and what they do,
// the Spook squares and regions, the Ludo colours and places (Malay as the Malay Ludo rule text
// says them: hijau, kuning, merah, biru; bulatan permulaan, lajur rumah, segi tiga rumah), and the
// sentences a screen reader says for a decision's option and for a board. Every function is
// called when a screen is drawn, so a language switched on the page shows at the next redraw.
import { t, tc } from './i18n.js';

// A character by its id on the wire or its board letter -> its name ("Werewolf").
const NAMES = {
  H: () => tc('character', "Wizard's Hat"),
  C: () => tc('character', 'Black Cat'),
  S: () => tc('character', 'Spook'),
  W: () => tc('character', 'Werewolf'),
  X: () => tc('character', 'Witch'),
};
const LETTER_OF = { hat: 'H', cat: 'C', spook: 'S', werewolf: 'W', witch: 'X' };

export function letterOf(character) {
  return LETTER_OF[character] || (NAMES[character] ? character : '?');
}

// The name of a character (id or letter); `fallback` (the server's English name) for a new one.
export function characterName(character, fallback = '') {
  const name = NAMES[letterOf(character)];
  return name ? name() : String(fallback || character || '?');
}

// What a woken character does to a piece on one of its squares (a sentence's end).
export function characterAction(character) {
  switch (letterOf(character)) {
    case 'H': return t('moves forward 3 squares');
    case 'C': return t('moves back 6 squares');
    case 'S':
    case 'W': return t('goes back to the entrance of its region');
    case 'X': return t('goes back to square 1');
    default: return t('does what it does');
  }
}

// A square's kind by its board letter: "Werewolf", "entrance", "the church".
export function letterName(letter) {
  if (letter === '.') return tc('square', 'entrance');
  if (letter === '+') return tc('square', 'the church');
  return NAMES[letter] ? NAMES[letter]() : t('a square');
}

// The four regions of a Spook board, in order.
export function regionNames() {
  return [t('Haunted Orchard'), t('Creepy Cornfield'), t('Gruesome Graveyard'), t('Wild Wood')];
}

// A Spook square with what is on it: "square 12, a Werewolf", "the church".
export function spookSquare(board, square) {
  if (square >= 40) return tc('square', 'the church');
  const letter = board ? board[square - 1] : '';
  if (letter === '.') return t('square {n}, an entrance', { n: square });
  if (NAMES[letter]) return t('square {n}, a {character}', { n: square, character: NAMES[letter]() });
  return t('square {n}', { n: square });
}

// ---- Lists --------------------------------------------------------------------------------

// "Ann and Ben", "Ann, Ben and Cid".
export function andList(names) {
  if (names.length <= 1) return names[0] || '';
  return t('{names} and {last}', { names: names.slice(0, -1).join(', '), last: names[names.length - 1] });
}

// Who has added a seed to a table game's dice so far.
export function seedsText(by) {
  return by && by.length ? t('Seeds in: {names}.', { names: by.join(', ') }) : t('Seeds in: none yet.');
}

// ---- Ludo ----------------------------------------------------------------------------------

export const LUDO_COLOUR_IDS = ['green', 'yellow', 'red', 'blue'];

// A Ludo colour's name (index 0..3).
export function colourName(colour) {
  switch (colour) {
    case 0: return tc('colour', 'green');
    case 1: return tc('colour', 'yellow');
    case 2: return tc('colour', 'red');
    case 3: return tc('colour', 'blue');
    default: return '?';
  }
}

// Where a Ludo piece is, by its progress (YARD -1, the circuit from its start square, its home
// column, home): "the start circle", "the start square" (0), "square 12", "square 2 of the home
// column", "the home triangle"; under capture_to_home, "the square behind the start square".
export function ludoPlace(progress, g) {
  if (progress < 0) return t('the start circle');
  if (progress === 0) return t('the start square');
  if (progress === g.behindStart) return t('the square behind the start square');
  if (progress >= g.home) return t('the home triangle');
  if (progress > g.lastCircuit) return t('square {n} of the home column', { n: progress - g.lastCircuit });
  return t('square {n}', { n: progress });
}

// ---- The Ludo house rules ------------------------------------------------------------------

// The Ludo house rules in force (docs/rules.md, "House rules"), for everyone to read: "Home rules:
// ..." when they are exactly the preset home_rules (arms of 6, onto the start square, safe squares,
// bonus throws, three 6s), else "House rules: ..."; '' for the rule text's game.
export const HOME_RULES = { arm: 6, entry: 'start_square', safe_squares: true, bonus_throws: true, three_sixes: true };
export function isHomeRules(o) {
  return Object.entries(HOME_RULES).every(([k, v]) => (o[k] ?? false) === v) && !o.capture_to_home && !o.teams;
}
export function houseRulesText(o) {
  if (o.game !== 'ludo') return '';
  const parts = [];
  if (o.safe_squares) parts.push(t('safe squares'));
  if (o.bonus_throws) parts.push(t('bonus throws'));
  if (o.three_sixes) parts.push(t('three 6s end the turn'));
  if (o.capture_to_home) parts.push(t('a capture before home'));
  if (o.teams) parts.push(t('teams'));
  if (!parts.length) return '';
  const rules = parts.join(t(', '));
  return isHomeRules(o) ? t('Home rules: {rules}', { rules }) : t('House rules: {rules}', { rules });
}

// Under the house rule teams: "Teams: Ann + Cid against Ben + Dee" (the seats in play order: the
// first and third play together).
export function teamsText(o, seats, nameOf) {
  if (o.game !== 'ludo' || !o.teams || seats.length !== 4) return '';
  const pair = (a, b) => t('{a} + {b}', { a: nameOf(seats[a]), b: nameOf(seats[b]) });
  return t('Teams: {one} against {other}', { one: pair(0, 2), other: pair(1, 3) });
}
