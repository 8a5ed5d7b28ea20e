import { describe, expect, it } from 'vitest';
import { buildSearchIndex, type SearchDoc } from '../index.js';
import { addStepContext, normaliseCandidates } from './step-context.js';

const doc = (server: string, name: string, description: string): SearchDoc => ({
  key: `${server}/${name}`,
  server,
  name,
  description,
});

// Two servers with a look-alike "get details" tool; only the request's other step says which.
const CATALOG: SearchDoc[] = [
  doc('museum', 'search_objects', 'Search the objects of the museum collection.'),
  doc('museum', 'get_object', 'Get the details of one object.'),
  doc('recipes', 'get_recipe', 'Get the details of one recipe.'),
  doc('recipes', 'list_recipes', 'List recipes by dish.'),
];

describe('step context', () => {
  it('normalises candidates to the best score and drops zeros', () => {
    const got = normaliseCandidates({ touched: [0, 2, 3], score: [4, 9, 2, 0] });
    expect(got.touched).toEqual([0, 2]);
    expect(Array.from(got.score)).toEqual([1, 0, 0.5, 0]);
    expect(normaliseCandidates({ touched: [], score: [] }).touched).toEqual([]);
  });

  it.each([
    [0, [1, 0.5, 0]],
    [0.5, [1.5, 0.625, 0.25]],
  ])('adds weight %d times the request scores to the step scores', (weight, expected) => {
    const step = { touched: [0, 1], score: [8, 4, 0] };
    const context = { touched: [0, 1, 2], score: Float64Array.from([1, 0.25, 0.5]) };
    const got = addStepContext(step, context, weight);
    expect(Array.from(got.score)).toEqual(expected);
    expect([...got.touched].sort()).toEqual(weight === 0 ? [0, 1] : [0, 1, 2]);
  });

  it('leans a vague step towards the tools the rest of the request is about', () => {
    const steps = ['search the museum collection for the painting', 'get the details'];
    const top = (stepContext: number) =>
      buildSearchIndex(CATALOG, { stepContext })
        .search(steps, { limit: 4 })
        .map((h) => h.key);
    const museum = ['museum/get_object', 'museum/search_objects'];
    expect(top(0.5).slice(0, 2).sort()).toEqual(museum);
    // Without context the vague step's best tool is whichever "get details" tool ties first.
    expect(top(0).slice(0, 2).sort()).not.toEqual(museum);
  });

  it('leaves a single query alone', () => {
    const a = buildSearchIndex(CATALOG, { stepContext: 0 }).search('get the details');
    const b = buildSearchIndex(CATALOG, { stepContext: 1 }).search('get the details');
    expect(b).toEqual(a);
  });
});
