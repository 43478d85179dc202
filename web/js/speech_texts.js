// The words the page says aloud (announce.js), all in this one module, in the page's language
// (i18n.js; the utterances carry lang() so that the browser picks a voice for it).
// The Spook words are the rule sheet's host's: the movement roll's number and that everyone moves
// one piece; the woken character and what it does ("It's the black cat. Any playing piece on a
// black cat must move back 6 squares."). Ludo: each throw and each capture (and the house rules'
// safe squares, bonus throws and pieces going round again). Then the winners (or the team).
import { t, tn, lang } from './i18n.js';
import { andList } from './game_words.js';

// One whole sentence a character (a translation words each its own way).
const ACTIVATION = {
  hat: () => t("It's the wizard's hat. Any playing piece on a wizard's hat must move forward 3 squares."),
  cat: () => t("It's the black cat. Any playing piece on a black cat must move back 6 squares."),
  spook: () => t("It's the spook. Any playing piece on a spook must go back to the entrance of its region."),
  werewolf: () => t("It's the werewolf. Any playing piece on a werewolf must go back to the entrance of its region."),
  witch: () => t("It's the witch. Any playing piece on a witch must go back to square 1."),
};

export const speech = {
  // The utterances' language: the browser picks a voice for it.
  get lang() {
    return lang();
  },
  // Spook: the movement roll.
  roll: (face) => tn('The die shows {n}. Everyone moves one piece {n} square.', 'The die shows {n}. Everyone moves one piece {n} squares.', face),
  // Spook: the activation roll; `name` is the server's name when the character is a new one.
  activation: (character, name) => {
    const known = ACTIVATION[character];
    return known ? known() : t("It's the {character}. Any playing piece on a {character} must do what it does.", { character: String(name || character).toLowerCase() });
  },
  // Ludo: who starts after the roll-off, each throw, each capture.
  starts: (name, colour) => t('{name}, {colour}, starts.', { name, colour }),
  ludoThrow: (name, colour, face) => t('{name}, {colour}, throws {face}.', { name, colour, face }),
  // A table game's Ludo (paper board, the app throws the die): who starts, who throws what.
  tableStarts: (name) => t('{name} starts.', { name }),
  tableThrow: (name, face, again) => (again ? t('{name} throws {face}. {name} throws again.', { name, face }) : t('{name} throws {face}.', { name, face })),
  capture: (by, victim) => (by
    ? t('{by} captures a piece of {victim}! It goes back to the yard.', { by, victim })
    : t('A piece of {victim} is captured! It goes back to the yard.', { victim })),
  // The house rules: a landing on a safe square, a bonus throw, a piece going round again.
  safe: (who) => t('{who} lands on a safe square: no capture.', { who }),
  bonus: (who, reason) => (reason === 'home' ? t('A bonus throw for {who}, for the piece home.', { who }) : t('A bonus throw for {who}, for the capture.', { who })),
  circles: (who) => t('{who} has not captured yet: the piece goes round again.', { who }),
  // The end.
  team: (names) => t('Game over! {names} win as a team.', { names: andList(names) }),
  winners: (names) => (names.length > 1
    ? t('Game over! {names} win together.', { names: andList(names) })
    : t('Game over! {name} wins.', { name: names[0] || t('Nobody') })),
  abandoned: () => t('The game was abandoned.'),
};
