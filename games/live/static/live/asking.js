/* Asking a live table's server which ways the selected cards can be played: one "ways"
   question for each place they might go ({"type": "ways", "id", "cards", "meld": null for
   the contract or new melds, or a meld's id for a lay-off or a swap}); the answers'
   structured moves together are the ways offered. */

/* ``on``: send(message), newId(), offer(moves, noFit) once every answer is in. */
export function makeAsking(on) {
  let question = null; // the questions awaiting their answers: ids, moves, what a no says

  function ask(cards, melds, noFit) {
    question = { ids: {}, asked: melds.length, found: [], noFit };
    melds.forEach((meld) => {
      const id = on.newId();
      question.ids[id] = true;
      on.send({ type: "ways", id, cards, meld });
    });
  }

  function answered(id, moves) {
    // an answer; false when it answers no question of this one's
    if (!question || !question.ids[id]) {
      return false;
    }
    delete question.ids[id];
    question.found = question.found.concat(moves);
    if (!Object.keys(question.ids).length) {
      const asked = question;
      question = null;
      on.offer(asked.found, asked.noFit);
    }
    return true;
  }

  function refused(id) {
    // a refusal of one question: with others asked, one meld that takes nothing (the
    // others may); else the question is over. Whether the refusal was this one's to take.
    if (!question || !question.ids[id]) {
      return false;
    }
    if (question.asked > 1) {
      answered(id, []);
      return true;
    }
    question = null;
    return false;
  }

  return { ask, answered, refused };
}
