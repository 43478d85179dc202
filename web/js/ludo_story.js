// A Classic Ludo event (PROTOCOL.md, "Classic Ludo turns") as a line of the story, in the page's
// language: the throws, the moves, the captures (`mover` and `moverTo`: the seat and progress of
// the move just before), the extra throws and their reason, and the house rules' events (a safe
// square's landing, a piece going round again, a team's win). `view` names the seats (view.js).
import { t } from './i18n.js';
import { andList } from './game_words.js';
import { eventText } from './words.js';

export function ludoEventText(view, e, geo, mover, moverTo) {
  const seat = e.seat === undefined ? -1 : e.seat;
  const piece = e.piece === undefined ? -1 : e.piece;
  const whoOf = (x) => (x >= 0 ? t('{name} ({colour})', { name: view.seatName(x), colour: view.ludoColourName(x) }) : '?');
  const who = whoOf(seat);
  const number = piece + 1;
  let text;
  switch (e.kind) {
    case 'roll_off_throw': text = t('{who} throws {face} in the roll-off.', { who, face: e.face }); break;
    case 'starts': text = t('{who} starts.', { who }); break;
    case 'throw': text = t('{who} throws a {face}.', { who, face: e.face }); break;
    case 'pass': text = t('{who} cannot move; play passes on.', { who }); break;
    case 'three_sixes': text = t('{who} threw a third 6 in a row: it is not played.', { who }); break;
    case 'entered': text = t('{who} brings piece {piece} out.', { who, piece: number }); break;
    case 'moved':
      text = e.to === geo.home ? t('{who} moves piece {piece} from {from} to home.', { who, piece: number, from: e.from })
        : e.to === geo.behindStart ? t('{who} moves piece {piece} from {from} to the square behind its start square.', { who, piece: number, from: e.from })
          : t('{who} moves piece {piece} from {from} to {to}.', { who, piece: number, from: e.from, to: e.to });
      break;
    case 'captured': {
      const args = { who: whoOf(mover), name: view.seatName(seat), piece: number, colour: view.ludoColourName(seat), square: moverTo };
      if (mover >= 0 && moverTo >= 0) text = t("{who} captures {name}'s piece {piece} ({colour}) on {square}: it goes back to the yard.", args);
      else if (mover >= 0) text = t("{who} captures {name}'s piece {piece} ({colour}): it goes back to the yard.", args);
      else text = t("Captured: {name}'s piece {piece} ({colour}): it goes back to the yard.", args);
      break;
    }
    case 'reached_home': text = t("{who}'s piece {piece} is home.", { who, piece: number }); break;
    case 'finished': text = t('{who} has all four pieces home!', { who }); break;
    case 'extra_throw':
      text = e.reason === 'capture' ? t('{who} throws again: a bonus throw for the capture.', { who })
        : e.reason === 'home' ? t('{who} throws again: a bonus throw for the piece home.', { who })
          : t('{who} played a 6 and throws again.', { who });
      break;
    // The house rules (safe_squares, capture_to_home, teams).
    case 'safe_square':
      text = t("{who}'s piece {piece} lands on a safe square beside {name}: no capture.", { who, piece: number, name: whoOf(e.with ?? -1) });
      break;
    case 'circles':
      text = t('{who} has not captured yet: piece {piece} passes its home column and goes round again.', { who, piece: number });
      break;
    case 'team_finished':
      text = t('{names} win as a team!', { names: andList([seat, e.with ?? -1].sort((a, b) => view.playIndex(a) - view.playIndex(b)).map((s) => view.seatName(s))) });
      break;
    default: text = eventText(e, { name: (s) => view.seatName(s) });
  }
  return text;
}
