// A fixture of the server's tests: a module that imports another by a relative URL (left as it
// is) and names a file by its absolute URL (rewritten).
import { greet } from './util.js';

export const icon = '/icons/ghost.svg';
export const socket = '/ws';
document.title = greet('SpookLudo') + ' ' + icon + ' ' + socket;
