// English function words dropped from documents and queries alike.

/**
 * The classic short English stop list (close to Lucene's and NLTK's), plus conversational filler
 * that task requests are full of ("please", "help me", "I want"). None of these names a capability.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be been being but by can could did do does doing for from had has have having he her here hers him his ' +
    'how i if in into is it its itself just me my myself no nor not of off on once only or other our ours out over own same she ' +
    'should so some such than that the their theirs them then there these they this those through to too under until up very was ' +
    'we were what when where which while who whom why will with would you your yours yourself ' +
    'please help want need like let lets give tell also using use via based'
  ).split(' '),
);
