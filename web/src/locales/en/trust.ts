/**
 * Trust: the two scales of spec section 9, named and explained wherever either is shown (packages/contracts
 * trust.ts computes both), and the Trust and safety page.
 */
export default {
  scales: {
    rating: {
      explain: 'Trust rating: the average of the stars a user was given after completed exchanges, out of 5.',
    },
    level: {
      chip: 'Trust level: $t(common:trustLevels.{{level}}) · {{score}}/100',
      /** Where the score is not known (a public view carries the level only). */
      chipLevel: 'Trust level: $t(common:trustLevels.{{level}})',
      explain: 'Trust level: a score out of 100 from the star rating (up to 40 points), completed exchanges (2 each, up to 30) and verifications (up to 30). Not the directory tier.',
    },
    tier: {
      chip: 'Directory tier: $t(common:trustLevels.{{level}})',
      explain: 'Directory tier: from the average star rating alone (Platinum from 4.5, Gold 4, Silver 3.5, Bronze 3). Not the trust level, which also counts completed exchanges and verifications.',
    },
    more: 'How trust works',
  },
  page: {
    title: 'Trust and safety',
    intro: 'How a trade on Puente works, what protects you, what Puente never does, and how to report a problem.',
    how: {
      heading: 'How a trade works',
      text: 'Puente moves no money. It puts two people together; each of you pays the other through your own bank.',
      steps: [
        'Someone posts an exchange request, and another user accepts it.',
        'The user who posted the request approves the match. Only then do both of you see each other\'s bank details, never before.',
        'Pay only from a bank account in your own name, and quote the exchange reference. Expect the money from your partner\'s name: Puente warns you when an account holder\'s name differs from the name on the profile.',
        'When you have sent your transfer, press "I have paid" (you can attach a proof of payment in the chat). Your partner is told to check their bank.',
        'When the money is in your account, press "I received". Either of you can mark the exchange completed.',
        'If your partner marks it completed before you have said you received your money, you are asked "Did you receive …?". Answer Yes, or No to open a dispute. You have 72 hours; no answer by then counts as Yes.',
        'Then you rate each other.',
      ],
    },
    disputes: {
      heading: 'Disputes',
      items: [
        'On an approved exchange, either of you can press "Open a dispute" in the exchange\'s details, choose a reason (no payment received, wrong amount, third-party payment, unresponsive, other) and say what happened. Answering No to "Did you receive …?" opens one too.',
        'The exchange is then on hold: it cannot be completed until an admin resolves the dispute. The chat stays open: attach your proofs of payment there.',
        'An admin reads the exchange, its chat and proofs and both users\' histories, then marks the exchange completed or cancelled, and may give the user at fault a warning or suspend their trading.',
        'Each user\'s dispute outcomes, warnings and suspensions are shown on their card in the user directory.',
      ],
    },
    never: {
      heading: 'What Puente never does',
      items: [
        'Puente never holds, sends or receives the money of an exchange: it goes only from one user\'s bank to the other\'s.',
        'Puente never asks for your password, your sign-in codes or your recovery codes, by email, chat, phone or anywhere else.',
        'Puente never asks you to pay outside your bank: no cash, cards, crypto or third persons, and no account other than your partner\'s shown in the exchange.',
        'Puente never shows your bank details to another user until the request\'s poster has approved your match, and then only to your partner in it.',
      ],
      warning: 'Anyone who asks you for these in Puente\'s name is not Puente: do not answer, and report them.',
    },
    scales: {
      heading: 'Ratings, trust level and directory tier',
      intro: 'Three different measures, shown under their own names:',
    },
    report: {
      heading: 'How to report a problem',
      items: [
        'A problem in an exchange (no payment, the wrong amount, money from someone else, a partner who stopped answering): open the exchange\'s details and press "Open a dispute".',
        'Anything else, such as a suspicious message or someone asking for your password: sign in and ask us on the Help page.',
        'Someone you do not want to trade with: press Block on their card in the user directory. Neither of you then sees or can accept the other\'s requests. Your blocked users are listed on your profile.',
      ],
      help: 'Go to Help',
      directory: 'Open the user directory',
    },
  },
};
