// The words the page says aloud (announce.js), all in this one module: a translation replaces it.
// The Spook words are the rule sheet's host's: the movement roll's number and that everyone moves
// one piece; the woken character and what it does ("It's the black cat. Any playing piece on a
// black cat must move back 6 squares."). Ludo: each throw and each capture. Then the winners.

const CHARACTER = {
  hat: { name: "wizard's hat", action: 'must move forward 3 squares' },
  cat: { name: 'black cat', action: 'must move back 6 squares' },
  spook: { name: 'spook', action: 'must go back to the entrance of its region' },
  werewolf: { name: 'werewolf', action: 'must go back to the entrance of its region' },
  witch: { name: 'witch', action: 'must go back to square 1' },
};

function squares(n) {
  return `${n} ${n === 1 ? 'square' : 'squares'}`;
}

function together(names) {
  if (names.length <= 1) return names[0] || 'Nobody';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

export const speech = {
  lang: 'en', // the utterances' language: the browser picks a voice for it
  // Spook: the movement roll.
  roll: (face) => `The die shows ${face}. Everyone moves one piece ${squares(face)}.`,
  // Spook: the activation roll; `name` is the server's name when the character is a new one.
  activation: (character, name) => {
    const c = CHARACTER[character] || { name: String(name || character).toLowerCase(), action: 'must do what it does' };
    return `It's the ${c.name}. Any playing piece on a ${c.name} ${c.action}.`;
  },
  // Ludo: who starts after the roll-off, each throw, each capture.
  starts: (name, colour) => `${name}, ${colour}, starts.`,
  ludoThrow: (name, colour, face) => `${name}, ${colour}, throws ${face}.`,
  // A table game's Ludo (paper board, the app throws the die): who starts, who throws what.
  tableStarts: (name) => `${name} starts.`,
  tableThrow: (name, face, again) => `${name} throws ${face}.${again ? ` ${name} throws again.` : ''}`,
  capture: (by, victim) => (by ? `${by} captures a piece of ${victim}! It goes back to the yard.` : `A piece of ${victim} is captured! It goes back to the yard.`),
  // The end.
  winners: (names) => (names.length > 1 ? `Game over! ${together(names)} win together.` : `Game over! ${together(names)} wins.`),
  abandoned: () => 'The game was abandoned.',
};
