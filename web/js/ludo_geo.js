// Classic Ludo's shape (docs/rules.md part 2), as the terminal client draws it (client/render.cpp):
// a (2n+3) x (2n+3) grid, row 0 at the top; green's yard top left, yellow's top right, red's
// bottom right, blue's bottom left. A piece's progress: -1 yard, 0 .. 8n+2 circuit (0 its start
// square), 8n+3 .. 9n+1 its home column, 9n+2 home; and under the house rule capture_to_home,
// 9n+3 (behindStart, written B) for a piece going round again that stands on the square just
// behind its start square. Under safe_squares, the four start squares and the four star squares
// (2n-4 squares on from each start square) are safe.

export const YARD = -1;
export const COLOURS = ['green', 'yellow', 'red', 'blue'];

export function geometry(arm) {
  const n = arm;
  const size = 2 * n + 3;
  const circuitSquares = 8 * n + 4;
  const lastCircuit = 8 * n + 2;
  const home = 9 * n + 2;
  const behindStart = 9 * n + 3;
  const spacing = 2 * n + 1;
  const rotate = (cell, times) => {
    let { row, col } = cell;
    for (let t = 0; t < times; t++) [row, col] = [col, size - 1 - row];
    return { row, col };
  };
  const quarter = [];
  for (let c = 1; c <= n - 1; c++) quarter.push({ row: n, col: c });
  for (let r = n - 1; r >= 0; r--) quarter.push({ row: r, col: n });
  quarter.push({ row: 0, col: n + 1 });
  quarter.push({ row: 0, col: n + 2 });
  const circuit = [];
  for (let q = 0; q < 4; q++) for (const cell of quarter) circuit.push(rotate(cell, q));
  const homeColumn = (colour) => {
    const cells = [];
    for (let k = 0; k < n - 1; k++) cells.push(rotate({ row: n + 1, col: 1 + k }, colour));
    return cells;
  };
  const homeCell = (colour) => rotate({ row: n + 1, col: n }, colour);
  const startSquare = (colour) => colour * spacing;
  // The corner of a colour's yard (n x n cells): its top-left cell.
  const yardCorner = (colour) => [{ row: 0, col: 0 }, { row: 0, col: n + 3 }, { row: n + 3, col: n + 3 }, { row: n + 3, col: 0 }][colour];
  // The star square on the arm after a colour's start square, and whether a circuit square is safe
  // (a start square or a star square: safe_squares).
  const starSquare = (colour) => (startSquare(colour) + 2 * n - 4) % circuitSquares;
  const isSafeSquare = (square) => square >= 0 && square < circuitSquares && (square % spacing === 0 || square % spacing === 2 * n - 4);
  // Whether a progress stands on the circuit (behindStart too), and the circuit square it is on
  // for a piece of `colour` (-1 off the circuit).
  const onCircuit = (progress) => (progress >= 0 && progress <= lastCircuit) || progress === behindStart;
  const squareOf = (colour, progress) => {
    if (!onCircuit(progress)) return -1;
    const steps = progress === behindStart ? -1 : progress;
    return (startSquare(colour) + steps + circuitSquares) % circuitSquares;
  };
  // The cell of a piece of `colour` at `progress` (null in the yard).
  const cellOf = (colour, progress) => {
    if (progress === YARD || progress < 0) return null;
    if (onCircuit(progress)) return circuit[squareOf(colour, progress)];
    if (progress < home) return homeColumn(colour)[progress - lastCircuit - 1];
    return homeCell(colour);
  };
  return { arm: n, size, circuitSquares, lastCircuit, home, behindStart, circuit, homeColumn, homeCell, startSquare, starSquare,
    isSafeSquare, onCircuit, squareOf, yardCorner, cellOf, rotate };
}

// The colour (index into COLOURS) of the i-th player in play order: two players sit opposite
// (green, red), three take green, yellow, red.
export function colourOfPlayer(players, index) {
  if (players === 2) return index === 0 ? 0 : 2;
  return index;
}

// "green*:Y,Y,5,12 red:H,Y,50,Y" -> [[-1,-1,5,12],[home,-1,50,-1]] in the order given ('B', the
// square behind the start square under capture_to_home, is 9n+3; a '+' after a colour, a seat that
// has captured, is read by capturedIn).
export function parsePosition(text, arm) {
  const home = 9 * arm + 2;
  const behind = 9 * arm + 3;
  const out = [];
  for (const entry of String(text || '').trim().split(/\s+/)) {
    const colon = entry.indexOf(':');
    if (colon < 0) continue;
    const pieces = entry.slice(colon + 1).split(',').map((p) => (p === 'Y' ? YARD : p === 'H' ? home : p === 'B' ? behind : Number(p)));
    while (pieces.length < 4) pieces.push(YARD);
    out.push(pieces.slice(0, 4));
  }
  return out;
}

// Which entries of a position have captured ('+' after the colour, written under capture_to_home):
// "green+*:B,Y,5,12 red:H,Y,50,Y" -> [true, false].
export function capturedIn(text) {
  return String(text || '').trim().split(/\s+/).filter((e) => e.includes(':')).map((e) => e.split(':')[0].includes('+'));
}
