/* Where things go at a live table: pure functions of the view and the viewer's seat, no
   page. The seats sit round the felt as the replay lays them out (the viewer at the
   bottom, the partner opposite, the left and right opponents at the sides; a spectator,
   seat null, sees seat 0 at the bottom); the hand sorts by suit or by rank, wilds last;
   the fan overlaps the cards just enough for a row, in more rows when one row would hide
   too much of each card. */

import { splitCode } from "../games/cards.js";

export const PLACES = ["bottom", "left", "top", "right"];
const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 }; // alternating colours, as the replay sorts
const RANK_VALUE = { A: 14, T: 10, J: 11, Q: 12, K: 13 };

export function seatOrder(viewer) {
  // the viewer first, then clockwise: left opponent, partner, right opponent
  return [0, 1, 2, 3].map((i) => (viewer === null ? i : (viewer + i) % 4));
}

export function placeOf(seat, viewer) {
  return PLACES[(seat - (viewer === null ? 0 : viewer) + 4) % 4];
}

export function teamsInOrder(viewer) {
  // the opponents' melds first, the viewer's team's last (nearest the hand)
  const mine = viewer === null ? 0 : viewer % 2;
  return [1 - mine, mine];
}

export function entries(view) {
  // The cards in hand and the freed wilds, each with a key that stays while the card
  // does: the n-th copy of a code ("7H#0", "7H#1"), a freed wild's marked ("p:JK#0").
  const seen = {};
  const out = [];
  function add(code, pending) {
    const key = (pending ? "p:" : "") + code;
    seen[key] = (seen[key] || 0) + 1;
    out.push({ code, key: key + "#" + (seen[key] - 1), pending });
  }
  (view.hand || []).forEach((code) => add(code, false));
  (view.pending || []).forEach((item) => add(item[0], true));
  return out;
}

export function codeOfKey(key) {
  // "p:JK#0" -> "JK"
  return key.replace(/^p:/, "").split("#")[0];
}

export function sortKey(code, by) {
  const c = splitCode(code);
  const wild = c.rank === "JK" || c.rank === "2" ? 1 : 0;
  const rank = c.rank === "JK" ? 99 : RANK_VALUE[c.rank] || parseInt(c.rank, 10);
  const suit = SUIT_ORDER[c.suit] === undefined ? 9 : SUIT_ORDER[c.suit];
  return by === "rank" ? [wild, rank, suit] : [wild, suit, rank];
}

export function sorted(list, by) {
  // entries (or anything with a ``code``) in the hand's order
  return list.slice().sort((a, b) => {
    const x = sortKey(a.code, by);
    const y = sortKey(b.code, by);
    for (let i = 0; i < x.length; i++) {
      if (x[i] !== y[i]) {
        return x[i] - y[i];
      }
    }
    return 0;
  });
}

export const MIN_STRIP = 26; // px of each card left to press: above the 24 px of a target (WCAG 2.5.8)
const FAN_GAP = 4; // px between cards when the row has room

export function fanLayout(rowWidth, cardWidth, n) {
  // The fan of ``n`` cards in a row ``rowWidth`` px wide: each card slides under the next
  // just enough for the row, leaving at least MIN_STRIP px of it to press; when a row
  // cannot, the fan takes as few more rows as it needs, as evenly filled as it can.
  // ``step``: px from one card's left edge to the next's; ``perRow``: cards in a full row.
  if (n < 2 || !rowWidth) {
    return { rows: 1, perRow: Math.max(n, 1), step: cardWidth + FAN_GAP };
  }
  const fits = Math.max(1, Math.floor((rowWidth - cardWidth) / MIN_STRIP) + 1);
  const rows = Math.ceil(n / fits);
  const perRow = Math.ceil(n / rows);
  const step = perRow < 2 ? cardWidth + FAN_GAP
    : Math.min(cardWidth + FAN_GAP, Math.floor((rowWidth - cardWidth) / (perRow - 1)));
  return { rows, perRow, step };
}

export const SUMMARY_LEAST = 240; // px: the least height the summary takes under the piles
const SUMMARY_GAP = 8;

export function summaryBox(screen, parts) {
  // Where a hand's summary goes (px in the viewport: left, top, width and its greatest
  // height) so that it covers no control: over the log and scores when they are beside
  // the felt (``side``: that column under its tools); else on the felt above the hand and
  // its moves (``hand``, null for a spectator) and above the melds when they are buttons
  // (``melds``, else null), under the piles when that leaves it SUMMARY_LEAST, or from
  // the felt's top. ``parts``' boxes are {left, top, right, bottom}.
  const { felt, side, piles, hand, melds } = parts;
  if (side && side.left >= felt.right) {
    const top = Math.max(side.top, 0) + SUMMARY_GAP;
    return { left: side.left, top, width: side.right - side.left,
      height: screen.height - top - SUMMARY_GAP };
  }
  const bottom = Math.min(hand ? hand.top : Math.min(felt.bottom, screen.height),
    melds ? melds.top : Infinity) - SUMMARY_GAP;
  let top = piles.bottom + SUMMARY_GAP;
  if (bottom - top < SUMMARY_LEAST) {
    top = Math.max(felt.top, 0) + SUMMARY_GAP;
  }
  return { left: felt.left + SUMMARY_GAP, top, width: felt.right - felt.left - 2 * SUMMARY_GAP,
    height: Math.max(bottom - top, 0) };
}

export function isEnded(view) {
  // over, or ended unfinished (abandoned, resigned, or ended by the organisers)
  return Boolean(view.is_over || view.status === "abandoned" || view.status === "ended" ||
    view.status === "resigned");
}

export function changes(previous, next) {
  // what changed on the table from ``previous`` to ``next`` within one hand, to be marked
  // for a moment: the melds that grew or are new, the cards new in hand (by their keys)
  const melds = {};
  const hand = {};
  if (previous && previous.hand_no === next.hand_no) {
    const before = {};
    previous.melds.forEach((m) => { before[m.id] = m.cards.join(" "); });
    next.melds.forEach((m) => {
      if (before[m.id] !== m.cards.join(" ")) {
        melds[m.id] = true;
      }
    });
    const had = {};
    entries(previous).forEach((e) => { had[e.key] = true; });
    entries(next).forEach((e) => {
      if (!had[e.key]) {
        hand[e.key] = true;
      }
    });
  }
  return { melds, hand };
}
