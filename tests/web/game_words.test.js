// The game's sentences for a screen reader, worded from a game's state without a browser (node
// imports the page's own modules): a Ludo option that captures names whose piece it takes, a
// Spook board's name says where each piece stands, the characters and colours have their names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ludoOptionSentence } from '../../web/js/ludo.js';
import { geometry, YARD } from '../../web/js/ludo_geo.js';
import { characterName, colourName, ludoPlace, spookSquare, andList } from '../../web/js/game_words.js';

// Two players on arms of 8: Ann green (seat 0), Ben red (seat 1, the opposite colour).
function ludoState(ann, ben) {
  return {
    playSeats: [0, 1],
    ludoProgress: [ann, ben],
    ludoColour: (seat) => (seat === 0 ? 0 : 2),
    seatName: (seat) => ['Ann', 'Ben'][seat],
  };
}

test("a Ludo option that captures names the player whose piece it takes", () => {
  const g = geometry(8);
  // Red starts 2n+1 = 17 squares after green... twice: 34. Green's square 36 is red's square 2.
  const view = ludoState([10, YARD, YARD, YARD], [2, YARD, YARD, YARD]);
  const o = { piece: 0, from: 10, to: 36, captures: true };
  assert.equal(ludoOptionSentence(view, o, g, 0), "piece 1 from square 10 to square 36, captures Ben's piece");
  const out = { piece: 1, from: -1, to: 0, captures: false };
  assert.equal(ludoOptionSentence(view, out, g, 0), 'piece 2 from the start circle to the start square');
  const home = { piece: 0, from: g.lastCircuit + 2, to: g.home, captures: false };
  assert.equal(ludoOptionSentence(view, home, g, 0), 'piece 1 from square 2 of the home column to the home triangle');
});

test('the places, characters, colours and lists have their words', () => {
  const g = geometry(6);
  assert.equal(ludoPlace(YARD, g), 'the start circle');
  assert.equal(ludoPlace(7, g), 'square 7');
  assert.equal(characterName('werewolf'), 'Werewolf');
  assert.equal(characterName('W'), 'Werewolf');
  assert.equal(characterName('ogre', 'Ogre'), 'Ogre');
  assert.deepEqual([0, 1, 2, 3].map(colourName), ['green', 'yellow', 'red', 'blue']);
  const board = '.XHSWHWHWH' + '.'.repeat(30);
  assert.equal(spookSquare(board, 5), 'square 5, a Werewolf');
  assert.equal(spookSquare(board, 1), 'square 1, an entrance');
  assert.equal(spookSquare(board, 40), 'the church');
  assert.equal(andList(['Ann', 'Ben', 'Cid']), 'Ann, Ben and Cid');
});
