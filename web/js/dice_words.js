// The page's own check of a game's dice (dice_check.js) in the reader's language, for the end
// screen and the shared screen: "All 57 dice checked: fair.", or the first die that does not match
// and what that means, or what the page could not check and why.
import { h } from './dom.js';
import { t, tn } from './i18n.js';

const MEANING = () => t('The dice were not the ones the server committed to before the seeds came in: the server, or something between it and this page, changed them. Keep the game\'s record and check it with spookludo verify.');

// The first die that does not match, in a sentence.
function badDie(bad) {
  const args = { face: bad.face, expected: bad.expected };
  switch (bad.kind) {
    case 'movement': return t("Round {round}'s movement die was {face}, the seeds give {expected}: this game's dice were not the fair stream.", { ...args, round: bad.step });
    case 'activation': return t("Round {round}'s activation die was {face}, the seeds give {expected}: this game's dice were not the fair stream.", { ...args, round: bad.step });
    case 'roll_off': return t("Roll-off throw {n} was a {face}, the seeds give {expected}: this game's dice were not the fair stream.", { ...args, n: bad.step });
    case 'throw': return t("Throw {turn} was a {face}, the seeds give {expected}: this game's dice were not the fair stream.", { ...args, turn: bad.step });
    case 'boards': return t("The boards were not dealt to the seats as the seeds give them: this game's dice were not the fair stream.");
    default: return t("Your page's seed is not among the game's seeds: the server left it out, so the dice were not the stream your page took part in.");
  }
}

// The result as sentences, the verdict's first. `r` null: the check is running.
export function diceCheckLines(r) {
  if (!r) return [t('Checking the dice…')];
  switch (r.verdict) {
    case 'commitment':
      return [t('The server seed revealed at the end does not match the commitment published at the start: the dice of this game cannot be trusted.'), MEANING()];
    case 'unfair':
      return [badDie(r.bad), MEANING()];
    case 'record':
      return [t("The game's record does not match what this page saw (its commitment, seeds or dice): the server showed this page one game and recorded another. Do not trust that record.")];
    case 'unchecked':
      return [r.why === 'no_seeds'
        ? t("This page did not see the game start and could not fetch the game's record, so it cannot place the dice it saw in the stream. The revealed server seed matches the commitment.")
        : t("This page did not see this game, so it cannot check its dice: check the game's record with spookludo verify.")];
    default:
      break;
  }
  const lines = [];
  const n = r.checked;
  if (r.total === 0) {
    lines.push(t('No die was thrown in this game; the revealed server seed matches the commitment.'));
  } else if (r.total === null || n === r.total) {
    if (r.total === null) lines.push(tn('{n} die checked: fair.', '{n} dice checked: fair.', n));
    else if (r.boards) lines.push(tn('The boards and the {n} die checked: fair.', 'The boards and all {n} dice checked: fair.', n));
    else lines.push(tn('The {n} die checked: fair.', 'All {n} dice checked: fair.', n));
  } else {
    const args = { n, total: r.total };
    if (n === 0) lines.push(t('This page saw none of the {total} dice itself.', args));
    else if (r.joinedAt && r.joinedAt.kind === 'round') lines.push(t('{n} of {total} dice checked (this page joined at round {round}); all fair.', { ...args, round: r.joinedAt.n }));
    else if (r.joinedAt) lines.push(t('{n} of {total} dice checked (this page joined at turn {turn}); all fair.', { ...args, turn: r.joinedAt.n }));
    else lines.push(t('{n} of {total} dice checked (this page missed some while it was away); all fair.', args));
    if (r.fromRecord > 0) {
      lines.push(tn("The other die is in the game's record, which matches the commitment and every die this page saw; the seeds give it too.",
        "The other {n} dice are in the game's record, which matches the commitment and every die this page saw; the seeds give them too.", r.fromRecord));
    }
  }
  if (r.seedsFrom === 'record') lines.push(t("This page did not see the game start: the players' seeds are the record's."));
  if (r.mine) lines.push(t('Your own seed went into the dice.'));
  return lines;
}

// The check as a section of the end screen (`id`): its verdict as a class, its sentences.
// `state`: the session's { gameId, result } (result null while it runs).
export function diceCheckSection(state, id, { brief = false } = {}) {
  const r = state ? state.result : null;
  const lines = diceCheckLines(r);
  const verdict = r ? r.verdict : 'checking';
  return h('section', { class: ['dice-check', verdict], id, 'aria-live': 'polite', dataset: { verdict, checked: r ? r.checked : '', crypto: r ? r.crypto : '' } },
    (brief ? lines.slice(0, verdict === 'fair' ? 1 : 2) : lines).map((line, i) => h('p', { class: i ? 'small' : 'dice-verdict' }, line)));
}
