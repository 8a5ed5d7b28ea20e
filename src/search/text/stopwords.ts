// English function words dropped from documents and queries alike.

/**
 * NLTK's English stop list, with contractions split as the tokenizer splits them (the pieces d, m,
 * o, s, y are kept: "S3" and "3D" split into such letters), plus a little request filler
 * ("please", "help me", "I want", "give me"). None of these names a capability.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be been being but by can could did do does doing for from had has have having he her here hers him his ' +
    'how i if in into is it its itself just me my myself no nor not of off on once only or other our ours out over own same she ' +
    'should so some such than that the their theirs them then there these they this those through to too under until up very was ' +
    'we were what when where which while who whom why will with would you your yours yourself ' +
    'please help want need like let lets give tell also using use via based ' +
    'about above after again against all am any aren before below between both couldn didn doesn down during each few further ' +
    'hadn hasn haven isn ma more most mustn needn now ourselves shan shouldn t themselves ve wasn weren won wouldn yourselves ' +
    'don ain mightn ll re'
  ).split(' '),
);
